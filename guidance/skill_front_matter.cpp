#include "guidance/skill_front_matter.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <regex>
#include <set>

#include "guidance/skill_markdown.h"

namespace kl::guidance {
namespace {

using analyzers::Severity;

constexpr size_t kNameMax = 64;
constexpr size_t kDescriptionMax = 1024;
constexpr size_t kCompatibilityMax = 500;

constexpr std::array<std::string_view, 9> kKnownKeys = {"name",
                                                        "description",
                                                        "license",
                                                        "compatibility",
                                                        "metadata",
                                                        "allowed-tools",
                                                        "disable-model-invocation",
                                                        "user-invocable",
                                                        "argument-hint"};

// Reads one front matter against the specification; collects findings as it goes.
class FrontMatterChecker {
 public:
  FrontMatterChecker(const std::vector<std::string_view>& lines, const std::string& file,
                     uint32_t yaml_first_line)
      : lines_(lines), file_(file), offset_(yaml_first_line) {}

  std::vector<analyzers::Finding> problems;

  void error_at(const YAML::Mark& mark, uint32_t length, std::string message) {
    add(Severity::Error, mark, length, std::move(message));
  }
  void warning_at(const YAML::Mark& mark, uint32_t length, std::string message) {
    add(Severity::Warning, mark, length, std::move(message));
  }
  void error_at_line(uint32_t line, std::string message) {
    uint32_t length = line < lines_.size() ? static_cast<uint32_t>(lines_[line].size()) : 0;
    problems.push_back(skill_finding(Severity::Error, file_, line, 0, length, std::move(message)));
  }

  // The file line of a YAML mark.
  uint32_t line_of(const YAML::Mark& mark) const {
    return offset_ + static_cast<uint32_t>(std::max(0, mark.line));
  }

  // Column in the file where `value` starts at `mark` (skipping a quote), so a problem with
  // one character can point at it; -1 when the source does not spell the value there.
  int value_column(const YAML::Mark& mark, const std::string& value) const {
    uint32_t line = line_of(mark);
    if (line >= lines_.size() || mark.column < 0) return -1;
    std::string_view text = lines_[line].substr(std::min<size_t>(mark.column, lines_[line].size()));
    if (text.substr(0, value.size()) == value) return mark.column;
    if (!text.empty() && (text[0] == '"' || text[0] == '\'') && text.substr(1, value.size()) == value)
      return mark.column + 1;
    return -1;
  }

  void add_at_column(Severity severity, uint32_t line, uint32_t column, uint32_t length,
                     std::string message) {
    problems.push_back(skill_finding(severity, file_, line, column, length, std::move(message)));
  }

 private:
  void add(Severity severity, const YAML::Mark& mark, uint32_t length, std::string message) {
    uint32_t column = static_cast<uint32_t>(std::max(0, mark.column));
    problems.push_back(skill_finding(severity, file_, line_of(mark), column, length, std::move(message)));
  }

  const std::vector<std::string_view>& lines_;
  const std::string& file_;
  uint32_t offset_;
};

uint32_t length_on_line(const std::string& value) {
  size_t newline = value.find('\n');
  return static_cast<uint32_t>(newline == std::string::npos ? value.size() : newline);
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// A plain (unquoted) scalar that YAML 1.2's core schema reads as a number, bool or null: typed
// YAML readers (agents in Python or TypeScript) will not see a string there.
bool plain_non_string(const YAML::Node& node) {
  if (node.Tag() != "?") return false;
  static const std::regex kTyped(
      R"(^(null|Null|NULL|~|true|True|TRUE|false|False|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN))$)");
  return std::regex_match(node.Scalar(), kTyped);
}

// A required or optional string value: a scalar, not a map or a list.
std::optional<std::string> scalar_value(FrontMatterChecker& check, const std::string& key,
                                        const YAML::Node& value) {
  if (value.IsNull()) return std::string();
  if (!value.IsScalar()) {
    check.error_at(value.Mark(), 1,
                   "`" + key + "` must be a string, not a " + (value.IsMap() ? "map" : "list"));
    return std::nullopt;
  }
  return value.Scalar();
}

void check_name(FrontMatterChecker& check, const YAML::Node& key, const YAML::Node& value,
                std::string_view folder_name, SkillFrontMatter& out) {
  auto name = scalar_value(check, "name", value);
  if (!name) return;
  out.name = *name;
  const YAML::Mark mark = value.IsNull() ? key.Mark() : value.Mark();
  const uint32_t length = std::max<uint32_t>(1, length_on_line(*name));
  if (name->empty()) {
    check.error_at(mark, length, "`name` is empty: give the skill a name of 1-64 characters (a-z, 0-9, '-')");
    return;
  }
  if (name->size() > kNameMax) {
    check.error_at(mark, length,
                   "`name` has " + std::to_string(name->size()) + " characters; at most " +
                       std::to_string(kNameMax) + " are allowed");
  }
  int column = check.value_column(mark, *name);
  for (size_t i = 0; i < name->size(); ++i) {
    unsigned char c = static_cast<unsigned char>((*name)[i]);
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') continue;
    std::string shown =
        c >= 0x20 && c < 0x7f ? std::string(1, static_cast<char>(c)) : "\\x" + std::to_string(c);
    std::string hint = (c >= 'A' && c <= 'Z')             ? " (use lower case)"
                       : c == '_' || c == ' ' || c == '.' ? " (use '-')"
                                                          : "";
    std::string message = "`name` may contain only a-z, 0-9 and '-'; found '" + shown + "'" + hint;
    if (column >= 0)
      check.add_at_column(Severity::Error, check.line_of(mark), static_cast<uint32_t>(column) + i, 1,
                          message);
    else
      check.error_at(mark, length, message);
    break;  // one finding per name; the rest usually repeat it
  }
  if (name->front() == '-' || name->back() == '-')
    check.error_at(mark, length, "`name` must not start or end with '-'");
  if (name->find("--") != std::string::npos) check.error_at(mark, length, "`name` must not contain '--'");
  if (!folder_name.empty() && *name != folder_name)
    check.error_at(mark, length,
                   "`name` is `" + *name + "` but the skill's folder is `" + std::string(folder_name) +
                       "`: agents find a skill by its folder, so the two must be equal");
}

void check_limited_text(FrontMatterChecker& check, const std::string& key, const YAML::Node& key_node,
                        const YAML::Node& value, size_t max, bool required, std::string& out) {
  auto text = scalar_value(check, key, value);
  if (!text) return;
  out = *text;
  const YAML::Mark mark = value.IsNull() ? key_node.Mark() : value.Mark();
  const uint32_t length = std::max<uint32_t>(1, length_on_line(*text));
  size_t characters = utf8_length(*text);
  if (characters == 0) {
    check.error_at(mark, length,
                   "`" + key + "` is empty" +
                       (required ? ": say what the skill does and when to use it" : std::string()));
  } else if (characters > max) {
    check.error_at(mark, length,
                   "`" + key + "` has " + std::to_string(characters) + " characters; at most " +
                       std::to_string(max) + " are allowed");
  }
}

void check_boolean(FrontMatterChecker& check, const std::string& key, const YAML::Node& value,
                   std::optional<bool>& out) {
  bool flag = false;
  if (value.IsScalar() && YAML::convert<bool>::decode(value, flag)) {
    out = flag;
    return;
  }
  check.error_at(value.Mark(), 1, "`" + key + "` must be true or false");
}

void check_metadata(FrontMatterChecker& check, const YAML::Node& value, SkillFrontMatter& out) {
  if (value.IsNull()) return;
  if (!value.IsMap()) {
    check.error_at(value.Mark(), 1, "`metadata` must be a map of string keys to string values");
    return;
  }
  for (auto it = value.begin(); it != value.end(); ++it) {
    // Copies (cheap handles to the same node), not references: yaml-cpp's `it->` returns a
    // temporary proxy, so a reference to `it->first` dangles at the end of this statement.
    const YAML::Node k = it->first;
    const YAML::Node v = it->second;
    if (!k.IsScalar()) {
      check.error_at(k.Mark(), 1, "`metadata` keys must be strings");
      continue;
    }
    if (!v.IsScalar() && !v.IsNull()) {
      check.error_at(v.Mark(), 1,
                     "`metadata." + k.Scalar() + "` must be a string, not a " + (v.IsMap() ? "map" : "list"));
      continue;
    }
    if (v.IsNull() || plain_non_string(v)) {
      std::string shown = v.IsNull() ? "null" : v.Scalar();
      check.warning_at(
          v.IsNull() ? k.Mark() : v.Mark(), static_cast<uint32_t>(std::max<size_t>(1, shown.size())),
          "`metadata." + k.Scalar() + "` is read as " + (v.IsNull() ? "null" : "a number or boolean") +
              " by typed YAML readers; quote it (\"" + (v.IsNull() ? "" : shown) + "\")");
    }
    out.metadata[k.Scalar()] = v.IsNull() ? std::string() : v.Scalar();
  }
}

void check_allowed_tools(FrontMatterChecker& check, const YAML::Node& value, SkillFrontMatter& out) {
  if (value.IsNull()) return;
  if (value.IsScalar()) {
    // The specification's form: one string, tools separated by spaces.
    std::string text = value.Scalar();
    size_t start = 0;
    while (start < text.size()) {
      size_t space = text.find_first_of(" \t,", start);
      if (space == std::string::npos) space = text.size();
      if (space > start) out.allowed_tools.push_back(text.substr(start, space - start));
      start = space + 1;
    }
    return;
  }
  if (value.IsSequence()) {  // Claude Code also takes a list
    for (const auto& item : value) {
      if (item.IsScalar())
        out.allowed_tools.push_back(item.Scalar());
      else
        check.error_at(item.Mark(), 1, "`allowed-tools` entries must be strings");
    }
    return;
  }
  check.error_at(value.Mark(), 1, "`allowed-tools` must be a string of tool names separated by spaces");
}

// The text's lines, a UTF-8 byte order mark dropped from the first.
std::vector<std::string_view> front_matter_lines(std::string_view text) {
  std::vector<std::string_view> lines = split_lines(text);
  if (!lines.empty() && lines[0].substr(0, 3) == "\xEF\xBB\xBF") lines[0].remove_prefix(3);  // BOM
  return lines;
}

// The line index of the `---` (or `...`) that closes the front matter opened on line 0; 0 when
// none does.
uint32_t closing_line(const std::vector<std::string_view>& lines) {
  for (uint32_t i = 1; i < lines.size(); ++i)
    if (lines[i] == "---" || lines[i] == "...") return i;
  return 0;
}

// The YAML between the two `---` lines; its line 0 is the file's line 1.
std::string yaml_between(const std::vector<std::string_view>& lines, uint32_t closing) {
  std::string yaml;
  for (uint32_t i = 1; i < closing; ++i) {
    yaml += lines[i];
    yaml += '\n';
  }
  return yaml;
}

// The front matter as a YAML map; nullopt, with the finding that says why, when it is not YAML,
// empty, or not a map.
std::optional<YAML::Node> load_front_matter(FrontMatterChecker& check, const std::string& yaml,
                                            uint32_t closing) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml);
  } catch (const YAML::Exception& e) {
    YAML::Mark mark = e.mark.is_null() ? YAML::Mark() : e.mark;
    check.error_at(mark, 1, "front matter is not valid YAML: " + e.msg);
    return std::nullopt;
  }
  if (!root.IsMap()) {
    check.error_at_line(root.IsNull() ? closing : 1,
                        root.IsNull()
                            ? "the front matter is empty: it needs `name:` and `description:`"
                            : "the front matter must be a map of keys (`name:`, `description:`, ...)");
    return std::nullopt;
  }
  return root;
}

// A key no agent reads, with the known key it is probably a typo of.
std::string unknown_key_message(const std::string& k) {
  std::string message = "unknown front matter key `" + k + "` (agents ignore it)";
  for (std::string_view known : kKnownKeys) {
    if (edit_distance(k, known) <= 2) {
      message += "; did you mean `" + std::string(known) + "`?";
      break;
    }
  }
  return message;
}

// Checks one key's value against what the specification allows for that key, keeping it in
// `front`; `version` and unknown keys are warnings, as agents ignore them.
void check_entry(FrontMatterChecker& check, const YAML::Node& key, const std::string& k,
                 const YAML::Node& value, std::string_view folder_name, SkillFrontMatter& front) {
  const uint32_t key_length = static_cast<uint32_t>(k.size());
  if (k == "name") {
    check_name(check, key, value, folder_name, front);
  } else if (k == "description") {
    check_limited_text(check, k, key, value, kDescriptionMax, true, front.description);
  } else if (k == "compatibility") {
    check_limited_text(check, k, key, value, kCompatibilityMax, false, front.compatibility);
  } else if (k == "license") {
    if (auto v = scalar_value(check, k, value)) front.license = *v;
  } else if (k == "argument-hint") {
    if (auto v = scalar_value(check, k, value)) front.argument_hint = *v;
  } else if (k == "metadata") {
    check_metadata(check, value, front);
  } else if (k == "allowed-tools") {
    check_allowed_tools(check, value, front);
  } else if (k == "disable-model-invocation") {
    check_boolean(check, k, value, front.disable_model_invocation);
  } else if (k == "user-invocable") {
    check_boolean(check, k, value, front.user_invocable);
  } else if (k == "version") {
    check.warning_at(
        key.Mark(), key_length,
        "`version` is not a front matter key of the Agent Skills specification; put it under `metadata:`");
  } else {
    check.warning_at(key.Mark(), key_length, unknown_key_message(k));
  }
}

// Every key of the map in order: non-string and repeated keys are errors (a YAML reader keeps
// only one of a repeated key, so only the first is checked). Returns the keys seen.
std::set<std::string> check_entries(FrontMatterChecker& check, const YAML::Node& root,
                                    std::string_view folder_name, SkillFrontMatter& front) {
  std::set<std::string> seen;
  for (auto it = root.begin(); it != root.end(); ++it) {
    const YAML::Node key = it->first;  // copies, as in check_metadata: `it->` is a temporary
    const YAML::Node value = it->second;
    if (!key.IsScalar()) {
      check.error_at(key.Mark(), 1, "front matter keys must be strings");
      continue;
    }
    const std::string k = key.Scalar();
    if (!seen.insert(k).second) {
      check.error_at(key.Mark(), static_cast<uint32_t>(k.size()),
                     "`" + k + "` is given twice; YAML readers keep only one of them");
      continue;
    }
    check_entry(check, key, k, value, folder_name, front);
  }
  return seen;
}

void check_required_keys(FrontMatterChecker& check, const std::set<std::string>& seen,
                         std::string_view folder_name) {
  if (!seen.count("name"))
    check.error_at_line(0, "the front matter has no `name`: add `name: " +
                               (folder_name.empty() ? std::string("my-skill") : std::string(folder_name)) +
                               "`");
  if (!seen.count("description"))
    check.error_at_line(0,
                        "the front matter has no `description`: say what the skill does and when to use it");
}

}  // namespace

analyzers::Finding skill_finding(analyzers::Severity severity, const std::string& file, uint32_t line,
                                 uint32_t column, uint32_t length, std::string message) {
  analyzers::Finding finding;
  finding.rule_id = std::string(kSkillRule);
  finding.severity = severity;
  finding.location.file = file;
  finding.location.range = {{line, column}, {line, column + length}};
  finding.message = std::move(message);
  return finding;
}

uint32_t front_matter_end(std::string_view text) {
  std::vector<std::string_view> lines = front_matter_lines(text);
  if (lines.empty() || lines[0] != "---") return 0;
  uint32_t closing = closing_line(lines);
  return closing == 0 ? 0 : closing + 1;
}

size_t utf8_length(std::string_view text) {
  size_t count = 0;
  for (unsigned char c : text)
    if ((c & 0xC0) != 0x80) ++count;
  return count;
}

FrontMatterReading read_skill_front_matter(std::string_view text, const std::string& file,
                                           std::string_view folder_name) {
  FrontMatterReading reading;
  std::vector<std::string_view> lines = front_matter_lines(text);
  if (lines.empty() || lines[0] != "---") {
    reading.problems.push_back(skill_finding(
        Severity::Error, file, 0, 0, lines.empty() ? 0 : static_cast<uint32_t>(lines[0].size()),
        "SKILL.md must start with YAML front matter: a `---` line, `name:` and `description:`, then `---`"));
    return reading;
  }
  uint32_t closing = closing_line(lines);
  if (closing == 0) {
    reading.problems.push_back(skill_finding(
        Severity::Error, file, 0, 0, 3, "the front matter opened here is never closed with a `---` line"));
    return reading;
  }
  reading.body_line = closing + 1;

  FrontMatterChecker check(lines, file, 1);
  std::optional<YAML::Node> root = load_front_matter(check, yaml_between(lines, closing), closing);
  if (!root) {
    reading.problems = std::move(check.problems);
    return reading;
  }
  SkillFrontMatter front;
  std::set<std::string> seen = check_entries(check, *root, folder_name, front);
  check_required_keys(check, seen, folder_name);
  reading.front_matter = std::move(front);
  reading.problems = std::move(check.problems);
  return reading;
}

}  // namespace kl::guidance
