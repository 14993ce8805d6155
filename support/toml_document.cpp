#include "support/toml_document.h"

#include <cstdio>
#include <cstdlib>

#include "support/fs_paths.h"

namespace kl {

Result<toml::table> parse_toml_document(std::string_view text, std::string_view source_name) {
  try {
    return toml::parse(text, source_name);
  } catch (const toml::parse_error& e) {
    const toml::source_position& begin = e.source().begin;
    return make_error_at(std::string(e.description()), std::string(source_name),
                         begin.line ? begin.line - 1 : 0, begin.column ? begin.column - 1 : 0);
  }
}

BuiltinTableText builtin_table_text(const BuiltinTable& table) {
  BuiltinTableText source{std::string(table.embedded_text), std::string(table.file_name)};
  if (const char* path = std::getenv(table.override_variable); path && *path) {
    if (auto file = read_file_text(path)) {
      source.text = std::move(*file);
      source.name = path;
    }
  }
  return source;
}

void abort_on_broken_table(const BuiltinTable& table, const Error& error) {
  std::fprintf(stderr, "kernel-lsp: broken %.*s: %s\n", static_cast<int>(table.description.size()),
               table.description.data(), error.describe().c_str());
  std::abort();
}

}  // namespace kl
