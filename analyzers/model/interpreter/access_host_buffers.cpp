// Host code: how long the buffers a launch passes are. A pointer from `cudaMalloc(&p, bytes)`
// (or cudaMallocManaged / cudaMallocAsync) is a base whose extent is `bytes`; one from a tensor's
// `x.data_ptr<T>()` has `x.numel() * sizeof(T)`, with every `x.numel()` of the same variable one
// value until the variable is assigned again (`x = x.narrow(0, 0, m)`). At a launch, a pointer
// argument whose remaining extent, in elements of the kernel parameter's type, equals an integer
// argument's value tells the kernel that its buffer holds exactly that many elements
// (KernelLaunchFacts::extent_counts): what out-of-bounds needs to call `if (i < n) ... in[i + 1]`
// a read past the end rather than a read of a buffer that may be longer. See
// access_interpreter_impl.h for the contracts.
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>

#include <string>

#include "analyzers/frontend/device_parser.h"
#include "analyzers/model/interpreter/access_interpreter_impl.h"
#include "analyzers/model/safe_types.h"

namespace kl::analyzers {

using interpreter::canonical;
using interpreter::Env;
using interpreter::Value;

bool is_device_allocation(std::string_view name) {
  return name == "cudaMalloc" || name == "cudaMallocManaged" || name == "cudaMallocAsync";
}

namespace {

// The local variable `e` takes the address of, through casts: `&p`, `(void**)&p`.
const clang::VarDecl* address_of_variable(const clang::Expr* e) {
  if (!e) return nullptr;
  e = e->IgnoreParenCasts();
  auto* un = llvm::dyn_cast<clang::UnaryOperator>(e);
  if (!un || un->getOpcode() != clang::UO_AddrOf) return nullptr;
  auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(un->getSubExpr()->IgnoreParenImpCasts());
  auto* var = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  return var && var->hasLocalStorage() ? var : nullptr;
}

// The tensor variable a member call is made on (`x` of `x.numel()`), when its type is a tensor.
const clang::VarDecl* tensor_object(const clang::CXXMemberCallExpr* call) {
  const clang::Expr* object = call->getImplicitObjectArgument();
  auto* ref = object ? llvm::dyn_cast<clang::DeclRefExpr>(object->IgnoreParenImpCasts()) : nullptr;
  auto* var = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (!var) return nullptr;
  clang::QualType t = non_reference(var->getType());
  const clang::CXXRecordDecl* record = t.isNull() ? nullptr : t->getAsCXXRecordDecl();
  if (!record || !record->getIdentifier()) return nullptr;
  llvm::StringRef name = record->getName();
  return name == "Tensor" || name == "TensorBase" ? var : nullptr;
}

}  // namespace

AtomId AccessInterpreter::Impl::numel_atom(const clang::VarDecl* tensor) {
  Atom a;
  a.kind = AtomKind::Opaque;
  a.name = tensor->getNameAsString() + ".numel()";
  a.parameter_like = true;
  a.congruence = Congruence::unknown();
  auto assigned = assignments.find(canonical(tensor));
  std::string generation = assigned == assignments.end() ? "0" : std::to_string(assigned->second);
  return atoms.intern("numel:" + std::to_string(reinterpret_cast<uintptr_t>(canonical(tensor))) + ":" + generation, a);
}

std::optional<Value> AccessInterpreter::Impl::eval_host_buffer_call(const clang::CallExpr* call,
                                                                    const std::string& name, Env& env) {
  if (!host_mode || quiet) return std::nullopt;
  if (auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(call)) {
    const clang::VarDecl* tensor = tensor_object(member);
    if (!tensor) return std::nullopt;
    if (name == "numel" && call->getNumArgs() == 0) return Value::integer(Poly::atom(numel_atom(tensor)));
    if (name != "data_ptr" && name != "const_data_ptr" && name != "mutable_data_ptr") return std::nullopt;
    clang::QualType element = pointee(call->getType());
    std::optional<int64_t> size = element.isNull() || element->isVoidType() ? std::nullopt : type_size(element);
    if (!size || *size <= 0) return std::nullopt;
    int id = add_base(text_of(call), MemorySpace::Global, options.assumed_pointer_alignment, std::nullopt);
    bases[id].extent = Poly::atom(numel_atom(tensor), *size);
    bases[id].extent_source = "all of the tensor `" + tensor->getNameAsString() + "`";
    return Value::pointer(id, Poly());
  }
  if (!is_device_allocation(name) || call->getNumArgs() < 2) return std::nullopt;
  const clang::VarDecl* var = address_of_variable(call->getArg(0));
  if (!var || !is_pointer_type(var->getType())) return std::nullopt;
  Value result = eval_opaque_call(call, name, env);  // the arguments' effects; `var` havocked
  ++quiet;
  Value bytes = eval(call->getArg(1), env);
  --quiet;
  // cudaMalloc's allocations start on 256-byte boundaries.
  int id = add_base(var->getNameAsString(), MemorySpace::Global, 256, std::nullopt);
  if (bytes.kind == Value::Kind::Int) {
    bases[id].extent = with_known_values(bytes.form, env.facts);
    bases[id].extent_source =
        name + " at line " + std::to_string(view.location_of(call->getSourceRange()).range.start.line + 1);
  }
  env.vars[canonical(var)] = Value::pointer(id, Poly());
  return result;
}

void AccessInterpreter::Impl::note_buffer_extents(const clang::FunctionDecl& kernel, const std::vector<Value>& args,
                                                  const Env& env, LaunchObservation& obs) const {
  obs.extent_counts.assign(args.size(), {});
  obs.extent_notes.assign(args.size(), "");
  for (size_t i = 0; i < args.size() && i < kernel.getNumParams(); ++i) {
    const Value& p = args[i];
    if (p.kind != Value::Kind::Pointer || p.base < 0 || !bases[p.base].extent) continue;
    clang::QualType element = pointee(kernel.getParamDecl(i)->getType());
    std::optional<int64_t> size = element.isNull() ? std::nullopt : type_size(element);
    if (!size || *size <= 0) continue;
    auto remaining = bases[p.base].extent->minus(with_known_values(p.form, env.facts));
    auto elements = remaining ? remaining->divided_exactly(*size) : std::nullopt;
    if (!elements) continue;
    for (size_t j = 0; j < args.size(); ++j)
      if (args[j].kind == Value::Kind::Int && with_known_values(args[j].form, env.facts) == *elements)
        obs.extent_counts[i].push_back(static_cast<int>(j));
    if (!obs.extent_counts[i].empty())
      obs.extent_notes[i] = "the launch at line " + std::to_string(obs.location.range.start.line + 1) + " passes `" +
                            obs.argument_texts[i] + "`, which holds " + atoms.print(*elements) + " elements (" +
                            bases[p.base].extent_source + ")";
  }
}

}  // namespace kl::analyzers
