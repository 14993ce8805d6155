#include "runner/build_report_json.h"

#include "analyzers/data/arch_table.h"
#include "runner/occupancy.h"
#include "runner/resource_usage.h"
#include "runner/utc_time.h"

namespace kl::runner {
using nlohmann::json;
namespace {

json occupancy_json(const std::string& capability, const KernelResources& kernel) {
  auto cap = analyzers::parse_capability(capability);
  const analyzers::ArchLimits* arch = cap ? analyzers::ArchTable::builtin().find(*cap) : nullptr;
  if (!arch) return nullptr;
  auto best = best_block_size(*arch, kernel.registers, kernel.shared_bytes, std::nullopt);
  if (!best) return nullptr;
  return {{"fraction", best->occupancy.fraction},
          {"threads", best->threads},
          {"threadsFrom", "best block size"},
          {"blocksPerSM", best->occupancy.blocks_per_sm},
          {"limitedBy", best->occupancy.limited_by}};
}

json finding_json(const analyzers::Finding& f) {
  return {{"file", f.location.file},
          {"line", f.location.range.start.line},
          {"column", f.location.range.start.column},
          {"severity", analyzers::severity_name(f.severity)},
          {"source", f.rule_id},
          {"message", f.message}};
}

}  // namespace

json build_report_json(const BuildReport& report, const std::vector<analyzers::Finding>& messages) {
  json units = json::array(), kernels = json::array(), problems = json::array(), diagnostics = json::array();
  for (const auto& problem : report.build_toml_problems) problems.push_back(finding_json(problem));
  for (const auto& unit : report.units) {
    units.push_back({{"source", unit.source.string()},
                     {"section", unit.kernel_section},
                     {"capability", unit.capability},
                     {"target", target_name(unit.capability)},
                     {"ok", unit.ok},
                     {"skipped", unit.skipped},
                     {"seconds", unit.seconds}});
    for (const auto& k : unit.kernels)
      kernels.push_back({{"name", kernel_base_name(k.name)},
                         {"demangled", k.name},
                         {"mangled", k.mangled_name},
                         {"source", unit.source.string()},
                         {"capability", unit.capability},
                         {"target", k.target},
                         {"registers", k.registers},
                         {"sharedBytes", k.shared_bytes},
                         {"stackBytes", k.stack_frame_bytes},
                         {"spillStoreBytes", k.spill_store_bytes},
                         {"spillLoadBytes", k.spill_load_bytes},
                         {"occupancy", occupancy_json(unit.capability, k)}});
  }
  for (const auto& d : messages) diagnostics.push_back(finding_json(d));
  return {{"project", report.project.string()},
          {"ok", report.ok},
          {"cancelled", report.cancelled},
          {"startedAt", utc_timestamp(report.started)},
          {"finishedAt", utc_timestamp(report.finished)},
          {"problems", problems},
          {"binding", report.binding_note},
          {"torch", report.torch_note},
          {"units", units},
          {"kernels", kernels},
          {"diagnostics", diagnostics}};
}

}  // namespace kl::runner
