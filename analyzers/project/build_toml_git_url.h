#pragma once
// Whether a [general] `upstream` or `source` is a git URL kernel-builder accepts: a URL whose
// scheme is one of the schema's git-url-schemes, or the SCP-like `user@host:path`. Follows the
// rules of upstream's GitUrl (kernels-data/src/config/git_url.rs, see build_toml_schema.toml),
// without a full URL parser: it decides the cases people write, not every corner of RFC 3986.
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace kl::analyzers {

// Nothing when `text` is a git URL; otherwise why not, as the end of a sentence that starts with
// the key ("must be a git URL ..." or "has the unsupported scheme ...").
std::optional<std::string> git_url_problem(std::string_view text, std::span<const std::string_view> schemes);

}  // namespace kl::analyzers
