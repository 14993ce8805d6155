// shared-race: two accesses to a `__shared__` array, at least one a store, that two different
// threads of a block make to the same bytes with no block barrier between them on some path:
// a tile read before every thread has written it, a tile the next loop iteration overwrites
// while other threads still read it. Such code gives wrong results only sometimes, on some GPUs.
//
// The model (access_sync.cpp, shared_hazards.h) finds each pair by enumerating the block's
// threads (and the loop iterations their addresses step through) and keeps a witness: which two
// threads touch which element. An error when the block shape comes from the launches in the
// file; a warning when a block had to be assumed (no launch fixes it), since the two threads may
// then not exist, and when only lanes of one warp race (compute-sanitizer's racecheck calls
// those warnings too: warp-synchronous code written before Volta). Not judged: addresses with a runtime stride or from loaded data, accesses
// under a branch on loaded data, atomics against atomics, and anything past a warp barrier,
// a named barrier or a library call that synchronises.
#include <algorithm>
#include <tuple>

#include "analyzers/rules/rule.h"
#include "analyzers/rules/rule_input.h"

namespace kl::analyzers {
namespace {
void check_shared_race(const SourceInput& input, std::vector<Finding>& out);
}  // namespace

extern const Rule kSharedRaceRule;  // listed in rule_catalog.cpp
const Rule kSharedRaceRule = {
    .id = "shared-race",
    .default_severity = Severity::Error,
    .summary = "a __shared__ element written by one thread and read or written by another with no barrier between",
    .guidance_page = "references/rules/shared-race.md",
    .source_check = &check_shared_race,
};

namespace {

std::string thread_text(const int64_t t[3], const std::string& shape) {
  bool two_d = shape.find(',') != std::string::npos;
  if (!two_d) return "thread " + std::to_string(t[0]);
  return "thread (" + std::to_string(t[0]) + ", " + std::to_string(t[1]) +
         (shape.find(',', shape.find(',') + 1) != std::string::npos ? ", " + std::to_string(t[2]) : "") + ")";
}

std::string line_of(const Location& l) { return "line " + std::to_string(l.range.start.line + 1); }

std::string kind_of(const SharedHazard& h) {
  if (h.first_is_store && h.second_is_store) return "write-after-write";
  return h.first_is_store ? "read-after-write" : "write-after-read";
}

// A barrier on a line of its own before the second access, when that is mechanical:
// both accesses in the kernel's own body, the second on a later line, not across a loop's back
// edge (the barrier then belongs at the end of the body), and no condition on the path.
std::optional<Fix> barrier_fix(const SharedHazard& h, std::string_view text) {
  if (h.loop_carried || !h.call_chain.empty() || !h.fix_safe ||
      h.first.range.start.line >= h.second.range.start.line)
    return std::nullopt;
  uint32_t line = h.second.range.start.line;
  size_t start = 0;
  for (uint32_t i = 0; i < line && start != std::string_view::npos; ++i) {
    start = text.find('\n', start);
    if (start != std::string_view::npos) ++start;
  }
  if (start == std::string_view::npos) return std::nullopt;
  size_t end = text.find('\n', start);
  std::string_view statement = text.substr(start, end == std::string_view::npos ? text.npos : end - start);
  size_t indent = statement.find_first_not_of(" \t");
  if (indent == std::string_view::npos) return std::nullopt;
  // Lanes of one warp are ordered by a warp barrier; threads of different warps need the block's.
  std::string barrier = h.same_warp ? "__syncwarp()" : "__syncthreads()";
  Fix fix;
  fix.title = "Insert " + barrier + " before this access";
  Range at{{line, 0}, {line, 0}};
  fix.edits.push_back({h.second.file, at, std::string(statement.substr(0, indent)) + barrier + ";\n"});
  return fix;
}

Finding make(const SharedHazard& h, std::string_view text) {
  std::string first_verb = h.first_is_store ? "writes" : "reads";
  std::string second_verb = h.second_is_store ? "writes" : "reads";
  std::string msg = "shared-memory race on `" + h.base_name + "` (" + kind_of(h) + "): ";
  msg += thread_text(h.first_thread, h.block_shape) + " " + first_verb + " it at " + line_of(h.first);
  if (h.loop_carried) msg += " at the end of one iteration";
  msg += " and " + thread_text(h.second_thread, h.block_shape) + " " + second_verb + " the same bytes here";
  if (h.loop_carried) msg += " in the next one";
  msg += ", with no barrier between them";
  if (!h.block_shape.empty()) msg += " (" + h.block_shape + (h.block_assumed ? ", assumed: no launch in the file fixes it" : "") + ")";
  if (h.same_warp)
    msg += "; the threads are lanes of one warp, which since Volta (sm_70) no longer run in lockstep. "
           "Add `__syncwarp()` between the two accesses (or use shuffles instead of shared memory).";
  else
    msg += h.loop_carried ? ". Add `__syncthreads()` at the end of the loop body, after the last use of `" + h.base_name +
                              "`, so that no thread overwrites it while others still use it."
                              : ". Add `__syncthreads()` between the two accesses.";
  if (h.kernel != h.function) msg += " (in " + h.kernel + ")";
  Finding f = kSharedRaceRule.finding(h.second, std::move(msg));
  if (h.block_assumed || h.same_warp) f.severity = Severity::Warning;
  f.notes.push_back({h.first, std::string("the other access: ") + (h.first_is_store ? "the write" : "the read")});
  if (h.loop && h.loop_carried) f.notes.push_back({*h.loop, "the loop whose next iteration it races with"});
  for (const auto& site : h.call_chain) f.notes.push_back({site, "called from here"});
  if (auto fix = barrier_fix(h, text)) f.fixes.push_back(std::move(*fix));
  return f;
}

void check_shared_race(const SourceInput& input, std::vector<Finding>& out) {
  // One finding per source line and array (the second access of its pairs): the first pair
  // found names it. `s[t] += s[t + 16]` is a racing load and a racing store on one line.
  using Pair = std::tuple<std::string, uint32_t, std::string>;
  std::vector<std::pair<Pair, Finding>> found;
  for (const auto& target : input.targets) {
    if (!target.facts) continue;
    for (const SharedHazard& h : target.facts->shared_hazards) {
      Pair key{h.second.file, h.second.range.start.line, h.base_name};
      auto same = std::find_if(found.begin(), found.end(), [&](const auto& e) { return e.first == key; });
      Finding f = make(h, input.text);
      if (same == found.end()) found.emplace_back(key, std::move(f));
      else if (same->second.severity == Severity::Warning && f.severity == Severity::Error) same->second = std::move(f);
    }
  }
  for (auto& [key, f] : found) out.push_back(std::move(f));
}

}  // namespace
}  // namespace kl::analyzers
