#include "analyzers/project/builder_defaults.h"

#include <utility>

#include "support/toml_document.h"

namespace kl::data {
std::string_view embedded_builder_defaults_toml();
}

namespace kl::analyzers {
namespace {

// A [compile] key that must be a non-empty array of strings.
Result<std::vector<std::string>> string_list(const toml::table& compile, const char* key, const std::string& source) {
  const toml::array* items = compile.get_as<toml::array>(key);
  if (!items || items->empty()) return make_error(source + ": [compile] needs a non-empty `" + key + "` list");
  std::vector<std::string> out;
  for (const toml::node& item : *items) {
    auto text = item.value<std::string>();
    if (!text || text->empty()) return make_error(source + ": [compile] `" + key + "` holds a non-string");
    out.push_back(*text);
  }
  return out;
}

}  // namespace

Result<BuilderDefaults> BuilderDefaults::parse(std::string_view toml_text, const std::string& source_name) {
  auto document = parse_toml_document(toml_text, source_name);
  if (!document) return document.error();
  const toml::array* entries = (*document)["cuda-capabilities"].as_array();
  if (!entries || entries->empty()) return make_error(source_name + ": no [[cuda-capabilities]] entries");
  BuilderDefaults defaults;
  for (const toml::node& node : *entries) {
    const toml::table* entry = node.as_table();
    if (!entry) return make_error(source_name + ": `cuda-capabilities` must be an array of tables");
    const uint32_t line = entry->source().begin.line ? entry->source().begin.line - 1 : 0;
    CudaDefaults cuda;
    if (const toml::node* min_cuda = entry->get("min-cuda")) {
      auto version = min_cuda->value<std::string>();
      cuda.min_cuda = version ? parse_major_minor(*version) : std::nullopt;
      if (!cuda.min_cuda)
        return make_error_at("`min-cuda` must be a \"major.minor\" string", source_name, line, 0);
      if (!defaults.cuda_.empty() && !defaults.cuda_.back().min_cuda)
        return make_error_at("only the last entry may leave out `min-cuda`", source_name, line, 0);
      if (!defaults.cuda_.empty() && *defaults.cuda_.back().min_cuda <= *cuda.min_cuda)
        return make_error_at("entries must go from the newest `min-cuda` down", source_name, line, 0);
    }
    const toml::array* capabilities = entry->get_as<toml::array>("capabilities");
    if (!capabilities || capabilities->empty())
      return make_error_at("entry without `capabilities`", source_name, line, 0);
    for (const toml::node& item : *capabilities) {
      auto text = item.value<std::string>();
      auto capability = text ? parse_capability(*text) : std::nullopt;
      if (!capability) return make_error_at("a capability that does not parse", source_name, line, 0);
      cuda.capabilities.push_back(*capability);
    }
    defaults.cuda_.push_back(std::move(cuda));
  }
  if (defaults.cuda_.back().min_cuda)
    return make_error(source_name + ": the last entry must leave out `min-cuda` (every older toolkit)");
  const toml::table* compile = (*document)["compile"].as_table();
  if (!compile) return make_error(source_name + ": no [compile] table");
  auto defines = string_list(*compile, "defines", source_name);
  if (!defines) return defines.error();
  auto torch_flags = string_list(*compile, "torch-nvcc-flags", source_name);
  if (!torch_flags) return torch_flags.error();
  auto stable_define = (*compile)["stable-abi-define"].value<std::string>();
  if (!stable_define || stable_define->empty())
    return make_error(source_name + ": [compile] needs `stable-abi-define`");
  defaults.defines_ = std::move(*defines);
  defaults.torch_nvcc_flags_ = std::move(*torch_flags);
  defaults.stable_abi_define_ = std::move(*stable_define);
  return defaults;
}

const BuilderDefaults& BuilderDefaults::builtin() {
  static const BuilderDefaults defaults = load_builtin_table<BuilderDefaults>(
      {kl::data::embedded_builder_defaults_toml(), "builder_defaults.toml",
       "KERNEL_LSP_BUILDER_DEFAULTS_TOML", "builder defaults table"},
      &BuilderDefaults::parse);
  return defaults;
}

const std::vector<Capability>& BuilderDefaults::cuda_capabilities(int cuda_major, int cuda_minor) const {
  for (const CudaDefaults& entry : cuda_)
    if (!entry.min_cuda || MajorMinor{cuda_major, cuda_minor} >= *entry.min_cuda) return entry.capabilities;
  return cuda_.back().capabilities;  // parse() guarantees the last entry has no minimum
}

}  // namespace kl::analyzers
