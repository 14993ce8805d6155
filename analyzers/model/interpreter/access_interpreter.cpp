// The access interpreter's public face and the state of one analysed function: the atoms and
// memory bases it creates, and the two entry points (a kernel's accesses, a host function's
// launches). The interpreter itself is in parts, one job each (see access_interpreter_impl.h):
//   access_values.cpp    the value domain and joins
//   access_evaluator.cpp expressions, casts, arithmetic on forms
//   access_places.cpp    lvalues, reads and writes
//   access_calls.cpp     calls, inlining, constructors, launches
//   access_executor.cpp  statements, loops, conditions
//   access_recorder.cpp  MemoryAccess records, coalescing and alignment verdicts
#include "analyzers/model/interpreter/access_interpreter.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>

#include "analyzers/model/interpreter/access_interpreter_impl.h"
#include "analyzers/model/shared_rows.h"
#include "analyzers/model/safe_types.h"
#include "analyzers/model/sibling_fields.h"

namespace kl::analyzers {

using interpreter::Base;
using interpreter::canonical;
using interpreter::Env;
using interpreter::Value;

void AccessInterpreter::Impl::reset() {
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
  loop_sync.clear();
  touch_serial = 0;
  trip_counts.clear();
  sequences.clear();
  next_of_sequence.clear();
  first_iteration.clear();
  parameter_bases.clear();
  parameter_elements.clear();
  assignments.clear();
  parameter_names.clear();
  geometric_candidates.clear();
  hazards_seen.clear();
}

// ------------------------------------------------------------------ atoms and bases

std::string AccessInterpreter::Impl::text_of(const clang::Expr* e, size_t limit) const {
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

AtomId AccessInterpreter::Impl::builtin_atom(int which, int dim) {
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

Poly AccessInterpreter::Impl::size_form(clang::QualType t) {
  if (auto s = type_size(t)) return Poly::constant(*s);
  std::string name = t.isNull() ? "<unknown type>" : t.getNonReferenceType().getUnqualifiedType().getAsString(policy);
  Atom a;
  a.kind = AtomKind::SizeOf;
  a.name = "sizeof(" + name + ")";
  a.parameter_like = true;
  return Poly::atom(atoms.intern("sizeof:" + name, a));
}

int AccessInterpreter::Impl::add_base(const std::string& name, MemorySpace space, uint64_t alignment,
                                      std::optional<Congruence> address, std::string note) {
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

int AccessInterpreter::Impl::static_base(const clang::VarDecl* var) {
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
      // (A named string, not a temporary: GCC 12 -O3 -Wall warns falsely on "`" + temporary.)
      std::string name = var->getNameAsString();
      note = "`" + name + "` is declared with " + std::to_string(alignment) + "-byte alignment";
    }
  } else if (var->hasAttr<clang::CUDAConstantAttr>()) {
    space = MemorySpace::Constant;
  } else if (!var->hasGlobalStorage()) {
    space = MemorySpace::Local;
  }
  int id = add_base(var->getNameAsString(), space, alignment, std::nullopt, note);
  if (space == MemorySpace::Shared) bases[id].row = shared_row_of(*var, ctx, view);
  static_bases[var] = id;
  return id;
}

int AccessInterpreter::Impl::path_base(const std::string& path) {
  if (auto it = path_bases.find(path); it != path_bases.end()) return it->second;
  int id = add_base(path, MemorySpace::Global, options.assumed_pointer_alignment, std::nullopt);
  path_bases[path] = id;
  return id;
}

// ------------------------------------------------------------------ entry points

std::string AccessInterpreter::Impl::function_display_name(const clang::FunctionDecl& f) const {
  std::string out;
  llvm::raw_string_ostream os(out);
  clang::PrintingPolicy p(ctx.getLangOpts());
  p.SuppressInlineNamespace = true;
  p.SuppressUnwrittenScope = true;
  f.getNameForDiagnostic(os, p, /*Qualified=*/false);
  os.flush();
  return out;
}

void AccessInterpreter::Impl::bind_parameters(const clang::FunctionDecl& f, Env& env) {
  for (unsigned i = 0; i < f.getNumParams(); ++i) {
    const clang::ParmVarDecl* param = f.getParamDecl(i);
    clang::QualType t = param->getType();
    std::string name = param->getNameAsString();
    parameter_names.push_back(name.empty() ? "param" + std::to_string(i) : name);
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
      parameter_bases[id] = static_cast<int>(i);
      clang::QualType pointee = t->getPointeeType();
      if (auto size = pointee.isNull() ? std::nullopt : type_size(pointee))
        parameter_elements[id] = {*size, pointee.getUnqualifiedType().getAsString(policy)};
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

void AccessInterpreter::Impl::analyse_kernel(const clang::FunctionDecl& kernel,
                                             const KernelLaunchFacts& facts,
                                             std::vector<MemoryAccess>& sink, std::vector<BarrierRecord>* barriers,
                                             std::vector<SharedHazard>* hazards) {
  reset();
  host_mode = false;
  out = &sink;
  barrier_out = barriers;
  hazard_out = hazards;
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
  size_t first = sink.size();
  size_t first_barrier = barriers ? barriers->size() : 0;
  exec(kernel.getBody(), env);
  if (barriers) mark_others_wait(*barriers, first_barrier);
  merge_sibling_fields(sink, first);
  out = nullptr;
  barrier_out = nullptr;
  hazard_out = nullptr;
  launch_facts = nullptr;
}

void AccessInterpreter::Impl::observe_launches(const clang::FunctionDecl& host,
                                               const std::set<const clang::FunctionDecl*>& inlinable,
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

AccessInterpreter::AccessInterpreter(clang::ASTContext& context, const SourceView& view,
                                     const ModelOptions& options)
    : impl_(std::make_unique<Impl>(context, view, options)) {}
AccessInterpreter::~AccessInterpreter() = default;

void AccessInterpreter::analyse_kernel(const clang::FunctionDecl& kernel, const KernelLaunchFacts& launches,
                                       std::vector<MemoryAccess>& out, std::vector<BarrierRecord>* barriers,
                                       std::vector<SharedHazard>* hazards) {
  impl_->analyse_kernel(kernel, launches, out, barriers, hazards);
}

void AccessInterpreter::observe_launches(const clang::FunctionDecl& host,
                                         const std::set<const clang::FunctionDecl*>& inlinable,
                                         std::vector<LaunchObservation>& out) {
  impl_->observe_launches(host, inlinable, out);
}

}  // namespace kl::analyzers
