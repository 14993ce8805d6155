#include "lsp/server/hover_json.h"

namespace kl::lsp {

json to_lsp_hover(const std::optional<HoverResult>& hover, const PositionConverter& converter) {
  if (!hover) return nullptr;
  return json{{"contents", {{"kind", "markdown"}, {"value", hover->markdown}}},
              {"range", converter.to_lsp(hover->range)}};
}

}  // namespace kl::lsp
