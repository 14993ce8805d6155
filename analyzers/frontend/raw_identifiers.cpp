#include "analyzers/frontend/raw_identifiers.h"

#include <clang/Basic/IdentifierTable.h>
#include <clang/Basic/LangOptions.h>
#include <clang/Lex/Lexer.h>

#include <functional>

namespace kl::analyzers {

namespace {

const clang::LangOptions& cuda_language() {
  static const clang::LangOptions options = [] {
    clang::LangOptions o;
    o.CPlusPlus = o.CPlusPlus11 = o.CPlusPlus14 = o.CPlusPlus17 = 1;
    o.CUDA = 1;
    o.Bool = 1;
    return o;
  }();
  return options;
}

const std::unordered_set<std::string>& keywords() {
  static const std::unordered_set<std::string> words = [] {
    std::unordered_set<std::string> out;
    clang::IdentifierTable table(cuda_language());
    for (const auto& entry : table)
      if (entry.getValue()->isKeyword(cuda_language())) out.insert(entry.getKey().str());
    return out;
  }();
  return words;
}

bool is_keyword(llvm::StringRef name) { return keywords().count(name.str()) > 0; }
bool is_user_identifier(llvm::StringRef name) { return !name.starts_with("__") && !is_keyword(name); }

// Calls `each` for every token of `text` but the end, in order; with `code_only`, not for the
// tokens of preprocessor directives (what a branch's condition tests is the signature's business).
void for_each_token(std::string_view text, const std::function<void(const clang::Token&)>& each,
                    bool code_only = false) {
  clang::Lexer lexer(clang::SourceLocation(), cuda_language(), text.data(), text.data(),
                     text.data() + text.size());
  clang::Token token;
  bool in_directive = false;
  while (true) {
    bool last = lexer.LexFromRawLexer(token);
    if (token.is(clang::tok::eof)) return;
    if (token.isAtStartOfLine()) in_directive = token.is(clang::tok::hash);
    if (!code_only || !in_directive) each(token);
    if (last) return;
  }
}

}  // namespace

IdentifierSet identifiers_in(std::string_view text) {
  IdentifierSet names;
  for_each_token(
      text,
      [&](const clang::Token& token) {
        if (token.is(clang::tok::raw_identifier) && !is_keyword(token.getRawIdentifier()))
          names.insert(token.getRawIdentifier().str());
      },
      /*code_only=*/true);
  return names;
}

IdentifierSet top_level_identifiers_in(std::string_view text) {
  IdentifierSet names;
  int depth = 0;            // braces and parentheses
  int template_angles = 0;  // inside `template < ... >`
  bool after_template = false;
  for_each_token(
      text,
      [&](const clang::Token& token) {
        switch (token.getKind()) {
          case clang::tok::l_brace:
          case clang::tok::l_paren:
            ++depth;
            break;
          case clang::tok::r_brace:
          case clang::tok::r_paren:
            depth = depth > 0 ? depth - 1 : 0;
            break;
          case clang::tok::less:
            if (after_template || template_angles > 0) ++template_angles;
            break;
          case clang::tok::greater:
            template_angles = template_angles > 0 ? template_angles - 1 : 0;
            break;
          case clang::tok::greatergreater:
            template_angles = template_angles > 1 ? template_angles - 2 : 0;
            break;
          case clang::tok::raw_identifier: {
            llvm::StringRef name = token.getRawIdentifier();
            if (depth == 0 && template_angles == 0 && is_user_identifier(name)) names.insert(name.str());
            break;
          }
          default:
            break;
        }
        after_template = token.is(clang::tok::raw_identifier) && token.getRawIdentifier() == "template";
      },
      /*code_only=*/true);
  return names;
}

bool braces_balance(std::string_view text) {
  int depth = 0;
  bool balanced = true;
  for_each_token(
      text,
      [&](const clang::Token& token) {
        if (token.is(clang::tok::l_brace)) ++depth;
        if (token.is(clang::tok::r_brace) && --depth < 0) balanced = false;
      },
      /*code_only=*/true);
  return balanced && depth == 0;
}

bool has_directive(std::string_view text, std::string_view name) {
  bool found = false, after_hash = false;
  for_each_token(text, [&](const clang::Token& token) {
    if (after_hash && token.is(clang::tok::raw_identifier) &&
        token.getRawIdentifier() == llvm::StringRef(name.data(), name.size()))
      found = true;
    after_hash = token.is(clang::tok::hash) && token.isAtStartOfLine();
  });
  return found;
}

std::unordered_map<std::string, IdentifierSet> macro_identifiers_in(std::string_view text) {
  std::unordered_map<std::string, IdentifierSet> macros;
  enum class State { Code, Hash, Name, Body } state = State::Code;
  IdentifierSet* body = nullptr;
  for_each_token(text, [&](const clang::Token& token) {
    if (token.isAtStartOfLine()) state = State::Code;  // a directive ends with its (unescaped) line
    switch (state) {
      case State::Code:
        if (token.is(clang::tok::hash) && token.isAtStartOfLine()) state = State::Hash;
        break;
      case State::Hash:
        state = token.is(clang::tok::raw_identifier) && token.getRawIdentifier() == "define" ? State::Name
                                                                                             : State::Code;
        break;
      case State::Name:
        if (token.is(clang::tok::raw_identifier)) {
          body = &macros[token.getRawIdentifier().str()];
          state = State::Body;
        } else {
          state = State::Code;
        }
        break;
      case State::Body:
        if (token.is(clang::tok::raw_identifier) && !is_keyword(token.getRawIdentifier()))
          body->insert(token.getRawIdentifier().str());
        break;
    }
  });
  return macros;
}

void add_macro_identifiers(IdentifierSet& names,
                           const std::unordered_map<std::string, IdentifierSet>& macros) {
  std::vector<std::string> pending(names.begin(), names.end());
  IdentifierSet expanded;
  while (!pending.empty()) {
    std::string name = std::move(pending.back());
    pending.pop_back();
    auto macro = macros.find(name);
    if (macro == macros.end() || !expanded.insert(name).second) continue;
    for (const std::string& used : macro->second)
      if (names.insert(used).second) pending.push_back(used);
  }
}

}  // namespace kl::analyzers
