#include "runner/test_shapes.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "support/fs_paths.h"

namespace kl::runner {
namespace fs = std::filesystem;

namespace {

using Shapes = std::vector<std::vector<int64_t>>;

// One call as the plugin wrote it (a list of size lists): each tensor's integer sizes; empty when
// it is not such a list or names no tensor.
Shapes shapes_of_call(const nlohmann::json& call) {
  Shapes shapes;
  if (!call.is_array()) return shapes;
  for (const auto& shape : call) {
    std::vector<int64_t> sizes;
    for (const auto& size : shape.is_array() ? shape : nlohmann::json::array())
      if (size.is_number_integer()) sizes.push_back(size.get<int64_t>());
    if (!sizes.empty()) shapes.push_back(std::move(sizes));
  }
  return shapes;
}

}  // namespace

std::vector<OperatorShapes> read_operator_shapes(const fs::path& folder) {
  std::map<std::string, std::set<Shapes>> calls;
  std::error_code ec;
  for (auto it = fs::directory_iterator(folder, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    if (it->path().extension() != ".json") continue;
    auto text = read_file_text(it->path());
    auto document = text ? nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false) : nlohmann::json();
    if (!document.is_object()) continue;
    for (const auto& [name, seen] : document.items())
      for (const auto& call : seen.is_array() ? seen : nlohmann::json::array())
        if (Shapes shapes = shapes_of_call(call); !shapes.empty()) calls[name].insert(std::move(shapes));
  }
  std::vector<OperatorShapes> out;
  for (auto& [name, seen] : calls) out.push_back({name, {seen.begin(), seen.end()}});
  return out;
}

namespace {

// The largest power of two that divides v (v > 0), at most 1024.
int64_t power_of_two_dividing(int64_t v) {
  if (v <= 0) return 1;
  return std::min<int64_t>(v & -v, 1024);
}

std::string listed(const std::set<int64_t>& values) {
  std::string out;
  int shown = 0;
  for (int64_t v : values) {
    if (shown++ == 5) return out + ", ...";
    out += (out.empty() ? "" : ", ") + std::to_string(v);
  }
  return out;
}

}  // namespace

std::vector<std::string> single_shape_notes(const std::vector<OperatorShapes>& operators) {
  std::vector<std::string> notes;
  for (const OperatorShapes& op : operators) {
    // Per call, the largest tensor argument stands for the data the kernel walks: its last
    // dimension (a row's length) and the rows before it.
    int64_t last_divisor = 1024, rows_divisor = 1024;
    std::set<int64_t> lasts, rows;
    for (const auto& call : op.calls) {
      const std::vector<int64_t>* largest = nullptr;
      int64_t largest_count = -1;
      for (const auto& shape : call) {
        int64_t count = 1;
        for (int64_t s : shape) count *= std::max<int64_t>(s, 0);
        if (count > largest_count) largest_count = count, largest = &shape;
      }
      if (!largest || largest_count <= 0) continue;
      int64_t last = largest->back(), row_count = largest_count / last;
      lasts.insert(last);
      rows.insert(row_count);
      last_divisor = std::min(last_divisor, power_of_two_dividing(last));
      rows_divisor = std::min(rows_divisor, power_of_two_dividing(row_count));
    }
    if (lasts.empty()) continue;
    const std::string calls = "every call of `" + op.name + "` in the tests (" + std::to_string(op.calls.size()) +
                              (op.calls.size() == 1 ? " shape" : " shapes") + ")";
    if (last_divisor >= 8)
      notes.push_back(calls + " has a last dimension that is a multiple of " + std::to_string(last_divisor) + " (" +
                      listed(lasts) + "): a kernel that takes it in blocks or vectors of up to " +
                      std::to_string(last_divisor) + " elements never ran a partial one, so a read or write past "
                      "the end there cannot show; add a size such as " + std::to_string(*lasts.begin() + 3));
    if (rows_divisor >= 8)
      notes.push_back(calls + " has a row count (the elements before the last dimension) that is a multiple of " +
                      std::to_string(rows_divisor) + " (" + listed(rows) + "): a kernel that takes rows in blocks of "
                      "up to " + std::to_string(rows_divisor) + " never ran a partial one; add a row count such as " +
                      std::to_string(*rows.begin() + 3));
  }
  return notes;
}

}  // namespace kl::runner
