// Statements: executing a function body path by path (declarations, if/switch, loops with
// induction variables, returns), and the facts a condition gives the path it guards
// (assume/relation). See access_interpreter_impl.h for the contracts.
#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>

#include <map>
#include <set>
#include <vector>

#include "analyzers/model/interpreter/access_interpreter_impl.h"
#include "analyzers/model/alignment_congruence.h"
#include "analyzers/model/device_code.h"
#include "analyzers/model/safe_types.h"

namespace kl::analyzers {

using interpreter::canonical;
using interpreter::Env;
using interpreter::kAllDimensions;
using interpreter::kMaxSteps;
using interpreter::LValue;
using interpreter::Modification;
using interpreter::NestingGuard;
using interpreter::Value;

// ------------------------------------------------------------------ conditions

void AccessInterpreter::Impl::assume(const clang::Expr* cond, bool truth, Env& env) {
  // Reading the condition may inline a call that assumes conditions of its own.
  uint8_t outer_dimensions = assumed_dimensions;
  bool outer_unread = assumed_unread;
  assumed_dimensions = 0;
  assumed_unread = false;
  ++quiet;
  assume_impl(cond, truth, env, 0);
  --quiet;
  env.conditioned |= assumed_unread ? kAllDimensions : assumed_dimensions;
  assumed_dimensions = outer_dimensions;
  assumed_unread = outer_unread;
}

// The thread-index dimensions a form depends on (bit d), through quotients; all three for values
// the model does not follow (loads, opaque results, loop iterations).
uint8_t AccessInterpreter::Impl::dimensions_of(const Poly& form, int depth) const {
  uint8_t out = 0;
  for (AtomId a : form.atoms()) {
    const Atom& atom = atoms[a];
    switch (atom.kind) {
      case AtomKind::ThreadIdx: case AtomKind::BlockIdx: case AtomKind::BlockDim: case AtomKind::GridDim:
        out |= static_cast<uint8_t>(1u << atom.dim);
        break;
      case AtomKind::Parameter: case AtomKind::TemplateParam: case AtomKind::SizeOf:
        break;
      case AtomKind::Quotient:
        out |= depth > 4 ? kAllDimensions : dimensions_of(atom.inner, depth + 1) | dimensions_of(atom.divisor, depth + 1);
        break;
      default:
        out = kAllDimensions;
        break;
    }
  }
  return out;
}

void AccessInterpreter::Impl::assume_impl(const clang::Expr* cond, bool truth, Env& env, int depth) {
  if (!cond || depth > 8) {
    assumed_unread = true;
    return;
  }
  cond = cond->IgnoreParenImpCasts();
  if (auto* c = llvm::dyn_cast<clang::ExprWithCleanups>(cond)) return assume_impl(c->getSubExpr(), truth, env, depth + 1);
  if (auto* cast = llvm::dyn_cast<clang::ExplicitCastExpr>(cond)) {
    if (is_boolean_type(cast->getType())) return assume_impl(cast->getSubExpr(), truth, env, depth + 1);
  }
  if (auto* un = llvm::dyn_cast<clang::UnaryOperator>(cond)) {
    if (un->getOpcode() == clang::UO_LNot) return assume_impl(un->getSubExpr(), !truth, env, depth + 1);
  }
  // `__builtin_expect(cond, 0)` (C10_UNLIKELY in TORCH_CHECK, `unlikely()`) is its first argument.
  if (auto* call = llvm::dyn_cast<clang::CallExpr>(cond); call && call->getNumArgs() >= 1) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee && callee->getIdentifier() &&
        (callee->getName() == "__builtin_expect" || callee->getName() == "__builtin_expect_with_probability"))
      return assume_impl(call->getArg(0), truth, env, depth + 1);
  }
  if (auto* bin = llvm::dyn_cast<clang::BinaryOperator>(cond)) {
    switch (bin->getOpcode()) {
      case clang::BO_LAnd:
        if (truth) {
          assume_impl(bin->getLHS(), true, env, depth + 1);
          assume_impl(bin->getRHS(), true, env, depth + 1);
        } else {
          assumed_unread = true;  // one of the two failed: nothing the path can name
        }
        return;
      case clang::BO_LOr:
        if (!truth) {
          assume_impl(bin->getLHS(), false, env, depth + 1);
          assume_impl(bin->getRHS(), false, env, depth + 1);
        } else {
          assumed_unread = true;
        }
        return;
      case clang::BO_EQ: case clang::BO_NE: case clang::BO_LT: case clang::BO_GT: case clang::BO_LE:
      case clang::BO_GE:
        return relation(bin->getLHS(), bin->getRHS(), bin->getOpcode(), truth, env);
      default:
        break;
    }
  }
  if (is_integral_type(cond->getType()) || is_boolean_type(cond->getType()))
    relation(cond, nullptr, clang::BO_NE, truth, env);
  else
    assumed_unread = true;
}

// Is `e` written `X % K` or `X & (2^k - 1)`? Then X and the power-of-two part of K.
bool AccessInterpreter::Impl::remainder_pattern(const clang::Expr* e, const clang::Expr*& x, int& bits) {
  auto* bin = llvm::dyn_cast<clang::BinaryOperator>(e->IgnoreParenImpCasts());
  if (!bin) return false;
  if (bin->getOpcode() == clang::BO_Rem) {
    auto k = constant_value(bin->getRHS(), ctx);
    if (!k || *k <= 1) return false;
    bits = two_adic_valuation(*k);
    x = bin->getLHS();
    return bits > 0;
  }
  if (bin->getOpcode() == clang::BO_And) {
    auto m = constant_value(bin->getRHS(), ctx);
    const clang::Expr* other = bin->getLHS();
    if (!m) {
      m = constant_value(bin->getLHS(), ctx);
      other = bin->getRHS();
    }
    if (!m || *m <= 0 || ((*m + 1) & *m) != 0) return false;
    bits = two_adic_valuation(*m + 1);
    x = other;
    return true;
  }
  return false;
}

void AccessInterpreter::Impl::relation(const clang::Expr* lhs, const clang::Expr* rhs,
                                       clang::BinaryOperatorKind op, bool truth, Env& env) {
  if (!truth) {
    switch (op) {
      case clang::BO_EQ: op = clang::BO_NE; break;
      case clang::BO_NE: op = clang::BO_EQ; break;
      case clang::BO_LT: op = clang::BO_GE; break;
      case clang::BO_GE: op = clang::BO_LT; break;
      case clang::BO_GT: op = clang::BO_LE; break;
      case clang::BO_LE: op = clang::BO_GT; break;
      default: return;
    }
  }
  std::optional<int64_t> r = rhs ? constant_value(rhs, ctx) : std::optional<int64_t>(0);
  if (op == clang::BO_EQ && r) {
    const clang::Expr* x = nullptr;
    int bits = 0;
    if (remainder_pattern(lhs, x, bits)) {
      Value xv = eval(x, env);
      std::optional<Poly> form;
      if (xv.kind == Value::Kind::Int) form = xv.form;
      if (form) env.facts.add_congruence(atoms, *form, Congruence::make(bits, *r));
    }
  }
  Value l = eval(lhs, env);
  Value rv = rhs ? eval(rhs, env) : Value::integer(Poly());
  auto d = l.kind == Value::Kind::Int && rv.kind == Value::Kind::Int ? l.form.minus(rv.form) : std::nullopt;
  if (!d) {
    assumed_unread = true;
    return;
  }
  assumed_dimensions |= dimensions_of(*d, 0);
  Variation v = atoms.variation(*d);
  // A test of integers the lanes loaded (`if (ids[t] == row)`, `if (offsets[t] <= k)`) leaves
  // active the lanes the data picks, which the model cannot name. (Tests of computed or
  // floating-point values are judged as if every lane passed: measured on real programs, that
  // keeps true findings under `if (cost < best)` that marking them unknown would lose.)
  bool data_dependent = false;
  for (AtomId a : d->atoms()) data_dependent = data_dependent || atoms[a].loaded;
  if (data_dependent) {
    env.data_branch = true;
    return;
  }
  if (v == Variation::Lane || v == Variation::Piecewise) {
    switch (op) {
      case clang::BO_EQ: env.guards.push_back({*d, LaneGuard::Op::Eq}); break;
      case clang::BO_NE: env.guards.push_back({*d, LaneGuard::Op::Ne}); break;
      case clang::BO_LT: env.guards.push_back({*d, LaneGuard::Op::Lt}); break;
      case clang::BO_LE: env.guards.push_back({*d, LaneGuard::Op::Le}); break;
      case clang::BO_GT:
        if (auto n = d->scaled(-1)) env.guards.push_back({*n, LaneGuard::Op::Lt});
        break;
      case clang::BO_GE:
        if (auto n = d->scaled(-1)) env.guards.push_back({*n, LaneGuard::Op::Le});
        break;
      default: break;
    }
    return;
  }
  if (op == clang::BO_EQ && v == Variation::Uniform) {
    // c·atom + k == 0 with c = ±1 fixes the atom.
    const auto& terms = d->terms();
    const Term* linear = nullptr;
    int64_t k = 0;
    bool ok = true;
    for (const auto& t : terms) {
      if (t.atoms.empty()) k = t.coefficient;
      else if (t.atoms.size() == 1 && !linear && (t.coefficient == 1 || t.coefficient == -1)) linear = &t;
      else ok = false;
    }
    if (ok && linear) env.facts.add_value(linear->atoms[0], linear->coefficient == 1 ? -k : k);
    else env.facts.add_congruence(atoms, *d, Congruence::constant(0));
  }
}

// ------------------------------------------------------------------ statements

void AccessInterpreter::Impl::exec(const clang::Stmt* s, Env& env) {
  if (!s || env.dead) return;
  if (++steps > kMaxSteps) return;
  NestingGuard nesting(nesting_depth);
  if (nesting.too_deep()) return;
  if (auto* compound = llvm::dyn_cast<clang::CompoundStmt>(s)) {
    for (const clang::Stmt* child : compound->body()) {
      if (env.dead) break;
      exec(child, env);
    }
    return;
  }
  if (auto* decl = llvm::dyn_cast<clang::DeclStmt>(s)) {
    for (const clang::Decl* d : decl->decls()) {
      if (auto* var = llvm::dyn_cast<clang::VarDecl>(d)) declare(var, env);
      else if (auto* sa = llvm::dyn_cast<clang::StaticAssertDecl>(d)) assume(sa->getAssertExpr(), true, env);
    }
    return;
  }
  if (auto* ifs = llvm::dyn_cast<clang::IfStmt>(s)) return exec_if(ifs, env);
  if (auto* fors = llvm::dyn_cast<clang::ForStmt>(s)) {
    return exec_loop(fors, fors->getInit(), fors->getConditionVariableDeclStmt(), fors->getCond(), fors->getInc(),
                     fors->getBody(), env);
  }
  if (auto* whiles = llvm::dyn_cast<clang::WhileStmt>(s)) {
    return exec_loop(whiles, nullptr, whiles->getConditionVariableDeclStmt(), whiles->getCond(), nullptr,
                     whiles->getBody(), env);
  }
  if (auto* dos = llvm::dyn_cast<clang::DoStmt>(s)) {
    // `do { ... } while (0)`, the body of a statement-like macro (CHECK(cudaMalloc(&p, n))),
    // runs once: straight-line code, so what it assigns (an allocation) is known after it.
    if (auto c = dos->getCond() ? constant_value(dos->getCond(), ctx) : std::nullopt;
        c && *c == 0 && !leaves_loop(dos->getBody()))
      return exec(dos->getBody(), env);
    return exec_loop(dos, nullptr, nullptr, dos->getCond(), nullptr, dos->getBody(), env);
  }
  if (auto* range = llvm::dyn_cast<clang::CXXForRangeStmt>(s)) {
    Env body = env;
    if (range->getLoopVarStmt()) exec(range->getLoopVarStmt(), body);
    exec(range->getBody(), body);
    return;
  }
  if (auto* sw = llvm::dyn_cast<clang::SwitchStmt>(s)) return exec_switch(sw, env);
  if (auto* ret = llvm::dyn_cast<clang::ReturnStmt>(s)) return exec_return(ret, env);
  if (llvm::isa<clang::BreakStmt>(s) || llvm::isa<clang::ContinueStmt>(s) || llvm::isa<clang::GotoStmt>(s)) {
    env.dead = true;
    return;
  }
  if (auto* label = llvm::dyn_cast<clang::LabelStmt>(s)) return exec(label->getSubStmt(), env);
  if (auto* attributed = llvm::dyn_cast<clang::AttributedStmt>(s)) return exec(attributed->getSubStmt(), env);
  if (auto* sc = llvm::dyn_cast<clang::SwitchCase>(s)) return exec(sc->getSubStmt(), env);
  if (auto* gcc_asm = llvm::dyn_cast<clang::GCCAsmStmt>(s)) return exec_asm(gcc_asm, env);
  if (llvm::isa<clang::AsmStmt>(s) || llvm::isa<clang::NullStmt>(s)) return;
  if (auto* e = llvm::dyn_cast<clang::Expr>(s)) {
    eval(e, env);
    return;
  }
  for (const clang::Stmt* child : s->children()) exec(child, env);
}

// A return ends the path; inside an inlined call its value goes to the call's frame.
void AccessInterpreter::Impl::exec_return(const clang::ReturnStmt* ret, Env& env) {
  if (!frames.empty() && ret->getRetValue()) {
    // Evaluate before touching the frame: the expression may inline calls (and grow `frames`).
    Value v;
    if (frames.back().returns_reference) {
      LValue lv = eval_lvalue(ret->getRetValue(), env);
      v = lv.kind == LValue::Kind::Memory ? lv.address : Value::none(Variation::Varying);
      if (lv.kind == LValue::Kind::Memory) v.reference = true;
    } else {
      v = eval(ret->getRetValue(), env);
    }
    frames.back().returns.push_back(std::move(v));
  } else if (ret->getRetValue()) {
    eval(ret->getRetValue(), env);
  }
  if (!frames.empty()) leave_frame(env);
  env.exited = frames.empty();
  env.dead = true;
}

void AccessInterpreter::Impl::declare(const clang::VarDecl* var, Env& env) {
  var = canonical(var);
  if (var->hasAttr<clang::CUDASharedAttr>() || var->isStaticLocal()) {
    static_base(var);
    return;
  }
  clang::QualType t = var->getType();
  const clang::Expr* init = var->getInit();
  size_t atoms_before = atoms.size();
  Value v;
  if (t.isNull() || t->containsErrors()) {
    if (init) eval(init, env);
    env.vars[var] = Value::none(Variation::Varying);
    return;
  }
  if (t->isReferenceType()) {
    if (init) {
      LValue lv = eval_lvalue(init, env);
      if (lv.kind == LValue::Kind::Memory) {
        v = lv.address;
        v.reference = true;
      } else if (lv.kind == LValue::Kind::Var) {
        v = read(lv, init, env);
      } else {
        v = eval(init, env);
      }
    }
  } else if (t->isArrayType()) {
    if (init) eval(init, env);
    return;  // a local array: its address is a Local base when used
  } else if (auto known = integral_constant(*var, ctx)) {
    env.vars[var] = Value::integer(Poly::constant(*known));
    return;
  } else if (init) {
    v = eval(init, env);
  } else if (auto* record_decl = t->getAsCXXRecordDecl(); record_decl && record_decl->getName() == "dim3") {
    v.kind = Value::Kind::Dim3;
    for (auto& d : v.dims) d = Poly::constant(1);
  }
  if (t->isIntegralOrEnumerationType() && v.kind == Value::Kind::None)
    v = opaque(v.variation, var->getNameAsString(), Congruence::unknown(), v.variation == Variation::Uniform);
  // A fresh opaque value takes the variable's name for messages ("stride `ld`").
  if (v.kind == Value::Kind::Int && v.form.terms().size() == 1 && v.form.terms()[0].coefficient == 1 &&
      v.form.terms()[0].atoms.size() == 1) {
    AtomId a = v.form.terms()[0].atoms[0];
    if (a >= atoms_before && atoms[a].kind == AtomKind::Opaque) {
      atoms.at(a).name = var->getNameAsString();
      atoms.at(a).parameter_like = atoms[a].variation == Variation::Uniform;
    }
  }
  env.vars[var] = v;
}

// Each case is a path from the switch: walk from every label until the path ends (break,
// return). Afterwards the variables the body assigns are unknown.
void AccessInterpreter::Impl::exec_switch(const clang::SwitchStmt* sw, Env& env) {
  if (sw->getInit()) exec(sw->getInit(), env);
  eval(sw->getCond(), env);
  std::vector<const clang::Stmt*> body;
  if (auto* compound = llvm::dyn_cast_or_null<clang::CompoundStmt>(sw->getBody()))
    body.assign(compound->body_begin(), compound->body_end());
  else if (sw->getBody())
    body.push_back(sw->getBody());
  for (size_t start = 0; start < body.size(); ++start) {
    if (!llvm::isa<clang::SwitchCase>(body[start])) continue;
    Env path = env;
    path.conditioned = kAllDimensions;
    // Entered at `case K:`, the condition equals K: a launcher that dispatches on the block
    // size (`switch (threads) { case 64: k<64><<<g, threads>>>(…) }`) launches with 64 threads.
    if (auto* label = llvm::dyn_cast<clang::CaseStmt>(body[start]); label && !label->getRHS()) {
      ++quiet;
      relation(sw->getCond(), label->getLHS(), clang::BO_EQ, true, path);
      --quiet;
    }
    for (size_t i = start; i < body.size() && !path.dead; ++i) exec(body[i], path);
  }
  std::map<const clang::VarDecl*, Modification> mods;
  collect_modifications(sw->getBody(), mods, {});
  for (const auto& [var, m] : mods) havoc(var, env);
  env.conditioned = kAllDimensions;  // a case may have returned
}

void AccessInterpreter::Impl::exec_if(const clang::IfStmt* ifs, Env& env) {
  if (ifs->getInit()) exec(ifs->getInit(), env);
  if (ifs->getConditionVariableDeclStmt()) exec(ifs->getConditionVariableDeclStmt(), env);
  if (ifs->isConstexpr() && !ifs->getCond()->isValueDependent()) {
    if (auto taken = ifs->getNondiscardedCase(ctx)) {
      if (*taken) exec(*taken, env);
      return;
    }
  }
  // A condition the compiler folds (a template flag, `true || x`): only that branch exists.
  if (std::optional<bool> known = constant_condition(ifs)) {
    if (const clang::Stmt* taken = *known ? ifs->getThen() : ifs->getElse()) exec(taken, env);
    return;
  }
  Value cond = eval(ifs->getCond(), env);
  Env t = env, f = env;
  assume(ifs->getCond(), true, t);
  assume(ifs->getCond(), false, f);
  note_divergence(ifs->getCond(), cond, DivergentCondition::Kind::Branch, env, t);
  note_divergence(ifs->getCond(), cond, DivergentCondition::Kind::Branch, env, f, false);
  note_uniform_test(ifs->getCond(), cond, env, t, f);
  exec(ifs->getThen(), t);
  if (ifs->getElse()) exec(ifs->getElse(), f);
  bool data_branch = env.data_branch;
  uint8_t conditioned = env.conditioned;
  std::vector<DivergentCondition> divergent_before = env.divergent;
  std::vector<interpreter::UniformTest> tests_before = env.uniform_tests;
  bool some_exited = (t.dead && t.exited) || (f.dead && f.exited);
  bool one_left = t.dead != f.dead;
  env = join(t, f);
  // Where both branches go on, the threads they split meet again. Where one ended the path, the
  // threads that took it are gone (returned) or elsewhere (break, continue): the split holds.
  if (!one_left) {
    env.divergent = std::move(divergent_before);
    env.uniform_tests = std::move(tests_before);
    env.conditioned = conditioned;
  } else if (some_exited && !env.dead) {
    note_exit(ifs->getCond(), env);
  }
  // Past the if, every lane that reached it runs again (an early `return` on data still leaves
  // the rest to the lanes whose data said so, but which ones is as unknown as before it).
  env.data_branch = data_branch;
  if (t.dead && f.dead) env.dead = true;
}

// Assignments to variables in a loop: which ones step by a loop-invariant amount.
void AccessInterpreter::Impl::collect_modifications(const clang::Stmt* s,
                                                    std::map<const clang::VarDecl*, Modification>& mods,
                                                    const std::set<const clang::Stmt*>& top_level) {
  if (!s) return;
  auto var_of = [](const clang::Expr* e) -> const clang::VarDecl* {
    e = e->IgnoreParenImpCasts();
    if (auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) return canonical(llvm::dyn_cast<clang::VarDecl>(ref->getDecl()));
    return nullptr;
  };
  if (auto* un = llvm::dyn_cast<clang::UnaryOperator>(s)) {
    if (un->isIncrementDecrementOp()) {
      if (auto* v = var_of(un->getSubExpr())) {
        Modification& m = mods[v];
        ++m.count;
        m.simple_step = true;
        m.step = nullptr;
        m.negative = un->isDecrementOp();
        m.top_level = top_level.count(s) > 0;
      }
    } else if (un->getOpcode() == clang::UO_AddrOf) {
      if (auto* v = var_of(un->getSubExpr())) mods[v].address_taken = true;
    }
  } else if (auto* bin = llvm::dyn_cast<clang::BinaryOperator>(s)) {
    if (bin->isAssignmentOp()) {
      if (auto* v = var_of(bin->getLHS())) {
        Modification& m = mods[v];
        ++m.count;
        m.top_level = top_level.count(s) > 0;
        m.simple_step = false;
        if (bin->getOpcode() == clang::BO_AddAssign || bin->getOpcode() == clang::BO_SubAssign) {
          m.simple_step = true;
          m.step = bin->getRHS();
          m.negative = bin->getOpcode() == clang::BO_SubAssign;
        } else if (bin->getOpcode() == clang::BO_ShrAssign || bin->getOpcode() == clang::BO_DivAssign ||
                   bin->getOpcode() == clang::BO_ShlAssign || bin->getOpcode() == clang::BO_MulAssign) {
          m.geometric = bin->getOpcode();
          m.step = bin->getRHS();
        } else if (bin->getOpcode() == clang::BO_Assign) {
          auto* rhs = llvm::dyn_cast<clang::BinaryOperator>(bin->getRHS()->IgnoreParenImpCasts());
          if (rhs && (rhs->getOpcode() == clang::BO_Add || rhs->getOpcode() == clang::BO_Sub)) {
            if (var_of(rhs->getLHS()) == v) {
              m.simple_step = true;
              m.step = rhs->getRHS();
              m.negative = rhs->getOpcode() == clang::BO_Sub;
            } else if (rhs->getOpcode() == clang::BO_Add && var_of(rhs->getRHS()) == v) {
              m.simple_step = true;
              m.step = rhs->getLHS();
            }
          }
        }
      }
    }
  } else if (auto* call = llvm::dyn_cast<clang::CallExpr>(s)) {
    // Non-const reference arguments may be written by the callee.
    const clang::FunctionDecl* callee = call->getDirectCallee();
    for (unsigned i = 0; i < call->getNumArgs(); ++i) {
      const clang::ParmVarDecl* p = callee && i < callee->getNumParams() ? callee->getParamDecl(i) : nullptr;
      if (p && is_reference_type(p->getType()) && !non_reference(p->getType()).isConstQualified())
        if (auto* v = var_of(call->getArg(i))) {
          ++mods[v].count;
          mods[v].simple_step = false;
        }
    }
  }
  for (const clang::Stmt* child : s->children()) collect_modifications(child, mods, top_level);
}

bool AccessInterpreter::Impl::mentions_any(const clang::Stmt* s,
                                           const std::map<const clang::VarDecl*, Modification>& mods) {
  if (!s) return false;
  if (auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(s))
    if (auto* v = llvm::dyn_cast<clang::VarDecl>(ref->getDecl())) return mods.count(canonical(v)) > 0;
  for (const clang::Stmt* child : s->children())
    if (mentions_any(child, mods)) return true;
  return false;
}

// A loop as one abstract iteration: each variable the loop steps by a loop-invariant amount
// becomes `entry + k * step` with an iteration atom k, every other variable it assigns gets an
// opaque stand-in, and the body is walked once from that state. When the body makes a variable
// given a uniform stand-in thread-dependent, the iteration is walked again (its records and
// launches dropped) with a varying one. After the loop: the state at the head of some iteration,
// with the facts and guards from before the loop.
void AccessInterpreter::Impl::exec_loop(const clang::Stmt* loop, const clang::Stmt* init,
                                        const clang::DeclStmt* cond_var, const clang::Expr* cond,
                                        const clang::Expr* inc, const clang::Stmt* body, Env& env) {
  if (init) exec(init, env);
  std::set<const clang::Stmt*> top_level = loop_top_level(inc, body);
  std::map<const clang::VarDecl*, Modification> mods;
  collect_modifications(cond, mods, top_level);
  collect_modifications(inc, mods, top_level);
  collect_modifications(body, mods, top_level);

  std::map<const clang::VarDecl*, Variation> havoc_variation;
  for (int attempt = 0; attempt < 2; ++attempt) {
    geometric_candidates.clear();
    size_t records_before = out ? out->size() : 0;
    size_t launches_before = launches ? launches->size() : 0;
    size_t barriers_before = barrier_out ? barrier_out->size() : 0;
    size_t hazards_before = hazard_out ? hazard_out->size() : 0;
    size_t atoms_before = atoms.size();
    Env entry = env;
    for (const auto& [var, m] : mods) enter_loop_variable(var, m, mods, entry, havoc_variation);
    note_trip_counts(cond, entry, atoms_before);
    note_inclusive_bound(cond, entry, atoms_before);
    note_sequences(cond, entry, atoms_before);
    Env body_env = entry;
    if (cond_var) exec(cond_var, body_env);
    Value cond_value;
    if (cond) cond_value = eval(cond, body_env);
    begin_loop_sync(loop, atoms_before, cond, cond_value, body_env);
    exec(body, body_env);
    body_env.dead = false;
    if (inc) eval(inc, body_env);
    // Past the body the variable has left its last value: no row overrun after the loop.
    std::erase_if(inclusive_bounds, [&](const auto& entry) { return entry.first >= atoms_before; });
    bool again = raise_stand_ins(body_env, havoc_variation);
    if (again && attempt == 0) {
      if (out) out->resize(records_before);
      if (launches) launches->resize(launches_before);
      if (barrier_out) barrier_out->resize(barriers_before);
      if (hazard_out) hazard_out->resize(hazards_before);
      loop_sync.pop_back();
      continue;
    }
    // After the loop: the state at the head of some iteration, with the pre-loop facts.
    Env after = entry;
    after.facts = env.facts;
    after.guards = env.guards;
    after.divergent = env.divergent;
    // Past the loop every thread runs on, unless the loop can end the kernel (a `return` in it)
    // or has no condition of its own (it is left by a `break` under some test).
    after.conditioned = env.conditioned | (!cond || contains_return(body) ? kAllDimensions : 0);
    end_loop_sync(body_env, after);
    env = std::move(after);
    return;
  }
}

// A `break` or `continue` of this loop: one outside any loop or switch nested in it.
bool AccessInterpreter::Impl::leaves_loop(const clang::Stmt* s) {
  if (!s) return false;
  if (llvm::isa<clang::BreakStmt>(s) || llvm::isa<clang::ContinueStmt>(s) || llvm::isa<clang::GotoStmt>(s)) return true;
  if (llvm::isa<clang::ForStmt>(s) || llvm::isa<clang::WhileStmt>(s) || llvm::isa<clang::DoStmt>(s) ||
      llvm::isa<clang::CXXForRangeStmt>(s) || llvm::isa<clang::SwitchStmt>(s) || llvm::isa<clang::LambdaExpr>(s))
    return false;
  for (const clang::Stmt* child : s->children())
    if (leaves_loop(child)) return true;
  return false;
}

bool AccessInterpreter::Impl::contains_return(const clang::Stmt* s) {
  if (!s) return false;
  if (llvm::isa<clang::ReturnStmt>(s)) return true;
  if (llvm::isa<clang::LambdaExpr>(s)) return false;
  for (const clang::Stmt* child : s->children())
    if (contains_return(child)) return true;
  return false;
}

// The statements a loop runs once per iteration at its top level: the increment and the
// body's direct statements (expressions without their parentheses).
std::set<const clang::Stmt*> AccessInterpreter::Impl::loop_top_level(const clang::Expr* inc,
                                                                     const clang::Stmt* body) const {
  std::set<const clang::Stmt*> top_level;
  if (inc) top_level.insert(inc->IgnoreParens());
  add_top_level(body, top_level);
  return top_level;
}

// The statements of `s` that run on every iteration: its own, and those of an `if` whose
// condition is a compile-time constant (`if (Is_even_cols || it < n)` with Is_even_cols a
// template argument), whose taken branch is all that is compiled.
void AccessInterpreter::Impl::add_top_level(const clang::Stmt* s, std::set<const clang::Stmt*>& top_level) const {
  if (!s) return;
  if (auto* compound = llvm::dyn_cast<clang::CompoundStmt>(s)) {
    for (const clang::Stmt* child : compound->body()) add_top_level(child, top_level);
    return;
  }
  if (auto* ifs = llvm::dyn_cast<clang::IfStmt>(s)) {
    if (std::optional<bool> taken = constant_condition(ifs)) {
      add_top_level(*taken ? ifs->getThen() : ifs->getElse(), top_level);
      return;
    }
  }
  if (auto* e = llvm::dyn_cast<clang::Expr>(s)) top_level.insert(e->IgnoreParens());
  else top_level.insert(s);
}

// The value of an `if`'s condition when the compiler knows it (no init, no condition variable).
std::optional<bool> AccessInterpreter::Impl::constant_condition(const clang::IfStmt* ifs) const {
  const clang::Expr* cond = ifs->getCond();
  if (!cond || ifs->getInit() || ifs->getConditionVariable() || cond->isValueDependent() || cond->containsErrors())
    return std::nullopt;
  bool value = false;
  if (!cond->EvaluateAsBooleanCondition(value, ctx)) return std::nullopt;
  return value;
}

// One variable the loop assigns, at the head of the abstract iteration in `entry`.
void AccessInterpreter::Impl::enter_loop_variable(
    const clang::VarDecl* var, const Modification& m,
    const std::map<const clang::VarDecl*, Modification>& mods, Env& entry,
    std::map<const clang::VarDecl*, Variation>& havoc_variation) {
  if (entry.vars.find(var) == entry.vars.end()) return;
  bool induction = m.count == 1 && m.simple_step && m.top_level && !m.address_taken &&
                   !(m.step && mentions_any(m.step, mods));
  Poly step = Poly::constant(1);
  if (induction && m.step) {
    // Evaluated before any reference into `entry.vars` is taken: the step may contain a
    // `?:` or an inlined call, whose join replaces the whole environment.
    ++quiet;
    Value s = eval(m.step, entry);
    --quiet;
    if (s.kind != Value::Kind::Int || atoms.variation(s.form) != Variation::Uniform) induction = false;
    else step = s.form;
  }
  auto it = entry.vars.find(var);
  if (it == entry.vars.end()) return;
  // From here on nothing evaluates an expression: `v` stays valid.
  Value& v = it->second;
  induction = induction && (v.kind == Value::Kind::Int || v.kind == Value::Kind::Pointer);
  if (induction && advance_induction(var, m, step, v)) return;
  Variation hv = variation_of(v);
  if (auto h = havoc_variation.find(var); h != havoc_variation.end()) hv = max_variation(hv, h->second);
  havoc_variation[var] = hv;
  std::optional<int64_t> start;
  if (v.kind == Value::Kind::Int)
    if (auto known = with_launch_constants(atoms, with_known_values(v.form, entry.facts))) start = known->constant_value();
  if (v.kind == Value::Kind::Pointer) {
    v.form = opaque(hv, var->getNameAsString()).form;
    return;
  }
  if (v.kind != Value::Kind::Int) {
    v = Value::none(hv);
    return;
  }
  Poly entered = v.form;
  v = opaque(hv, var->getNameAsString());
  AtomId head = v.form.terms()[0].atoms[0];
  first_iteration[head] = std::move(entered);
  // A uniform variable stepped geometrically from a known start: its values per iteration are
  // computed once the loop's condition is known (note_sequences).
  if (hv == Variation::Uniform && start && m.count == 1 && m.top_level && !m.address_taken &&
      m.geometric != clang::BO_Comma && m.step)
    if (auto factor = constant_value(m.step, ctx); factor && *factor > 0)
      geometric_candidates[head] = {*start, m.geometric, *factor};
}

// `v` (an integer or a pointer) becomes v + k * step with a fresh iteration atom k; false when
// the form cannot hold it. Adds atoms only.
bool AccessInterpreter::Impl::advance_induction(const clang::VarDecl* var, const Modification& m,
                                                const Poly& step, Value& v) {
  Atom k;
  k.kind = AtomKind::Induction;
  k.name = var->getNameAsString() + "'s iteration";
  Poly kp = Poly::atom(atoms.add(k));
  auto delta = kp.times(step);
  if (delta && m.negative) delta = delta->scaled(-1);
  if (!delta) return false;
  if (v.kind == Value::Kind::Int) {
    auto next = v.form.plus(*delta);
    if (!next) return false;
    v.form = *next;
    return true;
  }
  Value moved = pointer_add(v, *delta, pointee(var->getType()), false, nullptr);
  v.form = moved.form;
  return true;
}

// A variable given a uniform stand-in that the body makes thread-dependent: its stand-in
// becomes varying. True when any did.
bool AccessInterpreter::Impl::raise_stand_ins(
    const Env& body_env, std::map<const clang::VarDecl*, Variation>& havoc_variation) const {
  bool again = false;
  for (auto& [var, hv] : havoc_variation) {
    auto it = body_env.vars.find(var);
    if (it == body_env.vars.end()) continue;
    Variation after = variation_of(it->second);
    if (static_cast<int>(after) > static_cast<int>(hv)) {
      hv = Variation::Varying;
      again = true;
    }
  }
  return again;
}

}  // namespace kl::analyzers
