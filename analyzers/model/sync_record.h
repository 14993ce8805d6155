#pragma once
// What the access model saw of a block's synchronisation: each barrier with the conditions
// under which only some threads of the block reach it, and each pair of shared-memory accesses
// that different threads of a block make with no barrier between them. Plain data for the
// divergent-barrier and shared-race rules; the model (access_sync.cpp) decides what is proven.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/finding.h"

namespace kl::analyzers {

// A condition that threads of one block may evaluate differently, on the path to a point.
struct DivergentCondition {
  enum class Kind : uint8_t {
    Branch,     // `if (threadIdx.x < 16) { … }`: the point is inside the branch
    LoopTrip,   // `for (i = threadIdx.x; i < n; i += blockDim.x) { … }`: the trip count differs
    AfterExit,  // `if (i >= n) return;`: the threads it held returned before the point
  };
  Kind kind = Kind::Branch;
  Location location;        // the condition
  std::string text;         // `threadIdx.x < 16`
  std::string varies_with;  // "threadIdx.x", "data each thread loaded"
  bool data = false;        // the variation comes from loaded data, not from the thread index
  // Whether threads disagree depends on a runtime value (loaded data; a trip count that is
  // uniform when `n` is a multiple of the stride): a warning, not an error.
  bool runtime = false;
  std::string runtime_text; // "`n` is not a multiple of 256"
  // The threads on the path are named by thread-index conditions the model can evaluate (false
  // for `lane == 0 || lane == 2`, a test of data, a call): else which threads run is unknown.
  bool lanes_known = false;
  // The model can say why the threads differ (the thread index, or data they loaded). Otherwise
  // it lost track of a value that may well be uniform (a field of a struct every thread loads
  // from one address), and the rule stays silent.
  bool evident = false;
  bool truth = true;  // Branch, AfterExit: the outcome of `text` on the path
  // The condition depends on the thread index only through the warp index (`tid / 32`): every
  // warp goes one way as a whole.
  bool whole_warps = false;
  friend bool operator==(const DivergentCondition&, const DivergentCondition&) = default;
};

struct BarrierRecord {
  Location location;                 // the barrier call or asm statement
  std::string spelling;              // "__syncthreads()", "bar.sync 0", "block.sync()"
  std::string function;              // the function it is written in
  std::string kernel;                // the kernel analysed
  std::vector<Location> call_chain;  // call sites from the kernel down to `function`
  std::vector<DivergentCondition> conditions;  // empty: every thread of the block reaches it
  // The threads that skip it reach another block barrier later (rather than exit): the barrier
  // instances then disagree, which the hardware does not forgive (synccheck reports it).
  bool others_wait = false;
  // `bar.sync`/`barrier.sync.aligned` (__syncthreads) must be executed by every thread alike; a
  // non-aligned `barrier.sync` (cooperative groups' block sync) may be reached from divergent code.
  bool aligned = true;
};

// Two accesses to one `__shared__` array, the first before the second on a path with no block
// barrier between them, that two different threads make to overlapping bytes.
struct SharedHazard {
  Location first, second;  // in program order (for a loop-carried pair: first is at the end of
                           // one iteration, second at the start of the next)
  bool first_is_store = false, second_is_store = false;
  std::string base_name;             // `tile`
  std::string function;              // where `second` is written
  std::string kernel;
  std::vector<Location> call_chain;  // of `second`
  bool loop_carried = false;         // across the back edge of a loop with no barrier at its end
  std::optional<Location> loop;      // that loop
  // A witness: the thread (x, y, z) that makes `first` and the one that makes `second` touch
  // byte `byte` (counted from the part of the addresses both share).
  int64_t first_thread[3] = {0, 0, 0};
  int64_t second_thread[3] = {0, 0, 0};
  int64_t byte = 0;
  // The block shape came from the launches in the file (a proof for them); otherwise the
  // smallest block the witness fits in is assumed, `block_assumed`.
  bool block_assumed = false;
  std::string block_shape;           // "blockDim = (32, 8)" as known or assumed
  bool needs_iterations = false;     // the witness needs a loop to run more than once
  bool same_warp = false;            // only lanes of one warp race (ordered by __syncwarp, not by the hardware)
  // A barrier on its own line before `second` fixes it: both accesses in the kernel's body, and
  // no condition on the path that would make the barrier divergent.
  bool fix_safe = false;
};

}  // namespace kl::analyzers
