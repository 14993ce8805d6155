#pragma once
// Tests that never reach a kernel's tail: from the tensor shapes the tests passed to the project's
// operators (recorded by runner/scripts/kernel_lsp_shapes.py, a pytest plugin), a note for each
// operator whose every call had a last dimension, or a row count, that is a multiple of 8 or
// more. A kernel that takes that dimension in blocks or vectors of up to that many elements then
// never ran a partial one, and a read or write past the end there cannot show in the tests.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kl::runner {

struct OperatorShapes {
  std::string name;                                    // "_rmsnorm_ab12::rms_norm"
  std::vector<std::vector<std::vector<int64_t>>> calls;  // per call, each tensor argument's sizes
};

// The plugin's files in `folder` (shapes-<pid>.json, one per test process), merged per operator;
// files that do not parse are skipped.
std::vector<OperatorShapes> read_operator_shapes(const std::filesystem::path& folder);

// One sentence per operator and dimension that the tests only ever gave multiples of 8 or more.
std::vector<std::string> single_shape_notes(const std::vector<OperatorShapes>& operators);

}  // namespace kl::runner
