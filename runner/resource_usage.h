#pragma once
// What ptxas says each kernel costs (`nvcc -Xptxas -v`): registers, shared memory, stack frame
// and spills, per kernel and target. Parsing is pure text; no process runs here.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kl::runner {

struct KernelResources {
  std::string mangled_name;
  std::string name;        // demangled when c++filt is available, else the mangled name
  std::string target;      // "sm_90"
  uint32_t registers = 0;
  uint32_t shared_bytes = 0;
  uint32_t stack_frame_bytes = 0;
  uint32_t spill_store_bytes = 0;
  uint32_t spill_load_bytes = 0;
  uint32_t barriers = 0;
};

// "void ns::rms_kernel<float, 4>(float const*, int)" → "rms_kernel": the name a kernel is
// written with, from a demangled ptxas entry; an extern "C" name as it is.
std::string kernel_base_name(std::string_view demangled);

// Parses ptxas' verbose report; entries in the order ptxas compiled them.
std::vector<KernelResources> parse_ptxas_report(const std::string& text);

}  // namespace kl::runner
