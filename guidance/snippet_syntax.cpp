#include "guidance/snippet_syntax.h"

#include <cctype>
#include <map>
#include <optional>
#include <vector>

namespace kl::guidance {
namespace {

struct Node {
  enum class Kind { Text, Tabstop, Placeholder, Choice, Variable } kind = Kind::Text;
  std::string text;                  // Text: the characters; Variable: the name
  int number = -1;                   // Tabstop, Placeholder, Choice
  std::vector<Node> children;        // Placeholder / Variable default
  std::vector<std::string> options;  // Choice
};

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  std::optional<Error> error;

  // Until the end, or (inside a placeholder) until the '}' that closes it.
  std::vector<Node> sequence(bool inside) {
    std::vector<Node> nodes;
    std::string text;
    auto flush = [&] {
      if (!text.empty()) nodes.push_back(Node{Node::Kind::Text, std::move(text), -1, {}, {}});
      text.clear();
    };
    while (pos_ < s_.size() && !error) {
      char c = s_[pos_];
      if (c == '\\' && pos_ + 1 < s_.size() &&
          (s_[pos_ + 1] == '$' || s_[pos_ + 1] == '}' || s_[pos_ + 1] == '\\')) {
        text += s_[pos_ + 1];
        pos_ += 2;
      } else if (c == '}' && inside) {
        flush();
        return nodes;
      } else if (c == '$') {
        std::optional<Node> node = dollar();
        if (node) {
          flush();
          nodes.push_back(std::move(*node));
        } else if (!error) {
          text += '$';  // a lone '$' is text
          ++pos_;
        }
      } else {
        text += c;
        ++pos_;
      }
    }
    if (inside && !error) fail("`${` is never closed with `}`", open_stack_.empty() ? 0 : open_stack_.back());
    flush();
    return nodes;
  }

 private:
  void fail(std::string message, size_t at) {
    if (!error) error = make_error("snippet body, offset " + std::to_string(at) + ": " + message);
  }

  int number() {
    int n = 0;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_])))
      n = n * 10 + (s_[pos_++] - '0');
    return n;
  }

  // At a '$': a tabstop, placeholder, choice or variable; nullopt when the '$' is plain text.
  std::optional<Node> dollar() {
    const size_t start = pos_;
    if (pos_ + 1 >= s_.size()) return std::nullopt;
    char next = s_[pos_ + 1];
    if (std::isdigit(static_cast<unsigned char>(next))) {
      ++pos_;
      return Node{Node::Kind::Tabstop, {}, number(), {}, {}};
    }
    if (is_name_start(next)) {
      ++pos_;
      size_t name_start = pos_;
      while (pos_ < s_.size() && is_name_char(s_[pos_])) ++pos_;
      return Node{Node::Kind::Variable, std::string(s_.substr(name_start, pos_ - name_start)), -1, {}, {}};
    }
    if (next != '{') return std::nullopt;
    pos_ += 2;
    open_stack_.push_back(start);
    Node node;
    if (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      node.number = number();
      if (pos_ >= s_.size()) {
        fail("`${` is never closed with `}`", start);
      } else if (s_[pos_] == '}') {
        node.kind = Node::Kind::Tabstop;
        ++pos_;
      } else if (s_[pos_] == ':') {
        node.kind = Node::Kind::Placeholder;
        ++pos_;
        node.children = sequence(true);
        if (!error) ++pos_;  // the closing '}'
      } else if (s_[pos_] == '|') {
        node.kind = Node::Kind::Choice;
        ++pos_;
        choice(node, start);
      } else {
        fail(std::string("unexpected `") + s_[pos_] + "` after `${" + std::to_string(node.number) + "`",
             pos_);
      }
    } else if (pos_ < s_.size() && is_name_start(s_[pos_])) {
      node.kind = Node::Kind::Variable;
      size_t name_start = pos_;
      while (pos_ < s_.size() && is_name_char(s_[pos_])) ++pos_;
      node.text = std::string(s_.substr(name_start, pos_ - name_start));
      if (pos_ < s_.size() && s_[pos_] == '}') {
        ++pos_;
      } else if (pos_ < s_.size() && s_[pos_] == ':') {
        ++pos_;
        node.children = sequence(true);
        if (!error) ++pos_;
      } else {
        fail("variable transforms (`${" + node.text + "/...}`) are not supported", pos_);
      }
    } else {
      fail("`${` must be followed by a tabstop number or a variable name", start);
    }
    open_stack_.pop_back();
    return node;
  }

  void choice(Node& node, size_t start) {
    std::string option;
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == '\\' && pos_ + 1 < s_.size() &&
          (s_[pos_ + 1] == ',' || s_[pos_ + 1] == '|' || s_[pos_ + 1] == '\\')) {
        option += s_[pos_ + 1];
        pos_ += 2;
      } else if (c == ',') {
        node.options.push_back(std::move(option));
        option.clear();
        ++pos_;
      } else if (c == '|' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '}') {
        node.options.push_back(std::move(option));
        pos_ += 2;
        return;
      } else {
        option += c;
        ++pos_;
      }
    }
    fail("choice `${" + std::to_string(node.number) + "|...` is never closed with `|}`", start);
  }

  std::string_view s_;
  size_t pos_ = 0;
  std::vector<size_t> open_stack_;
};

void collect_defaults(const std::vector<Node>& nodes, std::map<int, const Node*>& defaults) {
  for (const auto& node : nodes) {
    if ((node.kind == Node::Kind::Placeholder || node.kind == Node::Kind::Choice) &&
        !defaults.count(node.number))
      defaults[node.number] = &node;
    collect_defaults(node.children, defaults);
  }
}

void render(const std::vector<Node>& nodes, const std::map<int, const Node*>& defaults, std::string& out,
            int depth) {
  for (const auto& node : nodes) {
    switch (node.kind) {
      case Node::Kind::Text:
        out += node.text;
        break;
      case Node::Kind::Placeholder:
        render(node.children, defaults, out, depth + 1);
        break;
      case Node::Kind::Choice:
        if (!node.options.empty()) out += node.options.front();
        break;
      case Node::Kind::Tabstop: {
        auto it = defaults.find(node.number);
        // A mirror shows what its placeholder shows; depth bounds a placeholder that mirrors itself.
        if (it != defaults.end() && depth < 8) render({*it->second}, defaults, out, depth + 1);
        break;
      }
      case Node::Kind::Variable:
        render(node.children, defaults, out, depth + 1);
        break;
    }
  }
}

}  // namespace

Result<std::string> expand_snippet_defaults(std::string_view body) {
  Parser parser(body);
  std::vector<Node> nodes = parser.sequence(false);
  if (parser.error) return *parser.error;
  std::map<int, const Node*> defaults;
  collect_defaults(nodes, defaults);
  std::string out;
  render(nodes, defaults, out, 0);
  return out;
}

std::string escape_snippet_text(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '$' || c == '}' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace kl::guidance
