#pragma once
// The schema of build.toml as data: the keys of each table, the values of `backends`, `backend`,
// `python-depends` and `depends`, the schemes of git URLs, and which format added or removed
// which key. Loaded from
// analyzers/data/build_toml_schema.toml (embedded at build time; a file named by
// $KERNEL_LSP_BUILD_TOML_SCHEMA_TOML replaces it), which says where each fact comes from upstream.
// The section readers (build_toml_sections.h) check files against it and list it in messages.
// Immutable after loading; share freely across threads. Lists keep the order of the data file.
// The views it hands out point into storage of its own that never moves: they stay valid as long
// as the schema (the built-in one: for the whole program).
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/result.h"

namespace kl::analyzers {

// A key that only the kernels of one backend have.
struct BackendKey {
  std::string_view key;
  std::string_view backend;
  std::string_view backend_title;  // as people write it in prose: "CUDA"
};

// A Python package kernel-builder provides for one backend only.
struct BackendPythonDependency {
  std::string_view backend;
  std::string_view package;
};

// A key that only one of the two readable formats has.
struct EditionKey {
  std::string_view path;  // the table in the schema: "general", "general.cuda", "torch", ...
  std::string_view key;
  int edition = 5;          // 5: edition 5 only; 4: the legacy v4 format only
  std::string_view advice;  // what to do in the other format
};

// A key of build.toml v3 and older, which no current format has.
struct PreV4Key {
  std::string_view path;  // as in EditionKey; "kernel" is every [kernel.<name>]
  std::string_view key;
  std::string_view advice;  // what to write instead
};

class BuildTomlSchema {
 public:
  // Checks that every key set the readers ask for is there (and no other), that the data
  // describes the edition the readers are written for, and that its lists hold what they should.
  static Result<BuildTomlSchema> parse(std::string_view toml_text, const std::string& source_name);
  // The built-in schema. Aborts at first use if the embedded data is broken (the unit tests rule
  // that out).
  static const BuildTomlSchema& builtin();

  // The keys of a table: "top-level", "general", "general.cuda", "general.hub", "general.xpu",
  // "general.neuron", "general.tpu", "kernel-depends" (one entry), "torch", "torch-noarch",
  // "tvm-ffi", and "kernel" (the keys of every kernel; see kernel_backend_keys). Empty for any
  // other name.
  std::span<const std::string_view> keys(std::string_view table) const;

  std::span<const std::string_view> general_backends() const { return general_backends_; }
  std::span<const std::string_view> kernel_backends() const { return kernel_backends_; }
  std::span<const BackendKey> kernel_backend_keys() const { return kernel_backend_keys_; }

  std::span<const std::string_view> general_python_depends() const { return general_python_depends_; }
  std::span<const BackendPythonDependency> backend_python_depends() const { return backend_python_depends_; }
  // The packages of one backend, in the order of the data.
  std::vector<std::string_view> python_depends_of(std::string_view backend) const;

  // Every `depends` value, in the order "did you mean" prefers them; no other is accepted.
  std::span<const std::string_view> dependencies() const { return dependencies_; }
  bool is_dependency(std::string_view text) const;

  // The schemes a git URL ([general] upstream, source) may have.
  std::span<const std::string_view> git_url_schemes() const { return git_url_schemes_; }

  // A key that only one format has (edition 4: the legacy format only), or null.
  const EditionKey* find_edition_key(std::string_view path, std::string_view key) const;
  // A key whose value may be a table only in edition 5 ([torch] stable-abi), or null.
  const EditionKey* find_edition_5_table_value(std::string_view path, std::string_view key) const;
  std::span<const PreV4Key> pre_v4_keys() const { return pre_v4_keys_; }
  const PreV4Key* find_pre_v4_key(std::string_view path, std::string_view key) const;
  // The `backend` a v3 `language` value became ("cuda-hipify" -> "rocm"); none for others.
  std::optional<std::string_view> backend_of_language(std::string_view language) const;
  // Words people write for a key or value that an edit distance would not find, each with
  // what it means ("dependencies" -> "depends"), in the data's order.
  std::span<const std::pair<std::string_view, std::string_view>> synonyms() const { return synonyms_; }

 private:
  struct KeySet {
    std::string_view table;
    std::vector<std::string_view> keys;
  };
  friend class BuildTomlSchemaReader;

  // Owns the text of every view above; a deque, so that adding words never moves earlier ones.
  std::unique_ptr<std::deque<std::string>> words_ = std::make_unique<std::deque<std::string>>();
  std::vector<KeySet> key_sets_;
  std::vector<std::string_view> general_backends_;
  std::vector<std::string_view> kernel_backends_;
  std::vector<BackendKey> kernel_backend_keys_;
  std::vector<std::string_view> general_python_depends_;
  std::vector<BackendPythonDependency> backend_python_depends_;
  std::vector<std::string_view> dependencies_;
  std::vector<std::string_view> git_url_schemes_;
  std::vector<EditionKey> edition_keys_;
  std::vector<EditionKey> edition_5_table_values_;
  std::vector<PreV4Key> pre_v4_keys_;
  std::vector<std::pair<std::string_view, std::string_view>> language_backends_;
  std::vector<std::pair<std::string_view, std::string_view>> synonyms_;
};

}  // namespace kl::analyzers
