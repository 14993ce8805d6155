#include "analyzers/model/access_collector.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "analyzers/frontend/device_parser.h"
#include "analyzers/model/interpreter/access_interpreter.h"
#include "analyzers/model/device_code.h"
#include "analyzers/model/safe_types.h"

namespace kl::analyzers {
namespace {

// Finds the kernels to analyse and the functions that launch kernels.
class AccessScope : public clang::RecursiveASTVisitor<AccessScope> {
 public:
  explicit AccessScope(const SourceView& view) : view_(view) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBodies() const { return true; }

  bool TraverseFunctionDecl(clang::FunctionDecl* f) { return traverse_function(f, [&] { return Base::TraverseFunctionDecl(f); }); }
  bool TraverseCXXMethodDecl(clang::CXXMethodDecl* f) { return traverse_function(f, [&] { return Base::TraverseCXXMethodDecl(f); }); }

  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr* launch) {
    if (current_ && view_.is_user_location(launch->getBeginLoc()) && seen_launchers_.insert(current_).second)
      launchers.push_back(current_);
    return true;
  }

  bool VisitCallExpr(clang::CallExpr* call) {
    if (!current_ || llvm::isa<clang::CUDAKernelCallExpr>(call) || is_device_function(*current_)) return true;
    const clang::FunctionDecl* callee = call->getDirectCallee();
    // A host function that returns a pointer it got from cudaMalloc (`float* alloc(size_t n)`):
    // followed from its callers, so the launch sees how long the buffer is.
    if (callee && callee->getIdentifier() && is_device_allocation(callee->getName().str()) &&
        is_pointer_type(current_->getReturnType()))
      allocators.insert(current_);
    const clang::FunctionDecl* def = callee ? callee->getDefinition() : nullptr;
    if (def && def->hasBody() && !is_device_function(*def) && view_.is_user_location(def->getLocation()))
      host_calls[current_].insert(def);
    return true;
  }

  // Host functions to walk for launches: those that reach a launch and that no other such
  // function calls (a launcher called from main is seen through main, with main's arguments),
  // and the set of host functions the walk may follow calls into.
  void launch_roots(std::vector<const clang::FunctionDecl*>& roots, std::set<const clang::FunctionDecl*>& reach) const {
    reach.insert(launchers.begin(), launchers.end());
    for (bool grew = true; grew;) {
      grew = false;
      for (const auto& [caller, callees] : host_calls) {
        if (reach.count(caller)) continue;
        for (const auto* c : callees)
          if (reach.count(c)) {
            reach.insert(caller);
            grew = true;
            break;
          }
      }
    }
    std::set<const clang::FunctionDecl*> called;
    for (const auto& [caller, callees] : host_calls)
      if (reach.count(caller))
        for (const auto* c : callees)
          if (c != caller) called.insert(c);
    for (const auto* f : reach)
      if (!called.count(f)) roots.push_back(f);
    // A cycle with no entry from outside: walk its launchers directly.
    for (const auto* f : launchers)
      if (called.count(f) && std::none_of(roots.begin(), roots.end(), [&](const auto* r) { return reach.count(r); }))
        roots.push_back(f);
    reach.insert(allocators.begin(), allocators.end());
  }

  std::vector<const clang::FunctionDecl*> kernels;
  std::vector<const clang::FunctionDecl*> launchers;
  std::set<const clang::FunctionDecl*> allocators;  // host functions returning a cudaMalloc'd pointer
  std::map<const clang::FunctionDecl*, std::set<const clang::FunctionDecl*>> host_calls;

 private:
  using Base = clang::RecursiveASTVisitor<AccessScope>;

  template <typename F>
  bool traverse_function(clang::FunctionDecl* f, F&& traverse) {
    if (!f->doesThisDeclarationHaveABody() || !view_.is_user_location(f->getLocation())) return true;
    if (is_kernel(*f)) add_kernel(f);
    const clang::FunctionDecl* saved = current_;
    current_ = f;
    bool ok = traverse();
    current_ = saved;
    return ok;
  }

  void add_kernel(const clang::FunctionDecl* f) {
    if (auto* tmpl = f->getDescribedFunctionTemplate()) {
      // The pattern: analyse its instantiations when it has any, else the pattern itself.
      bool any = false;
      for (const clang::FunctionDecl* spec : tmpl->specializations()) {
        if (!spec->hasBody()) continue;
        any = true;
        const clang::FunctionDecl* def = spec->getDefinition() ? spec->getDefinition() : spec;
        if (seen_kernels_.insert(def).second) kernels.push_back(def);
      }
      if (!any && seen_kernels_.insert(f).second) kernels.push_back(f);
      return;
    }
    if (f->isTemplateInstantiation()) {
      if (seen_kernels_.insert(f).second) kernels.push_back(f);
      return;
    }
    if (f->isDependentContext() && !f->getDescribedFunctionTemplate()) {
      // A member of a class template, uninstantiated: analyse the pattern.
      if (seen_kernels_.insert(f).second) kernels.push_back(f);
      return;
    }
    if (seen_kernels_.insert(f).second) kernels.push_back(f);
  }

  const SourceView& view_;
  const clang::FunctionDecl* current_ = nullptr;
  std::set<const clang::FunctionDecl*> seen_kernels_;
  std::set<const clang::FunctionDecl*> seen_launchers_;
};

KernelLaunchFacts merge(const std::vector<const LaunchObservation*>& observations) {
  KernelLaunchFacts out;
  out.launches = static_cast<int>(observations.size());
  if (observations.empty()) return out;
  for (int d = 0; d < 3; ++d) {
    out.block[d] = observations.front()->block[d];
    for (const auto* o : observations)
      if (o->block[d] != out.block[d]) out.block[d].reset();
  }
  size_t params = observations.front()->arguments.size();
  for (const auto* o : observations) params = std::min(params, o->arguments.size());
  out.parameters.resize(params);
  out.parameter_notes.resize(params);
  for (size_t i = 0; i < params; ++i) {
    std::optional<Congruence> c = observations.front()->arguments[i];
    for (const auto* o : observations) {
      if (!o->arguments[i] || !c) {
        c.reset();
        break;
      }
      c = Congruence::join(*c, *o->arguments[i]);
    }
    out.parameters[i] = c;
    const LaunchObservation* first = observations.front();
    std::string note = "launched with `" + first->argument_texts[i] + "` (line " +
                       std::to_string(first->location.range.start.line + 1) + ")";
    if (observations.size() > 1) note += " and " + std::to_string(observations.size() - 1) + " more launch(es)";
    out.parameter_notes[i] = note;
  }
  for (int d = 0; d < 3; ++d)
    for (const auto* o : observations)
      if (o->rounded[d].block > 0 && out.rounded[d].block == 0) out.rounded[d] = o->rounded[d];
  // A buffer's count holds for the kernel only where every launch passes it.
  out.extent_counts.resize(params);
  out.extent_notes.resize(params);
  for (size_t i = 0; i < params; ++i) {
    std::vector<int> common = observations.front()->extent_counts.size() > i ? observations.front()->extent_counts[i]
                                                                             : std::vector<int>{};
    for (const auto* o : observations) {
      const std::vector<int> none;
      const std::vector<int>& here = o->extent_counts.size() > i ? o->extent_counts[i] : none;
      std::erase_if(common, [&](int j) { return std::find(here.begin(), here.end(), j) == here.end(); });
    }
    out.extent_counts[i] = common;
    if (!common.empty()) out.extent_notes[i] = observations.front()->extent_notes[i];
  }
  return out;
}

}  // namespace

void collect_memory_accesses(clang::ASTContext& context, const SourceView& view, const ModelOptions& options,
                             UnitFacts& unit) {
  AccessScope scope(view);
  // Only the user's declarations: CUDA's and the C++ library's headers hold no kernels to
  // analyse, and walking them (with their template instantiations) would cost more than the model.
  // The parser has set the traversal scope to the declarations of this parse in user files.
  for (clang::Decl* decl : context.getTraversalScope()) {
    if (llvm::isa<clang::TranslationUnitDecl>(decl)) {
      for (clang::Decl* child : llvm::cast<clang::TranslationUnitDecl>(decl)->decls())
        if (view.is_user_location(child->getLocation())) scope.TraverseDecl(child);
      continue;
    }
    if (!view.is_user_location(decl->getLocation())) continue;
    scope.TraverseDecl(decl);
  }
  AccessInterpreter interpreter(context, view, options);

  std::vector<LaunchObservation> observations;
  std::vector<const clang::FunctionDecl*> roots;
  std::set<const clang::FunctionDecl*> reach;
  scope.launch_roots(roots, reach);
  for (const clang::FunctionDecl* root : roots) interpreter.observe_launches(*root, reach, observations);
  if (const char* dump = std::getenv("KERNEL_LSP_DUMP_ACCESSES"); dump && *dump && *dump != '0') {
    for (const auto& o : observations) {
      std::string args;
      for (const auto& c : o.arguments) args += (args.empty() ? "" : ", ") + (c ? c->describe() : std::string("?"));
      for (size_t i = 0; i < o.extent_counts.size(); ++i)
        for (int j : o.extent_counts[i]) args += " [arg " + std::to_string(i) + " holds arg " + std::to_string(j) + " elements]";
      std::fprintf(stderr, "launch %u %s block=(%s,%s,%s) args: %s\n", o.location.range.start.line + 1,
                   o.kernel->getNameAsString().c_str(), o.block[0] ? std::to_string(*o.block[0]).c_str() : "?",
                   o.block[1] ? std::to_string(*o.block[1]).c_str() : "?", o.block[2] ? std::to_string(*o.block[2]).c_str() : "?",
                   args.c_str());
    }
  }
  std::map<const clang::FunctionDecl*, std::vector<const LaunchObservation*>> by_kernel;
  for (const auto& o : observations) by_kernel[o.kernel].push_back(&o);

  std::vector<MemoryAccess>& accesses = unit.accesses;
  // KERNEL_LSP_DISABLE_SYNC_MODEL=1 leaves barriers and races out (for measuring their cost:
  // bench/lsp runs with and without it).
  static const bool sync_disabled = [] {
    const char* v = std::getenv("KERNEL_LSP_DISABLE_SYNC_MODEL");
    return v && *v && std::string(v) != "0";
  }();
  for (const clang::FunctionDecl* kernel : scope.kernels) {
    auto it = by_kernel.find(kernel->getCanonicalDecl());
    KernelLaunchFacts facts = it == by_kernel.end() ? KernelLaunchFacts{} : merge(it->second);
    interpreter.analyse_kernel(*kernel, facts, accesses, sync_disabled ? nullptr : &unit.barriers,
                               sync_disabled ? nullptr : &unit.shared_hazards);
  }
  // KERNEL_LSP_DUMP_ACCESSES=1: one line per record on stderr, for developing the model.
  if (const char* dump = std::getenv("KERNEL_LSP_DUMP_ACCESSES"); dump && *dump && *dump != '0') {
    for (const auto& a : accesses) {
      std::fprintf(stderr, "access %u:%u %s %s %s `%s` %s w=%u pattern=%d stride=%s%s sectors=%u/%u aligned=%u lanes=%u %s align=%d %s\n",
                   a.location.range.start.line + 1, a.location.range.start.column + 1, a.kernel.c_str(),
                   a.is_store ? "store" : "load", a.space == MemorySpace::Global ? "global" : "shared", a.base_name.c_str(),
                   a.type_name.c_str(), a.width, static_cast<int>(a.pattern),
                   a.lane_stride ? std::to_string(*a.lane_stride).c_str() : "-", a.runtime_stride ? ("~" + a.stride_text).c_str() : "",
                   a.sectors, a.ideal_sectors, a.sectors_if_aligned, a.active_lanes, a.block_shape.c_str(),
                   static_cast<int>(a.alignment), a.alignment_condition.c_str());
    }
  }
}

}  // namespace kl::analyzers
