#include "analyzers/model/feature_collector.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/TargetInfo.h>

#include <cctype>

#include "analyzers/data/feature_table.h"
#include "analyzers/frontend/device_parser.h"
#include "analyzers/model/device_code.h"

namespace kl::analyzers {

std::vector<PtxInstruction> split_ptx_instructions(std::string_view text) {
  std::vector<PtxInstruction> out;
  size_t i = 0;
  auto skip_space = [&] {
    while (i < text.size() && (std::isspace(static_cast<unsigned char>(text[i])) || text[i] == '{' || text[i] == '}'))
      ++i;
  };
  while (i < text.size()) {
    skip_space();
    if (i >= text.size()) break;
    // Comments
    if (text.compare(i, 2, "//") == 0) {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (text.compare(i, 2, "/*") == 0) {
      size_t end = text.find("*/", i + 2);
      i = end == std::string_view::npos ? text.size() : end + 2;
      continue;
    }
    // Predicate guard: @p or @!p
    if (text[i] == '@') {
      while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      skip_space();
    }
    size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])) && text[i] != ';' &&
           text[i] != '{' && text[i] != '}')
      ++i;
    std::string token(text.substr(start, i - start));
    bool is_label = !token.empty() && token.back() == ':';
    bool is_directive = !token.empty() && token.front() == '.';
    bool is_operand_ref = !token.empty() && (token.front() == '%' || token.front() == '$');
    if (!token.empty() && !is_label && !is_directive && !is_operand_ref &&
        std::isalpha(static_cast<unsigned char>(token.front())))
      out.push_back({start, token});
    // Rest of the statement
    if (!is_label) {
      while (i < text.size() && text[i] != ';' && text[i] != '\n' && text[i] != '}') ++i;
    }
    if (i < text.size() && (text[i] == ';' || text[i] == '\n')) ++i;
  }
  return out;
}

namespace {

class FeatureVisitor : public clang::RecursiveASTVisitor<FeatureVisitor> {
 public:
  FeatureVisitor(clang::ASTContext& context, const SourceView& view, const FeatureTable& features)
      : context_(context), view_(view), features_(features) {}

  bool TraverseFunctionDecl(clang::FunctionDecl* function) {
    if (!function->doesThisDeclarationHaveABody() || !view_.is_user_location(function->getLocation()))
      return true;
    if (!is_device_function(*function)) return true;
    const clang::FunctionDecl* saved = current_;
    current_ = function;
    clang::RecursiveASTVisitor<FeatureVisitor>::TraverseFunctionDecl(function);
    current_ = saved;
    return true;
  }
  bool TraverseCXXMethodDecl(clang::CXXMethodDecl* method) { return TraverseFunctionDecl(method); }

  // A discarded `if constexpr` branch is never compiled for this target.
  bool TraverseIfStmt(clang::IfStmt* statement) {
    if (current_ && statement->isConstexpr() && !statement->getCond()->isValueDependent()) {
      if (auto taken = statement->getNondiscardedCase(context_)) {
        if (*taken) TraverseStmt(*taken);
        return true;
      }
    }
    return clang::RecursiveASTVisitor<FeatureVisitor>::TraverseIfStmt(statement);
  }

  bool VisitCallExpr(clang::CallExpr* call) {
    if (!current_) return true;
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
      add(feature, name, clang::SourceRange(begin, end));
    }
    return true;
  }

  bool VisitVarDecl(clang::VarDecl* variable) {
    if (!current_ || variable->getType().isNull()) return true;
    std::string type = variable->getType().getCanonicalType().getAsString();
    for (const Feature* feature : features_.match_type(type)) add(feature, type, variable->getSourceRange());
    return true;
  }

  bool VisitGCCAsmStmt(clang::GCCAsmStmt* statement) {
    if (!current_) return true;
    const clang::StringLiteral* literal = statement->getAsmString();
    if (!literal || literal->getCharByteWidth() != 1) return true;
    llvm::StringRef text = literal->getString();
    for (const auto& instruction : split_ptx_instructions(std::string_view(text.data(), text.size()))) {
      auto matched = features_.match_ptx(instruction.mnemonic);
      if (matched.empty()) continue;
      clang::SourceLocation begin = literal->getLocationOfByte(
          static_cast<unsigned>(instruction.offset), context_.getSourceManager(), context_.getLangOpts(),
          context_.getTargetInfo());
      clang::SourceLocation end = literal->getLocationOfByte(
          static_cast<unsigned>(instruction.offset + instruction.mnemonic.size() - 1),
          context_.getSourceManager(), context_.getLangOpts(), context_.getTargetInfo());
      for (const Feature* feature : matched) add_exact(feature, instruction.mnemonic, begin, end);
    }
    return true;
  }

  std::vector<FeatureUse> take() { return std::move(uses_); }

 private:
  void add(const Feature* feature, const std::string& spelling, clang::SourceRange range) {
    if (!view_.is_user_location(range.getBegin())) return;
    uses_.push_back({feature->id, spelling, view_.location_of(range), current_->getNameAsString()});
  }
  // Ranges inside a string literal: columns of the first and last character, no token measuring.
  void add_exact(const Feature* feature, const std::string& spelling, clang::SourceLocation begin,
                 clang::SourceLocation end) {
    if (!view_.is_user_location(begin)) return;
    Location location = view_.location_of(begin);
    Location last = view_.location_of(end);
    location.range.end = last.range.start;
    location.range.end.column += 1;
    uses_.push_back({feature->id, spelling, location, current_->getNameAsString()});
  }

  clang::ASTContext& context_;
  const SourceView& view_;
  const FeatureTable& features_;
  const clang::FunctionDecl* current_ = nullptr;
  std::vector<FeatureUse> uses_;
};

}  // namespace

std::vector<FeatureUse> collect_feature_uses(clang::ASTContext& context, const SourceView& view,
                                             const FeatureTable& features) {
  FeatureVisitor visitor(context, view, features);
  visitor.TraverseDecl(context.getTranslationUnitDecl());
  return visitor.take();
}

}  // namespace kl::analyzers
