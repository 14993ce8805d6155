#include "lsp/server/code_lenses.h"

#include "analyzers/project/project_locator.h"
#include "lsp/features/kernel_usage.h"
#include "lsp/protocol/params.h"
#include "lsp/server/position_encoding.h"
#include "lsp/server/uri.h"
#include "runner/project_build.h"
#include "runner/utc_time.h"

namespace kl::lsp {
namespace fs = std::filesystem;
namespace {

json command_lens(const analyzers::Range& range, const PositionConverter& converter, const std::string& title,
                  const std::string& command, const json& arguments) {
  json lens = {{"range", converter.to_lsp(range)}, {"command", {{"title", title}, {"command", command}}}};
  if (!arguments.is_null()) lens["command"]["arguments"] = arguments;
  return lens;
}

std::string clock_time(std::chrono::system_clock::time_point when) {
  return runner::format_utc(when, "%H:%M UTC");
}

}  // namespace

CodeLenses::CodeLenses(KernelServer& kernel, const ClientCapabilities& client, const BuildController& builds)
    : kernel_(kernel), client_(client), builds_(builds) {}

void CodeLenses::code_lens(const json& params, const Reply& reply) const {
  auto path = uri_to_path(string_field(required_field(params, "textDocument"), "uri"));
  std::optional<Document> document = path ? kernel_.document(*path) : std::nullopt;
  if (!document) {
    reply.result(json::array());
    return;
  }
  if (document->kind == DocumentKind::BuildToml) {
    reply.result(build_toml_lenses(*path, *document->text));
    return;
  }
  if (document->kind != DocumentKind::Source) {
    reply.result(json::array());
    return;
  }
  kernel_.with_analysis(*path, [this, reply, file = *path](ReadResult read) {
    try {
      if (read.status != ReadStatus::Ready && read.status != ReadStatus::Failed) {
        reply.result(json::array());
        return;
      }
      const analyzers::UnitFacts* facts =
          read.status == ReadStatus::Ready ? &read.outcome->analysis.facts : nullptr;
      reply.result(source_lenses(file, *read.outcome->job.text, facts));
    } catch (const std::exception& e) {
      reply.error(ErrorCode::InternalError, std::string("codeLens failed: ") + e.what());
    }
  });
}

json CodeLenses::source_lenses(const fs::path& file, const std::string& text,
                               const analyzers::UnitFacts* facts) const {
  json lenses = json::array();
  auto toml = analyzers::find_build_toml(file);
  if (!toml) return lenses;
  fs::path project = toml->parent_path();
  json args = json::array({{{"project", path_to_uri(project)}}});
  PositionConverter converter(text, client_.encoding.encoding);
  std::shared_ptr<const BuildSnapshot> snapshot = builds_.latest_build(project);
  std::string stale_line;
  if (snapshot) {
    auto stale = builds_.changed_since(*snapshot);
    if (!stale.empty())
      stale_line = "stale: " + stale.front().filename().string() +
                   (stale.size() > 1 ? " and " + std::to_string(stale.size() - 1) + " more" : "") +
                   " changed since the " + clock_time(snapshot->report.finished) + " build";
  }
  runner::BuildReport empty;
  for (const auto& usage : kernel_usage(text, facts, snapshot ? snapshot->report : empty)) {
    lenses.push_back(command_lens(usage.name_range, converter, "Build", kBuildCommand, args));
    lenses.push_back(command_lens(usage.name_range, converter, "Benchmark", kBenchCommand, args));
    if (usage.targets.empty()) continue;
    // One short lens per kernel: every target's numbers on one line do not fit beside Build and
    // Benchmark (editors cut the line); they are in its tooltip and its command's message.
    std::string title = usage_summary(usage.targets) + (stale_line.empty() ? "" : " · stale");
    std::string details = usage_details(usage.name, usage.targets);
    if (!stale_line.empty()) details += "\n" + stale_line;
    json lens = command_lens(usage.name_range, converter, title, kShowUsageCommand,
                             json::array({{{"kernel", usage.name}, {"title", title}, {"details", details}}}));
    lens["command"]["tooltip"] = details;  // LSP 3.18's Command.tooltip; older clients ignore it
    lenses.push_back(std::move(lens));
  }
  return lenses;
}

json CodeLenses::build_toml_lenses(const fs::path& file, const std::string& text) const {
  fs::path project = file.parent_path();
  json args = json::array({{{"project", path_to_uri(project)}}});
  PositionConverter converter(text, client_.encoding.encoding);
  analyzers::Range top{{0, 0}, {0, 0}};
  json lenses = json::array({command_lens(top, converter, "Build", kBuildCommand, args),
                             command_lens(top, converter, "Benchmark", kBenchCommand, args)});
  if (auto snapshot = builds_.latest_build(project)) {
    std::string summary = "last build " + clock_time(snapshot->report.finished) + ": " +
                          std::to_string(snapshot->report.units.size()) + " compiles, " +
                          std::to_string(runner::failed_compiles(snapshot->report)) + " failed";
    if (!builds_.changed_since(*snapshot).empty()) summary += " · sources changed since";
    lenses.push_back(command_lens(top, converter, summary, "", nullptr));
  }
  return lenses;
}

}  // namespace kl::lsp
