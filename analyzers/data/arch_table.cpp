#include "analyzers/data/arch_table.h"

#include <toml++/toml.h>

#include "support/toml_document.h"

namespace kl::data {
std::string_view embedded_archs_toml();
}

namespace kl::analyzers {

Result<ArchTable> ArchTable::parse(std::string_view toml_text, const std::string& source_name) {
  auto document = parse_toml_document(toml_text, source_name);
  if (!document) return document.error();
  const toml::table& root = *document;
  ArchTable table;
  const toml::array* archs = root["arch"].as_array();
  if (!archs) return make_error(source_name + ": no [[arch]] entries");
  for (const auto& node : *archs) {
    const toml::table* t = node.as_table();
    if (!t) continue;
    auto line = t->source().begin.line;
    auto cap_text = (*t)["capability"].value<std::string>();
    auto cap = cap_text ? parse_capability(*cap_text) : std::nullopt;
    if (!cap) return make_error_at("arch entry without a valid `capability`", source_name, line - 1, 0);
    ArchLimits limits;
    limits.capability = *cap;
    limits.known_gpus = (*t)["known_gpus"].value_or(std::string());
    limits.static_smem_per_block = (*t)["static_smem_per_block"].value_or<int64_t>(49152);
    limits.max_dynamic_smem_per_block = (*t)["max_dynamic_smem_per_block"].value_or<int64_t>(49152);
    limits.smem_per_sm = (*t)["smem_per_sm"].value_or<int64_t>(0);
    limits.max_threads_per_block = static_cast<uint32_t>((*t)["max_threads_per_block"].value_or<int64_t>(1024));
    limits.max_threads_per_sm = static_cast<uint32_t>((*t)["max_threads_per_sm"].value_or<int64_t>(2048));
    if (auto v = (*t)["l2_bytes"].value<int64_t>()) limits.l2_bytes = static_cast<uint64_t>(*v);
    if (auto v = (*t)["dram_gb_per_s"].value<int64_t>()) limits.dram_gb_per_s = static_cast<uint32_t>(*v);
    table.archs_.push_back(std::move(limits));
  }
  return table;
}

const ArchTable& ArchTable::builtin() {
  static const ArchTable table = load_builtin_table<ArchTable>(
      {kl::data::embedded_archs_toml(), "archs.toml", "KERNEL_LSP_ARCHS_TOML", "architecture table"},
      &ArchTable::parse);
  return table;
}

const ArchLimits* ArchTable::find(const Capability& capability) const {
  for (const auto& arch : archs_)
    if (arch.capability.major == capability.major && arch.capability.minor == capability.minor)
      return &arch;
  return nullptr;
}

}  // namespace kl::analyzers
