// Expressions: the value of an expression on one path, and its effects on that path (loads
// and stores recorded, assignments written into the environment). See access_interpreter_impl.h
// for the contracts; lvalues are in access_places.cpp, calls in access_calls.cpp.
#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>

#include "analyzers/model/interpreter/access_interpreter_impl.h"
#include "analyzers/model/device_code.h"
#include "analyzers/model/safe_types.h"

namespace kl::analyzers {

using interpreter::canonical;
using interpreter::Env;
using interpreter::is_builtin_index;
using interpreter::kMaxSteps;
using interpreter::LValue;
using interpreter::NestingGuard;
using interpreter::Value;

// ------------------------------------------------------------------ arithmetic

Value AccessInterpreter::Impl::int_or_opaque(std::optional<Poly> p, Variation fallback,
                                             const clang::Expr* e) {
  if (p) return Value::integer(std::move(*p));
  return opaque(fallback, text_of(e));
}

Value AccessInterpreter::Impl::pointer_add(const Value& ptr, const Poly& index, clang::QualType element,
                                           bool subtract, const clang::Expr* e) {
  Value out = ptr;
  auto bytes = index.times(size_form(element));
  std::optional<Poly> next;
  if (bytes) next = subtract ? ptr.form.minus(*bytes) : ptr.form.plus(*bytes);
  if (!next) {
    out.form = opaque(max_variation(atoms.variation(ptr.form), atoms.variation(index)), text_of(e)).form;
    return out;
  }
  out.form = std::move(*next);
  return out;
}

Value AccessInterpreter::Impl::quotient(const Poly& inner, const Poly& divisor) {
  if (auto d = divisor.constant_value()) {
    if (*d == 0) return opaque(atoms.variation(inner), "");
    if (*d == 1) return Value::integer(inner);
    if (auto exact = inner.divided_exactly(*d)) return Value::integer(*exact);
    if (auto c = inner.constant_value()) return Value::integer(Poly::constant(*c / *d));
  }
  if (atoms.variation(divisor) != Variation::Uniform || atoms.variation(inner) == Variation::Varying)
    return opaque(max_variation(atoms.variation(inner), atoms.variation(divisor)), "");
  return Value::integer(Poly::atom(atoms.quotient(inner, divisor)));
}

Value AccessInterpreter::Impl::remainder(const Poly& inner, const Poly& divisor, const clang::Expr* e) {
  if (auto d = divisor.constant_value(); d && *d != 0) {
    if (auto c = inner.constant_value()) return Value::integer(Poly::constant(*c % *d));
    if (inner.divided_exactly(*d)) return Value::integer(Poly());
  }
  Value q = quotient(inner, divisor);
  if (q.kind != Value::Kind::Int) return q;
  auto prod = q.form.times(divisor);
  if (!prod) return opaque(atoms.variation(inner), text_of(e));
  return int_or_opaque(inner.minus(*prod), atoms.variation(inner), e);
}

Value AccessInterpreter::Impl::int_binary(clang::BinaryOperatorKind op, const Poly& l, const Poly& r,
                                          const clang::Expr* e) {
  Variation v = max_variation(atoms.variation(l), atoms.variation(r));
  switch (op) {
    case clang::BO_Add: return int_or_opaque(l.plus(r), v, e);
    case clang::BO_Sub: return int_or_opaque(l.minus(r), v, e);
    case clang::BO_Mul: {
      std::optional<Poly> product = l.times(r);
      if (!product) {
        auto ln = with_launch_constants(atoms, l), rn = with_launch_constants(atoms, r);
        if (ln && rn) product = ln->times(*rn);
      }
      return int_or_opaque(std::move(product), v, e);
    }
    case clang::BO_Shl:
      if (auto k = r.constant_value(); k && *k >= 0 && *k < 62) return int_or_opaque(l.scaled(int64_t{1} << *k), v, e);
      break;
    case clang::BO_Shr:
      if (auto k = r.constant_value(); k && *k >= 0 && *k < 62) return quotient(l, Poly::constant(int64_t{1} << *k));
      break;
    case clang::BO_Div: return quotient(l, r);
    case clang::BO_Rem: return remainder(l, r, e);
    case clang::BO_And: {
      auto mask = r.constant_value();
      const Poly* other = &l;
      if (!mask) {
        mask = l.constant_value();
        other = &r;
      }
      if (mask && *mask >= 0 && ((*mask + 1) & *mask) == 0) {
        if (*mask == 0) return Value::integer(Poly());
        return remainder(*other, Poly::constant(*mask + 1), e);
      }
      if (mask && *mask < 0 && *mask != -1 && ((~*mask + 1) & ~*mask) == 0) {
        // x & ~(2^k - 1): x rounded down to a multiple of 2^k (`(n + 7) & ~7`).
        return opaque(v, text_of(e), Congruence::multiple_of(static_cast<uint64_t>(~*mask) + 1));
      }
      break;
    }
    default:
      break;
  }
  if (auto a = l.constant_value()) {
    if (auto b = r.constant_value()) {
      switch (op) {
        case clang::BO_Or: return Value::integer(Poly::constant(*a | *b));
        case clang::BO_Xor: return Value::integer(Poly::constant(*a ^ *b));
        case clang::BO_And: return Value::integer(Poly::constant(*a & *b));
        case clang::BO_Shr: return Value::integer(Poly::constant(*b >= 0 && *b < 63 ? *a >> *b : 0));
        case clang::BO_Shl: return Value::integer(Poly::constant(*b >= 0 && *b < 62 ? *a << *b : 0));
        default: break;
      }
    }
  }
  return opaque(v, text_of(e));
}

// ------------------------------------------------------------------ expressions

Value AccessInterpreter::Impl::eval(const clang::Expr* e, Env& env) {
  if (!e) return Value::none();
  if (++steps > kMaxSteps) return opaque(Variation::Varying, "");
  NestingGuard nesting(nesting_depth);
  if (nesting.too_deep()) return Value::none(Variation::Varying);
  e = e->IgnoreParens();
  // Error recovery leaves expressions with no type (ParenListExpr: `int b(nope())`) or marked
  // as containing errors (RecoveryExpr): nothing about them can be asked; their parts are
  // still walked for the loads they make.
  if (e->getType().isNull() || e->containsErrors()) return eval_parts(e, env);

  if (auto* c = llvm::dyn_cast<clang::ConstantExpr>(e)) return eval(c->getSubExpr(), env);
  if (auto* c = llvm::dyn_cast<clang::ExprWithCleanups>(e)) return eval(c->getSubExpr(), env);
  if (auto* c = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e)) return eval(c->getSubExpr(), env);
  if (auto* c = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(e)) return eval(c->getSubExpr(), env);
  if (auto* c = llvm::dyn_cast<clang::SubstNonTypeTemplateParmExpr>(e)) return eval(c->getReplacement(), env);
  if (auto* c = llvm::dyn_cast<clang::CXXDefaultArgExpr>(e)) return eval(c->getExpr(), env);
  if (auto* c = llvm::dyn_cast<clang::CXXDefaultInitExpr>(e)) return eval(c->getExpr(), env);

  if (auto* lit = llvm::dyn_cast<clang::IntegerLiteral>(e)) {
    llvm::APInt v = lit->getValue();
    if (v.getActiveBits() <= 62) return Value::integer(Poly::constant(static_cast<int64_t>(v.getZExtValue())));
    return opaque(Variation::Uniform, "");
  }
  if (auto* lit = llvm::dyn_cast<clang::CharacterLiteral>(e)) return Value::integer(Poly::constant(lit->getValue()));
  if (auto* lit = llvm::dyn_cast<clang::CXXBoolLiteralExpr>(e)) return Value::integer(Poly::constant(lit->getValue()));
  if (llvm::isa<clang::FloatingLiteral>(e) || llvm::isa<clang::StringLiteral>(e) || llvm::isa<clang::CXXNullPtrLiteralExpr>(e))
    return Value::none();
  if (llvm::isa<clang::GNUNullExpr>(e)) return Value::none();

  if (auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) return eval_decl_ref(ref, env);
  if (auto* pseudo = llvm::dyn_cast<clang::PseudoObjectExpr>(e)) return eval_pseudo(pseudo, env);
  if (auto* trait = llvm::dyn_cast<clang::UnaryExprOrTypeTraitExpr>(e)) return eval_trait(trait);
  if (auto* cast = llvm::dyn_cast<clang::CastExpr>(e)) return eval_cast(cast, env);
  if (auto* un = llvm::dyn_cast<clang::UnaryOperator>(e)) return eval_unary(un, env);
  if (auto* bin = llvm::dyn_cast<clang::BinaryOperator>(e)) return eval_binary(bin, env);
  if (auto* cond = llvm::dyn_cast<clang::AbstractConditionalOperator>(e)) return eval_conditional(cond, env);
  if (auto* launch = llvm::dyn_cast<clang::CUDAKernelCallExpr>(e)) return eval_launch(launch, env);
  if (auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(e)) return eval_operator_call(op, env);
  if (auto* call = llvm::dyn_cast<clang::CallExpr>(e)) return eval_call(call, env);
  if (auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(e)) return eval_construct(construct, env);
  if (llvm::isa<clang::ArraySubscriptExpr>(e) || llvm::isa<clang::MemberExpr>(e)) {
    // Reached as a value: a load in a template (no implicit casts around dependent
    // expressions); elsewhere the lvalue is being bound or discarded.
    LValue lv = eval_lvalue(e, env);
    if (e->isTypeDependent() || e->isValueDependent() || lv.kind == LValue::Kind::Field ||
        lv.kind == LValue::Kind::Dim3Field)
      return read(lv, e, env);
    return Value::none(lv.kind == LValue::Kind::Memory ? memory_variation(lv.address) : Variation::Uniform);
  }
  if (llvm::isa<clang::LambdaExpr>(e)) return Value::none();
  // Anything else (dependent calls, init lists, ...): evaluate the parts for their loads and
  // effects; the value is opaque, as varying as its parts.
  Value parts = eval_parts(e, env);
  if (is_integral_type(e->getType()) && !e->isTypeDependent()) return opaque(parts.variation, text_of(e));
  if (e->isTypeDependent() && !llvm::isa<clang::InitListExpr>(e)) return opaque(parts.variation, text_of(e));
  return parts;
}

// The children of an expression evaluated for their effects; an untracked value as varying
// as they are.
Value AccessInterpreter::Impl::eval_parts(const clang::Expr* e, Env& env) {
  Variation v = Variation::Uniform;
  for (const clang::Stmt* child : e->children())
    if (auto* ce = llvm::dyn_cast_or_null<clang::Expr>(child)) v = max_variation(v, variation_of(eval(ce, env)));
  return Value::none(v);
}

Value AccessInterpreter::Impl::eval_decl_ref(const clang::DeclRefExpr* ref, Env& env) {
  const clang::ValueDecl* decl = ref->getDecl();
  if (auto* ec = llvm::dyn_cast<clang::EnumConstantDecl>(decl)) return Value::integer(Poly::constant(ec->getInitVal().getExtValue()));
  if (auto* nt = llvm::dyn_cast<clang::NonTypeTemplateParmDecl>(decl)) {
    Atom a;
    a.kind = AtomKind::TemplateParam;
    a.name = nt->getNameAsString();
    a.parameter_like = true;
    return Value::integer(Poly::atom(atoms.intern("tparam:" + a.name, a)));
  }
  auto* var = llvm::dyn_cast<clang::VarDecl>(decl);
  if (!var) return Value::none();
  var = canonical(var);
  // A constant of this instantiation (`constexpr int PER_LDG = ITER < 4 ? 1 : 4`, a static
  // constexpr member): its value, whatever the path.
  if (auto known = integral_constant(*var, ctx)) return Value::integer(Poly::constant(*known));
  if (auto it = env.vars.find(var); it != env.vars.end()) {
    if (it->second.reference) {
      LValue lv;
      lv.kind = LValue::Kind::Memory;
      lv.address = it->second;
      lv.address.reference = false;
      lv.type = var->getType().getNonReferenceType();
      return read(lv, ref, env);
    }
    return it->second;
  }
  if (var->getName() == "warpSize") return Value::integer(Poly::constant(32));
  int which = 0;
  if (is_builtin_index(var, which)) return Value::none();
  if (is_array_type(var->getType()) || var->hasAttr<clang::CUDASharedAttr>() || var->hasGlobalStorage()) {
    LValue lv = eval_lvalue(ref, env);
    return read(lv, ref, env);
  }
  if (is_integral_type(var->getType())) return opaque(Variation::Varying, var->getNameAsString());
  return Value::none(Variation::Varying);
}

Value AccessInterpreter::Impl::eval_pseudo(const clang::PseudoObjectExpr* pseudo, Env& env) {
  const clang::Expr* syntactic = pseudo->getSyntacticForm()->IgnoreParens();
  if (auto* prop = llvm::dyn_cast<clang::MSPropertyRefExpr>(syntactic)) {
    const clang::Expr* base = prop->getBaseExpr()->IgnoreParenImpCasts();
    if (auto* opaque_base = llvm::dyn_cast<clang::OpaqueValueExpr>(base))
      base = opaque_base->getSourceExpr() ? opaque_base->getSourceExpr()->IgnoreParenImpCasts() : base;
    if (auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(base)) {
      int which = 0;
      if (is_builtin_index(llvm::dyn_cast<clang::VarDecl>(ref->getDecl()), which)) {
        llvm::StringRef name = prop->getPropertyDecl()->getName();
        int dim = name == "x" ? 0 : name == "y" ? 1 : name == "z" ? 2 : -1;
        if (dim >= 0) {
          if (host_mode) return opaque(Variation::Uniform, "");
          return Value::integer(Poly::atom(builtin_atom(which, dim)));
        }
      }
    }
  }
  (void)env;
  return opaque(Variation::Varying, text_of(pseudo));
}

Value AccessInterpreter::Impl::eval_trait(const clang::UnaryExprOrTypeTraitExpr* trait) {
  if (auto v = constant_value(trait, ctx)) return Value::integer(Poly::constant(*v));
  if (trait->getKind() == clang::UETT_SizeOf) return Value::integer(size_form(trait->getTypeOfArgument()));
  return opaque(Variation::Uniform, "");
}

Value AccessInterpreter::Impl::eval_cast(const clang::CastExpr* cast, Env& env) {
  const clang::Expr* sub = cast->getSubExpr();
  switch (cast->getCastKind()) {
    case clang::CK_LValueToRValue: {
      LValue lv = eval_lvalue(sub, env);
      return read(lv, sub, env);
    }
    case clang::CK_ArrayToPointerDecay:
      return eval_array_decay(sub, env);
    case clang::CK_BitCast:
    case clang::CK_LValueBitCast:
    case clang::CK_Dependent:
    case clang::CK_AddressSpaceConversion:
    case clang::CK_NoOp:
    case clang::CK_UncheckedDerivedToBase:
    case clang::CK_DerivedToBase:
    case clang::CK_BaseToDerived:
      return eval_reinterpreting_cast(cast, env);
    case clang::CK_IntegralCast:
    case clang::CK_ConstructorConversion:
    case clang::CK_UserDefinedConversion:
    case clang::CK_BooleanToSignedIntegral:
      return eval(sub, env);
    case clang::CK_IntegralToBoolean:
    case clang::CK_PointerToBoolean:
    case clang::CK_FloatingToBoolean: {
      Value v = eval(sub, env);
      return opaque(variation_of(v), "");
    }
    case clang::CK_PointerToIntegral: {
      Value v = eval(sub, env);
      if (v.kind == Value::Kind::Pointer && v.base >= 0) {
        auto p = Poly::atom(bases[v.base].address).plus(v.form);
        if (p) return Value::integer(*p);
      }
      return opaque(variation_of(v), text_of(cast));
    }
    case clang::CK_FloatingToIntegral: {
      Value v = eval(sub, env);
      return opaque(variation_of(v), text_of(cast));
    }
    case clang::CK_IntegralToPointer:
    case clang::CK_NullToPointer: {
      Value v = eval(sub, env);
      return Value::none(variation_of(v));
    }
    case clang::CK_ToVoid:
      eval(sub, env);
      return Value::none();
    default: {
      Value v = eval(sub, env);
      if (is_integral_type(cast->getType())) {
        if (v.kind == Value::Kind::Int) return v;
        return opaque(variation_of(v), text_of(cast));
      }
      return Value::none(variation_of(v));
    }
  }
}

// An array used as a pointer: its first element's address.
Value AccessInterpreter::Impl::eval_array_decay(const clang::Expr* sub, Env& env) {
  LValue lv = eval_lvalue(sub, env);
  if (lv.kind == LValue::Kind::Memory) {
    Value p = lv.address;
    p.reference = false;
    return p;
  }
  if (lv.kind == LValue::Kind::Var) {
    int id = static_base(lv.var);
    return Value::pointer(id, Poly());
  }
  return Value::none();
}

// Casts that keep the value (bit casts, address-space and derived/base conversions, dependent
// casts): a pointer cast to a more-aligned pointee is marked `widened`.
Value AccessInterpreter::Impl::eval_reinterpreting_cast(const clang::CastExpr* cast, Env& env) {
  const clang::Expr* sub = cast->getSubExpr();
  Value v = eval(sub, env);
  if (v.kind == Value::Kind::Pointer && is_pointer_type(cast->getType())) {
    clang::QualType to = pointee(cast->getType());
    clang::QualType from = pointee(sub->getType());
    uint64_t to_align = type_align(to), from_align = type_align(from);
    if (to_align > 0 && (from_align == 0 ? true : to_align > from_align)) v.widened = true;
  }
  if (cast->getCastKind() == clang::CK_Dependent && v.kind == Value::Kind::None &&
      is_integral_type(cast->getType()))
    return opaque(v.variation, text_of(cast));
  return v;
}

Value AccessInterpreter::Impl::eval_unary(const clang::UnaryOperator* un, Env& env) {
  const clang::Expr* sub = un->getSubExpr();
  switch (un->getOpcode()) {
    case clang::UO_AddrOf: {
      LValue lv = eval_lvalue(sub, env);
      if (lv.kind == LValue::Kind::Memory) {
        Value p = lv.address;
        p.reference = false;
        return p;
      }
      if (lv.kind == LValue::Kind::Var) {
        // The address of a local: the variable may change behind our back.
        if (!quiet) havoc(lv.var, env);
        int id = static_base(lv.var);
        return Value::pointer(id, Poly());
      }
      return Value::none();
    }
    case clang::UO_Deref: {
      if (un->isTypeDependent()) {
        LValue lv = eval_lvalue(un, env);
        return read(lv, un, env);
      }
      Value p = eval(sub, env);
      return Value::none(memory_variation(p));
    }
    case clang::UO_Minus: {
      Value v = eval(sub, env);
      if (v.kind == Value::Kind::Int) return int_or_opaque(v.form.scaled(-1), variation_of(v), un);
      return Value::none(variation_of(v));
    }
    case clang::UO_Plus:
      return eval(sub, env);
    case clang::UO_PreInc:
    case clang::UO_PreDec:
    case clang::UO_PostInc:
    case clang::UO_PostDec: {
      LValue lv = eval_lvalue(sub, env);
      Value old = read(lv, sub, env);
      bool inc = un->isIncrementOp();
      Value next;
      if (old.kind == Value::Kind::Int) next = int_or_opaque(old.form.plus(Poly::constant(inc ? 1 : -1)), variation_of(old), un);
      else if (old.kind == Value::Kind::Pointer) next = pointer_add(old, Poly::constant(1), pointee(sub->getType()), !inc, un);
      else next = Value::none(variation_of(old));
      write(lv, next, sub, env);
      return un->isPrefix() ? next : old;
    }
    default: {
      Value v = eval(sub, env);
      if (v.kind == Value::Kind::Int) {
        if (auto c = v.form.constant_value()) {
          if (un->getOpcode() == clang::UO_Not) return Value::integer(Poly::constant(~*c));
          if (un->getOpcode() == clang::UO_LNot) return Value::integer(Poly::constant(*c == 0));
        }
      }
      return opaque(variation_of(v), text_of(un));
    }
  }
}

Value AccessInterpreter::Impl::eval_binary(const clang::BinaryOperator* bin, Env& env) {
  clang::BinaryOperatorKind op = bin->getOpcode();
  if (op == clang::BO_Comma) {
    eval(bin->getLHS(), env);
    return eval(bin->getRHS(), env);
  }
  if (bin->isAssignmentOp()) return eval_assignment(bin, env);
  Value l = eval(bin->getLHS(), env);
  Value r = eval(bin->getRHS(), env);
  return combine(op, l, r, bin->getLHS()->getType(), bin->getRHS()->getType(), bin);
}

namespace {

// `l op r` for a comparison or logical operator when both sides are constants (of this
// instantiation: template parameters and constexpr locals are constants by now).
std::optional<int64_t> constant_relation(clang::BinaryOperatorKind op, const Poly& l, const Poly& r) {
  auto a = l.constant_value(), b = r.constant_value();
  if (!a || !b) return std::nullopt;
  switch (op) {
    case clang::BO_LT: return *a < *b;
    case clang::BO_GT: return *a > *b;
    case clang::BO_LE: return *a <= *b;
    case clang::BO_GE: return *a >= *b;
    case clang::BO_EQ: return *a == *b;
    case clang::BO_NE: return *a != *b;
    case clang::BO_LAnd: return *a != 0 && *b != 0;
    case clang::BO_LOr: return *a != 0 || *b != 0;
    default: return std::nullopt;
  }
}

}  // namespace

Value AccessInterpreter::Impl::combine(clang::BinaryOperatorKind op, const Value& l, const Value& r,
                                       clang::QualType lt, clang::QualType rt, const clang::Expr* e) {
  Variation v = max_variation(variation_of(l), variation_of(r));
  if (op == clang::BO_Add || op == clang::BO_Sub) {
    if (l.kind == Value::Kind::Pointer && r.kind == Value::Kind::Int)
      return pointer_add(l, r.form, pointee(lt), op == clang::BO_Sub, e);
    if (op == clang::BO_Add && l.kind == Value::Kind::Int && r.kind == Value::Kind::Pointer)
      return pointer_add(r, l.form, pointee(rt), false, e);
    if (op == clang::BO_Sub && l.kind == Value::Kind::Pointer && r.kind == Value::Kind::Pointer && l.base == r.base &&
        l.base >= 0) {
      auto diff = l.form.minus(r.form);
      auto size = type_size(pointee(lt));
      if (diff && size && *size > 0)
        if (auto q = diff->divided_exactly(*size)) return Value::integer(*q);
      return opaque(v, text_of(e));
    }
    if ((l.kind == Value::Kind::Pointer) != (r.kind == Value::Kind::Pointer)) return Value::none(v);
  }
  if (l.kind == Value::Kind::Int && r.kind == Value::Kind::Int) {
    switch (op) {
      case clang::BO_LT: case clang::BO_GT: case clang::BO_LE: case clang::BO_GE: case clang::BO_EQ:
      case clang::BO_NE: case clang::BO_LAnd: case clang::BO_LOr:
        if (auto truth = constant_relation(op, l.form, r.form)) return Value::integer(Poly::constant(*truth));
        return opaque(v, "");
      default:
        return int_binary(op, l.form, r.form, e);
    }
  }
  if (is_integral_type(e->getType())) return opaque(v, text_of(e));
  return Value::none(v);
}

Value AccessInterpreter::Impl::eval_assignment(const clang::BinaryOperator* bin, Env& env) {
  clang::BinaryOperatorKind op = bin->getOpcode();
  Value rhs = eval(bin->getRHS(), env);
  LValue lv = eval_lvalue(bin->getLHS(), env);
  Value result = rhs;
  if (op != clang::BO_Assign) {
    Value old = read(lv, bin->getLHS(), env);
    clang::BinaryOperatorKind base_op = clang::BinaryOperator::getOpForCompoundAssignment(op);
    result = combine(base_op, old, rhs, bin->getLHS()->getType(), bin->getRHS()->getType(), bin);
  }
  write(lv, result, bin->getLHS(), env);
  return result;
}

Value AccessInterpreter::Impl::eval_conditional(const clang::AbstractConditionalOperator* cond, Env& env) {
  Value which = eval(cond->getCond(), env);
  // A condition that is a constant of this instantiation (`ITER < 4 ? 1 : 4`) picks one arm.
  if (auto known = which.kind == Value::Kind::Int ? which.form.constant_value() : std::nullopt)
    return eval(*known != 0 ? cond->getTrueExpr() : cond->getFalseExpr(), env);
  Env t = env, f = env;
  assume(cond->getCond(), true, t);
  assume(cond->getCond(), false, f);
  Value a = eval(cond->getTrueExpr(), t);
  Value b = eval(cond->getFalseExpr(), f);
  t.data_branch = f.data_branch = env.data_branch;  // only the arms were under the condition
  if (t.dead && !f.dead) {
    env = std::move(f);
    return b;
  }
  if (f.dead && !t.dead) {
    env = std::move(t);
    return a;
  }
  t.conditioned = f.conditioned = env.conditioned;  // both arms go on: the condition is behind
  env = join(t, f);
  return join_values(a, b);
}

}  // namespace kl::analyzers
