#pragma once
// The value domain of the access interpreter (internal to model/access_*.cpp): what a variable
// or an expression is known to be, what an lvalue designates, the environment of one path, and
// how two paths' knowledge merges.
//
// - A Value is an integer form over atoms, a pointer (a memory base + a byte offset form), a dim3,
//   a by-value struct parameter (named by its access path), or None (untracked, with how much it
//   varies across threads).
// - A Base is one memory object pointers can point into (a pointer parameter, a __shared__ array,
//   a pointer loaded from memory); values refer to it by index into the interpreter's `bases`.
// - An Env maps the path's local variables to values and keeps the path's facts and lane guards.
//
// The functions here read nothing but their arguments and the atom table; the only change they
// make is adding atoms (a fresh opaque value, a join's stand-in). No clang nodes are walked: the
// clang types used are declarations and QualTypes held as data.
#include <clang/AST/Type.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/finding.h"
#include "analyzers/model/access_record.h"
#include "analyzers/model/access_warp.h"
#include "analyzers/model/affine_form.h"
#include "analyzers/model/sync_record.h"

namespace clang {
class FunctionDecl;
class VarDecl;
}  // namespace clang

namespace kl::analyzers::interpreter {

// A symbolic value.
struct Value {
  enum class Kind : uint8_t { None, Int, Pointer, Dim3, Aggregate };
  Kind kind = Kind::None;
  Poly form;                                 // Int: the value; Pointer: byte offset from the base
  int base = -1;                             // Pointer: index into the bases (-1: unknown)
  bool widened = false;                      // Pointer: went through a cast to a more-aligned pointee
  bool reference = false;                    // a reference bound to memory (uses load/store)
  std::array<Poly, 3> dims;                  // Dim3
  std::string path;                          // Aggregate: a by-value struct parameter ("args")
  Variation variation = Variation::Uniform;  // None: how the untracked value varies

  static Value none(Variation v = Variation::Uniform) {
    Value out;
    out.variation = v;
    return out;
  }
  static Value integer(Poly p) {
    Value out;
    out.kind = Kind::Int;
    out.form = std::move(p);
    return out;
  }
  static Value pointer(int base, Poly offset) {
    Value out;
    out.kind = Kind::Pointer;
    out.base = base;
    out.form = std::move(offset);
    return out;
  }
  friend bool operator==(const Value& a, const Value& b) {
    return a.kind == b.kind && a.form == b.form && a.base == b.base && a.widened == b.widened &&
           a.reference == b.reference && a.dims == b.dims && a.path == b.path && a.variation == b.variation;
  }
};

struct Base {
  std::string name;
  MemorySpace space = MemorySpace::Unknown;
  uint64_t alignment = 0;  // proven; 0 unknown
  AtomId address = 0;
  std::string note;
  std::optional<SharedRow> row;  // a `__shared__` array whose rows can be padded
  // Host code: the bytes from the base's address to the end of its allocation, where the code
  // says (cudaMalloc's size, a tensor's numel() times its element size), and where it says it.
  std::optional<Poly> extent;
  std::string extent_source;  // "cudaMalloc at line 95"
};

struct LValue {
  enum class Kind : uint8_t { None, Var, Memory, Field, Dim3Field };
  Kind kind = Kind::None;
  const clang::VarDecl* var = nullptr;
  Value address;         // Memory
  clang::QualType type;  // Memory / Field: the object's type
  std::string path;      // Field
  int dim = 0;           // Dim3Field
  std::string field_of;  // Memory: the struct a member access reaches into
};

// A test of block-uniform values on a path (`norm_type == 0` taken false): two accesses made
// under opposite outcomes of the same test are never on one path, whatever the join between
// them says.
struct UniformTest {
  Poly difference;  // lhs - rhs, or the value itself for `if (flag)`
  int op = 0;       // clang::BinaryOperatorKind of the comparison (BO_NE for a plain value)
  bool truth = true;
  friend bool operator==(const UniformTest&, const UniformTest&) = default;
};

// A shared-memory access on a path since its last block barrier (access_sync.cpp): what a later
// access of another thread on the same path may race with.
struct SharedTouch {
  uint32_t serial = 0;  // unique in one analysis
  int base = -1;
  Poly offset;          // bytes from the base, known values substituted
  uint32_t width = 0;
  bool store = false;
  bool atomic = false;
  std::vector<LaneGuard> guards;
  bool data_branch = false;  // under a branch on loaded data: which threads made it is unknown
  std::vector<UniformTest> uniform_tests;
  Location location;
  std::string function;
  std::vector<Location> call_chain;
};
using SharedTouchRef = std::shared_ptr<const SharedTouch>;

// One path's state. Keys are canonical declarations. A path that cannot continue (after a
// return, break, __trap) is `dead`; joins ignore it.
inline constexpr uint8_t kAllDimensions = 0x7;

struct Env {
  std::map<const clang::VarDecl*, Value> vars;
  PathFacts facts;
  std::vector<LaneGuard> guards;
  // Inside a branch on data the lanes loaded (`if (keys[t] <= key)`): which lanes of a warp run
  // here is unknown, from all of them to one.
  bool data_branch = false;
  bool dead = false;
  bool exited = false;  // dead because the kernel returned (or trapped), not by break/continue
  // Which thread-index dimensions a condition on the way here may bound (bit d: x, y, z): a test
  // of the thread or block index of that dimension, and any test, loop bound, early return or
  // min/max clamp the model does not read as one (all three). 0 on the straight-line code every
  // launched thread runs, and under tests of parameters alone (`if (n > 0)`).
  uint8_t conditioned = 0;
  // Inside an inlined call made under a branch on loaded data (data_branch itself starts false
  // in a callee, for the access verdicts; the race check needs to know).
  bool caller_data_branch = false;
  // The conditions under which only some threads of the block are on this path (a branch on
  // the thread index, a loop whose trip count differs, an early return of some threads).
  std::vector<DivergentCondition> divergent;
  // Shared-memory accesses since the path's last block barrier, in order.
  std::vector<SharedTouchRef> since_barrier;
  // The outcomes of block-uniform tests on the way here (exec_if).
  std::vector<UniformTest> uniform_tests;
  // Per enclosing loop (outermost first): whether this path has not yet passed a barrier in the
  // loop's current iteration, so that its shared accesses are the iteration's first interval.
  std::vector<bool> loop_prefix_open;
};

// One inlined call: what its return statements returned.
struct Frame {
  const clang::FunctionDecl* function = nullptr;
  std::vector<Value> returns;
  std::optional<Location> call_site;
  bool returns_reference = false;
  // The shared accesses still unsynchronised where the call's paths leave it (their union), and
  // whether some leaving path is still in its loops' first interval: what the caller goes on with.
  bool left = false;
  std::vector<SharedTouchRef> touches_left;
  std::vector<bool> prefix_open_left;
};

// How a value varies across the threads of a block.
Variation variation_of(const AtomTable& atoms, const Value& v);

// How the value stored at `address` varies: uniform only for a uniform address into a known base.
Variation memory_variation(const AtomTable& atoms, const Value& address);

// A fresh opaque integer (a new atom each call). Lane and piecewise variations are recorded as
// varying; `loaded` marks a per-lane load (kept only when the value does vary).
// An integer loaded from memory at `address`. Lanes that read the same address read the same
// value: when the address is a known function of the thread index (`ids[tid / 32]`, a row's
// index read by every lane of the row, or `ids[tid]`) the value is a piecewise atom whose lane
// values follow the address (access_warp.cpp), so a row picked through it is not mistaken for a
// per-lane gather, and one picked per lane still is.
Value loaded_integer(AtomTable& atoms, const Value& address, const std::string& name);

Value opaque_value(AtomTable& atoms, Variation v, const std::string& name,
                   Congruence c = Congruence::unknown(), bool parameter_like = false, bool loaded = false);

// The value a variable has where two paths merge. Adds atoms for the parts the paths disagree on.
Value join_values(AtomTable& atoms, const Value& a, const Value& b);

// Two forms at a merge: keeps the thread-dependent part when both agree on it, so that
// `idx = odd ? 2*t + 1 : 2*t` keeps stride 2. Adds one stand-in atom.
Poly join_forms(AtomTable& atoms, const Poly& a, const Poly& b);

// Where two paths meet (a join, the paths leaving an inlined call): the shared accesses either
// left unsynchronised (their union, by serial), and whether either is still in a loop's first
// interval.
void merge_unsynchronised(std::vector<SharedTouchRef>& touches, std::vector<bool>& prefix_open,
                          const std::vector<SharedTouchRef>& more_touches, const std::vector<bool>& more_prefix_open);

// The state after two paths merge: variables both paths know (joined), facts and guards both
// hold. A dead path contributes nothing.
Env join(AtomTable& atoms, const Env& a, const Env& b);

}  // namespace kl::analyzers::interpreter
