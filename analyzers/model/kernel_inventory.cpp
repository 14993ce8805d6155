#include "analyzers/model/kernel_inventory.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <set>

#include "analyzers/frontend/device_parser.h"
#include "analyzers/model/device_code.h"
#include "analyzers/model/safe_types.h"

namespace kl::analyzers {
namespace {

// The name a kernel is known by at launches and opt-ins: template specialisations fold into
// their pattern so that `k<128><<<...>>>` matches `template <int N> __global__ void k()`.
const clang::FunctionDecl* kernel_pattern(const clang::FunctionDecl* function) {
  if (!function) return nullptr;
  if (auto* pattern = function->getTemplateInstantiationPattern()) return pattern;
  return function;
}

const clang::FunctionDecl* referenced_function(const clang::Expr* expr) {
  expr = strip(expr);
  while (expr) {
    if (auto* unary = llvm::dyn_cast<clang::UnaryOperator>(expr)) {
      expr = strip(unary->getSubExpr());
      continue;
    }
    if (auto* cast = llvm::dyn_cast<clang::ExplicitCastExpr>(expr)) {
      expr = strip(cast->getSubExpr());
      continue;
    }
    break;
  }
  if (auto* ref = llvm::dyn_cast_or_null<clang::DeclRefExpr>(expr))
    return llvm::dyn_cast<clang::FunctionDecl>(ref->getDecl());
  return nullptr;
}

// Collects the __shared__ variables a kernel declares or reaches through calls.
class SharedUse : public clang::RecursiveASTVisitor<SharedUse> {
 public:
  SharedUse(clang::ASTContext& context, const SourceView& view) : context_(context), view_(view) {}

  void walk(const clang::FunctionDecl* function) {
    if (!function || !function->hasBody() || !visited_.insert(function).second) return;
    TraverseStmt(function->getBody());
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    if (auto* variable = llvm::dyn_cast<clang::VarDecl>(ref->getDecl())) add(variable);
    return true;
  }
  bool VisitVarDecl(clang::VarDecl* variable) {
    add(variable);
    return true;
  }
  bool VisitCallExpr(clang::CallExpr* call) {
    if (auto* callee = call->getDirectCallee())
      if (is_device_function(*callee) && !is_kernel(*callee)) walk(callee->getDefinition());
    return true;
  }

  std::vector<SharedVariable> variables;

 private:
  void add(const clang::VarDecl* variable) {
    if (!variable->hasAttr<clang::CUDASharedAttr>() || !seen_.insert(variable->getCanonicalDecl()).second) return;
    SharedVariable shared;
    shared.name = variable->getNameAsString();
    shared.location = view_.location_of(variable->getLocation());
    clang::QualType type = variable->getType();
    if (!type.isNull() && (type->isIncompleteArrayType() || variable->hasExternalStorage())) {
      shared.is_dynamic = true;
    } else if (auto bytes = concrete_size(context_, type)) {
      shared.bytes = static_cast<uint64_t>(*bytes);
    }
    if (variable->hasAttr<clang::AlignedAttr>()) shared.declared_alignment = declared_alignment(context_, *variable);
    variables.push_back(std::move(shared));
  }

  clang::ASTContext& context_;
  const SourceView& view_;
  std::set<const clang::FunctionDecl*> visited_;
  std::set<const clang::VarDecl*> seen_;
};

// Whether nvcc compiles `kernel` in this parse: a template only through an instantiation with
// a body (a member of a class template is taken as compiled: its instantiations are the class's).
bool compiled(const clang::FunctionDecl& kernel) {
  const clang::FunctionTemplateDecl* pattern = kernel.getDescribedFunctionTemplate();
  if (!pattern) return true;
  for (const clang::FunctionDecl* instance : pattern->specializations())
    if (instance->hasBody()) return true;
  return false;
}

// Whether a body does more than report that it should not have run: statements other than
// calls to printf, __trap, __brkpt or assert's handler (and `return;`).
bool does_work(const clang::Stmt* statement) {
  if (!statement) return false;
  if (llvm::isa<clang::NullStmt>(statement)) return false;
  if (auto* ret = llvm::dyn_cast<clang::ReturnStmt>(statement)) return ret->getRetValue() != nullptr;
  if (auto* block = llvm::dyn_cast<clang::CompoundStmt>(statement)) {
    for (const clang::Stmt* child : block->body())
      if (does_work(child)) return true;
    return false;
  }
  if (auto* expr = llvm::dyn_cast<clang::Expr>(statement)) {
    auto* call = llvm::dyn_cast<clang::CallExpr>(expr->IgnoreImplicit());
    const clang::FunctionDecl* callee = call ? call->getDirectCallee() : nullptr;
    if (callee && callee->getIdentifier()) {
      llvm::StringRef name = callee->getName();
      if (name == "printf" || name == "vprintf" || name == "__trap" || name == "__brkpt" ||
          name == "__assertfail" || name == "__assert_fail")
        return false;
    }
  }
  return true;
}

class InventoryVisitor : public clang::RecursiveASTVisitor<InventoryVisitor> {
 public:
  InventoryVisitor(clang::ASTContext& context, const SourceView& view) : context_(context), view_(view) {}
  bool shouldVisitTemplateInstantiations() const { return false; }

  bool VisitFunctionDecl(clang::FunctionDecl* function) {
    if (!is_kernel(*function) || !function->doesThisDeclarationHaveABody()) return true;
    if (!view_.is_user_location(function->getLocation())) return true;
    if (function->isTemplateInstantiation()) return true;
    KernelInfo kernel;
    kernel.name = function->getNameAsString();
    kernel.qualified_name = qualified_name(*function);
    kernel.location = view_.location_of(function->getLocation());
    kernel.body_range = view_.location_of(function->getSourceRange()).range;
    if (auto* bounds = function->getAttr<clang::CUDALaunchBoundsAttr>()) {
      if (auto v = constant_value(bounds->getMaxThreads(), context_)) kernel.max_threads_per_block = static_cast<uint32_t>(*v);
      if (auto v = constant_value(bounds->getMinBlocks(), context_)) kernel.min_blocks_per_sm = static_cast<uint32_t>(*v);
    }
    SharedUse shared(context_, view_);
    shared.walk(function);
    kernel.shared_variables = std::move(shared.variables);
    for (const auto& v : kernel.shared_variables) kernel.static_shared_bytes += v.bytes;
    kernel.has_code = compiled(*function) && does_work(function->getBody());
    inventory.kernels.push_back(std::move(kernel));
    return true;
  }

  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr* launch) {
    if (!view_.is_user_location(launch->getBeginLoc())) return true;
    LaunchSite site;
    const clang::FunctionDecl* kernel = kernel_pattern(launch->getDirectCallee());
    if (!kernel) kernel = kernel_pattern(referenced_function(launch->getCallee()));
    if (!kernel) return true;
    site.kernel_name = kernel->getNameAsString();
    site.location = view_.location_of(launch->getSourceRange());
    if (const clang::CallExpr* config = launch->getConfig()) {
      if (config->getNumArgs() > 1) read_block(config->getArg(1), site);
      if (config->getNumArgs() > 2 && !llvm::isa<clang::CXXDefaultArgExpr>(config->getArg(2))) {
        const clang::Expr* bytes = config->getArg(2);
        site.dynamic_shared_range = view_.location_of(bytes->getSourceRange()).range;
        if (auto v = constant_value(bytes, context_); v && *v >= 0) site.dynamic_shared_bytes = static_cast<uint64_t>(*v);
      }
    }
    inventory.launches.push_back(std::move(site));
    return true;
  }

  bool VisitCallExpr(clang::CallExpr* call) {
    if (llvm::isa<clang::CUDAKernelCallExpr>(call)) return true;
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (!callee || callee->getName() != "cudaFuncSetAttribute" || call->getNumArgs() < 3) return true;
    if (!view_.is_user_location(call->getBeginLoc())) return true;
    auto* attribute = llvm::dyn_cast<clang::DeclRefExpr>(strip(call->getArg(1)));
    if (!attribute || attribute->getDecl()->getName() != "cudaFuncAttributeMaxDynamicSharedMemorySize") return true;
    const clang::FunctionDecl* kernel = kernel_pattern(referenced_function(call->getArg(0)));
    SharedMemoryOptIn opt_in;
    opt_in.kernel_name = kernel ? kernel->getNameAsString() : std::string();
    opt_in.location = view_.location_of(call->getSourceRange());
    if (auto v = constant_value(call->getArg(2), context_); v && *v >= 0) opt_in.bytes = static_cast<uint64_t>(*v);
    inventory.shared_opt_ins.push_back(std::move(opt_in));
    return true;
  }

  KernelInventory inventory;

 private:
  void read_block(const clang::Expr* block, LaunchSite& site) {
    block = strip(block);
    if (auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(block)) {
      std::optional<uint32_t>* dims[3] = {&site.block_x, &site.block_y, &site.block_z};
      for (unsigned i = 0; i < construct->getNumArgs() && i < 3; ++i) {
        const clang::Expr* arg = construct->getArg(i);
        if (llvm::isa<clang::CXXDefaultArgExpr>(arg)) {
          *dims[i] = 1;
          continue;
        }
        if (auto v = constant_value(arg, context_); v && *v > 0) *dims[i] = static_cast<uint32_t>(*v);
      }
      return;
    }
    if (auto v = constant_value(block, context_); v && *v > 0) {
      site.block_x = static_cast<uint32_t>(*v);
      site.block_y = 1;
      site.block_z = 1;
    }
  }

  clang::ASTContext& context_;
  const SourceView& view_;
};

}  // namespace

KernelInventory collect_kernel_inventory(clang::ASTContext& context, const SourceView& view) {
  InventoryVisitor visitor(context, view);
  visitor.TraverseDecl(context.getTranslationUnitDecl());
  return std::move(visitor.inventory);
}

}  // namespace kl::analyzers
