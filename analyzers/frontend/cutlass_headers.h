#pragma once
// CUTLASS and CuTe for kernel files that include them (flash-attention, NATTEN, DeepGEMM, the
// kernel-builder projects that list `cutlass_*` in `depends`): the builder fetches CUTLASS
// itself, so the project has no copy and every `#include <cute/...>` is a missing header to
// kernel-lsp. Where the user has one (cutlassPath setting, --cutlass-path, CUTLASS_PATH,
// CUTLASS_DIR, CUTLASS_HOME), its include folders go on the parse's command line as system
// headers (their function bodies are kept for the access model: function_bodies.h).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kl::analyzers {

struct CutlassHeaders {
  std::filesystem::path root;              // the checkout (holds include/cutlass/cutlass.h)
  std::vector<std::filesystem::path> dirs; // include/, and tools/util/include/ when present
  std::string found_by;                    // "cutlassPath", "CUTLASS_PATH", ...
};

// The first candidate that holds CUTLASS's headers: the configured folders (a checkout or its
// include/ folder), then the environment variables above. Nothing when none does.
std::optional<CutlassHeaders> find_cutlass_headers(const std::vector<std::filesystem::path>& configured);

// -isystem flags for them; none when `flags` already reach a cutlass/cutlass.h.
std::vector<std::string> cutlass_include_flags(const std::optional<CutlassHeaders>& found,
                                               const std::vector<std::string>& flags);

}  // namespace kl::analyzers
