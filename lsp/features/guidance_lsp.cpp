#include "lsp/features/guidance_lsp.h"

#include "lsp/features/completion_snippets.h"
#include "lsp/features/guidance_hover.h"
#include "lsp/protocol/params.h"
#include "lsp/server/converter_cache.h"
#include "lsp/server/diagnostics_json.h"
#include "lsp/server/feature_json.h"
#include "lsp/server/uri.h"
#include "guidance/skill_validation.h"
#include "guidance/snippet_catalog.h"

namespace kl::lsp {
namespace {

constexpr int kCompletionItemKindSnippet = 15;
constexpr int kInsertTextFormatPlain = 1;
constexpr int kInsertTextFormatSnippet = 2;

guidance::ConstructScope scope_of(const std::filesystem::path& file) {
  return is_build_toml(file) ? guidance::ConstructScope::Toml : guidance::ConstructScope::Cuda;
}

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
  auto found = guidance_at(*guidance, *text, at, scope_of(*path));
  return found ? to_json(found->guidance) : json(nullptr);
}

json guidance_command(const json& params, KernelServer& kernel, PositionEncoding encoding) {
  std::string command = string_field(params, "command");
  if (command != kGuidanceCommand) throw_invalid_params("unknown command `" + command + "`");
  const json* arguments = optional_field(params, "arguments");
  if (arguments && arguments->is_array() && !arguments->empty())
    return guidance_request((*arguments)[0], kernel, encoding);
  return guidance_request(json::object(), kernel, encoding);
}

json completion_request(const json& params, KernelServer& kernel, PositionEncoding encoding,
                        bool snippet_support) {
  json result = {{"isIncomplete", false}, {"items", json::array()}};
  const json& document_id = required_field(params, "textDocument");
  std::optional<std::filesystem::path> path = uri_to_path(string_field(document_id, "uri"));
  std::optional<Document> document = path ? kernel.document(*path) : std::nullopt;
  if (!document) return result;
  PositionConverter converter(*document->text, encoding);
  analyzers::Position position = converter.from_lsp(required_field(params, "position"));
  std::shared_ptr<const guidance::SkillGuidance> guidance = kernel.guidance();
  auto completions = snippet_completions(guidance::SnippetCatalog::bundled(), guidance.get(), *document->text, position,
                                         snippet_languages(document->kind, document->path));
  for (const auto& completion : completions) {
    const guidance::Snippet& snippet = *completion.snippet;
    json item = {{"label", snippet.prefix},
                 {"kind", kCompletionItemKindSnippet},
                 {"detail", snippet.name},
                 {"filterText", snippet.prefix},
                 {"sortText", snippet.prefix},
                 {"insertTextFormat", snippet_support ? kInsertTextFormatSnippet : kInsertTextFormatPlain},
                 {"textEdit",
                  {{"range", converter.to_lsp(completion.replace)},
                   {"newText", snippet_support ? snippet.body : snippet.expanded}}},
                 {"documentation", {{"kind", "markdown"}, {"value", completion.documentation}}}};
    result["items"].push_back(std::move(item));
  }
  return result;
}

bool client_snippet_support(const json& initialize_params) {
  const json* node = &initialize_params;
  for (std::string_view key :
       {"capabilities", "textDocument", "completion", "completionItem", "snippetSupport"}) {
    node = node->is_object() ? optional_field(*node, key) : nullptr;
    if (!node) return false;
  }
  return node->is_boolean() && node->get<bool>();
}

json build_toml_hover(const json& params, const Document& document, const guidance::SkillGuidance& guidance,
                      PositionEncoding encoding) {
  PositionConverter converter(*document.text, encoding);
  analyzers::Position position = converter.from_lsp(required_field(params, "position"));
  auto hover = with_guidance(std::nullopt, guidance, *document.text, position, guidance::ConstructScope::Toml);
  return hover ? to_lsp_hover(*hover, converter) : json(nullptr);
}

bool is_skill_file(const std::filesystem::path& file) { return file.filename() == "SKILL.md"; }

json skill_diagnostics(const std::filesystem::path& file, std::shared_ptr<const std::string> text,
                       const ClientCapabilities& client) {
  std::vector<analyzers::Finding> findings = guidance::validate_skill_text(*text, file);
  ConverterCache converters(client.encoding.encoding, [](const std::filesystem::path&) { return nullptr; });
  converters.add(file, std::move(text));
  return to_lsp_diagnostics(findings, file, converters, client);
}

}  // namespace kl::lsp
