#pragma once
// The kernels of a file and how they are launched: launch bounds, static shared memory
// (including __shared__ variables of the device functions a kernel calls and file-scope ones it
// uses), launch sites with their constant configuration, and cudaFuncSetAttribute opt-ins for
// dynamic shared memory. Host code is read only for launches and opt-ins.
#include "analyzers/model/unit_facts.h"

namespace clang {
class ASTContext;
}

namespace kl::analyzers {

class SourceView;

struct KernelInventory {
  std::vector<KernelInfo> kernels;
  std::vector<LaunchSite> launches;
  std::vector<SharedMemoryOptIn> shared_opt_ins;
};

KernelInventory collect_kernel_inventory(clang::ASTContext& context, const SourceView& view);

}  // namespace kl::analyzers
