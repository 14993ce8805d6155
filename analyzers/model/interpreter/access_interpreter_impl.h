#pragma once
// The access interpreter's implementation, shared by its parts (internal to model/access_*.cpp;
// nothing outside them includes this). One struct, AccessInterpreter::Impl, holds the state of
// the function being analysed; its methods are defined in one file per job:
//
//   access_interpreter.cpp  the state: reset, atoms and bases, entry points, parameters
//   access_values.cpp       the value domain (Value, Env, joins; see access_values.h)
//   access_evaluator.cpp    expressions: eval, operators, casts, arithmetic on forms
//   access_places.cpp       lvalues (eval_lvalue), read, write, havoc
//   access_calls.cpp        calls, intrinsics, inlining, operators, constructors, launches
//   access_executor.cpp     statements (exec), loops, if/switch; conditions (assume, relation)
//   access_recorder.cpp     record: MemoryAccess, coalescing and alignment verdicts
//   access_instructions.cpp accesses written as text or hidden in libraries: inline PTX, calls
//                           into CUTLASS/CuTe/CUDA headers (library_accesses.h)
//   access_sync.cpp         barriers, the conditions that make threads of a block disagree,
//                           shared accesses between barriers and the races among them
//
// Contracts every part keeps:
// - Bounded work. eval and exec count one step each (kMaxSteps per analysed function; past it
//   values are opaque and statements skipped). eval, eval_lvalue and exec each hold a
//   NestingGuard: past kMaxNesting levels of nesting they return "unknown" without looking
//   further, so generated code cannot exhaust the stack. Helpers they call hold no guard of
//   their own: interpreting recursion must go through one of the three. The other recursive
//   walks are assume_impl (depth 8) and collect_modifications/mentions_any, which only read the
//   AST (as deep as it is, a few hundred bytes of stack a level).
// - Clang types are asked through safe_types.h (or after an explicit null/dependent check):
//   error recovery and templates hand the model null, dependent and error-containing types.
// - No reference or iterator into `env.vars` is held across a nested evaluation: any eval or
//   exec can replace the whole environment (a `?:` assigns the join of its two arms, an if the
//   join of its branches). Take the value out, or look the variable up again afterwards.
// - `quiet` > 0 (conditions being assumed, a loop step being evaluated for its value): record
//   and write do nothing, no local is havocked or assigned, no call is inlined, and
//   __builtin_assume_aligned adds no fact. Conditions still add theirs (that is assume's job).
// - `bases` and `atoms` only grow during one analysis; indices into them stay valid. A
//   reference into `bases` stays valid only until the next add_base.
#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/OperationKinds.h>
#include <clang/AST/PrettyPrinter.h>
#include <clang/AST/Type.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyzers/model/interpreter/access_interpreter.h"
#include "analyzers/model/access_values.h"
#include "analyzers/model/access_warp.h"
#include "analyzers/model/affine_form.h"
#include "analyzers/model/barrier_calls.h"
#include "analyzers/model/library_accesses.h"
#include "analyzers/model/ptx_text.h"
#include "analyzers/model/safe_types.h"
#include "analyzers/model/shared_hazards.h"

namespace clang {
class AbstractConditionalOperator;
class ArraySubscriptExpr;
class BinaryOperator;
class CallExpr;
class CastExpr;
class CUDAKernelCallExpr;
class CXXConstructExpr;
class CXXMemberCallExpr;
class CXXOperatorCallExpr;
class DeclRefExpr;
class DeclStmt;
class GCCAsmStmt;
class Expr;
class IfStmt;
class MemberExpr;
class ParmVarDecl;
class PseudoObjectExpr;
class ReturnStmt;
class Stmt;
class SwitchStmt;
class UnaryExprOrTypeTraitExpr;
class UnaryOperator;
}  // namespace clang

namespace kl::analyzers {

namespace interpreter {

inline constexpr int kMaxInlineDepth = 4;
inline constexpr size_t kMaxSteps = 200000;  // statements and expressions per analysed function
// Nesting of expressions and statements the interpreter follows before it calls the rest
// unknown: generated code (a 5,000-term sum, a deeply nested ?: chain) must not exhaust the
// stack. Each level costs well under 2 KB of stack; analyses run on a 64 MB thread.
inline constexpr int kMaxNesting = 512;

// Counts one level of expression/statement nesting for as long as it lives.
class NestingGuard {
 public:
  explicit NestingGuard(int& depth) : depth_(depth) { ++depth_; }
  ~NestingGuard() { --depth_; }
  NestingGuard(const NestingGuard&) = delete;
  NestingGuard& operator=(const NestingGuard&) = delete;
  bool too_deep() const { return depth_ > kMaxNesting; }

 private:
  int& depth_;
};

// Modifications of one variable inside a loop.
struct Modification {
  int count = 0;
  bool simple_step = false;           // `v += e`, `v -= e`, `++v`, `v = v + e`
  bool top_level = false;             // in the increment, or a direct statement of the body
  const clang::Expr* step = nullptr;  // e (nullptr for ++/--)
  bool negative = false;
  bool address_taken = false;
  // `v >>= c`, `v /= c`, `v <<= c`, `v *= c`: a geometric step (the reduction tree's stride).
  clang::BinaryOperatorKind geometric = clang::BO_Comma;  // BO_Comma: none
};

// threadIdx, blockIdx, blockDim, gridDim: `which` 0..3.
inline bool is_builtin_index(const clang::VarDecl* var, int& which) {
  static const char* names[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
  if (!var || !var->getIdentifier()) return false;
  llvm::StringRef name = var->getName();
  for (int i = 0; i < 4; ++i)
    if (name == names[i]) {
      which = i;
      return true;
    }
  return false;
}

inline const clang::VarDecl* canonical(const clang::VarDecl* v) {
  return v ? v->getCanonicalDecl() : nullptr;
}

}  // namespace interpreter

struct AccessInterpreter::Impl {
  using Base = interpreter::Base;
  using Env = interpreter::Env;
  using Frame = interpreter::Frame;
  using LValue = interpreter::LValue;
  using Modification = interpreter::Modification;
  using Value = interpreter::Value;
  using ModificationMap = std::map<const clang::VarDecl*, Modification>;

  clang::ASTContext& ctx;
  const SourceView& view;
  ModelOptions options;
  clang::PrintingPolicy policy;

  // Per analysed function; reset() clears them.
  AtomTable atoms;
  std::vector<Base> bases;
  std::map<const clang::VarDecl*, int> static_bases;
  std::map<std::string, int> path_bases;
  std::vector<Frame> frames;                           // inlined calls, innermost last
  std::vector<MemoryAccess>* out = nullptr;            // kernels: where records go
  std::vector<LaunchObservation>* launches = nullptr;  // host functions: where launches go
  std::vector<BarrierRecord>* barrier_out = nullptr;   // kernels: barriers and their conditions
  std::vector<SharedHazard>* hazard_out = nullptr;     // kernels: shared-memory races
  bool host_mode = false;
  int quiet = 0;
  size_t steps = 0;
  int nesting_depth = 0;
  std::string kernel_name;
  BlockShape block;
  AtomId thread[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
  AtomId block_dim[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
  const KernelLaunchFacts* launch_facts = nullptr;
  const std::set<const clang::FunctionDecl*>* host_inlinable = nullptr;

  // Synchronisation (access_sync.cpp). One LoopSync per loop being walked, outermost first.
  struct LoopSync {
    std::vector<interpreter::SharedTouchRef> prefix;  // shared accesses before the body's first barrier
    std::set<AtomId> induction;                       // the loop's iteration atoms
    Location where;
    bool barrier = false;                             // some path through the body passes a block barrier
    // The loop condition's thread-index guards (the body runs only where they hold), and whether
    // it varies per thread in a way no guard says (then the body's accesses are not judged).
    std::vector<LaneGuard> guards;
    bool unjudged_condition = false;
  };
  std::vector<LoopSync> loop_sync;
  uint32_t touch_serial = 0;
  std::map<AtomId, int64_t> trip_counts;              // iteration atom -> the loop's known trip count
  // Iteration atoms of the loops being walked whose condition lets the variable reach its bound
  // (`c <= cols`), for the row overrun (note_row_overrun); dropped when the loop's body is done.
  struct InclusiveBound {
    Poly bound;             // the variable's last value: `cols`
    Poly atom_last;         // the iteration atom's value on that iteration
    uint8_t conditioned = 0;  // Env::conditioned where the body starts: more means a test in it
    std::string variable;
  };
  std::map<AtomId, InclusiveBound> inclusive_bounds;
  // Loop variables stepped geometrically (`stride >>= 1`): their value in each iteration.
  std::map<AtomId, LoopSequence> sequences;
  struct GeometricStep {
    int64_t start = 0;
    clang::BinaryOperatorKind op = clang::BO_Comma;
    int64_t factor = 1;
  };
  std::map<AtomId, GeometricStep> geometric_candidates;  // of the loop being entered
  std::map<AtomId, AtomId> next_of_sequence;             // a geometric variable -> its next value
  // A loop variable the model cannot step (`pos = (pos + 4) & 63`, `s *= 2`) is a fresh atom at
  // the loop's head; in the loop's first iteration it still holds the value it entered with.
  // The bank-conflict estimate uses that value where the atom leaves an access unjudged.
  std::map<AtomId, Poly> first_iteration;
  // The function's parameters: the base of each pointer (-> the parameter's position), and every
  // parameter's name by position.
  std::map<int, int> parameter_bases;
  // The element type of each pointer parameter's base, where its size is known (`float` of
  // `const float* in`): the unit its counts are written in.
  struct ParameterElement {
    int64_t size = 0;
    std::string type;
  };
  std::map<int, ParameterElement> parameter_elements;
  // Host code: how many times each class-typed local has been assigned on the walk so far, so
  // that `x.numel()` before `x = x.narrow(...)` and after it are different values.
  std::map<const clang::VarDecl*, int> assignments;
  // What the condition assume() is reading bounds (Env::conditioned): its dimensions, or
  // something it could not read (then all three).
  uint8_t assumed_dimensions = 0;
  bool assumed_unread = false;
  std::vector<std::string> parameter_names;
  std::set<std::pair<uint32_t, uint32_t>> hazards_seen;  // touch serials already compared

  // Kept for the whole parse: what each library function reached does to global memory.
  LibraryAccessSummaries library;

  Impl(clang::ASTContext& c, const SourceView& v, const ModelOptions& o)
      : ctx(c), view(v), options(o), policy(c.getLangOpts()), library(c) {
    policy.SuppressTagKeyword = true;
    policy.SuppressScope = false;
  }

  // ---------------------------------------------------------------- state (access_interpreter.cpp)
  // Entry points: reset the state, bind the parameters, execute the body.

  void reset();
  void analyse_kernel(const clang::FunctionDecl& kernel, const KernelLaunchFacts& facts,
                      std::vector<MemoryAccess>& sink, std::vector<BarrierRecord>* barriers,
                      std::vector<SharedHazard>* hazards);
  void observe_launches(const clang::FunctionDecl& host,
                        const std::set<const clang::FunctionDecl*>& inlinable,
                        std::vector<LaunchObservation>& sink);
  // Each parameter's value at entry: a pointer is a fresh global base (aligned as assumed, or as
  // every launch says), an integer a parameter atom, a by-value struct an aggregate path.
  void bind_parameters(const clang::FunctionDecl& f, Env& env);
  std::string function_display_name(const clang::FunctionDecl& f) const;

  // Atoms and bases. These add atoms/bases and read nothing of any Env.
  std::string text_of(const clang::Expr* e, size_t limit = 60) const;  // the source, one line
  AtomId builtin_atom(int which, int dim);  // threadIdx.x ... (interned; remembers thread/blockDim)
  Poly size_form(clang::QualType t);        // a constant, or a sizeof atom for dependent types
  int add_base(const std::string& name, MemorySpace space, uint64_t alignment,
               std::optional<Congruence> address, std::string note = "");
  int static_base(const clang::VarDecl* var);  // one base per __shared__/global/local array variable
  int path_base(const std::string& path);      // one base per pointer field of a struct parameter

  std::optional<int64_t> type_size(clang::QualType t) const { return concrete_size(ctx, t); }
  uint64_t type_align(clang::QualType t) const { return concrete_alignment(ctx, t); }
  clang::QualType pointee(clang::QualType t) const { return pointee_type(t); }

  // ---------------------------------------------------------------- values (access_values.cpp)

  Value opaque(Variation v, const std::string& name, Congruence c = Congruence::unknown(),
               bool parameter_like = false, bool loaded = false) {
    return interpreter::opaque_value(atoms, v, name, c, parameter_like, loaded);
  }
  Variation variation_of(const Value& v) const { return interpreter::variation_of(atoms, v); }
  Variation memory_variation(const Value& address) const {
    return interpreter::memory_variation(atoms, address);
  }
  Value join_values(const Value& a, const Value& b) { return interpreter::join_values(atoms, a, b); }
  Env join(const Env& a, const Env& b) { return interpreter::join(atoms, a, b); }

  // ---------------------------------------------------------------- expressions (access_evaluator.cpp)
  // eval(e, env): the value of `e` on the path `env`, after its effects on that path: loads and
  // stores recorded, assignments and increments written into env.vars, address-taken locals
  // havocked, calls inlined (or their reference arguments havocked), env.dead set by calls that
  // do not return, facts added by __builtin_assume(_aligned). A conditional operator replaces
  // `env` with the join of its arms. Reads ctx, view, frames; adds atoms and bases.

  Value eval(const clang::Expr* e, Env& env);
  // The children of an expression evaluated for their effects; an untracked value as varying
  // as they are.
  Value eval_parts(const clang::Expr* e, Env& env);
  Value eval_decl_ref(const clang::DeclRefExpr* ref, Env& env);
  Value eval_pseudo(const clang::PseudoObjectExpr* pseudo, Env& env);  // threadIdx.x and friends
  Value eval_trait(const clang::UnaryExprOrTypeTraitExpr* trait);
  Value eval_cast(const clang::CastExpr* cast, Env& env);
  Value eval_array_decay(const clang::Expr* sub, Env& env);
  Value eval_reinterpreting_cast(const clang::CastExpr* cast, Env& env);
  Value eval_unary(const clang::UnaryOperator* un, Env& env);
  Value eval_binary(const clang::BinaryOperator* bin, Env& env);
  Value eval_assignment(const clang::BinaryOperator* bin, Env& env);
  Value eval_conditional(const clang::AbstractConditionalOperator* cond, Env& env);
  // `l op r` on values already evaluated (pointer arithmetic scales by the pointee's size).
  Value combine(clang::BinaryOperatorKind op, const Value& l, const Value& r, clang::QualType lt,
                clang::QualType rt, const clang::Expr* e);

  // Arithmetic on forms. These add atoms and read nothing of any Env; `e` only names the
  // opaque value a failed operation gives.
  Value int_or_opaque(std::optional<Poly> p, Variation fallback, const clang::Expr* e);
  Value pointer_add(const Value& ptr, const Poly& index, clang::QualType element, bool subtract,
                    const clang::Expr* e);
  Value quotient(const Poly& inner, const Poly& divisor);
  Value remainder(const Poly& inner, const Poly& divisor, const clang::Expr* e);
  Value int_binary(clang::BinaryOperatorKind op, const Poly& l, const Poly& r, const clang::Expr* e);

  // ---------------------------------------------------------------- places (access_places.cpp)
  // eval_lvalue(e, env): what `e` designates, after the effects of evaluating its parts (the
  // pointer and index of `p[i]`, the object of `s.f`); it reads or writes nothing itself.
  // read/write go through a place: memory is recorded (loads and stores), a variable is looked
  // up in or written to env.vars (write does nothing while quiet).

  LValue eval_lvalue(const clang::Expr* e, Env& env);
  LValue decl_ref_lvalue(const clang::DeclRefExpr* ref, Env& env);
  LValue subscript_lvalue(const clang::ArraySubscriptExpr* sub, Env& env);
  LValue deref_lvalue(const clang::UnaryOperator* un, Env& env);
  LValue call_lvalue(const clang::CallExpr* call, Env& env);
  LValue eval_member_lvalue(const clang::MemberExpr* member, Env& env);
  Value read(const LValue& lv, const clang::Expr* e, Env& env);
  void write(const LValue& lv, const Value& value, const clang::Expr* e, Env& env);
  // The variable's value becomes unknown (it may change behind the interpreter's back).
  void havoc(const clang::VarDecl* var, Env& env);

  // ---------------------------------------------------------------- calls (access_calls.cpp)
  // Same contract as eval. An inlined call runs the callee's body in a fresh Env (the caller's
  // facts and guards, the parameters bound to the arguments) under a new Frame; what it does to
  // the caller's env is what evaluating the arguments does (a non-const reference argument to
  // a local that is not bound to memory havocs it).

  // An argument for `param`: a reference parameter bound to memory is the address (with
  // `bind_reference`, for inlining) or a load; a non-const reference to a local havocs it.
  // A struct too large for one access (more than 16 bytes): storage, not a value.
  bool is_storage_block(clang::QualType type) const;
  Value eval_argument(const clang::Expr* arg, const clang::ParmVarDecl* param, Env& env, bool bind_reference);
  Value eval_call(const clang::CallExpr* call, Env& env);
  std::optional<Value> eval_memory_intrinsic(const clang::CallExpr* call, const std::string& name, Env& env);
  std::optional<Value> eval_compiler_builtin(const clang::CallExpr* call, const std::string& name, Env& env);
  std::optional<Value> eval_clamp(const clang::CallExpr* call, const std::string& name, Env& env);
  // cooperative_groups (access_cooperative_groups.cpp): a group's thread_rank(), size(),
  // meta_group_rank(), group_index()… as forms over the thread and block indices.
  std::optional<Value> eval_cooperative_groups(const clang::CallExpr* call, Env& env);
  void describe_element(const clang::Expr* e, const Value& address, MemoryAccess& m) const;
  bool should_inline(const clang::FunctionDecl* definition) const;
  Value eval_opaque_call(const clang::CallExpr* call, const std::string& name, Env& env);
  Value inline_call(const clang::CallExpr* call, const clang::FunctionDecl* definition, Env& env);
  Value eval_operator_call(const clang::CXXOperatorCallExpr* op, Env& env);
  Value eval_implicit_object(const clang::CXXMemberCallExpr* call, Env& env);
  Value eval_construct(const clang::CXXConstructExpr* construct, Env& env);
  // Host code: appends a LaunchObservation (block shape, what each argument is known to be).
  Value eval_launch(const clang::CUDAKernelCallExpr* launch, Env& env);
  // The (dividend, divisor) of each grid dimension written as an exact quotient, `n / 128`: an
  // argument equal to the dividend is taken to be a multiple of the divisor.
  std::vector<std::pair<Poly, int64_t>> grid_divisions(const Value& grid) const;

  // ---------------------------------------------------------------- instructions (access_instructions.cpp)
  // Accesses the expressions do not show. Inline PTX: its operands are evaluated (a memory
  // operand is a load, a memory output a store), each `ld`/`st`/`red`/`atom`/`cp.async` through
  // an operand the interpreter tracks is recorded like a dereference of that width, one through
  // an untracked address (a PTX register, an opaque pointer) of explicit .global space as
  // unjudged. A call into library code (not inlined: not the user's) records what its summary
  // says: accesses through the pointer arguments it is passed, judged with their values, and
  // global accesses through other addresses, unjudged, at the call.

  void exec_asm(const clang::GCCAsmStmt* statement, Env& env);
  // `args`/`values`: the call's arguments that bind the callee's parameters, in order.
  void record_library_call(const clang::Expr* call, const clang::FunctionDecl* callee,
                           const std::vector<const clang::Expr*>& args, const std::vector<Value>& values,
                           Env& env);
  void record_instruction(const clang::Expr* operand, const Value& address, uint32_t width,
                          PtxMemoryAccess::Kind kind, const std::string& instruction, Env& env);
  // A global access whose address the model does not know: seen, not judged.
  void record_untracked(clang::SourceRange where, PtxMemoryAccess::Kind kind, uint32_t width,
                        const std::string& instruction, const std::string& via, const Env& env);
  clang::QualType unsigned_of_bytes(uint32_t bytes) const;

  // ---------------------------------------------------------------- conditions (access_executor.cpp)
  // assume(cond, truth, env): `env` is a path on which `cond` is `truth`; adds the facts and
  // lane guards that follow to env.facts/env.guards. Evaluates (parts of) the condition again,
  // quietly: callers evaluate the condition itself, once, for its effects.

  void assume(const clang::Expr* cond, bool truth, Env& env);
  void assume_impl(const clang::Expr* cond, bool truth, Env& env, int depth);
  // Is `e` written `X % K` or `X & (2^k - 1)`? Then X and the power-of-two part of K.
  bool remainder_pattern(const clang::Expr* e, const clang::Expr*& x, int& bits);
  // `lhs op rhs` (rhs null: `lhs != 0`) holds when `truth`.
  void relation(const clang::Expr* lhs, const clang::Expr* rhs, clang::BinaryOperatorKind op, bool truth,
                Env& env);

  // ---------------------------------------------------------------- statements (access_executor.cpp)
  // exec(s, env): `env` becomes the state after `s` on this path; env.dead when no path goes
  // on (return, break, continue, goto, a call that does not return). Paths that split (if,
  // ?:, switch cases) are walked separately and joined.

  void exec(const clang::Stmt* s, Env& env);
  void exec_return(const clang::ReturnStmt* ret, Env& env);
  void declare(const clang::VarDecl* var, Env& env);
  // Each case is a path from the switch: walk from every label until the path ends (break,
  // return). Afterwards the variables the body assigns are unknown.
  void exec_switch(const clang::SwitchStmt* sw, Env& env);
  void exec_if(const clang::IfStmt* ifs, Env& env);
  void exec_loop(const clang::Stmt* loop, const clang::Stmt* init, const clang::DeclStmt* cond_var,
                 const clang::Expr* cond, const clang::Expr* inc, const clang::Stmt* body, Env& env);
  // Loop analysis. collect_modifications and mentions_any only read the AST; enter_loop_variable
  // evaluates a step (quietly) before it takes a reference into entry.vars, and
  // advance_induction only adds atoms.
  std::set<const clang::Stmt*> loop_top_level(const clang::Expr* inc, const clang::Stmt* body) const;
  void add_top_level(const clang::Stmt* s, std::set<const clang::Stmt*>& top_level) const;
  std::optional<bool> constant_condition(const clang::IfStmt* ifs) const;
  // Assignments to variables in a loop: which ones step by a loop-invariant amount.
  void collect_modifications(const clang::Stmt* s, ModificationMap& mods,
                             const std::set<const clang::Stmt*>& top_level);
  bool mentions_any(const clang::Stmt* s, const ModificationMap& mods);
  void enter_loop_variable(const clang::VarDecl* var, const Modification& m, const ModificationMap& mods,
                           Env& entry, std::map<const clang::VarDecl*, Variation>& havoc_variation);
  bool advance_induction(const clang::VarDecl* var, const Modification& m, const Poly& step, Value& v);
  bool raise_stand_ins(const Env& body_env,
                       std::map<const clang::VarDecl*, Variation>& havoc_variation) const;

  // ---------------------------------------------------------------- synchronisation (access_sync.cpp)
  // A barrier ends the interval in which shared accesses can race (env.since_barrier is
  // cleared) and is recorded with the path's divergent conditions. Branches and loops whose
  // condition varies across the block's threads add to env.divergent (note_divergence); a
  // shared access is compared with the path's earlier ones since the last barrier and appended
  // (touch_shared). Loops compare the accesses at the end of an iteration with those at the
  // start of the next (end_loop_sync). Nothing is recorded while quiet or in host code.

  // __syncthreads*, __syncwarp, cooperative groups' sync, cuda::barrier::arrive_and_wait. A call
  // into library code that synchronises (a CUB block primitive) passes a barrier too.
  std::optional<Value> eval_barrier_call(const clang::CallExpr* call, Env& env);
  void pass_barrier(clang::SourceRange where, BarrierScope scope, const std::string& spelling, Env& env,
                    bool aligned = true);
  // After a kernel's walk: a divergent barrier whose skipping threads reach a later barrier.
  static void mark_others_wait(std::vector<BarrierRecord>& barriers, size_t first);
  // A path leaves the innermost inlined call: its unsynchronised accesses go back to the caller.
  void leave_frame(const Env& env);
  // `path` is `before` with the condition assumed (its thread-index guards added).
  void note_divergence(const clang::Expr* cond, const Value& value, DivergentCondition::Kind kind, const Env& before,
                       Env& path, bool truth = true);
  // A block-uniform `if`: its outcome on each branch (t true, f false), for the race check.
  void note_uniform_test(const clang::Expr* cond, const Value& value, const Env& before, Env& t, Env& f);
  // Past an `if` one of whose branches ended the path: the threads that took it are gone.
  void note_exit(const clang::Expr* cond, Env& env);
  // The two sides of a comparison on the path `env`, evaluated quietly on a copy of it (the
  // conditions the synchronisation model reads: trip counts, splits, uniform tests).
  std::pair<Value, Value> comparison_sides(const clang::BinaryOperator* rel, const Env& env);
  // What the enumeration of the block's threads knows on a path (shared_hazards.h).
  HazardDomain hazard_domain(const PathFacts& facts) const;
  void touch_shared(const MemoryAccess& m, int base_index, const Poly& offset, uint32_t width, Env& env);
  void compare_touches(const interpreter::SharedTouch& first, const interpreter::SharedTouch& second,
                       const Env& env, const LoopSync* carried_by);
  // Loops: entered with the body's first environment, left with the body's last.
  void begin_loop_sync(const clang::Stmt* loop, size_t first_new_atom, const clang::Expr* cond,
                       const Value& cond_value, Env& body_env);
  // A loop whose condition varies across the block: does its trip count (`i = tid; i < n;
  // i += blockDim.x` is uniform when n is a multiple of blockDim.x)?
  void note_loop_divergence(const clang::Expr* cond, const Value& cond_value, Env& body_env);
  void end_loop_sync(const Env& body_end, Env& after);
  // The trip counts a loop condition fixes for the iteration atoms added since `first_new_atom`.
  void note_trip_counts(const clang::Expr* cond, const Env& entry, size_t first_new_atom);
  // The inclusive bounds (`c <= cols`, step 1) a loop condition gives the iteration atoms added
  // since `first_new_atom`.
  void note_inclusive_bound(const clang::Expr* cond, const Env& entry, size_t first_new_atom);
  // The values of the loop's geometric variables (geometric_candidates) while `cond` holds, under
  // a new iteration atom with that trip count.
  void note_sequences(const clang::Expr* cond, const Env& entry, size_t first_new_atom);
  // A stand-in for a geometric variable's value one iteration later (interned).
  AtomId next_in_sequence(AtomId g);

  // ---------------------------------------------------------------- records (access_recorder.cpp)
  // record: appends one MemoryAccess to *out for a load or store of `type` at `address`, when
  // it is in the user's code, into shared or global memory, and not quiet or host mode. Reads
  // env's facts and guards and the frames; changes nothing else but `out` (and may intern a
  // sizeof atom).

  void record(const clang::Expr* e, const Value& address, clang::QualType type, bool store, bool atomic,
              Env& env, const std::string& field_of = "");
  MemoryAccess describe_access(const clang::Expr* e, const Base& base, clang::QualType t, bool store,
                               bool atomic, const std::string& field_of) const;
  // A record placed at `where`: location, function, kernel and call chain.
  MemoryAccess placed_record(clang::SourceRange where) const;
  int64_t access_width(clang::QualType t, std::optional<int64_t> size, uint64_t align, Poly& offset,
                       MemoryAccess& m);
  std::optional<Poly> at_first_iteration(const Poly& p, std::vector<AtomId>& replaced) const;
  void estimate_first_iteration(const WarpQuery& q, WarpEstimate& w, std::string& note) const;
  static bool contains_return(const clang::Stmt* s);
  static bool leaves_loop(const clang::Stmt* s);  // a break/continue/goto of this loop
  uint8_t dimensions_of(const Poly& form, int depth) const;
  void note_tail(int base, const Poly& offset, int64_t size, const Env& env, MemoryAccess& m) const;
  // A guarded access past the guard's count into a buffer the launches make exactly that long,
  // from the tightest test of its index and whether the threads take that index everywhere.
  void note_guarded_overrun(int base, const Poly& offset, int64_t size, const Env& env, MemoryAccess& m) const;
  struct GuardBound {
    int64_t reach = 0;  // the element index is at most count + reach
    bool inclusive = false;
    Poly guarded;       // what the test bounds
    AtomId count = 0;   // the count parameter's atom
  };
  std::optional<GuardBound> tightest_guard(const Poly& element, int d, const Env& env) const;
  bool covers_every_index(const Poly& guarded, int d, int count, const Env& env, bool& rounded,
                          std::string& loop_variable) const;
  // The note of the launches' allocation when they make the buffer of `base` exactly as many
  // elements (of `access_size` bytes) long as the integer parameter at `count`; else empty.
  std::string exact_extent(int base, int64_t access_size, int count) const;
  int parameter_position(AtomId parameter) const;  // of an integer parameter's atom; -1: none
  // A global access that walks a row with an inclusive loop bound equal to the row's length.
  void note_row_overrun(int base, const Poly& offset, int64_t size, const Env& env, MemoryAccess& m) const;
  // A vector access whose path tests only its first element against a count parameter.
  void note_vector_tail(int base, const Poly& offset, int64_t size, const Env& env, MemoryAccess& m) const;
  void note_rounded_grid(const clang::CUDAKernelCallExpr* launch, const std::vector<Value>& args, Env& env,
                         LaunchObservation& obs);
  // Host buffers (access_host_buffers.cpp): an allocation or a tensor's data, with its extent;
  // nothing for any other call. At a launch, which integer arguments count each buffer's elements.
  std::optional<Value> eval_host_buffer_call(const clang::CallExpr* call, const std::string& name, Env& env);
  AtomId numel_atom(const clang::VarDecl* tensor);  // `x.numel()`, one atom per tensor variable
  void note_buffer_extents(const clang::FunctionDecl& kernel, const std::vector<Value>& args, const Env& env,
                           LaunchObservation& obs) const;
  void estimate_coalescing(const Base& base, const Poly& offset, int64_t width, std::optional<int64_t> size,
                           const Env& env, MemoryAccess& m) const;
  // The alignment verdict of a vector access of `w` bytes at base + offset.
  void check_alignment(const Base& base, const Poly& offset_in, uint64_t w, const Env& env,
                       MemoryAccess& m) const;
};

}  // namespace kl::analyzers
