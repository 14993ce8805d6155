// divergent-barrier: a block barrier (`__syncthreads()`, a thread block's `sync()`, `bar.sync 0`)
// that only some threads of the block reach: inside a branch on the thread index, or in a loop
// whose trip count differs between threads. The threads that skip it never arrive: a hang, or
// (as the hardware counts arrivals) a barrier that releases the wrong threads and silently
// wrong results.
//
// The model (access_sync.cpp) records each barrier with the conditions on its path that vary
// across the block. A condition whose split the model proved (a thread-index test evaluated
// over the launched block, a trip count with a constant bound) is an error; one that depends on
// a runtime value (data the threads loaded, a bound that may be a multiple of the block's
// width, a block shape no launch in the file fixes) is a warning. Block-uniform conditions
// (blockIdx, kernel parameters, `__syncthreads_or` results, values every thread loads alike)
// are not divergent, and neither is a value the model lost track of (it reports only conditions on
// the thread index or on data the threads loaded). Threads that returned before the barrier are
// not reported: exited threads do not hold a barrier back (measured with compute-sanitizer's
// synccheck).
#include <algorithm>
#include <tuple>

#include "analyzers/rules/rule.h"
#include "analyzers/rules/rule_input.h"

namespace kl::analyzers {
namespace {
void check_divergent_barrier(const SourceInput& input, std::vector<Finding>& out);
}  // namespace

extern const Rule kDivergentBarrierRule;  // listed in rule_catalog.cpp
const Rule kDivergentBarrierRule = {
    .id = "divergent-barrier",
    .default_severity = Severity::Error,
    .summary = "a block barrier reached under a condition that differs between threads of the block",
    .guidance_page = "references/rules/divergent-barrier.md",
    .source_check = &check_divergent_barrier,
};

namespace {

bool reported(const DivergentCondition& c) { return c.kind != DivergentCondition::Kind::AfterExit && c.evident; }

// The condition a finding names: a proven one first, then the innermost.
const DivergentCondition* chosen(const BarrierRecord& r) {
  const DivergentCondition* pick = nullptr;
  for (const auto& c : r.conditions) {
    if (!reported(c)) continue;
    if (!pick || (pick->runtime && !c.runtime)) pick = &c;  // NOLINT(bugprone-branch-clone)
    else if (pick->runtime == c.runtime) pick = &c;
  }
  return pick;
}

std::string line_of(const Location& l) { return "line " + std::to_string(l.range.start.line + 1); }

// An error needs what compute-sanitizer's synccheck reports: a proven split of an aligned
// barrier whose skipping threads then wait at another barrier. Threads that skip it and exit
// do not hold it back on current GPUs, and a non-aligned barrier may be reached divergently.
bool proven(const BarrierRecord& r, const DivergentCondition& c) { return !c.runtime && r.others_wait && r.aligned; }

Finding make(const BarrierRecord& r, const DivergentCondition& c) {
  std::string msg;
  if (c.kind == DivergentCondition::Kind::LoopTrip) {
    msg = "`" + r.spelling + "` is inside a loop whose trip count differs between threads of the block: `" + c.text +
          "` (" + line_of(c.location) + ") depends on " + c.varies_with +
          ", so threads that leave the loop early miss the barrier's last rounds";
    if (c.runtime) msg += " (" + c.runtime_text + ")";
    msg += ". Give every thread the same trip count (loop over rounds of the block, `for (base = 0; base < n; "
           "base += blockDim.x)`, with the bounds test inside) and keep the barrier outside any per-thread test.";
  } else {
    msg = "`" + r.spelling + "` is reached only by the threads for which `" + c.text + "` (" + line_of(c.location) +
          ") is " + (c.truth ? "true" : "false") + "; the condition depends on " + c.varies_with +
          ", so the block's other threads never arrive: a hang or silently wrong results";
    if (c.runtime) msg += " (" + c.runtime_text + ")";
    msg += ". Move the barrier out of the branch so that every thread of the block reaches it, or make the "
           "condition the same for the whole block (e.g. `__syncthreads_or`).";
  }
  if (!c.runtime && !r.others_wait)
    msg += " The threads that skip it reach no other barrier before they exit, which current GPUs tolerate "
           "(compute-sanitizer's synccheck does not report it); the CUDA programming model leaves it undefined.";
  else if (!c.runtime && !r.aligned)
    msg += " This barrier is not an aligned one (`barrier.sync`), which the hardware allows in divergent code "
           "as long as the arrival counts match; the CUDA programming model still asks every thread to reach it.";
  if (r.kernel != r.function) msg += " (in " + r.kernel + ")";
  Finding f = kDivergentBarrierRule.finding(r.location, std::move(msg));
  if (!proven(r, c)) f.severity = Severity::Warning;
  f.notes.push_back({c.location, "this condition differs between threads of the block"});
  for (const auto& site : r.call_chain) f.notes.push_back({site, "called from here"});
  return f;
}

// A split by whole warps whose other arm synchronises too (`if (warp < 4) { … __syncthreads() … }
// else { … __syncthreads() … }`, tiled GEMMs' edge tiles): each warp executes its own barriers
// convergently and the arrivals can match, which the hardware accepts. Left unreported.
bool both_arms_synchronise(const BarrierRecord& r, const DivergentCondition& c, const std::vector<BarrierRecord>& all) {
  if (!c.whole_warps || c.kind != DivergentCondition::Kind::Branch) return false;
  for (const BarrierRecord& other : all) {
    if (other.kernel != r.kernel) continue;
    for (const DivergentCondition& d : other.conditions)
      if (d.location == c.location && d.kind == c.kind && d.truth != c.truth) return true;
  }
  return false;
}

void check_divergent_barrier(const SourceInput& input, std::vector<Finding>& out) {
  using Place = std::tuple<std::string, uint32_t, uint32_t>;
  std::vector<std::pair<Place, Finding>> found;
  for (const auto& target : input.targets) {
    if (!target.facts) continue;
    for (const BarrierRecord& r : target.facts->barriers) {
      const DivergentCondition* c = chosen(r);
      if (!c || both_arms_synchronise(r, *c, target.facts->barriers)) continue;
      Place place{r.location.file, r.location.range.start.line, r.location.range.start.column};
      auto same = std::find_if(found.begin(), found.end(), [&](const auto& e) { return e.first == place; });
      Finding f = make(r, *c);
      if (same == found.end()) found.emplace_back(place, std::move(f));
      else if (same->second.severity == Severity::Warning && f.severity == Severity::Error) same->second = std::move(f);
    }
  }
  for (auto& [place, f] : found) out.push_back(std::move(f));
}

}  // namespace
}  // namespace kl::analyzers
