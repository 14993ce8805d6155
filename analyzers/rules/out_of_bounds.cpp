// out-of-bounds: a global load or store that the last block of a rounded-up grid makes past the
// count the grid was rounded from; one that a loop bound off by one (`c <= cols` over a row
// `cols` long) makes past its row; and a vector access (float4, a pack of 8 bf16) whose path tests
// only the vector's first element against the count (`if (4 * v < n)`), which the last vector
// crosses when the count is not a multiple of the vector's length. A launch of `(n + 255) / 256` blocks of 256 threads has
// threads whose index (blockIdx.x * blockDim.x + threadIdx.x) reaches n whenever 256 does not
// divide n; an access at that index on a path no condition on that dimension decides (no
// `if (i < n)`, no early return, no loop bound, no clamp) is made by those threads too.
//
// The model sees only what the file says: the grid and block of the launch, the index of the
// access (the thread's index plus a constant, or times a row length plus other indices), and
// which dimensions a condition between the kernel's start and the access bounds. What it does not see is the buffer's size, so this is a
// warning: it is a read or write past the end when the buffer holds n elements (as a buffer sized
// from the same n does). A launch whose count is known to be a multiple of the block (`n % 256`
// checked on the host path, or `n` built as a multiple) is silent.
#include <string>

#include "analyzers/rules/access_place.h"
#include "analyzers/rules/rule.h"
#include "analyzers/rules/rule_input.h"
#include "analyzers/rules/worst_per_key.h"

namespace kl::analyzers {
namespace {
void check_out_of_bounds(const SourceInput& input, std::vector<Finding>& out);
}  // namespace

extern const Rule kOutOfBoundsRule;  // listed in rule_catalog.cpp
const Rule kOutOfBoundsRule = {
    .id = "out-of-bounds",
    .default_severity = Severity::Warning,
    .summary = "a global load/store that the last block of a rounded-up grid makes past its count, a loop "
               "bound off by one past its row, or a vector whose first element alone is tested against the count",
    .guidance_page = "references/rules/out-of-bounds.md",
    .source_check = &check_out_of_bounds,
};

namespace {

std::string index_text(int dimension) {
  const char axis = "xyz"[dimension];
  return std::string("blockIdx.") + axis + " * blockDim." + axis + " + threadIdx." + axis;
}

// `n`, in parentheses when it is an expression (`(a * b) % 4`, not `a * b % 4`).
std::string parenthesized(const std::string& n) {
  return n.find_first_of(" +-*/%") != std::string::npos ? "(" + n + ")" : n;
}

std::string plus(const std::string& count, int64_t k) {
  if (k == 0) return count;
  return parenthesized(count) + " + " + std::to_string(k);
}

// "load from", "store to", "atomic on": what the access does, for the message's start.
std::string access_kind(const MemoryAccess& a) {
  return a.is_atomic ? "atomic on" : a.is_store ? "store to" : "load from";
}

// Where the tail threads' accesses land: past element count - 1 of a count-element buffer, or past
// row count - 1 of a count-row one when the index is a row times its length.
std::string reach(const TailReach& t) {
  const std::string& n = t.count;
  if (t.stride.empty() && t.past_count >= 0) return "at indices up to " + plus(n, t.block - 2 + t.past_count);
  std::string rows = parenthesized(n);
  if (t.stride.empty()) return "at index " + n + " or beyond";
  return "at index " + rows + " * " + t.stride + " or beyond, past the end of a " + rows + " x " + t.stride + " buffer";
}

Finding make(const MemoryAccess& a, const std::vector<std::string>& kernels) {
  const TailReach& t = *a.tail;
  const std::string& n = t.count;
  std::string n_paren = parenthesized(n);
  std::string msg = "out-of-bounds " + access_kind(a) + " `" + a.base_name + "` when " + n_paren + " % " +
                    std::to_string(t.block) + " != 0: the launch at line " +
                    std::to_string(t.launch.range.start.line + 1) + " starts (" + plus(n, t.block - 1) + ") / " +
                    std::to_string(t.block) + " blocks of " + std::to_string(t.block) +
                    " threads, so the last block's threads whose " + index_text(t.dimension) + " is " + n +
                    " or more make this access too, " + reach(t) + "; nothing on its path tests that index";
  if (!t.parameter.empty()) msg += " (the kernel receives the count as `" + t.parameter + "`)";
  if (t.count_value && *t.count_value > 0) {
    int64_t threads = (*t.count_value + t.block - 1) / t.block * t.block;
    msg += "; at that launch " + n + " is " + std::to_string(*t.count_value) + ", so " +
           std::to_string(threads - *t.count_value) + (t.dimension == 0 ? " threads run" : " rows of threads run") +
           " past it";
  }
  const char axis = "xyz"[t.dimension];
  std::string bound = t.parameter.empty() ? n : t.parameter;
  std::string index = t.dimension == 0 ? "i" : std::string("blockIdx.") + axis + " * blockDim." + axis + " + threadIdx." + axis;
  msg += std::string(". Guard it (`if (") + index + " < " + bound +
         ")`, or return early for those threads), or launch exactly " + n_paren + " / " + std::to_string(t.block) +
         " blocks where the host checks that " + std::to_string(t.block) + " divides it.";
  if (!t.extent.empty()) msg += " Every launch's buffer is exactly that long: " + t.extent + ".";
  msg += kernels_suffix(a, kernels);
  Finding f = kOutOfBoundsRule.finding(a.location, std::move(msg));
  // The host code sizes the buffer from the same count: past its end, not maybe.
  if (!t.extent.empty() && t.past_count >= 0 && t.stride.empty()) f.severity = Severity::Error;
  f.notes.push_back({t.launch, "the rounded-up launch"});
  add_call_chain(a, f);
  return f;
}

// A guarded access past the guard's count (`if (i < n) ... in[i + 1]`, `if (i <= n) in[i]`) into
// a buffer every launch makes exactly n elements long.
Finding make_guarded_overrun(const MemoryAccess& a, const std::vector<std::string>& kernels) {
  const GuardedOverrun& g = *a.guarded_overrun;
  const std::string& n = g.count;
  std::string last = g.inclusive ? n : parenthesized(n) + " - 1";
  std::string reached = g.past == 1 ? "element " + n : "elements " + n + " to " + plus(n, g.past - 1);
  std::string msg = "out-of-bounds " + access_kind(a) + " `" + a.base_name + "`";
  if (g.when_not_multiple_of > 0) msg += " when " + parenthesized(n) + " % " + std::to_string(g.when_not_multiple_of) + " != 0";
  msg += ": the path lets `" + g.index + "` reach " + last + " (`" + (g.inclusive ? "<= " : "< ") + n +
         "`), and this access is at that index";
  int64_t offset = g.past - (g.inclusive ? 1 : 0);
  if (offset > 0) msg += " + " + std::to_string(offset);
  msg += ", so it reaches " + reached + ", past the end: " + g.extent + ". ";
  msg += g.inclusive ? "Test `< " + n + "`."
                     : "Test the index this access uses (`" + g.index + " + " + std::to_string(offset) + " < " + n +
                           "`), or give the last elements a path of their own.";
  msg += kernels_suffix(a, kernels);
  Finding f = kOutOfBoundsRule.finding(a.location, std::move(msg));
  f.severity = Severity::Error;
  if (!g.launch.file.empty()) f.notes.push_back({g.launch, "the rounded-up launch"});
  add_call_chain(a, f);
  return f;
}

// A loop that walks a row one element too far (`for (c = 0; c <= cols; ++c) in[row * cols + c]`).
Finding make_row_overrun(const MemoryAccess& a, const std::vector<std::string>& kernels) {
  const RowOverrun& r = *a.row_overrun;
  std::string row = parenthesized(r.row);
  std::string msg = "out-of-bounds " + access_kind(a) + " `" + a.base_name + "` in the loop's last iteration: `" + r.variable +
                    " <= " + r.bound + "` lets `" + r.variable + "` reach " + r.bound + ", so the access walks " +
                    r.bound + " + 1 elements of a row " + r.bound + " long and ends at index " + row + " * " +
                    r.bound + " + " + r.bound + ", the first element of the next row, past the end of the buffer in "
                    "its last row. Loop while `" + r.variable + " < " + r.bound + "`.";
  msg += kernels_suffix(a, kernels);
  Finding f = kOutOfBoundsRule.finding(a.location, std::move(msg));
  add_call_chain(a, f);
  return f;
}

// A vector access that tests only its first element (`if (4 * v < n)` around a float4 of `in`).
Finding make_vector_tail(const MemoryAccess& a, const std::vector<std::string>& kernels) {
  const VectorTail& v = *a.vector_tail;
  std::string n = parenthesized(v.count);
  std::string span = std::to_string(v.span), past = std::to_string(v.span - 1);
  std::string what = a.is_atomic ? "atomic on" : a.is_store ? "writes" : "reads";
  std::string msg = "out-of-bounds " + access_kind(a) + " `" + a.base_name +
                    "` when " + n + " % " + span + " != 0: this access " + what + " " + span + " " + v.element_type +
                    " elements at once (" + std::to_string(v.span * v.element_size) + " bytes), but its path tests "
                    "only that the first of them is below " + v.count + ", so the thread whose vector starts in the "
                    "last " + (v.span == 2 ? "element " : past + " elements ") + what + " up to " + past +
                    (v.span == 2 ? " element" : " elements") + " past the end of a buffer of " +
                    v.count + " elements. Test the vector's last element (`first + " + past + " < " +
                    v.count + "`) and finish the remaining elements one at a time, or check that " + span +
                    " divides " + v.count + " where the kernel is launched (e.g. `TORCH_CHECK(" + n + " % " + span +
                    " == 0)`).";
  if (!v.extent.empty()) msg += " Every launch's buffer is exactly that long: " + v.extent + ".";
  msg += kernels_suffix(a, kernels);
  Finding f = kOutOfBoundsRule.finding(a.location, std::move(msg));
  if (!v.extent.empty()) f.severity = Severity::Error;
  add_call_chain(a, f);
  return f;
}

// One finding per access place and kind; the first record of the place stands for it.
void check_out_of_bounds(const SourceInput& input, std::vector<Finding>& out) {
  WorstPerKey<AccessPlace, MemoryAccess, std::vector<std::string>> tails, guarded, overruns, vectors;
  auto first = [](const MemoryAccess&, const MemoryAccess&) { return false; };
  for (const auto& target : input.targets) {
    if (!target.facts) continue;
    for (const auto& a : target.facts->accesses) {
      if (a.tail) note_kernel(a, tails.offer(place_of(a), a, first).extra);
      else if (a.guarded_overrun) note_kernel(a, guarded.offer(place_of(a), a, first).extra);
      else if (a.row_overrun) note_kernel(a, overruns.offer(place_of(a), a, first).extra);
      else if (a.vector_tail) note_kernel(a, vectors.offer(place_of(a), a, first).extra);
    }
  }
  for (const auto& entry : tails.entries()) out.push_back(make(*entry.worst, entry.extra));
  for (const auto& entry : guarded.entries()) out.push_back(make_guarded_overrun(*entry.worst, entry.extra));
  for (const auto& entry : overruns.entries()) out.push_back(make_row_overrun(*entry.worst, entry.extra));
  for (const auto& entry : vectors.entries()) out.push_back(make_vector_tail(*entry.worst, entry.extra));
}

}  // namespace
}  // namespace kl::analyzers
