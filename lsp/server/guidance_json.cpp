#include "lsp/server/guidance_json.h"

#include "lsp/features/guidance_at.h"
#include "lsp/protocol/params.h"
#include "lsp/server/uri.h"

namespace kl::lsp {
namespace {

json to_json(const std::optional<guidance::Guidance>& guidance) {
  if (!guidance) return nullptr;
  return {{"title", guidance->title},        {"markdown", guidance->markdown},
          {"file", guidance->file.string()}, {"uri", path_to_uri(guidance->file)},
          {"line", guidance->line},          {"skill", guidance->skill}};
}

std::string optional_text(const json& params, std::string_view key) {
  const json* value = optional_field(params, key);
  if (!value) return {};
  if (!value->is_string()) throw_invalid_params(std::string(key) + " must be a string");
  return value->get<std::string>();
}

}  // namespace

json guidance_request(const json& params, KernelServer& kernel, PositionEncoding encoding) {
  if (!params.is_object()) throw_invalid_params("kernel-lsp/guidance expects an object");
  guidance::GuidanceQuery query{optional_text(params, "ruleId"), optional_text(params, "construct"),
                                optional_text(params, "topic")};
  std::shared_ptr<const guidance::SkillGuidance> guidance = kernel.guidance();
  if (auto found = guidance->lookup(query)) return to_json(found);

  const json* position = optional_field(params, "position");
  std::string uri = optional_text(params, "uri");
  if (!position || uri.empty()) return nullptr;
  std::optional<std::filesystem::path> path = uri_to_path(uri);
  std::shared_ptr<const std::string> text = path ? kernel.text_of(*path) : nullptr;
  if (!text) return nullptr;
  analyzers::Position at = PositionConverter(*text, encoding).from_lsp(*position);
  auto found = guidance_at(*guidance, *text, at, construct_scope(*path));
  return found ? to_json(found->guidance) : json(nullptr);
}

json guidance_command(const json& arguments, KernelServer& kernel, PositionEncoding encoding) {
  if (arguments.is_array() && !arguments.empty()) return guidance_request(arguments[0], kernel, encoding);
  return guidance_request(json::object(), kernel, encoding);
}

}  // namespace kl::lsp
