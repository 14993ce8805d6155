#include "analyzers/model/facts_builder.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <regex>

#include "analyzers/data/feature_table.h"
#include "analyzers/frontend/device_parser.h"
#include "analyzers/model/access_collector.h"
#include "analyzers/model/feature_collector.h"
#include "analyzers/model/kernel_inventory.h"
#include "support/crash_stage.h"

namespace kl::analyzers {

void build_unit_facts(clang::ASTContext& context, const SourceView& view, const FeatureTable& features,
                      const ModelOptions& options, UnitFacts& facts) {
  {
    CrashStage stage("the feature collector");
    facts.feature_uses = collect_feature_uses(context, view, features);
  }
  CrashStage stage("the kernel inventory");
  KernelInventory inventory = collect_kernel_inventory(context, view);
  facts.kernels = std::move(inventory.kernels);
  facts.launches = std::move(inventory.launches);
  facts.shared_opt_ins = std::move(inventory.shared_opt_ins);
  // KERNEL_LSP_DISABLE_ACCESS_MODEL=1 turns the access model off (for measuring its cost).
  static const bool disabled = [] {
    const char* v = std::getenv("KERNEL_LSP_DISABLE_ACCESS_MODEL");
    return v && *v && std::string(v) != "0";
  }();
  if (options.access_model && !disabled) {
    auto started = std::chrono::steady_clock::now();
    CrashStage access_stage("the access model");
    collect_memory_accesses(context, view, options, facts);
    // KERNEL_LSP_TIME_ACCESS_MODEL=1: the model's own time on stderr (bench/model/run_bench.sh).
    static const bool timed = std::getenv("KERNEL_LSP_TIME_ACCESS_MODEL") != nullptr;
    if (timed) {
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
      std::fprintf(stderr, "access model: %.1f ms, %zu accesses\n", ms, facts.accesses.size());
    }
  }
}

void add_preprocessor_facts(const ParseOutcome& outcome, const FeatureTable& features, UnitFacts& facts) {
  for (const auto& [name, location] : outcome.watched_macro_uses) {
    for (const Feature* feature : features.match_macro(name)) facts.feature_uses.push_back({feature->id, name, location, ""});
  }
  static const std::regex undeclared(R"(use of undeclared identifier '([A-Za-z_][A-Za-z0-9_:]*)')");
  for (const auto& error : outcome.errors) {
    std::smatch m;
    if (!std::regex_search(error.message, m, undeclared)) continue;
    std::string name = m[1];
    for (const Feature* feature : features.match_function(name, "")) {
      Location location = error.location;
      location.range.end = location.range.start;
      location.range.end.column += static_cast<uint32_t>(name.size());
      facts.feature_uses.push_back({feature->id, name, location, ""});
    }
  }
}

}  // namespace kl::analyzers
