#include "analyzers/project/build_toml_editions.h"

#include <array>

namespace kl::analyzers {
namespace {

constexpr std::string_view kMigrate =
    "; or run `kernel-builder update-build` to migrate this pre-v4 build.toml";

constexpr std::array<EditionKey, 14> kEditionKeys = {{
    {"general", "kernel-depends", 5, "add `edition = 5` to [general]"},
    {"general", "source", 5, "add `edition = 5` to [general]"},
    {"general", "minver", 5, "add `edition = 5` to [general]"},
    {"general", "tpu", 5, "add `edition = 5` to [general]"},
    {"general.cuda", "kernel-depends", 5, "add `edition = 5` to [general]"},
    {"general.xpu", "kernel-depends", 5, "add `edition = 5` to [general]"},
    {"general.neuron", "kernel-depends", 5, "add `edition = 5` to [general]"},
    {"torch", "cxx-flags", 5, "add `edition = 5` to [general]"},
    {"tvm-ffi", "cxx-flags", 5, "add `edition = 5` to [general]"},
    {"torch-noarch", "pyext", 5, "add `edition = 5` to [general]"},
    {"torch-noarch", "cuda_capabilities", 5, "add `edition = 5` to [general]"},
    {"torch-noarch", "rocm_archs", 5, "add `edition = 5` to [general]"},
    {"general", "rocm", 4, "list `rocm-archs` in each ROCm [kernel.<name>] section instead"},
    {"general.cuda", "capabilities", 4,
     "list `cuda-capabilities` in each CUDA [kernel.<name>] section instead"},
}};

std::string language_backend(std::string_view language) {
  if (language == "cuda") return "cuda";
  if (language == "cuda-hipify") return "rocm";
  if (language == "metal") return "metal";
  return "";
}

}  // namespace

std::optional<RemovedKeyAdvice> removed_key_advice(std::string_view path, std::string_view key,
                                                   const toml::node& value,
                                                   const toml::table& table) {
  if (path == "general" && key == "universal")
    return RemovedKeyAdvice{
        "`universal` was removed: list the backends in `backends = [...]` and use a "
        "[torch-noarch] section for a pure-Python kernel" +
            std::string(kMigrate),
        std::nullopt, ""};
  if (path == "general" && (key == "cuda-minver" || key == "cuda-maxver")) {
    std::string bound(key.substr(5));  // "minver" / "maxver"
    return RemovedKeyAdvice{"`" + std::string(key) + "` was removed: write `" + bound +
                                " = \"...\"` in a [general.cuda] section instead" +
                                std::string(kMigrate),
                            std::nullopt, ""};
  }
  if (path == "torch" && key == "universal") {
    const auto* flag = value.as_boolean();
    if (flag && !flag->get())
      return RemovedKeyAdvice{
          "`universal` was removed: delete `universal = false`" + std::string(kMigrate),
          std::string(), "Delete `universal = false`"};
    return RemovedKeyAdvice{
        "`universal` was removed: a pure-Python kernel uses a "
        "[torch-noarch] section instead of [torch] with `universal = true`" +
            std::string(kMigrate),
        std::nullopt, ""};
  }
  if (path == "kernel" && key == "language") {
    const auto* text = value.as_string();
    std::string backend = text ? language_backend(text->get()) : "";
    if (table.contains("backend"))
      return RemovedKeyAdvice{
          "`language` was removed: `backend` already says what this kernel "
          "is, delete `language`" +
              std::string(kMigrate),
          std::string(), "Delete `language`"};
    if (backend.empty())
      return RemovedKeyAdvice{
          "`language` was removed: use `backend = \"cuda\"` (or \"rocm\", "
          "\"metal\", \"cpu\", \"xpu\")" +
              std::string(kMigrate),
          std::nullopt, ""};
    std::string line = "backend = \"" + backend + "\"";
    return RemovedKeyAdvice{"`language` was removed: use `" + line + "`" + std::string(kMigrate),
                            line, "Replace with `" + line + "`"};
  }
  return std::nullopt;
}

bool has_pre_v4_keys(const toml::table& root) {
  auto has_key = [](const toml::node* table, std::string_view key) {
    return table && table->is_table() && table->as_table()->contains(key);
  };
  const toml::node* general = root.get("general");
  if (has_key(general, "universal") || has_key(general, "cuda-minver") ||
      has_key(general, "cuda-maxver"))
    return true;
  if (has_key(root.get("torch"), "universal")) return true;
  if (const toml::table* kernels = root["kernel"].as_table())
    for (auto&& [name, kernel] : *kernels)
      if (has_key(&kernel, "language")) return true;
  return false;
}

const EditionKey* find_edition_key(std::string_view path, std::string_view key) {
  for (const EditionKey& entry : kEditionKeys)
    if (entry.path == path && entry.key == key) return &entry;
  return nullptr;
}

bool edition_accepts(const EditionKey& key, int format_version) {
  return key.edition == 5 ? format_version >= 5 : format_version < 5;
}

std::string edition_key_message(const EditionKey& key) {
  if (key.edition == 5)
    return "`" + std::string(key.key) +
           "` needs edition 5, but this build.toml has no "
           "`edition` (legacy format v4): " +
           std::string(key.advice);
  return "`" + std::string(key.key) + "` was removed in edition 5: " + std::string(key.advice);
}

}  // namespace kl::analyzers
