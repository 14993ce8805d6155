#include "lsp/server/file_status_json.h"

#include <spdlog/spdlog.h>

#include "analyzers/project/project_locator.h"
#include "lsp/protocol/params.h"
#include "lsp/server/uri.h"
#include "runner/utc_time.h"

namespace kl::lsp {
namespace fs = std::filesystem;
namespace {

json last_build_json(const BuildController& builds, const fs::path& project) {
  std::shared_ptr<const BuildSnapshot> build = builds.latest_build(project);
  if (!build) return nullptr;
  json changed = json::array();
  for (const auto& file : builds.changed_since(*build)) changed.push_back(path_to_uri(file));
  return {{"finishedAt", runner::utc_timestamp(build->report.finished)},
          {"ok", build->report.ok},
          {"cancelled", build->report.cancelled},
          {"failedCompiles", runner::failed_compiles(build->report)},
          {"changedSince", std::move(changed)}};
}

// Everything but the capabilities: no analysis needed.
json project_status(const fs::path& file, const BuildController& builds) {
  json status = {{"uri", path_to_uri(file)}, {"project", nullptr},         {"buildToml", nullptr},
                 {"capabilities", nullptr},  {"capabilitiesFrom", nullptr}, {"lastBuild", nullptr}};
  std::optional<fs::path> toml = analyzers::find_build_toml(file);
  if (!toml) return status;
  status["project"] = path_to_uri(toml->parent_path());
  status["buildToml"] = path_to_uri(*toml);
  status["lastBuild"] = last_build_json(builds, toml->parent_path());
  return status;
}

std::string origin_text(const analyzers::ArchSelection& archs) {
  std::string origin = archs.origin;
  if (archs.origin_location)
    origin += (origin.empty() ? "" : " ") + std::string("line ") +
              std::to_string(archs.origin_location->range.start.line + 1);
  return origin;
}

}  // namespace

void file_status_request(const json& params, const Reply& reply, KernelServer& kernel,
                         const BuildController& builds) {
  if (!params.is_object()) throw_invalid_params("kernel-lsp/fileStatus expects an object");
  std::string uri = string_field(required_field(params, "textDocument"), "uri");
  std::optional<fs::path> path = uri_to_path(uri);
  if (!path) throw_invalid_params("not a file URI: " + uri);
  std::optional<Document> document = kernel.document(*path);
  if (!document || document->kind != DocumentKind::Source) {
    reply.result(project_status(*path, builds));
    return;
  }
  fs::path file = *path;
  kernel.with_analysis(file, [reply, file, &builds](ReadResult read) {
    try {
      switch (read.status) {
        case ReadStatus::ContentModified:
          reply.error(ErrorCode::ContentModified, "the document changed before the analysis finished");
          return;
        case ReadStatus::ShuttingDown:
          reply.error(ErrorCode::RequestCancelled, "the server is shutting down");
          return;
        case ReadStatus::Closed:
          reply.result(project_status(file, builds));
          return;
        case ReadStatus::Ready:
        case ReadStatus::Failed:
          break;
      }
      json status = project_status(file, builds);
      const analyzers::ArchSelection& archs = read.outcome->analysis.archs;
      json capabilities = json::array();
      for (const auto& capability : archs.archs) capabilities.push_back(capability.text());
      status["capabilities"] = std::move(capabilities);
      status["capabilitiesFrom"] = origin_text(archs);
      reply.result(std::move(status));
    } catch (const std::exception& e) {
      spdlog::error("kernel-lsp/fileStatus failed: {}", e.what());
      reply.error(ErrorCode::InternalError, std::string("kernel-lsp/fileStatus failed: ") + e.what());
    }
  });
}

}  // namespace kl::lsp
