#pragma once
// TOML documents read with toml++, in the two ways kernel-lsp reads them:
// - parse_toml_document: text -> toml::table, a syntax error becoming an Error at toml++'s
//   position (build.toml, snippet files, constructs.toml, the data tables);
// - load_builtin_table: a table of facts built into the binary (cmake/EmbedFile.cmake), which an
//   environment variable may replace with a file for experiments, and which must parse: a broken
//   built-in table stops the program at start-up with a message, never half-works.
// Both are safe from any thread; neither keeps state.
#include <toml++/toml.h>

#include <string>
#include <string_view>
#include <utility>

#include "support/result.h"

namespace kl {

// toml::parse(text, source_name). On a syntax error (toml::parse_error), an Error whose message
// is toml++'s description and whose location is `source_name`, toml++'s line - 1 and toml++'s
// column - 1. That column counts code points, as toml++ does, not UTF-8 bytes as ErrorLocation
// usually does: the data-table messages have always shown it so; a caller that needs bytes turns
// it back into toml++'s position (line + 1, column + 1) and converts (build.toml does, with
// TomlRangeMapper). toml++ numbers every error position from line 1; a position of line 0 would be
// reported at 0:0. Other exceptions (std::bad_alloc on an absurd input) are not caught.
Result<toml::table> parse_toml_document(std::string_view text, std::string_view source_name);

// One table of facts the binary carries.
struct BuiltinTable {
  std::string_view embedded_text;  // the data file as embedded at build time
  std::string_view file_name;      // how messages name the embedded copy: "archs.toml"
  const char* override_variable;   // names a file that replaces the embedded copy when set
  std::string_view description;    // for the start-up message: "architecture table"
};

struct BuiltinTableText {
  std::string text;
  std::string name;  // `file_name`, or the override file's path
};

// The override file when the variable is set, not empty and names a readable file; otherwise the
// embedded copy (an unreadable override is passed over silently, as it always was).
BuiltinTableText builtin_table_text(const BuiltinTable& table);

// Prints "kernel-lsp: broken <description>: <error>" to stderr and aborts.
[[noreturn]] void abort_on_broken_table(const BuiltinTable& table, const Error& error);

// The built-in table, parsed by `parse(text, name)` (a Result<Table>). Call it once, from a
// function-local static of the table's `builtin()`; the unit tests keep the embedded copy sound.
template <typename Table, typename Parse>
Table load_builtin_table(const BuiltinTable& table, Parse&& parse) {
  BuiltinTableText source = builtin_table_text(table);
  Result<Table> parsed = std::forward<Parse>(parse)(source.text, source.name);
  if (!parsed) abort_on_broken_table(table, parsed.error());
  return std::move(parsed.value());
}

}  // namespace kl
