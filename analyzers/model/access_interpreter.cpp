#include "analyzers/model/access_interpreter.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecordLayout.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "analyzers/frontend/device_parser.h"
#include "analyzers/model/access_warp.h"
#include "analyzers/model/affine_form.h"
#include "analyzers/model/device_code.h"
#include "analyzers/model/safe_types.h"

namespace kl::analyzers {
namespace {

constexpr int kMaxInlineDepth = 4;
constexpr size_t kMaxSteps = 200000;  // statements and expressions per analysed function
// Nesting of expressions and statements the interpreter follows before it calls the rest
// unknown: generated code (a 5,000-term sum, a deeply nested ?: chain) must not exhaust the
// stack. Each level costs well under 2 KB of stack; analyses run on a 64 MB thread.
constexpr int kMaxNesting = 512;

// A symbolic value.
struct Value {
  enum class Kind : uint8_t { None, Int, Pointer, Dim3, Aggregate };
  Kind kind = Kind::None;
  Poly form;                       // Int: the value; Pointer: byte offset from the base
  int base = -1;                   // Pointer: index into the bases (-1: unknown)
  bool widened = false;            // Pointer: went through a cast to a more-aligned pointee
  bool reference = false;          // a reference bound to memory (uses load/store)
  std::array<Poly, 3> dims;        // Dim3
  std::string path;                // Aggregate: a by-value struct parameter ("args")
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
};

struct LValue {
  enum class Kind : uint8_t { None, Var, Memory, Field, Dim3Field };
  Kind kind = Kind::None;
  const clang::VarDecl* var = nullptr;
  Value address;            // Memory
  clang::QualType type;     // Memory / Field: the object's type
  std::string path;         // Field
  int dim = 0;              // Dim3Field
  std::string field_of;     // Memory: the struct a member access reaches into
};

struct Env {
  std::map<const clang::VarDecl*, Value> vars;
  PathFacts facts;
  std::vector<LaneGuard> guards;
  bool dead = false;
};

struct Frame {
  const clang::FunctionDecl* function = nullptr;
  std::vector<Value> returns;
  std::optional<Location> call_site;
  bool returns_reference = false;
};

bool is_builtin_index(const clang::VarDecl* var, int& which) {
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

const clang::VarDecl* canonical(const clang::VarDecl* v) { return v ? v->getCanonicalDecl() : nullptr; }

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
  bool simple_step = false;            // `v += e`, `v -= e`, `++v`, `v = v + e`
  bool top_level = false;              // in the increment, or a direct statement of the body
  const clang::Expr* step = nullptr;   // e (nullptr for ++/--)
  bool negative = false;
  bool address_taken = false;
};

}  // namespace

struct AccessInterpreter::Impl {
  clang::ASTContext& ctx;
  const SourceView& view;
  ModelOptions options;
  clang::PrintingPolicy policy;

  // Per analysed function.
  AtomTable atoms;
  std::vector<Base> bases;
  std::map<const clang::VarDecl*, int> static_bases;
  std::map<std::string, int> path_bases;
  std::vector<Frame> frames;
  std::vector<MemoryAccess>* out = nullptr;
  std::vector<LaunchObservation>* launches = nullptr;
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

  Impl(clang::ASTContext& c, const SourceView& v, const ModelOptions& o)
      : ctx(c), view(v), options(o), policy(c.getLangOpts()) {
    policy.SuppressTagKeyword = true;
    policy.SuppressScope = false;
  }

  void reset() {
    atoms = AtomTable();
    bases.clear();
    static_bases.clear();
    path_bases.clear();
    frames.clear();
    steps = 0;
    nesting_depth = 0;
    for (auto& t : thread) t = UINT32_MAX;
    for (auto& b : block_dim) b = UINT32_MAX;
    block = BlockShape();
  }

  // ------------------------------------------------------------------ small helpers

  std::string text_of(const clang::Expr* e, size_t limit = 60) const {
    if (!e) return "";
    const auto& sm = ctx.getSourceManager();
    clang::CharSourceRange range = clang::Lexer::makeFileCharRange(
        clang::CharSourceRange::getTokenRange(e->getSourceRange()), sm, ctx.getLangOpts());
    if (range.isInvalid()) {
      clang::SourceRange spelled(sm.getSpellingLoc(e->getBeginLoc()), sm.getSpellingLoc(e->getEndLoc()));
      range = clang::CharSourceRange::getTokenRange(spelled);
    }
    std::string s = clang::Lexer::getSourceText(range, sm, ctx.getLangOpts()).str();
    std::string out;
    bool space = false;
    for (char c : s) {
      if (c == '\n' || c == '\t' || c == ' ') {
        space = !out.empty();
        continue;
      }
      if (space) out += ' ';
      space = false;
      out += c;
    }
    if (out.size() > limit) out = out.substr(0, limit - 3) + "...";
    return out;
  }

  AtomId builtin_atom(int which, int dim) {
    static const char* names[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
    static const AtomKind kinds[] = {AtomKind::ThreadIdx, AtomKind::BlockIdx, AtomKind::BlockDim, AtomKind::GridDim};
    std::string name = std::string(names[which]) + "." + "xyz"[dim];
    Atom a;
    a.kind = kinds[which];
    a.dim = static_cast<uint8_t>(dim);
    a.name = name;
    a.variation = which == 0 ? Variation::Lane : Variation::Uniform;
    // blockDim.x: threads are launched in warps; a block of a multiple of 32 is what nearly every
    // kernel uses, and the usual assumption of coalescing analyses.
    if (which == 2 && dim == 0) a.congruence = Congruence::multiple_of(32);
    a.parameter_like = which >= 2;
    AtomId id = atoms.intern(name, a);
    if (which == 0) thread[dim] = id;
    if (which == 2) block_dim[dim] = id;
    return id;
  }

  Value opaque(Variation v, const std::string& name, Congruence c = Congruence::unknown(), bool parameter_like = false,
               bool loaded = false) {
    Atom a;
    a.kind = AtomKind::Opaque;
    a.loaded = loaded && (v == Variation::Lane || v == Variation::Piecewise || v == Variation::Varying);
    a.variation = v == Variation::Lane || v == Variation::Piecewise ? Variation::Varying : v;
    a.congruence = c;
    a.name = name.empty() ? "<value>" : name;
    a.parameter_like = parameter_like;
    return Value::integer(Poly::atom(atoms.add(a)));
  }

  Variation variation_of(const Value& v) const {
    switch (v.kind) {
      case Value::Kind::Int: return atoms.variation(v.form);
      case Value::Kind::Pointer: return v.base < 0 ? Variation::Varying : atoms.variation(v.form);
      case Value::Kind::None: return v.variation;
      default: return Variation::Uniform;
    }
  }

  std::optional<int64_t> type_size(clang::QualType t) const { return concrete_size(ctx, t); }

  uint64_t type_align(clang::QualType t) const { return concrete_alignment(ctx, t); }

  Poly size_form(clang::QualType t) {
    if (auto s = type_size(t)) return Poly::constant(*s);
    std::string name = t.isNull() ? "<unknown type>" : t.getNonReferenceType().getUnqualifiedType().getAsString(policy);
    Atom a;
    a.kind = AtomKind::SizeOf;
    a.name = "sizeof(" + name + ")";
    a.parameter_like = true;
    return Poly::atom(atoms.intern("sizeof:" + name, a));
  }

  clang::QualType pointee(clang::QualType t) const { return pointee_type(t); }

  int add_base(const std::string& name, MemorySpace space, uint64_t alignment, std::optional<Congruence> address,
               std::string note = "") {
    Atom a;
    a.kind = AtomKind::Address;
    a.name = "&" + name;
    a.congruence = address ? *address : Congruence::multiple_of(alignment);
    Base b;
    b.name = name;
    b.space = space;
    b.alignment = alignment;
    b.address = atoms.add(a);
    b.note = std::move(note);
    bases.push_back(b);
    return static_cast<int>(bases.size() - 1);
  }

  int static_base(const clang::VarDecl* var) {
    var = canonical(var);
    if (auto it = static_bases.find(var); it != static_bases.end()) return it->second;
    MemorySpace space = MemorySpace::Global;
    // 0 (unknown) while the type is still a template parameter's (`__shared__ T s[N]`).
    uint64_t alignment = declared_alignment(ctx, *var);
    std::string note;
    if (var->hasAttr<clang::CUDASharedAttr>()) {
      space = MemorySpace::Shared;
      if ((!var->getType().isNull() && var->getType()->isIncompleteArrayType()) || var->hasExternalStorage()) {
        alignment = std::max<uint64_t>(alignment, 16);
        note = "dynamic shared memory starts 16-byte aligned";
      } else if (alignment > 0) {
        note = "`" + var->getNameAsString() + "` is declared with " + std::to_string(alignment) + "-byte alignment";
      }
    } else if (var->hasAttr<clang::CUDAConstantAttr>()) {
      space = MemorySpace::Constant;
    } else if (!var->hasGlobalStorage()) {
      space = MemorySpace::Local;
    }
    int id = add_base(var->getNameAsString(), space, alignment, std::nullopt, note);
    static_bases[var] = id;
    return id;
  }

  int path_base(const std::string& path) {
    if (auto it = path_bases.find(path); it != path_bases.end()) return it->second;
    int id = add_base(path, MemorySpace::Global, options.assumed_pointer_alignment, std::nullopt);
    path_bases[path] = id;
    return id;
  }

  // ------------------------------------------------------------------ arithmetic

  Value int_or_opaque(std::optional<Poly> p, Variation fallback, const clang::Expr* e) {
    if (p) return Value::integer(std::move(*p));
    return opaque(fallback, text_of(e));
  }

  Value pointer_add(const Value& ptr, const Poly& index, clang::QualType element, bool subtract, const clang::Expr* e) {
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

  Value quotient(const Poly& inner, const Poly& divisor) {
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

  Value remainder(const Poly& inner, const Poly& divisor, const clang::Expr* e) {
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

  Value int_binary(clang::BinaryOperatorKind op, const Poly& l, const Poly& r, const clang::Expr* e) {
    Variation v = max_variation(atoms.variation(l), atoms.variation(r));
    switch (op) {
      case clang::BO_Add: return int_or_opaque(l.plus(r), v, e);
      case clang::BO_Sub: return int_or_opaque(l.minus(r), v, e);
      case clang::BO_Mul: return int_or_opaque(l.times(r), v, e);
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

  Value eval(const clang::Expr* e, Env& env) {
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
  Value eval_parts(const clang::Expr* e, Env& env) {
    Variation v = Variation::Uniform;
    for (const clang::Stmt* child : e->children())
      if (auto* ce = llvm::dyn_cast_or_null<clang::Expr>(child)) v = max_variation(v, variation_of(eval(ce, env)));
    return Value::none(v);
  }

  Variation memory_variation(const Value& address) const {
    if (address.base < 0) return Variation::Varying;
    Variation v = atoms.variation(address.form);
    return v == Variation::Uniform ? Variation::Uniform : Variation::Varying;
  }

  Value eval_decl_ref(const clang::DeclRefExpr* ref, Env& env) {
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
    if (var->getType().isConstQualified() || var->isConstexpr()) {
      if (const clang::Expr* init = var->getAnyInitializer()) {
        if (auto v = constant_value(init, ctx)) return Value::integer(Poly::constant(*v));
      }
    }
    if (is_array_type(var->getType()) || var->hasAttr<clang::CUDASharedAttr>() || var->hasGlobalStorage()) {
      LValue lv = eval_lvalue(ref, env);
      return read(lv, ref, env);
    }
    if (is_integral_type(var->getType())) return opaque(Variation::Varying, var->getNameAsString());
    return Value::none(Variation::Varying);
  }

  Value eval_pseudo(const clang::PseudoObjectExpr* pseudo, Env& env) {
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

  Value eval_trait(const clang::UnaryExprOrTypeTraitExpr* trait) {
    if (auto v = constant_value(trait, ctx)) return Value::integer(Poly::constant(*v));
    if (trait->getKind() == clang::UETT_SizeOf) return Value::integer(size_form(trait->getTypeOfArgument()));
    return opaque(Variation::Uniform, "");
  }

  Value eval_cast(const clang::CastExpr* cast, Env& env) {
    const clang::Expr* sub = cast->getSubExpr();
    switch (cast->getCastKind()) {
      case clang::CK_LValueToRValue: {
        LValue lv = eval_lvalue(sub, env);
        return read(lv, sub, env);
      }
      case clang::CK_ArrayToPointerDecay: {
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
      case clang::CK_BitCast:
      case clang::CK_LValueBitCast:
      case clang::CK_Dependent:
      case clang::CK_AddressSpaceConversion:
      case clang::CK_NoOp:
      case clang::CK_UncheckedDerivedToBase:
      case clang::CK_DerivedToBase:
      case clang::CK_BaseToDerived: {
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

  Value eval_unary(const clang::UnaryOperator* un, Env& env) {
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

  Value eval_binary(const clang::BinaryOperator* bin, Env& env) {
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

  Value combine(clang::BinaryOperatorKind op, const Value& l, const Value& r, clang::QualType lt, clang::QualType rt,
                const clang::Expr* e) {
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
          return opaque(v, "");
        default:
          return int_binary(op, l.form, r.form, e);
      }
    }
    if (is_integral_type(e->getType())) return opaque(v, text_of(e));
    return Value::none(v);
  }

  Value eval_assignment(const clang::BinaryOperator* bin, Env& env) {
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

  Value eval_conditional(const clang::AbstractConditionalOperator* cond, Env& env) {
    eval(cond->getCond(), env);
    Env t = env, f = env;
    assume(cond->getCond(), true, t);
    assume(cond->getCond(), false, f);
    Value a = eval(cond->getTrueExpr(), t);
    Value b = eval(cond->getFalseExpr(), f);
    if (t.dead && !f.dead) {
      env = std::move(f);
      return b;
    }
    if (f.dead && !t.dead) {
      env = std::move(t);
      return a;
    }
    env = join(t, f);
    return join_values(a, b);
  }

  // ------------------------------------------------------------------ lvalues

  LValue eval_lvalue(const clang::Expr* e, Env& env) {
    LValue none;
    if (!e) return none;
    NestingGuard nesting(nesting_depth);
    if (nesting.too_deep()) return none;
    e = e->IgnoreParens();
    if (e->getType().isNull() || e->containsErrors()) return none;
    if (auto* c = llvm::dyn_cast<clang::ImplicitCastExpr>(e)) {
      switch (c->getCastKind()) {
        case clang::CK_NoOp:
        case clang::CK_LValueBitCast:
        case clang::CK_UncheckedDerivedToBase:
        case clang::CK_DerivedToBase:
          return eval_lvalue(c->getSubExpr(), env);
        default:
          return none;
      }
    }
    if (auto* c = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e)) return eval_lvalue(c->getSubExpr(), env);
    if (auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
      auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
      if (!var) return none;
      var = canonical(var);
      auto it = env.vars.find(var);
      if (it != env.vars.end() && it->second.reference) {
        LValue lv;
        lv.kind = LValue::Kind::Memory;
        lv.address = it->second;
        lv.address.reference = false;
        lv.type = var->getType().getNonReferenceType();
        return lv;
      }
      if (it != env.vars.end() && it->second.kind == Value::Kind::Aggregate) {
        LValue lv;
        lv.kind = LValue::Kind::Field;
        lv.path = it->second.path;
        lv.type = var->getType();
        return lv;
      }
      bool is_static = var->hasAttr<clang::CUDASharedAttr>() || (var->hasGlobalStorage() && !var->isStaticLocal()) ||
                       (var->isStaticLocal() && var->hasAttr<clang::CUDASharedAttr>());
      bool constant = (var->getType().isConstQualified() || var->isConstexpr()) &&
                      is_integral_type(var->getType()) && var->getAnyInitializer() &&
                      constant_value(var->getAnyInitializer(), ctx).has_value();
      if (it == env.vars.end() && is_static && !constant && !is_reference_type(var->getType())) {
        int which = 0;
        if (is_builtin_index(var, which)) return none;
        LValue lv;
        lv.kind = LValue::Kind::Memory;
        lv.address = Value::pointer(static_base(var), Poly());
        lv.type = var->getType();
        return lv;
      }
      LValue lv;
      lv.kind = LValue::Kind::Var;
      lv.var = var;
      lv.type = var->getType();
      return lv;
    }
    if (auto* sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) {
      Value base = eval(sub->getBase(), env);
      Value index = eval(sub->getIdx(), env);
      if (base.kind != Value::Kind::Pointer) return none;
      LValue lv;
      lv.kind = LValue::Kind::Memory;
      if (index.kind == Value::Kind::Int) {
        lv.address = pointer_add(base, index.form, sub->getType(), false, sub);
      } else {
        lv.address = base;
        lv.address.form = opaque(max_variation(variation_of(index), Variation::Varying), text_of(sub->getIdx())).form;
      }
      lv.type = sub->getType();
      return lv;
    }
    if (auto* un = llvm::dyn_cast<clang::UnaryOperator>(e)) {
      if (un->getOpcode() != clang::UO_Deref) return none;
      Value p = eval(un->getSubExpr(), env);
      if (p.kind != Value::Kind::Pointer) return none;
      LValue lv;
      lv.kind = LValue::Kind::Memory;
      lv.address = p;
      lv.type = un->getType();
      return lv;
    }
    if (auto* member = llvm::dyn_cast<clang::MemberExpr>(e)) return eval_member_lvalue(member, env);
    if (auto* call = llvm::dyn_cast<clang::CallExpr>(e)) {
      if (!is_reference_type(call->getType()) && !call->isLValue()) return none;
      Value v = eval(call, env);
      if (v.kind == Value::Kind::Pointer && v.reference) {
        LValue lv;
        lv.kind = LValue::Kind::Memory;
        lv.address = v;
        lv.address.reference = false;
        lv.type = non_reference(call->getType());
        return lv;
      }
      return none;
    }
    return none;
  }

  LValue eval_member_lvalue(const clang::MemberExpr* member, Env& env) {
    LValue none;
    auto* field = llvm::dyn_cast<clang::FieldDecl>(member->getMemberDecl());
    if (!field) return none;
    LValue base;
    if (member->isArrow()) {
      Value p = eval(member->getBase(), env);
      if (p.kind != Value::Kind::Pointer) return none;
      base.kind = LValue::Kind::Memory;
      base.address = p;
    } else {
      base = eval_lvalue(member->getBase(), env);
    }
    std::string name = field->getNameAsString();
    if (base.kind == LValue::Kind::Memory) {
      LValue lv;
      lv.kind = LValue::Kind::Memory;
      lv.type = member->getType();
      if (const clang::RecordDecl* parent = field->getParent(); parent && parent->getIdentifier())
        lv.field_of = parent->getNameAsString();
      Poly offset;
      const clang::RecordDecl* record = field->getParent();
      if (record && !record->isDependentContext() && record->getDefinition() && !record->isInvalidDecl() &&
          !field->isInvalidDecl() && !field->isBitField()) {
        const clang::ASTRecordLayout& layout = ctx.getASTRecordLayout(record->getDefinition());
        offset = Poly::constant(static_cast<int64_t>(layout.getFieldOffset(field->getFieldIndex()) / 8));
      } else {
        Atom a;
        a.kind = AtomKind::Opaque;
        a.name = "offsetof(" + name + ")";
        offset = Poly::atom(atoms.intern("offsetof:" + name, a));
      }
      auto next = base.address.form.plus(offset);
      lv.address = base.address;
      lv.address.form = next ? *next : opaque(Variation::Varying, "").form;
      return lv;
    }
    if (base.kind == LValue::Kind::Field) {
      LValue lv;
      lv.kind = LValue::Kind::Field;
      lv.path = base.path + "." + name;
      lv.type = member->getType();
      return lv;
    }
    if (base.kind == LValue::Kind::Var) {
      auto it = env.vars.find(base.var);
      if (it != env.vars.end() && it->second.kind == Value::Kind::Dim3 && (name == "x" || name == "y" || name == "z")) {
        LValue lv;
        lv.kind = LValue::Kind::Dim3Field;
        lv.var = base.var;
        lv.dim = name == "x" ? 0 : name == "y" ? 1 : 2;
        lv.type = member->getType();
        return lv;
      }
    }
    return none;
  }

  Value read(const LValue& lv, const clang::Expr* e, Env& env) {
    switch (lv.kind) {
      case LValue::Kind::Var: {
        if (auto it = env.vars.find(lv.var); it != env.vars.end()) return it->second;
        if (is_integral_type(lv.var->getType())) {
          if (const clang::Expr* init = lv.var->getAnyInitializer())
            if (auto v = constant_value(init, ctx)) return Value::integer(Poly::constant(*v));
          return opaque(Variation::Varying, lv.var->getNameAsString());
        }
        return Value::none(Variation::Varying);
      }
      case LValue::Kind::Memory: {
        record(e, lv.address, lv.type, false, false, env, lv.field_of);
        clang::QualType t = non_reference(lv.type);
        Variation v = memory_variation(lv.address);
        if (t.isNull()) return Value::none(v);
        if (t->isPointerType()) {
          if (v != Variation::Uniform) {
            int id = add_base(text_of(e), MemorySpace::Global, 0, std::nullopt);
            return Value::pointer(id, opaque(Variation::Varying, text_of(e)).form);
          }
          int id = add_base(text_of(e), MemorySpace::Global, 0, std::nullopt);
          return Value::pointer(id, Poly());
        }
        if (t->isIntegralOrEnumerationType() || t->isDependentType())
          return opaque(v, text_of(e), Congruence::unknown(), false, /*loaded=*/true);
        return Value::none(v);
      }
      case LValue::Kind::Field: {
        clang::QualType t = non_reference(lv.type);
        if (t.isNull()) return Value::none(Variation::Varying);
        if (t->isPointerType() || t->isArrayType()) return Value::pointer(path_base(lv.path), Poly());
        if (t->isIntegralOrEnumerationType() || t->isDependentType()) {
          Atom a;
          a.kind = AtomKind::Parameter;
          a.name = lv.path;
          a.parameter_like = true;
          return Value::integer(Poly::atom(atoms.intern("param:" + lv.path, a)));
        }
        if (t->isRecordType()) {
          Value agg;
          agg.kind = Value::Kind::Aggregate;
          agg.path = lv.path;
          return agg;
        }
        return Value::none();
      }
      case LValue::Kind::Dim3Field: {
        auto it = env.vars.find(lv.var);
        if (it != env.vars.end()) return Value::integer(it->second.dims[lv.dim]);
        return opaque(Variation::Uniform, "");
      }
      case LValue::Kind::None:
        break;
    }
    return Value::none(Variation::Varying);
  }

  void write(const LValue& lv, const Value& value, const clang::Expr* e, Env& env) {
    if (quiet) return;
    switch (lv.kind) {
      case LValue::Kind::Var: {
        Value v = value;
        if (is_integral_type(lv.var->getType()) && v.kind == Value::Kind::None)
          v = opaque(v.variation, lv.var->getNameAsString());
        env.vars[lv.var] = v;
        break;
      }
      case LValue::Kind::Memory:
        record(e, lv.address, lv.type, true, false, env, lv.field_of);
        break;
      case LValue::Kind::Dim3Field: {
        auto it = env.vars.find(lv.var);
        if (it != env.vars.end() && value.kind == Value::Kind::Int) it->second.dims[lv.dim] = value.form;
        break;
      }
      default:
        break;
    }
  }

  void havoc(const clang::VarDecl* var, Env& env) {
    auto it = env.vars.find(var);
    if (it == env.vars.end()) return;
    Value& v = it->second;
    if (v.kind == Value::Kind::Int) v = opaque(Variation::Varying, var->getNameAsString());
    else if (v.kind == Value::Kind::Pointer) v.form = opaque(Variation::Varying, var->getNameAsString()).form;
    else v = Value::none(Variation::Varying);
  }

  // ------------------------------------------------------------------ calls

  Value eval_argument(const clang::Expr* arg, const clang::ParmVarDecl* param, Env& env, bool bind_reference) {
    bool by_reference = param && is_reference_type(param->getType());
    if (by_reference && arg->isGLValue()) {
      LValue lv = eval_lvalue(arg, env);
      if (lv.kind == LValue::Kind::Memory) {
        if (bind_reference) {
          Value ref = lv.address;
          ref.reference = true;
          return ref;
        }
        // A function we do not inline reads the referenced object.
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

  Value eval_call(const clang::CallExpr* call, Env& env) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    std::string name = callee && callee->getIdentifier() ? callee->getName().str() : "";
    auto arg = [&](unsigned i) { return i < call->getNumArgs() ? call->getArg(i) : nullptr; };

    if (!name.empty() && !host_mode) {
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
    }
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

    const clang::FunctionDecl* definition = callee ? callee->getDefinition() : nullptr;
    bool in_user_code = definition && definition->hasBody() && view.is_user_location(definition->getLocation());
    bool wanted = host_mode ? (host_inlinable && in_user_code && host_inlinable->count(definition) > 0)
                            : (in_user_code && is_device_function(*definition) && !is_kernel(*definition));
    bool inlinable = wanted && static_cast<int>(frames.size()) <= kMaxInlineDepth &&
                     std::none_of(frames.begin(), frames.end(), [&](const Frame& f) { return f.function == definition; });
    if (inlinable && !quiet) return inline_call(call, definition, env);

    // Not inlined: the arguments are still evaluated (their loads happen), the result is opaque.
    Variation v = Variation::Uniform;
    for (unsigned i = 0; i < call->getNumArgs(); ++i) {
      const clang::ParmVarDecl* param = callee && i < callee->getNumParams() ? callee->getParamDecl(i) : nullptr;
      v = max_variation(v, variation_of(eval_argument(arg(i), param, env, false)));
    }
    if (auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(call))
      v = max_variation(v, variation_of(eval(member->getImplicitObjectArgument(), env)));
    if (callee && callee->isNoReturn()) env.dead = true;
    if (name == "__trap" || name == "__assert_fail" || name == "__builtin_unreachable" || name == "abort")
      env.dead = true;
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

  Value inline_call(const clang::CallExpr* call, const clang::FunctionDecl* definition, Env& env) {
    Env callee_env;
    callee_env.facts = env.facts;
    callee_env.guards = env.guards;
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
    Frame done = std::move(frames.back());
    frames.pop_back();
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

  Value eval_operator_call(const clang::CXXOperatorCallExpr* op, Env& env) {
    clang::OverloadedOperatorKind kind = op->getOperator();
    const clang::FunctionDecl* callee = op->getDirectCallee();
    bool assignment = kind == clang::OO_Equal || kind == clang::OO_PlusEqual || kind == clang::OO_MinusEqual ||
                      kind == clang::OO_StarEqual || kind == clang::OO_SlashEqual;
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
      v = max_variation(v, variation_of(eval_argument(op->getArg(i), param, env, false)));
    }
    if (is_integral_type(op->getType())) return opaque(v, text_of(op));
    return Value::none(v);
  }

  Value eval_construct(const clang::CXXConstructExpr* construct, Env& env) {
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
    for (unsigned i = 0; i < construct->getNumArgs(); ++i) {
      const clang::ParmVarDecl* param = ctor && i < ctor->getNumParams() ? ctor->getParamDecl(i) : nullptr;
      v = max_variation(v, variation_of(eval_argument(construct->getArg(i), param, env, false)));
    }
    return Value::none(v);
  }

  Value eval_launch(const clang::CUDAKernelCallExpr* launch, Env& env) {
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
    for (size_t i = 0; i < args.size(); ++i) {
      const Value& v = args[i];
      std::optional<Congruence> c;
      if (v.kind == Value::Kind::Pointer && v.base >= 0) {
        if (auto form = Poly::atom(bases[v.base].address).plus(v.form)) c = congruence_of(atoms, *form, &env.facts);
      } else if (v.kind == Value::Kind::Int) {
        c = congruence_of(atoms, with_known_values(v.form, env.facts), &env.facts);
      }
      obs.arguments.push_back(c);
      obs.argument_texts.push_back(text_of(launch->getArg(i)));
    }
    launches->push_back(std::move(obs));
    return Value::none();
  }

  // ------------------------------------------------------------------ joins

  Value join_values(const Value& a, const Value& b) {
    if (a == b) return a;
    if (a.kind == Value::Kind::Int && b.kind == Value::Kind::Int) return Value::integer(join_forms(a.form, b.form));
    if (a.kind == Value::Kind::Pointer && b.kind == Value::Kind::Pointer && a.base == b.base) {
      Value out = a;
      out.form = join_forms(a.form, b.form);
      out.widened = a.widened || b.widened;
      out.reference = a.reference && b.reference;
      return out;
    }
    if (a.kind == Value::Kind::Pointer && b.kind == Value::Kind::Pointer) {
      Value out = Value::pointer(-1, Poly());
      return out;
    }
    if (a.kind == Value::Kind::Dim3 && b.kind == Value::Kind::Dim3) {
      Value out = a;
      for (int d = 0; d < 3; ++d) out.dims[d] = join_forms(a.dims[d], b.dims[d]);
      return out;
    }
    Variation v = max_variation(variation_of(a), variation_of(b));
    if (a.kind == Value::Kind::Int || b.kind == Value::Kind::Int) return opaque(v, "");
    return Value::none(v);
  }

  // Two forms at a merge: keep the thread-dependent part when both agree on it, so that
  // `idx = odd ? 2*t + 1 : 2*t` keeps stride 2.
  Poly join_forms(const Poly& a, const Poly& b) {
    auto thread_part = [&](AtomId id) { return atoms[id].variation != Variation::Uniform; };
    auto [ta, ua] = a.split(thread_part);
    auto [tb, ub] = b.split(thread_part);
    Congruence c = Congruence::join(congruence_of(atoms, ua), congruence_of(atoms, ub));
    if (ta == tb) {
      Atom phi;
      phi.kind = AtomKind::Opaque;
      phi.variation = Variation::Uniform;
      phi.congruence = c;
      phi.name = "<joined>";
      if (auto sum = ta.plus(Poly::atom(atoms.add(phi)))) return *sum;
    }
    Atom phi;
    phi.kind = AtomKind::Opaque;
    phi.variation = max_variation(atoms.variation(a), atoms.variation(b)) == Variation::Uniform ? Variation::Uniform
                                                                                                : Variation::Varying;
    phi.congruence = Congruence::join(congruence_of(atoms, a), congruence_of(atoms, b));
    phi.name = "<joined>";
    return Poly::atom(atoms.add(phi));
  }

  Env join(const Env& a, const Env& b) {
    if (a.dead) return b;
    if (b.dead) return a;
    Env out;
    for (const auto& [var, va] : a.vars) {
      auto it = b.vars.find(var);
      if (it == b.vars.end()) continue;
      out.vars[var] = join_values(va, it->second);
    }
    out.facts = PathFacts::join(a.facts, b.facts);
    for (const auto& g : a.guards) {
      bool both = std::any_of(b.guards.begin(), b.guards.end(),
                              [&](const LaneGuard& h) { return h.op == g.op && h.form == g.form; });
      if (both) out.guards.push_back(g);
    }
    return out;
  }

  // ------------------------------------------------------------------ conditions

  void assume(const clang::Expr* cond, bool truth, Env& env) {
    ++quiet;
    assume_impl(cond, truth, env, 0);
    --quiet;
  }

  void assume_impl(const clang::Expr* cond, bool truth, Env& env, int depth) {
    if (!cond || depth > 8) return;
    cond = cond->IgnoreParenImpCasts();
    if (auto* c = llvm::dyn_cast<clang::ExprWithCleanups>(cond)) return assume_impl(c->getSubExpr(), truth, env, depth + 1);
    if (auto* cast = llvm::dyn_cast<clang::ExplicitCastExpr>(cond)) {
      if (is_boolean_type(cast->getType())) return assume_impl(cast->getSubExpr(), truth, env, depth + 1);
    }
    if (auto* un = llvm::dyn_cast<clang::UnaryOperator>(cond)) {
      if (un->getOpcode() == clang::UO_LNot) return assume_impl(un->getSubExpr(), !truth, env, depth + 1);
    }
    if (auto* bin = llvm::dyn_cast<clang::BinaryOperator>(cond)) {
      switch (bin->getOpcode()) {
        case clang::BO_LAnd:
          if (truth) {
            assume_impl(bin->getLHS(), true, env, depth + 1);
            assume_impl(bin->getRHS(), true, env, depth + 1);
          }
          return;
        case clang::BO_LOr:
          if (!truth) {
            assume_impl(bin->getLHS(), false, env, depth + 1);
            assume_impl(bin->getRHS(), false, env, depth + 1);
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
  }

  // Is `e` written `X % K` or `X & (2^k - 1)`? Then X and the power-of-two part of K.
  bool remainder_pattern(const clang::Expr* e, const clang::Expr*& x, int& bits) {
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

  void relation(const clang::Expr* lhs, const clang::Expr* rhs, clang::BinaryOperatorKind op, bool truth, Env& env) {
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
    if (l.kind != Value::Kind::Int || rv.kind != Value::Kind::Int) return;
    auto d = l.form.minus(rv.form);
    if (!d) return;
    Variation v = atoms.variation(*d);
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

  void exec(const clang::Stmt* s, Env& env) {
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
      return exec_loop(fors->getInit(), fors->getConditionVariableDeclStmt(), fors->getCond(), fors->getInc(),
                       fors->getBody(), env);
    }
    if (auto* whiles = llvm::dyn_cast<clang::WhileStmt>(s)) {
      return exec_loop(nullptr, whiles->getConditionVariableDeclStmt(), whiles->getCond(), nullptr, whiles->getBody(), env);
    }
    if (auto* dos = llvm::dyn_cast<clang::DoStmt>(s)) {
      return exec_loop(nullptr, nullptr, dos->getCond(), nullptr, dos->getBody(), env);
    }
    if (auto* range = llvm::dyn_cast<clang::CXXForRangeStmt>(s)) {
      Env body = env;
      if (range->getLoopVarStmt()) exec(range->getLoopVarStmt(), body);
      exec(range->getBody(), body);
      return;
    }
    if (auto* sw = llvm::dyn_cast<clang::SwitchStmt>(s)) return exec_switch(sw, env);
    if (auto* ret = llvm::dyn_cast<clang::ReturnStmt>(s)) {
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
      env.dead = true;
      return;
    }
    if (llvm::isa<clang::BreakStmt>(s) || llvm::isa<clang::ContinueStmt>(s) || llvm::isa<clang::GotoStmt>(s)) {
      env.dead = true;
      return;
    }
    if (auto* label = llvm::dyn_cast<clang::LabelStmt>(s)) return exec(label->getSubStmt(), env);
    if (auto* attributed = llvm::dyn_cast<clang::AttributedStmt>(s)) return exec(attributed->getSubStmt(), env);
    if (auto* sc = llvm::dyn_cast<clang::SwitchCase>(s)) return exec(sc->getSubStmt(), env);
    if (llvm::isa<clang::AsmStmt>(s) || llvm::isa<clang::NullStmt>(s)) return;
    if (auto* e = llvm::dyn_cast<clang::Expr>(s)) {
      eval(e, env);
      return;
    }
    for (const clang::Stmt* child : s->children()) exec(child, env);
  }

  void declare(const clang::VarDecl* var, Env& env) {
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
  void exec_switch(const clang::SwitchStmt* sw, Env& env) {
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
      for (size_t i = start; i < body.size() && !path.dead; ++i) exec(body[i], path);
    }
    std::map<const clang::VarDecl*, Modification> mods;
    collect_modifications(sw->getBody(), mods, {});
    for (const auto& [var, m] : mods) havoc(var, env);
  }

  void exec_if(const clang::IfStmt* ifs, Env& env) {
    if (ifs->getInit()) exec(ifs->getInit(), env);
    if (ifs->getConditionVariableDeclStmt()) exec(ifs->getConditionVariableDeclStmt(), env);
    if (ifs->isConstexpr() && !ifs->getCond()->isValueDependent()) {
      if (auto taken = ifs->getNondiscardedCase(ctx)) {
        if (*taken) exec(*taken, env);
        return;
      }
    }
    eval(ifs->getCond(), env);
    Env t = env, f = env;
    assume(ifs->getCond(), true, t);
    assume(ifs->getCond(), false, f);
    exec(ifs->getThen(), t);
    if (ifs->getElse()) exec(ifs->getElse(), f);
    env = join(t, f);
    if (t.dead && f.dead) env.dead = true;
  }

  // Assignments to variables in a loop: which ones step by a loop-invariant amount.
  void collect_modifications(const clang::Stmt* s, std::map<const clang::VarDecl*, Modification>& mods,
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

  bool mentions_any(const clang::Stmt* s, const std::map<const clang::VarDecl*, Modification>& mods) {
    if (!s) return false;
    if (auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(s))
      if (auto* v = llvm::dyn_cast<clang::VarDecl>(ref->getDecl())) return mods.count(canonical(v)) > 0;
    for (const clang::Stmt* child : s->children())
      if (mentions_any(child, mods)) return true;
    return false;
  }

  void exec_loop(const clang::Stmt* init, const clang::DeclStmt* cond_var, const clang::Expr* cond,
                 const clang::Expr* inc, const clang::Stmt* body, Env& env) {
    if (init) exec(init, env);
    std::set<const clang::Stmt*> top_level;
    if (inc) top_level.insert(inc->IgnoreParens());
    if (auto* compound = llvm::dyn_cast_or_null<clang::CompoundStmt>(body)) {
      for (const clang::Stmt* child : compound->body()) {
        if (auto* e = llvm::dyn_cast<clang::Expr>(child)) top_level.insert(e->IgnoreParens());
        else top_level.insert(child);
      }
    } else if (body) {
      if (auto* e = llvm::dyn_cast<clang::Expr>(body)) top_level.insert(e->IgnoreParens());
    }
    std::map<const clang::VarDecl*, Modification> mods;
    collect_modifications(cond, mods, top_level);
    collect_modifications(inc, mods, top_level);
    collect_modifications(body, mods, top_level);

    std::map<const clang::VarDecl*, Variation> havoc_variation;
    for (int attempt = 0; attempt < 2; ++attempt) {
      size_t records_before = out ? out->size() : 0;
      size_t launches_before = launches ? launches->size() : 0;
      Env entry = env;
      for (const auto& [var, m] : mods) {
        if (entry.vars.find(var) == entry.vars.end()) continue;
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
        if (it == entry.vars.end()) continue;
        Value& v = it->second;
        induction = induction && (v.kind == Value::Kind::Int || v.kind == Value::Kind::Pointer);
        if (induction) {
          if (induction) {
            Atom k;
            k.kind = AtomKind::Induction;
            k.name = var->getNameAsString() + "'s iteration";
            Poly kp = Poly::atom(atoms.add(k));
            auto delta = kp.times(step);
            if (delta && m.negative) delta = delta->scaled(-1);
            if (delta) {
              if (v.kind == Value::Kind::Int) {
                auto next = v.form.plus(*delta);
                if (next) {
                  v.form = *next;
                  continue;
                }
              } else {
                Value moved = pointer_add(v, *delta, pointee(var->getType()), false, nullptr);
                v.form = moved.form;
                continue;
              }
            }
          }
        }
        Variation hv = variation_of(v);
        if (auto h = havoc_variation.find(var); h != havoc_variation.end()) hv = max_variation(hv, h->second);
        havoc_variation[var] = hv;
        if (v.kind == Value::Kind::Int) v = opaque(hv, var->getNameAsString());
        else if (v.kind == Value::Kind::Pointer) v.form = opaque(hv, var->getNameAsString()).form;
        else v = Value::none(hv);
      }
      Env body_env = entry;
      if (cond_var) exec(cond_var, body_env);
      if (cond) eval(cond, body_env);
      exec(body, body_env);
      body_env.dead = false;
      if (inc) eval(inc, body_env);
      // A variable given a uniform stand-in that the body makes thread-dependent: once more,
      // with a varying stand-in.
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
      if (again && attempt == 0) {
        if (out) out->resize(records_before);
        if (launches) launches->resize(launches_before);
        continue;
      }
      // After the loop: the state at the head of some iteration, with the pre-loop facts.
      Env after = entry;
      after.facts = env.facts;
      after.guards = env.guards;
      env = std::move(after);
      return;
    }
  }

  // ------------------------------------------------------------------ records

  static bool is_vector_record(const clang::QualType& t) {
    if (t.isNull()) return false;
    const clang::RecordDecl* rd = t->getAsRecordDecl();
    if (!rd) return false;
    if (rd->hasAttr<clang::AlignedAttr>()) return true;
    static const std::set<std::string> names = {"float2", "float4", "double2", "int2", "int4", "uint2", "uint4",
                                                "longlong2", "ulonglong2", "long2", "ulong2", "short4", "ushort4",
                                                "__half2", "half2", "__nv_bfloat162", "nv_bfloat162", "char4",
                                                "uchar4", "short2", "ushort2", "double4", "float3"};
    return names.count(rd->getNameAsString()) > 0;
  }

  void record(const clang::Expr* e, const Value& address, clang::QualType type, bool store, bool atomic, Env& env,
              const std::string& field_of = "") {
    if (quiet || host_mode || !out || env.dead) return;
    if (address.kind != Value::Kind::Pointer || address.base < 0) return;
    const Base& base = bases[address.base];
    if (base.space == MemorySpace::Local || base.space == MemorySpace::Constant || base.space == MemorySpace::Unknown) return;
    if (!e || !view.is_user_location(e->getBeginLoc())) return;
    if (type.isNull()) return;
    clang::QualType t = type.getNonReferenceType().getUnqualifiedType();
    if (t.isNull() || t->containsErrors() || t->isArrayType() || t->isFunctionType()) return;

    MemoryAccess m;
    m.location = view.location_of(e->getSourceRange());
    m.function = frames.empty() ? kernel_name : qualified_name(*frames.back().function);
    m.kernel = kernel_name;
    for (const auto& f : frames)
      if (f.call_site) m.call_chain.push_back(*f.call_site);
    m.is_store = store;
    m.is_atomic = atomic;
    m.space = base.space;
    m.base_name = base.name;
    m.type_name = t.getAsString(policy);
    m.field_of = field_of;
    if (m.field_of.empty() && t->isRecordType() && !is_vector_record(t)) m.field_of = m.type_name;
    m.block_shape = block.describe();

    Poly offset = with_known_values(address.form, env.facts);
    std::optional<int64_t> size = type_size(t);
    uint64_t align = type_align(t);
    int64_t width = 0;
    if (size) {
      width = *size;
      if (t->isRecordType()) width = std::min<int64_t>({*size, static_cast<int64_t>(std::max<uint64_t>(align, 1)), 16});
      m.element_size = static_cast<uint32_t>(*size);
    } else {
      // A dependent element type: count in elements, as if each were 4 bytes.
      Poly s = size_form(t);
      AtomId satom = s.terms().empty() || s.terms()[0].atoms.empty() ? UINT32_MAX : s.terms()[0].atoms[0];
      if (satom != UINT32_MAX) {
        if (auto elems = offset.divided_by_atom(satom)) {
          if (auto bytes = elems->scaled(4)) {
            offset = *bytes;
            width = 4;
          }
        }
      }
    }
    m.width = static_cast<uint32_t>(std::max<int64_t>(width, 0));

    if (base.space == MemorySpace::Global && width > 0) {
      WarpQuery q;
      q.atoms = &atoms;
      q.offset = offset;
      q.width = static_cast<uint32_t>(width);
      q.element_size = size ? *size : 4;
      q.block = block;
      for (int d = 0; d < 3; ++d) {
        if (block_dim[d] == UINT32_MAX) continue;
        if (auto it = env.facts.values.find(block_dim[d]); it != env.facts.values.end() && it->second > 0) {
          std::optional<uint32_t>& slot = d == 0 ? q.block.x : d == 1 ? q.block.y : q.block.z;
          slot = static_cast<uint32_t>(it->second);
        }
      }
      q.guards = env.guards;
      q.facts = &env.facts;
      for (int d = 0; d < 3; ++d) {
        q.thread_atoms[d] = thread[d];
        q.block_dim_atoms[d] = block_dim[d];
      }
      WarpEstimate w = estimate_warp(q);
      m.pattern = w.pattern;
      m.lane_dimension = w.lane_dimension;
      m.lane_stride = w.lane_stride;
      m.runtime_stride = w.runtime_stride;
      m.stride_text = w.stride_text;
      m.stride_in_elements = w.stride_in_elements;
      m.sectors = w.sectors;
      m.ideal_sectors = w.ideal_sectors;
      m.sectors_if_aligned = w.sectors_if_aligned;
      m.active_lanes = w.active_lanes;
      m.block_shape = q.block.describe();
      m.gather_index = w.gather_index;
      m.window_shift = w.window_shift;
      m.base_sector_aligned = base.alignment >= 32;
    }

    // Vector types, and anything reached through a cast to an 8- or 16-byte type (a cast to a
    // 4-byte float from a byte buffer is a scalar access, out of this rule's scope).
    uint64_t required = t->isRecordType() ? align : (size ? static_cast<uint64_t>(*size) : align);
    bool vector = is_vector_record(t) || (address.widened && required >= 8);
    if (vector && required > 1 && !t->isDependentType()) {
      m.vector_access = true;
      m.required_alignment = static_cast<uint32_t>(required);
      check_alignment(base, address.form, required, env, m);
    }
    out->push_back(std::move(m));
  }

  bool index_like(AtomId a) const {
    const Atom& atom = atoms[a];
    switch (atom.kind) {
      case AtomKind::ThreadIdx:
      case AtomKind::BlockIdx:
      case AtomKind::Induction:
        return true;
      case AtomKind::Quotient: {
        if (atom.variation != Variation::Uniform) return true;
        for (AtomId inner : atom.inner.atoms())
          if (index_like(inner)) return true;
        return false;
      }
      case AtomKind::Opaque:
        return atom.variation != Variation::Uniform;
      default:
        return false;
    }
  }

  void check_alignment(const Base& base, const Poly& offset_in, uint64_t w, Env& env, MemoryAccess& m) {
    m.base_alignment = base.alignment;
    m.alignment_note = base.note;
    Poly offset = with_known_values(offset_in, env.facts);
    auto full = Poly::atom(base.address).plus(offset);
    if (!full) {
      m.alignment = AlignmentVerdict::Unknown;
      return;
    }
    Congruence c = congruence_of(atoms, *full, &env.facts);
    if (c.divisible_by(w)) {
      m.alignment = AlignmentVerdict::Aligned;
      return;
    }
    Congruence bc = congruence_of(atoms, Poly::atom(base.address), &env.facts);
    if (!bc.residue_mod(w)) {
      // Byte and half buffers used as vectors are the classic mistake; arrays of 4-byte elements
      // read as float4 (tiled matmuls) are placed 16-byte aligned in practice, and are left alone.
      m.alignment = base.alignment > 0 && base.alignment < 4 ? AlignmentVerdict::BaseUnderaligned : AlignmentVerdict::Unknown;
      return;
    }
    if (auto r = c.residue_mod(w)) {
      m.alignment = AlignmentVerdict::Misaligned;
      m.misaligned_by = *r;
      return;
    }
    // Which terms keep the offset from being a known multiple of w?
    int need = two_adic_valuation(static_cast<int64_t>(w));
    std::vector<std::pair<std::string, int64_t>> conditions;  // product of parameters, modulus
    bool per_thread = false;
    bool other = false;
    for (const auto& term : offset.terms()) {
      Poly tp = Poly::constant(term.coefficient);
      for (AtomId a : term.atoms)
        if (auto next = tp.times(Poly::atom(a))) tp = std::move(*next);
      Congruence tc = congruence_of(atoms, tp, &env.facts);
      if (tc.divisible_by(w)) continue;
      if (term.atoms.empty()) {
        other = true;
        continue;
      }
      std::vector<AtomId> params;
      bool thread_index = false;
      for (AtomId a : term.atoms) {
        const Atom& atom = atoms[a];
        if (atom.kind == AtomKind::ThreadIdx || (atom.kind == AtomKind::Quotient && atom.variation == Variation::Lane) ||
            atom.kind == AtomKind::BlockIdx)
          thread_index = true;
        else if (!index_like(a))
          params.push_back(a);
      }
      if (params.empty()) {
        if (thread_index) per_thread = true;
        else other = true;
        continue;
      }
      // coefficient · Π params · (indices) ≡ 0 (mod w) for every index: Π params ≡ 0 (mod w / 2^v).
      int v = two_adic_valuation(term.coefficient);
      if (v >= need) continue;
      int64_t modulus = int64_t{1} << (need - v);
      std::string product;
      for (AtomId a : params) product += (product.empty() ? "" : " * ") + atoms[a].name;
      auto it = std::find_if(conditions.begin(), conditions.end(), [&](const auto& c) { return c.first == product; });
      if (it == conditions.end()) conditions.emplace_back(product, modulus);
      else it->second = std::max(it->second, modulus);
    }
    if (per_thread && conditions.empty() && !other) {
      m.alignment = AlignmentVerdict::Misaligned;
      m.misaligned_per_thread = true;
      return;
    }
    m.alignment = AlignmentVerdict::Conditional;
    std::string joined;
    for (size_t i = 0; i < conditions.size(); ++i) {
      const auto& [product, modulus] = conditions[i];
      bool compound = product.find(' ') != std::string::npos;
      joined += (i ? " and " : "") + (compound ? "(" + product + ")" : product) + " % " + std::to_string(modulus) + " == 0";
    }
    if (joined.empty()) joined = "the byte offset `" + atoms.print(offset) + "` % " + std::to_string(w) + " == 0";
    m.alignment_condition = joined;
    m.misaligned_per_thread = per_thread;
  }

  // ------------------------------------------------------------------ entry points

  std::string function_display_name(const clang::FunctionDecl& f) const {
    std::string out;
    llvm::raw_string_ostream os(out);
    clang::PrintingPolicy p(ctx.getLangOpts());
    p.SuppressInlineNamespace = true;
    p.SuppressUnwrittenScope = true;
    f.getNameForDiagnostic(os, p, /*Qualified=*/false);
    os.flush();
    return out;
  }

  void bind_parameters(const clang::FunctionDecl& f, Env& env) {
    for (unsigned i = 0; i < f.getNumParams(); ++i) {
      const clang::ParmVarDecl* param = f.getParamDecl(i);
      clang::QualType t = param->getType();
      std::string name = param->getNameAsString();
      if (t.isNull() || t->containsErrors()) {
        env.vars[canonical(param)] = Value::none(Variation::Varying);
        continue;
      }
      if (name.empty()) name = "param" + std::to_string(i);
      std::optional<Congruence> launched;
      std::string note;
      if (launch_facts && i < launch_facts->parameters.size()) {
        launched = launch_facts->parameters[i];
        if (i < launch_facts->parameter_notes.size()) note = launch_facts->parameter_notes[i];
      }
      Value v;
      if (t->isPointerType() || (t->isDependentType() && t->isAnyPointerType())) {
        uint64_t alignment = options.assumed_pointer_alignment;
        std::optional<Congruence> address;
        if (launched && launched->bits > 0) address = launched;
        // Name the launch only when it says more than the assumption.
        bool informative = address && !address->divisible_by(alignment);
        int id = add_base(name, MemorySpace::Global, alignment, address,
                          informative ? note : "assumed " + std::to_string(alignment) + "-byte aligned, as a kernel pointer parameter");
        v = Value::pointer(id, Poly());
      } else if (t->isReferenceType()) {
        v = Value::none();
      } else if (t->isIntegralOrEnumerationType() || t->isDependentType()) {
        Atom a;
        a.kind = AtomKind::Parameter;
        a.name = name;
        a.parameter_like = true;
        if (launched) a.congruence = *launched;
        v = Value::integer(Poly::atom(atoms.intern("param:" + name, a)));
      } else if (auto* rd = t->getAsCXXRecordDecl(); rd && rd->getName() == "dim3") {
        v = Value::none();
      } else if (t->isRecordType()) {
        v.kind = Value::Kind::Aggregate;
        v.path = name;
      } else {
        v = Value::none();
      }
      env.vars[canonical(param)] = v;
    }
  }

  void analyse_kernel(const clang::FunctionDecl& kernel, const KernelLaunchFacts& facts, std::vector<MemoryAccess>& sink) {
    reset();
    host_mode = false;
    out = &sink;
    launches = nullptr;
    launch_facts = &facts;
    kernel_name = function_display_name(kernel);
    for (int d = 0; d < 3; ++d) builtin_atom(2, d);
    block.x = facts.block[0];
    block.y = facts.block[1];
    block.z = facts.block[2];
    Env env;
    bind_parameters(kernel, env);
    for (int d = 0; d < 3; ++d)
      if (facts.block[d]) env.facts.add_value(block_dim[d], *facts.block[d]);
    exec(kernel.getBody(), env);
    out = nullptr;
    launch_facts = nullptr;
  }

  void observe_launches(const clang::FunctionDecl& host, const std::set<const clang::FunctionDecl*>& inlinable,
                        std::vector<LaunchObservation>& sink) {
    reset();
    host_mode = true;
    host_inlinable = &inlinable;
    out = nullptr;
    launches = &sink;
    launch_facts = nullptr;
    kernel_name = function_display_name(host);
    Env env;
    bind_parameters(host, env);
    exec(host.getBody(), env);
    launches = nullptr;
    host_inlinable = nullptr;
    host_mode = false;
  }
};

AccessInterpreter::AccessInterpreter(clang::ASTContext& context, const SourceView& view, const ModelOptions& options)
    : impl_(std::make_unique<Impl>(context, view, options)) {}
AccessInterpreter::~AccessInterpreter() = default;

void AccessInterpreter::analyse_kernel(const clang::FunctionDecl& kernel, const KernelLaunchFacts& launches,
                                       std::vector<MemoryAccess>& out) {
  impl_->analyse_kernel(kernel, launches, out);
}

void AccessInterpreter::observe_launches(const clang::FunctionDecl& host,
                                         const std::set<const clang::FunctionDecl*>& inlinable,
                                         std::vector<LaunchObservation>& out) {
  impl_->observe_launches(host, inlinable, out);
}

}  // namespace kl::analyzers
