// Calls: arguments, CUDA's memory intrinsics, compiler builtins, inlining the user's functions,
// overloaded operators, constructors (dim3 among them) and, in host code, kernel launches.
// See access_interpreter_impl.h for the contracts.
#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>

#include <algorithm>

#include "analyzers/frontend/device_parser.h"
#include "analyzers/model/interpreter/access_interpreter_impl.h"
#include "analyzers/model/device_code.h"
#include "analyzers/model/safe_types.h"

namespace kl::analyzers {

using interpreter::canonical;
using interpreter::Env;
using interpreter::Frame;
using interpreter::kMaxInlineDepth;
using interpreter::LValue;
using interpreter::Value;

bool AccessInterpreter::Impl::is_storage_block(clang::QualType type) const {
  if (type.isNull() || !type->isRecordType() || type->isIncompleteType() || type->isDependentType()) return false;
  return ctx.getTypeSizeInChars(type).getQuantity() > 16;
}

Value AccessInterpreter::Impl::eval_argument(const clang::Expr* arg, const clang::ParmVarDecl* param,
                                             Env& env, bool bind_reference) {
  bool by_reference = param && is_reference_type(param->getType());
  if (by_reference && arg->isGLValue()) {
    LValue lv = eval_lvalue(arg, env);
    if (lv.kind == LValue::Kind::Memory) {
      if (bind_reference) {
        Value ref = lv.address;
        ref.reference = true;
        return ref;
      }
      // A function we do not inline reads the referenced object: a scalar or a small struct
      // (`half2` into its operator*), whole. A struct larger than any one access (CUB's
      // TempStorage, a parameter block) is storage the callee reads member by member, at widths
      // we cannot see: binding it is no access.
      if (is_storage_block(lv.type)) return Value::none(memory_variation(lv.address));
      record(arg, lv.address, lv.type, false, false, env);
      return Value::none(memory_variation(lv.address));
    }
    if (lv.kind == LValue::Kind::Var) {
      if (!non_reference(param->getType()).isConstQualified() && !quiet) {
        Value before = read(lv, arg, env);
        havoc(lv.var, env);
        return before;
      }
      return read(lv, arg, env);
    }
    return eval(arg, env);
  }
  return eval(arg, env);
}

Value AccessInterpreter::Impl::eval_call(const clang::CallExpr* call, Env& env) {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  // A constexpr call on constants (`std::min(N, 32)`, `log2_ceil(COLS)`) is a constant of this
  // instantiation.
  if (callee && callee->isConstexpr() && is_integral_type(call->getType()))
    if (auto known = constant_value(call, ctx)) return Value::integer(Poly::constant(*known));
  std::string name = callee && callee->getIdentifier() ? callee->getName().str() : "";
  if (!host_mode)
    if (std::optional<Value> v = eval_barrier_call(call, env)) return *v;
  if (!name.empty() && !host_mode)
    if (std::optional<Value> v = eval_memory_intrinsic(call, name, env)) return *v;
  if (std::optional<Value> v = eval_compiler_builtin(call, name, env)) return *v;
  if (!host_mode)
    if (std::optional<Value> v = eval_cooperative_groups(call, env)) return *v;
  if (std::optional<Value> v = eval_clamp(call, name, env)) return *v;
  if (host_mode)
    if (std::optional<Value> v = eval_host_buffer_call(call, name, env)) return *v;
  const clang::FunctionDecl* definition = callee ? callee->getDefinition() : nullptr;
  if (should_inline(definition) && !quiet) return inline_call(call, definition, env);
  return eval_opaque_call(call, name, env);
}

// CUDA's load/store intrinsics and atomics (device code only): the access through their first
// argument. Nothing for any other name.
std::optional<Value> AccessInterpreter::Impl::eval_memory_intrinsic(const clang::CallExpr* call,
                                                                    const std::string& name, Env& env) {
  auto arg = [&](unsigned i) { return i < call->getNumArgs() ? call->getArg(i) : nullptr; };
  if (name == "__ldg" || name == "__ldca" || name == "__ldcg" || name == "__ldcs" || name == "__ldlu" ||
      name == "__ldcv") {
    Value p = eval(arg(0), env);
    if (p.kind == Value::Kind::Pointer) record(call, p, pointee(arg(0)->getType()), false, false, env);
    if (is_integral_type(call->getType()))
      return opaque(memory_variation(p), text_of(call), Congruence::unknown(), false, /*loaded=*/true);
    return Value::none(memory_variation(p));
  }
  if (name == "__stcg" || name == "__stcs" || name == "__stwb" || name == "__stwt") {
    Value p = eval(arg(0), env);
    eval(arg(1), env);
    if (p.kind == Value::Kind::Pointer) record(call, p, pointee(arg(0)->getType()), true, false, env);
    return Value::none();
  }
  if (llvm::StringRef(name).starts_with("atomic") && call->getNumArgs() >= 1 && is_pointer_type(arg(0)->getType())) {
    Value p = eval(arg(0), env);
    for (unsigned i = 1; i < call->getNumArgs(); ++i) eval(arg(i), env);
    if (p.kind == Value::Kind::Pointer) record(call, p, pointee(arg(0)->getType()), true, true, env);
    return opaque(Variation::Varying, "");
  }
  return std::nullopt;
}

// `min(C - 1, i + u * blockDim.x)`: an integer min/max of a per-thread index and a uniform
// bound is the index for every warp but the row's last, which is what coalescing is judged on.
std::optional<Value> AccessInterpreter::Impl::eval_clamp(const clang::CallExpr* call, const std::string& name,
                                                         Env& env) {
  if (call->getNumArgs() != 2 || !is_integral_type(call->getType())) return std::nullopt;
  if (name != "min" && name != "max" && name != "umin" && name != "umax" && name != "llmin" && name != "llmax")
    return std::nullopt;
  Value a = eval(call->getArg(0), env), b = eval(call->getArg(1), env);
  if (a.kind != Value::Kind::Int || b.kind != Value::Kind::Int) return std::nullopt;
  Variation va = variation_of(a), vb = variation_of(b);
  auto per_thread = [](Variation v) { return v == Variation::Lane || v == Variation::Piecewise; };
  // The bound does hold the value in: what follows is not an unguarded tail (out-of-bounds).
  if ((per_thread(va) && vb == Variation::Uniform) || (per_thread(vb) && va == Variation::Uniform)) env.conditioned = interpreter::kAllDimensions;
  if (per_thread(va) && vb == Variation::Uniform) return a;
  if (per_thread(vb) && va == Variation::Uniform) return b;
  return std::nullopt;
}

// __builtin_assume (a fact on the path), __builtin_expect (its value), __builtin_assume_aligned
// (a congruence of the pointer's address). Nothing for any other name.
std::optional<Value> AccessInterpreter::Impl::eval_compiler_builtin(const clang::CallExpr* call,
                                                                    const std::string& name, Env& env) {
  auto arg = [&](unsigned i) { return i < call->getNumArgs() ? call->getArg(i) : nullptr; };
  if (name == "__builtin_assume" && call->getNumArgs() == 1) {
    assume(arg(0), true, env);
    return Value::none();
  }
  if (name == "__builtin_expect" && call->getNumArgs() >= 1) return eval(arg(0), env);
  if (name == "__builtin_assume_aligned" && call->getNumArgs() >= 2) {
    Value p = eval(arg(0), env);
    if (auto n = constant_value(arg(1), ctx); n && p.kind == Value::Kind::Pointer && p.base >= 0 && !quiet) {
      if (auto form = Poly::atom(bases[p.base].address).plus(p.form))
        env.facts.add_congruence(atoms, *form, Congruence::multiple_of(static_cast<uint64_t>(*n)));
    }
    return p;
  }
  return std::nullopt;
}

// A user function the interpreter follows: in device code the user's __device__ functions, in
// host code the functions on a path to a launch; within the inlining depth, never recursively.
bool AccessInterpreter::Impl::should_inline(const clang::FunctionDecl* definition) const {
  bool in_user_code = definition && definition->hasBody() && view.is_user_location(definition->getLocation());
  bool wanted = host_mode ? (host_inlinable && in_user_code && host_inlinable->count(definition) > 0)
                          : (in_user_code && is_device_function(*definition) && !is_kernel(*definition));
  return wanted && static_cast<int>(frames.size()) <= kMaxInlineDepth &&
         std::none_of(frames.begin(), frames.end(), [&](const Frame& f) { return f.function == definition; });
}

// A call not followed: the arguments are still evaluated (their loads happen), the result is
// opaque; a call that does not return ends the path.
Value AccessInterpreter::Impl::eval_opaque_call(const clang::CallExpr* call, const std::string& name,
                                                Env& env) {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  auto arg = [&](unsigned i) { return i < call->getNumArgs() ? call->getArg(i) : nullptr; };
  Variation v = Variation::Uniform;
  std::vector<const clang::Expr*> args;
  std::vector<Value> values;
  for (unsigned i = 0; i < call->getNumArgs(); ++i) {
    const clang::ParmVarDecl* param = callee && i < callee->getNumParams() ? callee->getParamDecl(i) : nullptr;
    args.push_back(arg(i));
    values.push_back(eval_argument(arg(i), param, env, false));
    v = max_variation(v, variation_of(values.back()));
  }
  if (auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(call))
    v = max_variation(v, variation_of(eval_implicit_object(member, env)));
  if (!host_mode) record_library_call(call, callee, args, values, env);
  // A CUB block primitive whose body the parse does not hold (headers precompiled without
  // function bodies) may synchronise the block: no race is looked for across it.
  if (!host_mode && callee && library_block_primitive(*callee))
    pass_barrier(call->getSourceRange(), BarrierScope::Subset, "", env);
  // So may a call the parse cannot resolve (a dependent call in a template analysed as written,
  // `Block_reduce(temp).Reduce(…)` with Block_reduce a dependent type).
  if (!host_mode && !callee) pass_barrier(call->getSourceRange(), BarrierScope::Subset, "", env);
  if ((callee && callee->isNoReturn()) || name == "__trap" || name == "__assert_fail" ||
      name == "__builtin_unreachable" || name == "abort") {
    env.dead = true;
    env.exited = true;
  }
  clang::QualType t = call->getType();
  if (host_mode && is_pointer_type(t)) {
    // A pointer a host function gets back (an allocation, a tensor's data): assumed to start
    // an allocation, like kernel pointer parameters.
    int id = add_base(text_of(call), MemorySpace::Global, options.assumed_pointer_alignment, std::nullopt);
    return Value::pointer(id, Poly());
  }
  if (is_integral_type(t)) return opaque(v, text_of(call));
  return Value::none(v);
}

// The object a method we do not follow is called on. A conversion operator or a const method
// of an object in memory reads it: `(float)x[i]` and `float v = x[i]` on `__nv_bfloat16` or
// `__half` load the element through `operator float() const`, which lives in CUDA's headers.
// A non-const method may read, write or do neither: nothing is claimed for it.
Value AccessInterpreter::Impl::eval_implicit_object(const clang::CXXMemberCallExpr* call, Env& env) {
  const clang::Expr* object = call->getImplicitObjectArgument();
  const clang::CXXMethodDecl* method = call->getMethodDecl();
  bool reads_object = method && (llvm::isa<clang::CXXConversionDecl>(method) || method->isConst());
  // A materialised temporary (`(float)__ldg(p)`) is no object in memory: its initialiser is
  // what is evaluated. (IgnoreParenImpCasts looks through the materialisation to the prvalue.)
  bool temporary = object && object->IgnoreParenImpCasts()->isPRValue();
  if (!object || !reads_object || temporary || !object->isGLValue() || call->isTypeDependent())
    return eval(object, env);
  LValue lv = eval_lvalue(object, env);
  if (lv.kind != LValue::Kind::Memory) return read(lv, object, env);
  record(object, lv.address, lv.type, false, false, env);
  return Value::none(memory_variation(lv.address));
}

Value AccessInterpreter::Impl::inline_call(const clang::CallExpr* call, const clang::FunctionDecl* definition,
                                           Env& env) {
  Env callee_env;
  callee_env.facts = env.facts;
  callee_env.guards = env.guards;
  callee_env.caller_data_branch = env.data_branch || env.caller_data_branch;
  callee_env.conditioned = env.conditioned;
  callee_env.divergent = env.divergent;
  callee_env.uniform_tests = env.uniform_tests;
  callee_env.since_barrier = env.since_barrier;
  callee_env.loop_prefix_open = env.loop_prefix_open;
  std::vector<const clang::VarDecl*> out_params;
  unsigned first_arg = 0;
  if (llvm::isa<clang::CXXOperatorCallExpr>(call) && llvm::isa<clang::CXXMethodDecl>(definition)) first_arg = 1;
  for (unsigned i = 0; i < definition->getNumParams(); ++i) {
    const clang::ParmVarDecl* param = definition->getParamDecl(i);
    unsigned a = i + first_arg;
    Value v;
    if (a < call->getNumArgs()) v = eval_argument(call->getArg(a), param, env, true);
    else if (param->hasDefaultArg() && param->getDefaultArg()) v = eval(param->getDefaultArg(), env);
    callee_env.vars[canonical(param)] = v;
  }
  if (auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(call)) eval(member->getImplicitObjectArgument(), env);
  Frame frame;
  frame.function = definition;
  frame.call_site = view.location_of(call->getSourceRange());
  frame.returns_reference = is_reference_type(definition->getReturnType());
  frames.push_back(frame);
  exec(definition->getBody(), callee_env);
  if (!callee_env.dead) leave_frame(callee_env);
  Frame done = std::move(frames.back());
  frames.pop_back();
  if (done.left) {
    env.since_barrier = std::move(done.touches_left);
    env.loop_prefix_open = std::move(done.prefix_open_left);
  }
  if (done.returns.empty()) {
    if (is_integral_type(definition->getReturnType())) return opaque(Variation::Varying, text_of(call));
    return Value::none(Variation::Varying);
  }
  Value result = done.returns.front();
  for (size_t i = 1; i < done.returns.size(); ++i) result = join_values(result, done.returns[i]);
  if (result.kind == Value::Kind::None && is_integral_type(definition->getReturnType()))
    return opaque(result.variation, text_of(call));
  return result;
}

Value AccessInterpreter::Impl::eval_operator_call(const clang::CXXOperatorCallExpr* op, Env& env) {
  clang::OverloadedOperatorKind kind = op->getOperator();
  const clang::FunctionDecl* callee = op->getDirectCallee();
  bool assignment = kind == clang::OO_Equal || kind == clang::OO_PlusEqual || kind == clang::OO_MinusEqual ||
                    kind == clang::OO_StarEqual || kind == clang::OO_SlashEqual;
  // A tensor assigned anew (`x = x.narrow(0, 0, m)`) has a new numel().
  if (assignment && op->getNumArgs() == 2 && host_mode && !quiet)
    if (auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(op->getArg(0)->IgnoreParenImpCasts()))
      if (auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl())) ++assignments[canonical(var)];
  const clang::FunctionDecl* definition = callee ? callee->getDefinition() : nullptr;
  bool user_code = definition && definition->hasBody() && view.is_user_location(definition->getLocation()) &&
                   is_device_function(*definition);
  if (assignment && op->getNumArgs() == 2 && !user_code) {
    // Copy/compound assignment of a class value (float4, __half2): a store to the left side,
    // a load of the right side when it is memory.
    const clang::Expr* rhs = op->getArg(1);
    LValue src = rhs->isGLValue() ? eval_lvalue(rhs, env) : LValue();
    if (src.kind == LValue::Kind::Memory) record(rhs, src.address, src.type, false, false, env);
    else eval(rhs, env);
    LValue dst = eval_lvalue(op->getArg(0), env);
    if (dst.kind == LValue::Kind::Memory) {
      if (kind != clang::OO_Equal) record(op->getArg(0), dst.address, dst.type, false, false, env);
      record(op->getArg(0), dst.address, dst.type, true, false, env);
    } else if (dst.kind == LValue::Kind::Var && !quiet) {
      env.vars[dst.var] = Value::none(variation_of(eval(rhs, env)));
    }
    return Value::none();
  }
  if (user_code && !host_mode && !quiet && static_cast<int>(frames.size()) <= kMaxInlineDepth)
    return inline_call(op, definition, env);
  Variation v = Variation::Uniform;
  std::vector<const clang::Expr*> args;  // those that bind parameters (not the object)
  std::vector<Value> values;
  for (unsigned i = 0; i < op->getNumArgs(); ++i) {
    const clang::ParmVarDecl* param = nullptr;
    if (callee) {
      bool method = llvm::isa<clang::CXXMethodDecl>(callee);
      if (method && i == 0) {
        v = max_variation(v, variation_of(eval_argument(op->getArg(0), nullptr, env, false)));
        const clang::Expr* object = op->getArg(0);
        if (object->isGLValue()) {
          LValue lv = eval_lvalue(object, env);
          if (lv.kind == LValue::Kind::Memory) record(object, lv.address, lv.type, false, false, env);
        }
        continue;
      }
      unsigned p = method ? i - 1 : i;
      if (p < callee->getNumParams()) param = callee->getParamDecl(p);
    }
    args.push_back(op->getArg(i));
    values.push_back(eval_argument(op->getArg(i), param, env, false));
    v = max_variation(v, variation_of(values.back()));
  }
  if (!host_mode) record_library_call(op, callee, args, values, env);
  if (is_integral_type(op->getType())) return opaque(v, text_of(op));
  return Value::none(v);
}

Value AccessInterpreter::Impl::eval_construct(const clang::CXXConstructExpr* construct, Env& env) {
  const clang::CXXConstructorDecl* ctor = construct->getConstructor();
  const clang::CXXRecordDecl* record_decl = ctor ? ctor->getParent() : nullptr;
  if (record_decl && record_decl->getName() == "dim3") {
    Value d;
    d.kind = Value::Kind::Dim3;
    for (int i = 0; i < 3; ++i) d.dims[i] = Poly::constant(1);
    if (construct->getNumArgs() == 1 && !construct->getArg(0)->getType().isNull() &&
        construct->getArg(0)->getType()->getAsCXXRecordDecl() == record_decl) {
      Value src = eval(construct->getArg(0), env);
      if (src.kind == Value::Kind::Dim3) return src;
      LValue lv = eval_lvalue(construct->getArg(0), env);
      if (lv.kind == LValue::Kind::Var)
        if (auto it = env.vars.find(lv.var); it != env.vars.end() && it->second.kind == Value::Kind::Dim3) return it->second;
      return Value::none();
    }
    for (unsigned i = 0; i < construct->getNumArgs() && i < 3; ++i) {
      Value v = eval(construct->getArg(i), env);
      d.dims[i] = v.kind == Value::Kind::Int ? v.form : opaque(Variation::Uniform, "").form;
    }
    return d;
  }
  if (ctor && ctor->isCopyOrMoveConstructor() && construct->getNumArgs() >= 1) {
    const clang::Expr* src = construct->getArg(0);
    if (src->isGLValue()) {
      LValue lv = eval_lvalue(src, env);
      if (lv.kind == LValue::Kind::Memory) {
        record(src, lv.address, lv.type, false, false, env);
        return Value::none(memory_variation(lv.address));
      }
      if (lv.kind == LValue::Kind::Var || lv.kind == LValue::Kind::Field) return read(lv, src, env);
    }
    return eval(src, env);
  }
  Variation v = Variation::Uniform;
  std::vector<const clang::Expr*> args;
  std::vector<Value> values;
  for (unsigned i = 0; i < construct->getNumArgs(); ++i) {
    const clang::ParmVarDecl* param = ctor && i < ctor->getNumParams() ? ctor->getParamDecl(i) : nullptr;
    args.push_back(construct->getArg(i));
    values.push_back(eval_argument(construct->getArg(i), param, env, false));
    v = max_variation(v, variation_of(values.back()));
  }
  if (!host_mode) record_library_call(construct, ctor, args, values, env);
  return Value::none(v);
}

namespace {

// The dividends and constant divisors of a grid's dimensions written as exact quotients (`n / 128`,
// not `(n + 127) / 128`).
std::vector<std::pair<Poly, int64_t>> grid_divisions_of(const AtomTable& atoms, const std::vector<Poly>& dims) {
  std::vector<std::pair<Poly, int64_t>> out;
  for (const Poly& dim : dims) {
    if (dim.terms().size() != 1 || dim.terms()[0].coefficient != 1 || dim.terms()[0].atoms.size() != 1) continue;
    const Atom& atom = atoms[dim.terms()[0].atoms[0]];
    if (atom.kind != AtomKind::Quotient) continue;
    auto divisor = atom.divisor.constant_value();
    if (divisor && *divisor > 1 && !atom.inner.is_constant()) out.emplace_back(atom.inner, *divisor);
  }
  return out;
}

// An expression as written, through parentheses, casts and the initialisers of the locals it
// names (`int blocks = (n + 255) / 256;`, `dim3 grid(...)`).
const clang::Expr* through_locals(const clang::Expr* e) {
  for (int step = 0; e && step < 6; ++step) {
    e = e->IgnoreParenImpCasts();
    if (auto* c = llvm::dyn_cast<clang::ExprWithCleanups>(e)) { e = c->getSubExpr(); continue; }
    if (auto* c = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e)) { e = c->getSubExpr(); continue; }
    if (auto* c = llvm::dyn_cast<clang::ExplicitCastExpr>(e)) { e = c->getSubExpr(); continue; }
    if (auto* c = llvm::dyn_cast<clang::CXXConstructExpr>(e); c && c->getNumArgs() == 1 && c->getConstructor() &&
        c->getConstructor()->isCopyOrMoveConstructor()) { e = c->getArg(0); continue; }
    auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e);
    auto* var = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    if (!var || llvm::isa<clang::ParmVarDecl>(var) || !var->hasLocalStorage() || !var->getInit()) return e;
    e = var->getInit();
  }
  return e ? e->IgnoreParenImpCasts() : e;
}

// The grid's dimensions as written: a dim3's constructor arguments, or the one expression.
std::vector<const clang::Expr*> grid_dimensions(const clang::Expr* grid) {
  const clang::Expr* g = through_locals(grid);
  if (auto* construct = llvm::dyn_cast_or_null<clang::CXXConstructExpr>(g)) {
    std::vector<const clang::Expr*> dims;
    for (unsigned i = 0; i < construct->getNumArgs() && i < 3; ++i)
      dims.push_back(llvm::isa<clang::CXXDefaultArgExpr>(construct->getArg(i)) ? nullptr : construct->getArg(i));
    return dims;
  }
  return {g};
}

bool is_constant(const clang::Expr* e, const clang::ASTContext& ctx, int64_t value) {
  auto v = e ? constant_value(e, ctx) : std::nullopt;
  return v && *v == value;
}

// A grid dimension written as ceil(X / B): `(X + B - 1) / B` (also `(X + B) - 1`, and `>> k`),
// `(X - 1) / B + 1`, or a call to a ceiling-division helper (`cdiv(X, B)`, `iDivUp`, `DIV_UP`
// as a function, `ceil_div`). X's expression and B.
std::optional<std::pair<const clang::Expr*, int64_t>> ceil_division(const clang::Expr* dim, const clang::ASTContext& ctx) {
  const clang::Expr* e = dim ? through_locals(dim) : nullptr;
  if (!e) return std::nullopt;
  if (auto* call = llvm::dyn_cast<clang::CallExpr>(e); call && call->getNumArgs() == 2) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    std::string name = callee && callee->getIdentifier() ? callee->getName().lower() : "";
    bool ceiling = name.find("ceil") != std::string::npos || name.find("cdiv") != std::string::npos ||
                   name.find("divup") != std::string::npos || name.find("div_up") != std::string::npos ||
                   name.find("div_round_up") != std::string::npos;
    auto b = constant_value(call->getArg(1), ctx);
    if (ceiling && b && *b >= 2) return std::make_pair(call->getArg(0), *b);
    return std::nullopt;
  }
  auto* bin = llvm::dyn_cast<clang::BinaryOperator>(e);
  if (!bin) return std::nullopt;
  // (X - 1) / B + 1
  if (bin->getOpcode() == clang::BO_Add && is_constant(bin->getRHS(), ctx, 1)) {
    auto* div = llvm::dyn_cast<clang::BinaryOperator>(bin->getLHS()->IgnoreParenImpCasts());
    auto b = div && div->getOpcode() == clang::BO_Div ? constant_value(div->getRHS(), ctx) : std::nullopt;
    auto* sub = div ? llvm::dyn_cast<clang::BinaryOperator>(div->getLHS()->IgnoreParenImpCasts()) : nullptr;
    if (b && *b >= 2 && sub && sub->getOpcode() == clang::BO_Sub && is_constant(sub->getRHS(), ctx, 1))
      return std::make_pair(sub->getLHS(), *b);
    return std::nullopt;
  }
  std::optional<int64_t> b;
  if (bin->getOpcode() == clang::BO_Div) b = constant_value(bin->getRHS(), ctx);
  if (bin->getOpcode() == clang::BO_Shr)
    if (auto k = constant_value(bin->getRHS(), ctx); k && *k > 0 && *k < 31) b = int64_t{1} << *k;
  if (!b || *b < 2) return std::nullopt;
  auto* top = llvm::dyn_cast<clang::BinaryOperator>(bin->getLHS()->IgnoreParenImpCasts());
  if (!top) return std::nullopt;
  // X + (B - 1), (B - 1) + X
  if (top->getOpcode() == clang::BO_Add) {
    if (is_constant(top->getRHS(), ctx, *b - 1)) return std::make_pair(top->getLHS(), *b);
    if (is_constant(top->getLHS(), ctx, *b - 1)) return std::make_pair(top->getRHS(), *b);
  }
  // (X + B) - 1
  if (top->getOpcode() == clang::BO_Sub && is_constant(top->getRHS(), ctx, 1)) {
    auto* add = llvm::dyn_cast<clang::BinaryOperator>(top->getLHS()->IgnoreParenImpCasts());
    if (add && add->getOpcode() == clang::BO_Add && is_constant(add->getRHS(), ctx, *b)) return std::make_pair(add->getLHS(), *b);
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::pair<Poly, int64_t>> AccessInterpreter::Impl::grid_divisions(const Value& grid) const {
  if (grid.kind == Value::Kind::Int) return grid_divisions_of(atoms, {grid.form});
  if (grid.kind == Value::Kind::Dim3) return grid_divisions_of(atoms, {grid.dims[0], grid.dims[1], grid.dims[2]});
  return {};
}

// Per grid dimension written as ceil(X / B) with blocks of exactly B threads, where nothing on the
// path makes B divide X: the launch's threads run past X in the last block.
void AccessInterpreter::Impl::note_rounded_grid(const clang::CUDAKernelCallExpr* launch, const std::vector<Value>& args,
                                                Env& env, LaunchObservation& obs) {
  const clang::CallExpr* config = launch->getConfig();
  if (!config || config->getNumArgs() < 1) return;
  std::vector<const clang::Expr*> dims = grid_dimensions(config->getArg(0));
  for (size_t d = 0; d < dims.size() && d < 3; ++d) {
    auto rounded = ceil_division(dims[d], ctx);
    if (!rounded || !obs.block[d] || int64_t{*obs.block[d]} != rounded->second) continue;
    const auto& [count_expr, block_size] = *rounded;
    ++quiet;
    Value count = eval(count_expr, env);
    --quiet;
    if (count.kind != Value::Kind::Int) continue;
    Poly known = with_known_values(count.form, env.facts);
    if (congruence_of(atoms, known, &env.facts).divisible_by(static_cast<uint64_t>(block_size))) continue;
    RoundedGrid& r = obs.rounded[d];
    r.block = block_size;
    // Through parentheses: a macro's `((M) + (N) - 1) / (N)` then reads as its argument, `N`.
    r.count = text_of(count_expr->IgnoreParenImpCasts(), 40);
    r.count_value = known.constant_value();
    r.launch = obs.location;
    for (size_t i = 0; i < args.size() && i < launch->getNumArgs(); ++i)
      if (text_of(launch->getArg(i)->IgnoreParenImpCasts(), 40) == r.count) {
        r.parameter = static_cast<int>(i);
        break;
      }
    for (size_t i = 0; i < args.size() && r.parameter < 0; ++i)
      if (args[i].kind == Value::Kind::Int && with_known_values(args[i].form, env.facts) == known) r.parameter = static_cast<int>(i);
  }
}

Value AccessInterpreter::Impl::eval_launch(const clang::CUDAKernelCallExpr* launch, Env& env) {
  LaunchObservation obs;
  const clang::FunctionDecl* kernel = launch->getDirectCallee();
  if (!kernel) {
    const clang::Expr* callee = launch->getCallee()->IgnoreParenImpCasts();
    if (auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(callee)) kernel = llvm::dyn_cast<clang::FunctionDecl>(ref->getDecl());
  }
  std::vector<Value> args;
  for (unsigned i = 0; i < launch->getNumArgs(); ++i) args.push_back(eval(launch->getArg(i), env));
  if (!kernel || !launches || !host_mode) return Value::none();
  obs.kernel = kernel->getCanonicalDecl();
  obs.location = view.location_of(launch->getSourceRange());
  if (const clang::CallExpr* config = launch->getConfig(); config && config->getNumArgs() > 1) {
    Value b = eval(config->getArg(1), env);
    if (b.kind == Value::Kind::Int) {
      b.kind = Value::Kind::Dim3;
      b.dims = {b.form, Poly::constant(1), Poly::constant(1)};
    }
    if (b.kind == Value::Kind::Dim3) {
      for (int d = 0; d < 3; ++d) {
        Poly dim = with_known_values(b.dims[d], env.facts);
        if (auto c = dim.constant_value(); c && *c > 0 && *c <= 1024) obs.block[d] = static_cast<uint32_t>(*c);
      }
    }
  }
  std::vector<std::pair<Poly, int64_t>> exact_divisions;
  if (const clang::CallExpr* config = launch->getConfig(); config && config->getNumArgs() > 0) {
    Value grid = eval(config->getArg(0), env);
    exact_divisions = grid_divisions(grid);
    note_rounded_grid(launch, args, env, obs);
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const Value& v = args[i];
    std::optional<Congruence> c;
    if (v.kind == Value::Kind::Pointer && v.base >= 0) {
      if (auto form = Poly::atom(bases[v.base].address).plus(v.form)) c = congruence_of(atoms, *form, &env.facts);
    } else if (v.kind == Value::Kind::Int) {
      c = congruence_of(atoms, with_known_values(v.form, env.facts), &env.facts);
      // A grid of exactly `n / 128` blocks covers n only when 128 divides it: the launch is
      // written for such sizes, and so is the kernel it launches.
      for (const auto& [dividend, divisor] : exact_divisions)
        if (v.form == dividend)
          if (auto met = Congruence::meet(*c, Congruence::multiple_of(static_cast<uint64_t>(divisor)))) c = *met;
    }
    obs.arguments.push_back(c);
    obs.argument_texts.push_back(text_of(launch->getArg(i)));
  }
  note_buffer_extents(*kernel, args, env, obs);
  launches->push_back(std::move(obs));
  return Value::none();
}

}  // namespace kl::analyzers
