// parse_build_toml: TOML text -> BuildConfig + problems. toml++ parses; the section readers
// (build_toml_sections.h) check the schema of the edition the file is written in.
#include <toml++/toml.h>

#include <exception>
#include <optional>
#include <string>

#include "analyzers/project/build_config.h"
#include "analyzers/project/build_toml_editions.h"
#include "analyzers/project/build_toml_problems.h"
#include "analyzers/project/build_toml_ranges.h"
#include "analyzers/project/build_toml_schema.h"
#include "analyzers/project/build_toml_section.h"
#include "analyzers/project/build_toml_sections.h"
#include "support/toml_document.h"

namespace kl::analyzers {
namespace {

// 5 when [general] has `edition`, 3 when it uses keys of v3 or older, else the legacy v4.
int detect_format_version(const toml::table& root) {
  if (const toml::table* general = root["general"].as_table();
      general && general->contains("edition"))
    return kCurrentEdition;
  return has_pre_v4_keys(root) ? 3 : 4;
}

// One character at the error's position (none at the end of a line): where toml++ stopped.
Range syntax_error_range(const TomlRangeMapper& ranges, const Error& error) {
  // Back to toml++'s 1-based line and code-point column (support/toml_document.h).
  const toml::source_position position{error.location->line + 1, error.location->column + 1};
  Position start = ranges.position(position);
  Position end = start;
  if (start.column < ranges.end_of_line(start.line).column) {
    // Cover the whole UTF-8 sequence of the offending character.
    end.column = ranges.position({position.line, position.column + 1}).column;
  }
  return {start, end};
}

// The TOML document; nothing, with the one problem that says why, when it cannot be read.
std::optional<toml::table> read_document(std::string_view text, const std::string& file_name,
                                         const TomlRangeMapper& ranges,
                                         BuildTomlProblems& problems) {
  try {
    Result<toml::table> document = parse_toml_document(text, file_name);
    if (document) return std::move(*document);
    problems.error(syntax_error_range(ranges, document.error()),
                   "invalid TOML: " + document.error().message);
  } catch (const std::exception& error) {  // e.g. out of memory on an absurd file
    problems.error(Range{}, std::string("could not read build.toml: ") + error.what());
  }
  return std::nullopt;
}

std::filesystem::path absolute_or_given(const std::filesystem::path& file) {
  if (file.empty()) return file;
  std::error_code error;
  std::filesystem::path absolute = std::filesystem::absolute(file, error);
  return error ? file : absolute.lexically_normal();
}

bool is_blank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

}  // namespace

BuildConfigParse parse_build_toml(const std::filesystem::path& file, std::string_view text) {
  BuildConfigParse result;
  const std::string file_name = file.string();
  BuildTomlProblems problems(file_name);
  TomlRangeMapper ranges(text);

  std::optional<toml::table> document = read_document(text, file_name, ranges, problems);
  if (!document) {
    result.problems = problems.take_sorted();
    return result;
  }
  const toml::table& root = *document;

  if (is_blank(text)) {
    problems.error(Range{},
                   "build.toml is empty: it needs a [general] section (`name`, "
                   "`version`, `edition = 5`, `license`, `backends`) and a framework "
                   "section ([torch], [torch-noarch] or [tvm-ffi])");
    result.problems = problems.take_sorted();
    return result;
  }

  BuildConfig config;
  config.file = absolute_or_given(file);
  config.format_version = detect_format_version(root);
  BuildTomlContext context{ranges, problems, config.format_version};
  context.project_dir = config.file.parent_path();

  TomlSection top(root, "", "build.toml", Range{}, context);
  top.check_keys(BuildTomlSchema::builtin().keys("top-level"));
  const Range general_header = read_general_section(root, context, config.general);
  read_framework_section(root, context, general_header, config.framework);
  context.framework = config.framework.kind;
  read_kernel_sections(root, context, config.kernels);

  result.config = std::move(config);
  result.problems = problems.take_sorted();
  return result;
}

}  // namespace kl::analyzers
