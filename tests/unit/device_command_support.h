#pragma once
// What the tests that call the frontend directly (parse_device_side, preprocess_signature,
// parse_arch_by_arch) share: the clang command line's inputs for a file as kernel-lsp would make
// them with no project settings (the installed CUDA toolkit, kernel-lsp's shims, clang's
// resource folder), and capabilities written as text.
#include <filesystem>
#include <optional>

#include "analyzers/frontend/clang_command.h"
#include "analyzers/frontend/cuda_toolkit.h"
#include "analyzers/project/capability.h"

namespace kl::analyzers::testing {

inline ClangCommandInputs command_inputs_for(const std::filesystem::path& file) {
  ClangCommandInputs inputs;
  inputs.file = file;
  if (auto toolkit = find_cuda_toolkit(std::nullopt)) inputs.cuda_root = toolkit->root;
  inputs.shim_dir = default_shim_dir();
  inputs.resource_dir = default_resource_dir();
  return inputs;
}

// "8.0", "9.0a": a capability the test knows to be valid.
inline Capability cap(const char* text) { return *parse_capability(text); }

}  // namespace kl::analyzers::testing
