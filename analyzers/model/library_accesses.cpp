#include "analyzers/model/library_accesses.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>

#include "analyzers/model/asm_operands.h"
#include "analyzers/model/device_body_walker.h"
#include "analyzers/model/device_code.h"
#include "analyzers/model/safe_types.h"

namespace kl::analyzers {
namespace {

// The index of `function`'s parameter that `e` names, or -1.
int parameter_named(const clang::Expr* e, const clang::FunctionDecl& function) {
  auto* ref = llvm::dyn_cast_or_null<clang::DeclRefExpr>(pointer_under_casts(e));
  auto* param = ref ? llvm::dyn_cast<clang::ParmVarDecl>(ref->getDecl()) : nullptr;
  if (!param || param->getDeclContext() != &function) return -1;
  return static_cast<int>(param->getFunctionScopeIndex());
}

// Whether `type` is, or has among its template arguments (a few levels down), CuTe's
// `gmem_ptr<T>`: `Tensor<ViewEngine<gmem_ptr<half_t*>>, Layout<...>>`.
bool names_gmem_tensor(clang::QualType type, int depth = 0) {
  if (type.isNull() || type->isDependentType() || depth > 4) return false;
  const auto* record = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
      non_reference(type).getCanonicalType()->getAsCXXRecordDecl());
  if (!record) return false;
  if (record->getName() == "gmem_ptr") return true;
  for (const clang::TemplateArgument& argument : record->getTemplateArgs().asArray())
    if (argument.getKind() == clang::TemplateArgument::Type && names_gmem_tensor(argument.getAsType(), depth + 1))
      return true;
  return false;
}

// One entry per (parameter, kind): branches that access the same parameter with different
// widths (a copy whose size is a runtime argument) leave the width unknown.
void merge_by_parameter(std::vector<ParameterAccess>& accesses) {
  std::vector<ParameterAccess> merged;
  for (ParameterAccess& access : accesses) {
    auto same = std::find_if(merged.begin(), merged.end(), [&](const ParameterAccess& m) {
      return m.parameter == access.parameter && m.kind == access.kind;
    });
    if (same == merged.end()) merged.push_back(std::move(access));
    else if (same->width != access.width) same->width = 0;
  }
  accesses = std::move(merged);
}

}  // namespace

// Reads one body for the summary of `function`; calls recurse through the summaries.
class LibraryBodyReader : public DeviceBodyWalker<LibraryBodyReader> {
 public:
  LibraryBodyReader(LibraryAccessSummaries& summaries, const clang::FunctionDecl& function, LibraryAccesses& out)
      : DeviceBodyWalker(summaries.context_), summaries_(summaries), function_(function), out_(out) {}

  bool VisitGCCAsmStmt(clang::GCCAsmStmt* statement) {
    const clang::StringLiteral* literal = statement->getAsmString();
    if (!literal || literal->getCharByteWidth() != 1) return true;
    std::string spelling;
    note_barrier(ptx_barrier(literal->getString(), spelling));
    for (const PtxMemoryAccess& access : ptx_memory_accesses(literal->getString())) {
      if (access.space != MemorySpace::Global) continue;
      const clang::Expr* operand = asm_operand(*statement, address_operand_number(*statement, access));
      int parameter = operand ? parameter_named(operand, function_) : -1;
      std::string where = place(statement->getAsmLoc());
      if (parameter >= 0) {
        uint32_t width = access.width;
        if (auto n = constant_value(asm_operand(*statement, access.width_operand), context_); n && *n > 0)
          width = static_cast<uint32_t>(*n);
        out_.through_parameters.push_back({static_cast<unsigned>(parameter), width, access.kind, access.mnemonic, where});
      } else {
        note_elsewhere(access.kind != PtxMemoryAccess::Kind::Load, access.mnemonic + " (" + where + ")");
      }
    }
    return true;
  }

  bool VisitCallExpr(clang::CallExpr* call) {
    if (llvm::isa<clang::CUDAKernelCallExpr>(call)) return true;
    note_barrier(barrier_call(*call).scope);
    const clang::FunctionDecl* callee = call->getDirectCallee();
    unsigned first = 0;
    if (llvm::isa<clang::CXXOperatorCallExpr>(call) && callee && llvm::isa<clang::CXXMethodDecl>(callee)) first = 1;
    follow(callee, call->getArgs() + std::min(first, call->getNumArgs()), call->getNumArgs() - std::min(first, call->getNumArgs()));
    return true;
  }

  bool VisitCXXConstructExpr(clang::CXXConstructExpr* construct) {
    follow(construct->getConstructor(), construct->getArgs(), construct->getNumArgs());
    return true;
  }

 private:
  void follow(const clang::FunctionDecl* callee, const clang::Expr* const* args, unsigned count) {
    const clang::FunctionDecl* definition = callee ? callee->getDefinition() : nullptr;
    if (!definition || !definition->hasBody()) return;
    const LibraryAccesses& inner = summaries_.of(*definition);
    note_barrier(inner.synchronizes);
    if (inner.loads) note_elsewhere(false, inner.load_via);
    if (inner.stores) note_elsewhere(true, inner.store_via);
    for (const ParameterAccess& access : inner.through_parameters) {
      int parameter = access.parameter < count ? parameter_named(args[access.parameter], function_) : -1;
      if (parameter >= 0) {
        ParameterAccess mine = access;
        mine.parameter = static_cast<unsigned>(parameter);
        out_.through_parameters.push_back(std::move(mine));
      } else {
        note_elsewhere(access.kind != PtxMemoryAccess::Kind::Load, access.instruction + " (" + access.where + ")");
      }
    }
  }

  void note_barrier(BarrierScope scope) { out_.synchronizes = wider_barrier(out_.synchronizes, scope); }

  void note_elsewhere(bool store, const std::string& via) {
    bool& flag = store ? out_.stores : out_.loads;
    std::string& first = store ? out_.store_via : out_.load_via;
    if (!flag) first = via;
    flag = true;
  }

  // "cutlass/arch/memory_sm80.h:141": the path below an `include/` folder, else the file name.
  std::string place(clang::SourceLocation location) const {
    const clang::SourceManager& sources = context_.getSourceManager();
    clang::PresumedLoc presumed = sources.getPresumedLoc(sources.getSpellingLoc(location));
    if (presumed.isInvalid()) return "?";
    std::string file = presumed.getFilename();
    if (size_t include = file.rfind("/include/"); include != std::string::npos) file = file.substr(include + 9);
    else if (size_t slash = file.rfind('/'); slash != std::string::npos) file = file.substr(slash + 1);
    return file + ":" + std::to_string(presumed.getLine());
  }

  LibraryAccessSummaries& summaries_;
  const clang::FunctionDecl& function_;
  LibraryAccesses& out_;
};

const LibraryAccesses& LibraryAccessSummaries::of(const clang::FunctionDecl& function) {
  static const LibraryAccesses nothing;
  const clang::FunctionDecl* key = function.getCanonicalDecl();
  if (auto found = summaries_.find(key); found != summaries_.end()) return found->second;
  if (in_progress_.count(key) || depth_ >= kMaxDepth || bodies_ >= kMaxBodies) return nothing;
  const clang::FunctionDecl* definition = function.getDefinition();
  if (!definition || !definition->hasBody() || definition->isDependentContext()) return summaries_[key];

  in_progress_.insert(key);
  ++depth_;
  ++bodies_;
  LibraryAccesses summary;
  // A CuTe copy's own tensors: a gmem source is read, a gmem destination written.
  for (const clang::ParmVarDecl* param : definition->parameters()) {
    if (!param->getIdentifier() || !names_gmem_tensor(param->getType())) continue;
    llvm::StringRef name = param->getName();
    std::string via = "a gmem tensor `" + name.str() + "` of `" + definition->getNameAsString() + "`";
    if (name.contains_insensitive("src") && !summary.loads) {
      summary.loads = true;
      summary.load_via = via;
    } else if (name.contains_insensitive("dst") && !summary.stores) {
      summary.stores = true;
      summary.store_via = via;
    }
  }
  // Past a gmem copy's own tensors, its body (CuTe's dispatch down to cp.async or a plain
  // assignment) only says again what the tensors said; a constexpr function (CuTe's layout
  // algebra, CUTLASS's coordinate arithmetic) can hold no asm in C++17 and touches no memory
  // that matters here. Neither is walked: CuTe instantiates thousands of them per kernel.
  if (summary.empty() && !definition->isConstexpr()) {
    LibraryBodyReader reader(*this, *definition, summary);
    reader.walk(*definition);
  }
  --depth_;
  in_progress_.erase(key);
  merge_by_parameter(summary.through_parameters);
  // Insert after the walk: `summary` was built while nested summaries were being added.
  return summaries_[key] = std::move(summary);
}

}  // namespace kl::analyzers
