#include "analyzers/data/arch_table.h"

#include <toml++/toml.h>

#include "support/toml_document.h"

namespace kl::data {
std::string_view embedded_archs_toml();
}

namespace kl::analyzers {
namespace {

Error entry_error(const std::string& message, const std::string& source_name, const toml::table& entry) {
  const uint32_t line = entry.source().begin.line;
  return make_error_at(message, source_name, line ? line - 1 : 0, 0);
}

// A "major.minor" toolkit version; nothing when absent, an error when it does not parse.
Result<std::optional<MajorMinor>> toolkit_version(const toml::table& entry, std::string_view key,
                                                  const std::string& source_name) {
  const toml::node* node = entry.get(key);
  if (!node) return std::optional<MajorMinor>();
  const auto* text = node->as_string();
  auto version = text ? parse_major_minor(text->get()) : std::nullopt;
  if (!version)
    return entry_error("`" + std::string(key) + "` must be a CUDA version such as \"12.8\"", source_name,
                       entry);
  return std::optional<MajorMinor>(*version);
}

Result<CudaHistory> read_history(const toml::table& entry, const std::string& source_name) {
  CudaHistory history;
  struct Field {
    std::string_view key;
    std::optional<MajorMinor> CudaHistory::* member;
  };
  for (const Field& field :
       {Field{"first_cuda", &CudaHistory::first_cuda}, Field{"last_cuda", &CudaHistory::last_cuda},
        Field{"arch_specific_cuda", &CudaHistory::arch_specific_cuda},
        Field{"family_cuda", &CudaHistory::family_cuda}}) {
    auto version = toolkit_version(entry, field.key, source_name);
    if (!version) return version.error();
    history.*field.member = *version;
  }
  if (auto renamed = entry["renamed_to"].value<std::string>()) {
    history.renamed_to = parse_capability(*renamed);
    if (!history.renamed_to) return entry_error("`renamed_to` must be a capability", source_name, entry);
    if (!history.last_cuda) return entry_error("a renamed capability needs `last_cuda`", source_name, entry);
  }
  if (history.first_cuda && history.last_cuda && *history.last_cuda < *history.first_cuda)
    return entry_error("`last_cuda` is older than `first_cuda`", source_name, entry);
  return history;
}

// The occupancy figures. Each must be positive: the occupancy calculation divides by them, and
// a zero would silently mean "unlimited" or "nothing fits".
std::optional<Error> read_occupancy_limits(const toml::table& t, const std::string& source_name,
                                           ArchLimits& limits) {
  struct Field {
    std::string_view key;
    uint32_t ArchLimits::* member;
  };
  for (const Field& field : {Field{"registers_per_sm", &ArchLimits::registers_per_sm},
                             Field{"registers_per_block", &ArchLimits::registers_per_block},
                             Field{"max_registers_per_thread", &ArchLimits::max_registers_per_thread},
                             Field{"register_allocation_unit", &ArchLimits::register_allocation_unit},
                             Field{"register_sub_partitions", &ArchLimits::register_sub_partitions},
                             Field{"max_blocks_per_sm", &ArchLimits::max_blocks_per_sm},
                             Field{"smem_allocation_unit", &ArchLimits::smem_allocation_unit}}) {
    const int64_t value = t[field.key].value_or<int64_t>(limits.*field.member);
    if (value <= 0 || value > UINT32_MAX)
      return entry_error("`" + std::string(field.key) + "` must be a positive number", source_name, t);
    limits.*field.member = static_cast<uint32_t>(value);
  }
  const int64_t reserved = t["reserved_smem_per_block"].value_or<int64_t>(limits.reserved_smem_per_block);
  if (reserved < 0 || reserved > UINT32_MAX)
    return entry_error("`reserved_smem_per_block` must be a number of bytes", source_name, t);
  limits.reserved_smem_per_block = static_cast<uint32_t>(reserved);
  if (limits.max_threads_per_sm < 32)
    return entry_error("`max_threads_per_sm` must hold at least one warp", source_name, t);
  return std::nullopt;
}

Result<ArchLimits> read_arch(const toml::table& t, const std::string& source_name) {
  auto cap_text = t["capability"].value<std::string>();
  auto cap = cap_text ? parse_capability(*cap_text) : std::nullopt;
  if (!cap) return entry_error("arch entry without a valid `capability`", source_name, t);
  ArchLimits limits;
  limits.capability = *cap;
  limits.known_gpus = t["known_gpus"].value_or(std::string());
  limits.static_smem_per_block = t["static_smem_per_block"].value_or<int64_t>(49152);
  limits.max_dynamic_smem_per_block = t["max_dynamic_smem_per_block"].value_or<int64_t>(49152);
  limits.smem_per_sm = t["smem_per_sm"].value_or<int64_t>(0);
  limits.max_threads_per_block = static_cast<uint32_t>(t["max_threads_per_block"].value_or<int64_t>(1024));
  limits.max_threads_per_sm = static_cast<uint32_t>(t["max_threads_per_sm"].value_or<int64_t>(2048));
  if (auto v = t["l2_bytes"].value<int64_t>()) limits.l2_bytes = static_cast<uint64_t>(*v);
  if (auto v = t["dram_gb_per_s"].value<int64_t>()) limits.dram_gb_per_s = static_cast<uint32_t>(*v);
  if (auto error = read_occupancy_limits(t, source_name, limits)) return *error;
  auto history = read_history(t, source_name);
  if (!history) return history.error();
  limits.history = std::move(*history);
  return limits;
}

bool same_major_minor(const Capability& a, const Capability& b) {
  return a.major == b.major && a.minor == b.minor;
}

}  // namespace

bool ArchLimits::has_variant(ArchVariant variant) const {
  if (variant == ArchVariant::Specific) return history.arch_specific_cuda.has_value();
  if (variant == ArchVariant::Family) return history.family_cuda.has_value();
  return true;
}

std::optional<MajorMinor> ArchLimits::first_cuda(ArchVariant variant) const {
  if (variant == ArchVariant::Specific) return history.arch_specific_cuda;
  if (variant == ArchVariant::Family) return history.family_cuda;
  return history.first_cuda;
}

std::string cuda_version_text(MajorMinor version) {
  return std::to_string(version.major) + "." + std::to_string(version.minor);
}

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
    auto limits = read_arch(*t, source_name);
    if (!limits) return limits.error();
    table.archs_.push_back(std::move(*limits));
  }
  for (const ArchLimits& arch : table.archs_)
    if (arch.history.renamed_to && !table.find(*arch.history.renamed_to))
      return make_error(source_name + ": " + arch.capability.text() + " is renamed to " +
                        arch.history.renamed_to->text() + ", which has no [[arch]] entry");
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
    if (same_major_minor(arch.capability, capability)) return &arch;
  return nullptr;
}

const ArchLimits* ArchTable::renamed_from(const Capability& capability) const {
  for (const auto& arch : archs_)
    if (arch.history.renamed_to && same_major_minor(*arch.history.renamed_to, capability)) return &arch;
  return nullptr;
}

const ArchLimits* ArchTable::first_with_variant(ArchVariant variant) const {
  const ArchLimits* first = nullptr;
  for (const auto& arch : archs_)
    if (arch.has_variant(variant) && (!first || arch.capability.number() < first->capability.number()))
      first = &arch;
  return first;
}

}  // namespace kl::analyzers
