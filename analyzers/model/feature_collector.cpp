#include "analyzers/model/feature_collector.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/TargetInfo.h>

#include <map>
#include <tuple>

#include "analyzers/data/feature_table.h"
#include "analyzers/frontend/device_parser.h"
#include "analyzers/model/device_body_walker.h"
#include "analyzers/model/device_code.h"
#include "analyzers/model/device_reachability.h"
#include "analyzers/model/ptx_text.h"

namespace kl::analyzers {

namespace {

// A use is checked when nvcc compiles it: a PTX instruction by ptxas, only in emitted functions;
// a call or a type by the front end, wherever a non-template function or an instantiation holds
// it (CUDA's headers leave the declaration out for archs that lack it, and a missing
// declaration fails however the function is used).
bool checked_when_written(const Feature& feature) { return feature.kind != FeatureKind::Ptx; }

// The feature uses of one function body at a time (see DeviceBodyWalker for what a body is).
class FeatureWalker : public DeviceBodyWalker<FeatureWalker> {
 public:
  FeatureWalker(clang::ASTContext& context, const SourceView& view, const FeatureTable& features,
                const DeviceReachability& reachability)
      : DeviceBodyWalker(context), view_(view), features_(features), reachability_(reachability) {}

  void walk_function(const clang::FunctionDecl& function) {
    current_ = &function;
    emitted_ = reachability_.is_emitted(function);
    kernel_ = reachability_.reaching_kernel(function);
    for (clang::ParmVarDecl* parameter : function.parameters()) VisitVarDecl(parameter);
    walk(function);
  }

  bool VisitCallExpr(clang::CallExpr* call) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (!callee) return true;
    std::string name = qualified_name(*callee);
    std::string first_argument;
    if (call->getNumArgs() > 0 && !llvm::isa<clang::CXXMemberCallExpr>(call))
      first_argument = call->getArg(0)->IgnoreParenImpCasts()->getType().getAsString();
    for (const Feature* feature : features_.match_function(name, first_argument)) {
      clang::SourceLocation begin = call->getBeginLoc();
      clang::SourceLocation end = call->getCallee()->getEndLoc();
      if (auto* member = llvm::dyn_cast<clang::MemberExpr>(call->getCallee()->IgnoreParenImpCasts()))
        begin = member->getMemberLoc();
      add(feature, name, view_.location_of(clang::SourceRange(begin, end)), begin);
    }
    return true;
  }

  bool VisitVarDecl(clang::VarDecl* variable) {
    if (variable->getType().isNull()) return true;
    std::string type = variable->getType().getCanonicalType().getAsString();
    for (const Feature* feature : features_.match_type(type))
      add(feature, type, view_.location_of(variable->getSourceRange()), variable->getBeginLoc());
    return true;
  }

  bool VisitGCCAsmStmt(clang::GCCAsmStmt* statement) {
    const clang::StringLiteral* literal = statement->getAsmString();
    if (!literal || literal->getCharByteWidth() != 1) return true;
    llvm::StringRef text = literal->getString();
    for (const auto& instruction : split_ptx_instructions(std::string_view(text.data(), text.size()))) {
      auto matched = features_.match_ptx(instruction.mnemonic);
      if (matched.empty()) continue;
      clang::SourceLocation begin = byte_location(*literal, instruction.offset);
      clang::SourceLocation end = byte_location(*literal, instruction.offset + instruction.mnemonic.size() - 1);
      // Ranges inside a string literal: columns of the first and last character, no token measuring.
      Location location = view_.location_of(begin);
      location.range.end = view_.location_of(end).range.start;
      location.range.end.column += 1;
      for (const Feature* feature : matched) add(feature, instruction.mnemonic, location, begin);
    }
    return true;
  }

  std::vector<FeatureUse> take() { return std::move(uses_); }

 private:
  clang::SourceLocation byte_location(const clang::StringLiteral& literal, size_t offset) const {
    return literal.getLocationOfByte(static_cast<unsigned>(offset), context_.getSourceManager(),
                                     context_.getLangOpts(), context_.getTargetInfo());
  }

  void add(const Feature* feature, const std::string& spelling, Location location, clang::SourceLocation begin) {
    if (!view_.is_user_location(begin)) return;
    if (!emitted_ && !checked_when_written(*feature)) return;
    FeatureUse use{feature->id, spelling, std::move(location), current_->getNameAsString()};
    if (emitted_ && kernel_) {
      use.reaching_kernel = qualified_name(*kernel_);
      use.reaching_kernel_location = view_.location_of(kernel_->getLocation());
    }
    uses_.push_back(std::move(use));
  }

  const SourceView& view_;
  const FeatureTable& features_;
  const DeviceReachability& reachability_;
  const clang::FunctionDecl* current_ = nullptr;
  bool emitted_ = false;
  const clang::FunctionDecl* kernel_ = nullptr;
  std::vector<FeatureUse> uses_;
};

// Instantiations of one template repeat its uses: one use per place and feature, preferring one
// that names the kernel reaching it.
std::vector<FeatureUse> one_use_per_place(std::vector<FeatureUse> uses) {
  std::vector<FeatureUse> out;
  std::map<std::tuple<std::string, uint32_t, uint32_t, std::string>, size_t> index;
  for (auto& use : uses) {
    auto key = std::make_tuple(use.location.file, use.location.range.start.line, use.location.range.start.column,
                               use.feature_id);
    auto [it, inserted] = index.try_emplace(key, out.size());
    if (inserted) {
      out.push_back(std::move(use));
    } else if (out[it->second].reaching_kernel.empty() && !use.reaching_kernel.empty()) {
      out[it->second] = std::move(use);
    }
  }
  return out;
}

}  // namespace

std::vector<FeatureUse> collect_feature_uses(clang::ASTContext& context, const SourceView& view,
                                             const FeatureTable& features) {
  DeviceReachability reachability(context, view);
  FeatureWalker walker(context, view, features, reachability);
  for (const clang::FunctionDecl* function : reachability.functions()) walker.walk_function(*function);
  return one_use_per_place(walker.take());
}

}  // namespace kl::analyzers
