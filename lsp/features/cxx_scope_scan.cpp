#include "lsp/features/cxx_scope_scan.h"

#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "lsp/features/source_scan.h"
#include "support/text.h"

namespace kl::lsp {
namespace {

enum class Region { File, Class, Device, Host, Expression };

struct Frame {
  char close = '}';  // ')', ']' or '}'
  Region region = Region::Expression;
  std::string head;  // the enclosing level's head when the frame opened
};

// What the scan knows at one point: the open brackets and the head, i.e. the significant text
// of the declaration or statement being read at the innermost level (whitespace runs collapsed
// to ' ', or '\n' when they hold a line break; literals reduced to their quotes).
struct ScanState {
  std::vector<Frame> frames;
  std::string head;
};

// An #if group: the state at the #if, and the state where its first branch ended.
struct Conditional {
  ScanState at_if;
  std::optional<ScanState> first_branch_end;
};

bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

void append_space(std::string& head, char c) {
  if (head.empty()) return;
  if (head.back() == ' ' || head.back() == '\n') {
    if (c == '\n') head.back() = '\n';
    return;
  }
  head.push_back(c == '\n' ? '\n' : ' ');
}

using kl::trim;  // space() is exactly kl::kWhitespace

std::vector<std::string_view> identifiers(std::string_view s) {
  std::vector<std::string_view> out;
  for (size_t i = 0; i < s.size();) {
    if (is_identifier_char(s[i]) && !std::isdigit(static_cast<unsigned char>(s[i]))) {
      size_t j = i;
      while (j < s.size() && is_identifier_char(s[j])) ++j;
      out.push_back(s.substr(i, j - i));
      i = j;
    } else {
      while (i < s.size() && is_identifier_char(s[i])) ++i;  // a number's digits and suffix
      if (i < s.size() && !is_identifier_char(s[i])) ++i;
    }
  }
  return out;
}

bool has_identifier(std::string_view s, std::string_view name) {
  for (auto id : identifiers(s))
    if (id == name) return true;
  return false;
}

// Offset just past the bracket group that opens at `open` (parens or angle brackets), or npos.
size_t skip_group(std::string_view s, size_t open, char left, char right) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == left) ++depth;
    if (s[i] == right && --depth == 0) return i + 1;
  }
  return std::string_view::npos;
}

// The head without what does not decide what a brace opens: attributes and alignment
// specifiers, leading template headers, access specifiers and `typedef`.
std::string declaration_core(std::string_view head) {
  std::string out;
  for (size_t i = 0; i < head.size();) {
    bool word_start = is_identifier_char(head[i]) && (i == 0 || !is_identifier_char(head[i - 1]));
    size_t end = i;
    while (end < head.size() && is_identifier_char(head[end])) ++end;
    std::string_view word = head.substr(i, end - i);
    if (word_start &&
        (word == "alignas" || word == "__align__" || word == "__attribute__" || word == "__declspec")) {
      size_t open = skip_spaces(head, end);
      size_t close = open != std::string_view::npos && head[open] == '(' ? skip_group(head, open, '(', ')')
                                                                         : std::string_view::npos;
      if (close != std::string_view::npos) {
        i = close;
        continue;
      }
    }
    if (head.compare(i, 2, "[[") == 0) {
      size_t close = head.find("]]", i);
      if (close != std::string_view::npos) {
        i = close + 2;
        continue;
      }
    }
    out.push_back(head[i++]);
  }
  for (bool changed = true; changed;) {
    changed = false;
    std::string_view core = trim(out);
    auto ids = identifiers(core);
    if (ids.empty() || core.substr(0, ids.front().size()) != ids.front()) break;
    size_t after = ids.front().size();
    if (ids.front() == "template") {
      size_t open = skip_spaces(core, after);
      size_t close = open != std::string_view::npos && core[open] == '<' ? skip_group(core, open, '<', '>')
                                                                         : std::string_view::npos;
      if (close == std::string_view::npos) break;
      out = std::string(core.substr(close));
      changed = true;
    } else if (ids.front() == "public" || ids.front() == "private" || ids.front() == "protected") {
      size_t colon = skip_spaces(core, after);
      if (colon == std::string_view::npos || core[colon] != ':') break;
      out = std::string(core.substr(colon + 1));
      changed = true;
    } else if (ids.front() == "typedef") {
      out = std::string(core.substr(after));
      changed = true;
    }
  }
  return std::string(trim(out));
}

// A parameter list closes the head, followed at most by qualifiers or a trailing return type:
// `f(int a) const`, `[&](int i) mutable -> float`.
bool ends_with_parameter_list(std::string_view core) {
  size_t close = core.rfind(')');
  if (close == std::string_view::npos) return false;
  for (char c : core.substr(close + 1))
    if (!is_identifier_char(c) && !space(c) && c != '-' && c != '>' && c != '<' && c != ':' && c != '*' &&
        c != '&' && c != ',')
      return false;
  return true;
}

// An `=` outside parentheses (an initialiser), not part of a comparison or `operator=`.
bool has_initializer(std::string_view core) {
  int depth = 0;
  for (size_t i = 0; i < core.size(); ++i) {
    char c = core[i];
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c != '=' || depth != 0) continue;
    char before = i > 0 ? core[i - 1] : ' ';
    char after = i + 1 < core.size() ? core[i + 1] : ' ';
    if (after == '=' || before == '=' || before == '!' || before == '<' || before == '>') continue;
    std::string_view left = trim(core.substr(0, i));
    if (left.size() >= 8 && left.substr(left.size() - 8) == "operator") continue;
    return true;
  }
  return false;
}

Region function_region(std::string_view core) {
  return has_identifier(core, "__global__") || has_identifier(core, "__device__") ? Region::Device
                                                                                  : Region::Host;
}

// What the braces opened after `head` hold, given the region they open in.
Region classify_brace(std::string_view head, Region enclosing) {
  const std::string core = declaration_core(head);
  auto ids = identifiers(core);
  std::string_view first =
      ids.empty() || core.substr(0, ids.front().size()) != ids.front() ? "" : ids.front();
  const bool class_key = first == "struct" || first == "class" || first == "union";
  if (enclosing == Region::Device || enclosing == Region::Host) {
    if (core.empty() || core.back() == ')' ||
        (core.back() == ':' && core.size() > 1 && core[core.size() - 2] != ':'))
      return enclosing;        // a block, a control statement, a lambda, a label
    if (core.back() == ']') {  // `[&] {` opens a lambda's body; `float v[4] {` an initialiser
      size_t open = core.rfind('[');
      size_t before = open == std::string::npos ? 0 : core.find_last_not_of(" \n", open == 0 ? 0 : open - 1);
      const bool subscript = open != std::string::npos && open > 0 && before != std::string::npos &&
                             (is_identifier_char(core[before]) || core[before] == ']' || core[before] == ')');
      return subscript ? Region::Expression : enclosing;
    }
    if (class_key) return Region::Class;
    if (!ids.empty() && (ids.back() == "else" || ids.back() == "do" || ids.back() == "try") &&
        core.substr(core.size() - ids.back().size()) == ids.back())
      return enclosing;
    if (core.find('(') != std::string::npos && ends_with_parameter_list(core) && !has_initializer(core))
      return enclosing;         // a lambda with qualifiers or a trailing return type
    return Region::Expression;  // an initialiser
  }
  if (enclosing == Region::Expression) return Region::Expression;
  if (has_identifier(core, "namespace")) return Region::File;
  if (first == "extern" && core.find('"') != std::string::npos) return Region::File;
  if (first == "enum") return Region::Expression;
  const bool function_like =
      core.find('(') != std::string::npos && ends_with_parameter_list(core) && !has_initializer(core);
  if (class_key && !function_like) return Region::Class;
  if (function_like) return function_region(core);
  return Region::Expression;
}

// `REGISTER_EXTENSION(TORCH_EXTENSION_NAME)` then a line break: a macro invocation that needs no
// semicolon, so a new declaration may start on the next line.
bool macro_invocation_line(std::string_view head) {
  if (head.empty() || head.back() != '\n') return false;
  std::string_view h = trim(head);
  size_t i = 0;
  while (i < h.size() && (std::isupper(static_cast<unsigned char>(h[i])) || h[i] == '_' ||
                          (i > 0 && std::isdigit(static_cast<unsigned char>(h[i])))))
    ++i;
  if (i == 0) return false;
  size_t open = skip_spaces(h, i);
  if (open == std::string_view::npos || h[open] != '(') return false;
  return skip_group(h, open, '(', ')') == h.size();
}

class Scanner {
 public:
  Scanner(std::string_view text, size_t offset) : text_(text), offset_(std::min(offset, text.size())) {}

  CxxPosition run() {
    bool line_start = true;  // only spaces since the last line break
    size_t i = 0;
    while (i < offset_) {
      const char c = text_[i];
      if (line_start && c == '#') {
        size_t end = directive_end(i);
        if (end >= offset_) return {CxxScope::Directive, false};
        directive(i);
        i = end;
        continue;
      }
      if (c == '\n')
        line_start = true;
      else if (!space(c))
        line_start = false;
      LexemeExtent lexeme = lexeme_at(text_, i);
      switch (lexeme.kind) {
        case Lexeme::LineComment:
          if (lexeme.end >= offset_) return {CxxScope::Comment, false};
          append_space(state_.head, ' ');
          break;
        case Lexeme::BlockComment:
          if (lexeme.end > offset_) return {CxxScope::Comment, false};
          // A comment over several lines separates like a line break (macro_invocation_line).
          append_space(state_.head,
                       text_.substr(i, lexeme.end - i).find('\n') == std::string_view::npos ? ' ' : '\n');
          break;
        case Lexeme::Literal:
          // Inside until its closing quote (an open literal: until its line's end).
          if ((lexeme.closed ? lexeme.end - 1 : lexeme.end) >= offset_) return {CxxScope::Literal, false};
          state_.head.append(c == '\'' ? "''" : "\"\"");
          break;
        case Lexeme::Code:
          code(c);
          break;
      }
      i = lexeme.end;
    }
    return result();
  }

 private:
  // Index of the line break that ends the directive starting at `i` (continuation lines and
  // block comments included), or the text's end.
  size_t directive_end(size_t i) const {
    const size_t n = text_.size();
    while (i < n) {
      if (text_[i] == '\\' && i + 1 < n && (text_[i + 1] == '\n' || text_[i + 1] == '\r')) {
        i = text_.find('\n', i + 1);
        if (i == std::string_view::npos) return n;
        ++i;
      } else if (text_.compare(i, 2, "/*") == 0) {
        LexemeExtent comment = lexeme_at(text_, i);
        if (!comment.closed) return n;
        i = comment.end;
      } else if (text_[i] == '\n') {
        return i;
      } else {
        ++i;
      }
    }
    return n;
  }

  void directive(size_t hash) {
    size_t name = skip_spaces(text_, hash + 1);
    size_t end = name;
    while (end < text_.size() && is_identifier_char(text_[end])) ++end;
    std::string_view word = name == std::string_view::npos ? "" : text_.substr(name, end - name);
    if (word == "if" || word == "ifdef" || word == "ifndef") {
      conditionals_.push_back({state_, std::nullopt});
    } else if ((word == "elif" || word == "else" || word == "elifdef" || word == "elifndef") &&
               !conditionals_.empty()) {
      Conditional& group = conditionals_.back();
      if (!group.first_branch_end) group.first_branch_end = state_;
      state_ = group.at_if;
    } else if (word == "endif" && !conditionals_.empty()) {
      if (conditionals_.back().first_branch_end) state_ = *conditionals_.back().first_branch_end;
      conditionals_.pop_back();
    }
  }

  Region region() const {
    if (state_.frames.empty()) return Region::File;
    const Frame& top = state_.frames.back();
    return top.close == '}' ? top.region : Region::Expression;
  }

  void code(char c) {
    std::string& head = state_.head;
    if (space(c)) {
      append_space(head, c);
    } else if (c == '{') {
      Region inner = classify_brace(head, region());
      state_.frames.push_back({'}', inner, head});
      head.clear();
    } else if (c == '(' || c == '[') {
      state_.frames.push_back({c == '(' ? ')' : ']', Region::Expression, {}});
      head.push_back(c);
    } else if (c == ')' || c == ']') {
      if (!state_.frames.empty() && state_.frames.back().close == c) state_.frames.pop_back();
      head.push_back(c);
    } else if (c == '}') {
      close_brace();
    } else if (c == ';' && (state_.frames.empty() || state_.frames.back().close == '}')) {
      head.clear();
    } else {
      head.push_back(c);
    }
  }

  void close_brace() {
    // Unbalanced text (an unclosed paren above): close up to the matching brace.
    while (!state_.frames.empty() && state_.frames.back().close != '}') state_.frames.pop_back();
    if (state_.frames.empty()) {
      state_.head.clear();
      return;
    }
    Frame frame = std::move(state_.frames.back());
    state_.frames.pop_back();
    const bool declaration_ends =
        frame.region == Region::File || frame.region == Region::Device || frame.region == Region::Host;
    if (declaration_ends && region() != Region::Expression) {
      state_.head.clear();  // after a function or namespace body, or a block
    } else {
      state_.head = frame.head + "{}";  // `struct S {...} s;`, `int a[] = {...};` go on
    }
  }

  CxxPosition result() const {
    static constexpr CxxScope kScopes[] = {CxxScope::FileScope, CxxScope::ClassBody, CxxScope::DeviceBody,
                                           CxxScope::HostBody, CxxScope::Expression};
    const Region r = region();
    CxxPosition position{kScopes[static_cast<int>(r)], false};
    position.statement_start = trim(state_.head).empty() || ((r == Region::File || r == Region::Class) &&
                                                             macro_invocation_line(state_.head));
    return position;
  }

  std::string_view text_;
  size_t offset_;
  ScanState state_;
  std::vector<Conditional> conditionals_;
};

}  // namespace

CxxPosition cxx_position_at(std::string_view text, size_t offset) { return Scanner(text, offset).run(); }

}  // namespace kl::lsp
