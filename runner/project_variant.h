#pragma once
// `kernel-lsp build --variant`: the project's torch extension built into `build/<variant>/`, the
// layout kernel-builder writes and the Hugging Face `kernels` library loads
// (kernels/tools/variant_layout.py), here with the local torch and nvcc through the local builder
// (kernels/tools/build_local.py --layout variant).
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "support/cancellation.h"
#include "support/result.h"

namespace kl::runner {

struct VariantRequest {
  std::filesystem::path project;              // the folder with build.toml
  std::vector<std::string> capabilities;      // empty: build.toml's
  std::string python = "python3";             // the Python whose torch is built against
  const CancellationToken* cancel = nullptr;  // stops the build and everything it started
  std::function<void(std::string_view)> on_output;  // the builder's output as it comes
};

struct VariantOutcome {
  int exit_code = -1;
  std::filesystem::path folder;  // build/<variant>/ when the build succeeded
  bool cancelled = false;
};

// An error when the builder is not installed or cannot start.
Result<VariantOutcome> build_variant(const VariantRequest& request);

}  // namespace kl::runner
