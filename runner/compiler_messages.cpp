#include "runner/compiler_messages.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <regex>
#include <tuple>

#include "analyzers/project/capability.h"
#include "support/text.h"

namespace kl::runner {
namespace fs = std::filesystem;
using analyzers::Severity;

namespace {

std::string_view trim(std::string_view text) { return kl::trim(text, " \t"); }

Severity severity_of(const std::string& word) {
  if (word == "warning" || word == "Warning") return Severity::Warning;
  if (word == "note" || word == "remark" || word == "info") return Severity::Information;
  return Severity::Error;  // error, fatal, fatal error, catastrophic error, internal error, Error, ...
}

std::optional<uint32_t> zero_based(const std::string& one_based) {
  uint32_t value = 0;
  const char* end = one_based.data() + one_based.size();
  auto [stop, error] = std::from_chars(one_based.data(), end, value);
  // Line 0 points at nothing (EDG uses it for the command line); an overflow is no line either.
  if (error != std::errc() || stop != end || value == 0) return std::nullopt;
  return value - 1;
}

// nvcc's intermediate files (tmpxft_*: .ptx, .cudafe1.cpp, ...) and gcc's assembly (/tmp/ccXXXXXX.s)
// are deleted once the compile ends; a position in them helps nobody.
bool is_temporary(const fs::path& path) {
  const std::string name = path.filename().string();
  if (name.rfind("tmpxft_", 0) == 0) return true;
  return name.rfind("cc", 0) == 0 && path.extension() == ".s" && path.parent_path() == "/tmp";
}

// The function ptxas or nvlink is talking about, in whichever of their phrasings.
std::string entry_function_in(const std::string& text) {
  static const std::regex named(
      R"((?:[Ee]ntry function|in function|for entry|[Ff]unction properties for|for function)\s+'?([A-Za-z_$][\w$.]*)'?)");
  std::smatch m;
  return std::regex_search(text, m, named) ? m[1].str() : std::string();
}

// Builds the messages line by line. EDG and gcc spread one message over several lines, before
// and after its header, so the parser keeps where the last message is and what came before it.
class OutputParser {
 public:
  explicit OutputParser(const fs::path& working_directory) : working_directory_(working_directory) {}

  void line(std::string_view raw) {
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    const std::string text(raw);
    if (trim(text).empty()) {
      end_block();
      return;
    }
    if (is_summary(text)) {
      end_block();
      return;
    }
    if (tool_line(text) || edg_header(text) || gcc_include_chain(text) || gcc_header(text) ||
        gcc_unlocated(text) || gcc_scope(text) || gcc_located_context(text))
      return;
    if (text.front() == ' ' || text.front() == '\t') {
      indented(text);
      return;
    }
    end_block();  // a line of no known format: the block it would continue is over
  }

  std::vector<CompilerMessage> finish() {
    end_block();
    return std::move(messages_);
  }

 private:
  enum class Block { None, Edg, Other };

  // A context line gcc prints before the message it belongs to.
  struct PendingContext {
    CompilerMessage message;
    bool include = false;  // "In file included from": its text is filled in once the header is known
  };

  fs::path resolve(const std::string& text) const {
    if (text.empty()) return {};
    fs::path path(text);
    if (is_temporary(path)) return {};
    if (path.is_relative() && !working_directory_.empty()) path = working_directory_ / path;
    return path.lexically_normal();
  }

  static bool is_summary(const std::string& text) {
    static const std::regex summary(
        R"(^(\d+ (catastrophic )?errors? detected in the compilation of .*|Remark: The warnings can be suppressed .*|[Cc]ompilation terminated\.|\S*(cc1plus|cc1): (all|some) warnings being treated as errors|\S+: Assembler messages:)$)");
    return std::regex_match(text, summary);
  }

  // ptxas, nvlink and nvcc's own lines: `ptxas error   : ...`, `ptxas a.ptx, line 4; error   : ...`.
  bool tool_line(const std::string& text) {
    static const std::regex tool(
        R"(^(ptxas|nvlink|nvcc)(?: (.+), line (\d+);)? (error|warning|fatal|info)\s*: ?(.*)$)");
    std::smatch m;
    if (!std::regex_match(text, m, tool)) return false;
    end_block();
    const std::string name = m[1], word = m[4];
    if (word == "info") return true;  // ptxas' resource report: resource_usage.h reads it
    CompilerMessage message;
    message.severity = severity_of(word);
    message.tool = name == "nvcc" && word == "fatal" ? "nvcc fatal" : name;
    message.text = m[5];
    // "Ptx assembly aborted due to errors" only repeats that ptxas failed, after it said why.
    if (word == "fatal" && message.text.find("aborted due to errors") != std::string::npos && has_error())
      return true;
    message.file = resolve(m[2]);
    if (!message.file.empty()) message.line = zero_based(m[3]);
    if (name != "nvcc") message.entry_function = entry_function_in(message.text);
    add(std::move(message), Block::Other);
    return true;
  }

  // `a.cu(12): error: ...`, `a.cu(7): warning #177-D: ...`, `a.cu(2): note #3326-D: ...`.
  bool edg_header(const std::string& text) {
    static const std::regex header(
        R"(^(.+?)\((\d+)\): (catastrophic error|internal error|command-line error|error|warning|remark|note)(?: #(\d+(?:-[A-Z])?))?: (.*)$)");
    std::smatch m;
    if (!std::regex_match(text, m, header)) return false;
    end_block();
    pending_.clear();  // gcc's context never precedes an EDG message
    CompilerMessage message;
    message.severity = severity_of(m[3]);
    message.tool = "nvcc";
    message.file = resolve(m[1]);
    message.line = zero_based(m[2]);
    message.code = m[4];
    message.text = m[5];
    if (m[3] == "note" && current_ && messages_[*current_].tool == "nvcc") {
      // EDG's notes (the candidates of an overload, say) follow the message they explain.
      messages_[*current_].context.push_back(std::move(message));
      tail_in_context_ = true;
      block_ = Block::Edg;
      return true;
    }
    add(std::move(message), Block::Edg);
    return true;
  }

  // `In file included from b.h:1,` then `                 from c.cu:1:`.
  bool gcc_include_chain(const std::string& text) {
    static const std::regex first(R"(^In file included from (.+?):(\d+)(?::\d+)?[,:]$)");
    static const std::regex more(R"(^\s+from (.+?):(\d+)(?::\d+)?[,:]$)");
    std::smatch m;
    const bool is_first = std::regex_match(text, m, first);
    if (!is_first && !(!pending_.empty() && pending_.back().include && std::regex_match(text, m, more)))
      return false;
    end_block();
    PendingContext context;
    context.include = true;
    context.message.severity = Severity::Information;
    context.message.tool = "host compiler";
    context.message.file = resolve(m[1]);
    context.message.line = zero_based(m[2]);
    pending_.push_back(std::move(context));
    return true;
  }

  // `a.cu:12:5: error: ...`, `a.cu:4:61: note: ...`, and GNU as' `a.s:30: Error: ...`.
  bool gcc_header(const std::string& text) {
    static const std::regex header(
        R"(^(\S.*?):(\d+):(?:(\d+):)? (fatal error|error|warning|note|sorry, unimplemented|Error|Warning): (.*)$)");
    std::smatch m;
    if (!std::regex_match(text, m, header)) return false;
    CompilerMessage message;
    message.severity = severity_of(m[4]);
    message.tool = "host compiler";
    message.file = resolve(m[1]);
    if (!message.file.empty()) {
      message.line = zero_based(m[2]);
      if (m[3].matched && message.line) message.column = zero_based(m[3]);
    }
    message.text = m[5];
    gcc_message(std::move(message), m[4] == "note");
    return true;
  }

  // `cc1plus: error: ...`, `gcc: fatal error: ...`: the compiler speaking of itself.
  bool gcc_unlocated(const std::string& text) {
    static const std::regex unlocated(
        R"(^(?:\S*/)?(?:cc1plus|cc1|gcc|g\+\+|c\+\+|collect2|ld|as)(?:-\d+)?: (fatal error|error|warning|note): (.*)$)");
    std::smatch m;
    if (!std::regex_match(text, m, unlocated)) return false;
    CompilerMessage message;
    message.severity = severity_of(m[1]);
    message.tool = "host compiler";
    message.text = m[2];
    gcc_message(std::move(message), m[1] == "note");
    return true;
  }

  // `a.cu: In function 'int main()':`, `a.cu: At global scope:`.
  bool gcc_scope(const std::string& text) {
    static const std::regex scope(R"(^(\S.*?): (In .+|At global scope|At top level):$)");
    std::smatch m;
    if (!std::regex_match(text, m, scope)) return false;
    end_block();
    PendingContext context;
    context.message.severity = Severity::Information;
    context.message.tool = "host compiler";
    context.message.file = resolve(m[1]);
    context.message.text = m[2];
    pending_.push_back(std::move(context));
    return true;
  }

  // `a.cu:7:4:   required from here`: a step of gcc's instantiation chain, before its error.
  bool gcc_located_context(const std::string& text) {
    static const std::regex located(R"(^(\S.*?):(\d+):(\d+):   (\S.*)$)");
    std::smatch m;
    if (!std::regex_match(text, m, located)) return false;
    end_block();
    PendingContext context;
    context.message.severity = Severity::Information;
    context.message.tool = "host compiler";
    context.message.file = resolve(m[1]);
    context.message.line = zero_based(m[2]);
    if (context.message.line) context.message.column = zero_based(m[3]);
    context.message.text = m[4];
    pending_.push_back(std::move(context));
    return true;
  }

  void indented(const std::string& text) {
    static const std::regex gcc_source(R"(^\s*(\d+|\+\+\+)?\s*\|.*$)");
    static const std::regex caret(R"(^\s*\^\s*$)");
    if (block_ != Block::Edg) return;  // gcc's source lines and ptxas' report lines
    if (std::regex_match(text, gcc_source)) return;
    if (std::regex_match(text, caret)) {
      // EDG echoes the source line above its caret; neither is part of the message.
      if (!tail_.empty()) tail_.pop_back();
      return;
    }
    const std::string line(trim(text));
    if (line == "detected during:") {
      flush_tail();
      detected_during_ = true;
      return;
    }
    if (line.rfind("detected during ", 0) == 0) {
      flush_tail();
      instantiation(line.substr(std::string_view("detected during ").size()));
      return;
    }
    if (detected_during_) {
      instantiation(line);
      return;
    }
    tail_.push_back(line);
  }

  // `instantiation of "T twice(T) [with T=float]" at line 4 of a.cu`; without `of FILE` the line
  // is in the message's own file.
  void instantiation(const std::string& line) {
    static const std::regex step(R"(^(.*) at line (\d+)(?: of (.+))?$)");
    std::smatch m;
    if (!current_ || !std::regex_match(line, m, step)) return;
    CompilerMessage& owner = messages_[*current_];
    CompilerMessage context;
    context.severity = Severity::Information;
    context.tool = owner.tool;
    context.file = m[3].matched ? resolve(m[3]) : owner.file;
    context.line = zero_based(m[2]);
    context.text = m[1];
    owner.context.push_back(std::move(context));
  }

  void gcc_message(CompilerMessage message, bool is_note) {
    end_block();
    if (is_note && current_) {
      CompilerMessage& owner = messages_[*current_];
      attach_pending(owner, owner.file);
      owner.context.push_back(std::move(message));
      return;
    }
    attach_pending(message, message.file);
    add(std::move(message), Block::Other);
  }

  void attach_pending(CompilerMessage& owner, const fs::path& file) {
    fs::path included = file;
    for (PendingContext& context : pending_) {
      if (context.include) {
        context.message.text = included.empty() ? std::string("included here")
                                                : included.filename().string() + " is included here";
        included = context.message.file;
      }
      owner.context.push_back(std::move(context.message));
    }
    pending_.clear();
  }

  void add(CompilerMessage message, Block block) {
    messages_.push_back(std::move(message));
    current_ = messages_.size() - 1;
    block_ = block;
    tail_in_context_ = false;
  }

  // EDG lines that continue the last message or note ("argument types are: (...)").
  void flush_tail() {
    if (current_ && !tail_.empty()) {
      CompilerMessage& owner = messages_[*current_];
      CompilerMessage& target = tail_in_context_ && !owner.context.empty() ? owner.context.back() : owner;
      for (const std::string& line : tail_) target.text += "; " + line;
    }
    tail_.clear();
  }

  void end_block() {
    flush_tail();
    block_ = Block::None;
    detected_during_ = false;
  }

  bool has_error() const {
    return std::any_of(messages_.begin(), messages_.end(),
                       [](const CompilerMessage& m) { return m.severity == Severity::Error; });
  }

  fs::path working_directory_;
  std::vector<CompilerMessage> messages_;
  std::optional<size_t> current_;  // the message later context lines belong to
  Block block_ = Block::None;
  std::vector<std::string> tail_;  // EDG's indented lines since its header: continuation or source
  bool tail_in_context_ = false;   // the tail continues the current message's last note
  bool detected_during_ = false;   // inside EDG's "detected during:" list
  std::vector<PendingContext> pending_;
};

// "sm_90a" for "9.0a"; the text itself when it is not a capability.
std::string target_name(const std::string& capability) {
  auto parsed = analyzers::parse_capability(capability);
  return parsed ? parsed->sm_name() : capability;
}

// Lowest capability first; what does not parse goes last, by its text.
bool target_before(const std::string& a, const std::string& b) {
  auto pa = analyzers::parse_capability(a), pb = analyzers::parse_capability(b);
  if (pa && pb) return *pa < *pb;
  if (pa || pb) return pa.has_value();
  return a < b;
}

analyzers::Location message_location(const CompilerMessage& message, const UnitMessages& unit,
                                     const KernelLocator& locate_kernel) {
  analyzers::Location location;
  if (!message.file.empty()) {
    location.file = message.file.string();
    location.range.start = {message.line.value_or(0), message.column.value_or(0)};
    location.range.end = location.range.start;
    return location;
  }
  if (!message.entry_function.empty() && locate_kernel)
    if (auto kernel = locate_kernel(message.entry_function)) return *kernel;
  location.file = unit.source.string();
  return location;
}

analyzers::RelatedNote context_note(const CompilerMessage& context, const analyzers::Location& finding) {
  analyzers::RelatedNote note;
  note.message = context.text;
  if (context.file.empty() || !context.line) {
    note.location = finding;  // "In function ...": about the finding's own place
    return note;
  }
  note.location.file = context.file.string();
  note.location.range.start = {*context.line, context.column.value_or(0)};
  note.location.range.end = note.location.range.start;
  return note;
}

}  // namespace

std::vector<CompilerMessage> parse_compiler_output(std::string_view output,
                                                   const fs::path& working_directory) {
  OutputParser parser(working_directory);
  while (!output.empty()) {
    const size_t end = output.find('\n');
    parser.line(output.substr(0, end));
    if (end == std::string_view::npos) break;
    output.remove_prefix(end + 1);
  }
  return parser.finish();
}

std::vector<analyzers::Finding> compiler_findings(const std::vector<UnitMessages>& units,
                                                  const KernelLocator& locate_kernel) {
  struct Merged {
    analyzers::Finding finding;
    std::string text;
    std::string code;
    std::vector<std::string> capabilities;
  };
  using Key = std::tuple<std::string, uint32_t, uint32_t, Severity, std::string>;
  std::map<Key, size_t> index;
  std::vector<Merged> merged;
  for (const UnitMessages& unit : units) {
    for (const CompilerMessage& message : unit.messages) {
      const analyzers::Location location = message_location(message, unit, locate_kernel);
      const Key key{location.file, location.range.start.line, location.range.start.column, message.severity,
                    message.text};
      auto [it, inserted] = index.try_emplace(key, merged.size());
      if (inserted) {
        Merged entry;
        entry.finding.rule_id = message.tool == "ptxas" ? "ptxas" : "nvcc";
        entry.finding.severity = message.severity;
        entry.finding.location = location;
        entry.text = message.text;
        entry.code = message.code;
        merged.push_back(std::move(entry));
      }
      Merged& entry = merged[it->second];
      if (!unit.capability.empty()) entry.capabilities.push_back(unit.capability);
      // Instantiation chains and notes may differ between targets; keep each one once.
      for (const CompilerMessage& context : message.context) {
        analyzers::RelatedNote note = context_note(context, location);
        const bool known = std::any_of(entry.finding.notes.begin(), entry.finding.notes.end(),
                                       [&](const analyzers::RelatedNote& n) {
                                         return n.location == note.location && n.message == note.message;
                                       });
        if (!known) entry.finding.notes.push_back(std::move(note));
      }
    }
  }

  std::vector<analyzers::Finding> findings;
  findings.reserve(merged.size());
  for (Merged& entry : merged) {
    std::vector<std::string> targets;
    std::sort(entry.capabilities.begin(), entry.capabilities.end(), target_before);
    for (const std::string& capability : entry.capabilities) {
      std::string name = target_name(capability);
      if (std::find(targets.begin(), targets.end(), name) == targets.end())
        targets.push_back(std::move(name));
    }
    std::string message = entry.text;
    if (!entry.code.empty()) message += " [#" + entry.code + "]";
    if (!targets.empty()) {
      message += " (";
      for (size_t i = 0; i < targets.size(); ++i) message += (i ? ", " : "") + targets[i];
      message += ")";
    }
    entry.finding.message = std::move(message);
    findings.push_back(std::move(entry.finding));
  }
  return findings;
}

}  // namespace kl::runner
