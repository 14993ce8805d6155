#pragma once
// Which source constructs the skill explains, and where: the table in snippets/constructs.toml
// (data, not code) maps identifiers (`__shfl_xor_sync`), other spellings (`cp.async`,
// `ops.def`, `reinterpret_cast<float4*>`) and build.toml keys to a section heading of the
// cuda-kernels skill. Hover asks "what is at this column of this line"; the guidance request
// and the CLI ask "what is this name". Immutable after loading; lookups are O(table × line).
#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "support/result.h"

namespace kl::guidance {

enum class ConstructScope { Cuda, Toml };

struct Construct {
  std::string id;
  std::vector<std::string> names;  // identifiers
  std::vector<std::string> keys;   // other lookup spellings
  std::vector<std::string> pattern_texts;
  std::vector<std::regex> patterns;
  ConstructScope scope = ConstructScope::Cuda;
  std::string heading;
  std::string file;  // preferred page, relative to the skill folder
};

struct ConstructHit {
  const Construct* construct = nullptr;
  size_t begin = 0;  // byte columns of the matched spelling in the line
  size_t end = 0;
};

class ConstructTable {
 public:
  static Result<ConstructTable> parse(std::string_view toml_text, const std::string& source_name);
  // snippets/constructs.toml from the resources (find_resource); an error when absent or bad.
  static Result<ConstructTable> load_bundled();
  // The bundled table, loaded once (empty when it cannot be read; the error is logged).
  static const ConstructTable& bundled();

  // The construct written at byte `column` of `line` (a cursor just after a word counts).
  std::optional<ConstructHit> match_at(std::string_view line, size_t column, ConstructScope scope) const;
  // By id, name or key (exact), else the first construct whose pattern matches `spelling`.
  const Construct* find(std::string_view spelling) const;
  const std::vector<Construct>& all() const { return constructs_; }

 private:
  std::vector<Construct> constructs_;
};

}  // namespace kl::guidance
