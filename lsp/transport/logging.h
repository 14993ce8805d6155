#pragma once
// Logging for the server: spdlog to stderr (stdout carries the protocol and must never see a
// log line) and, when asked, to a file. Installs the default spdlog logger so that every layer
// (and the analyzers) logs the same way. Call once, before the first message is read.
#include <filesystem>
#include <optional>
#include <string>

#include "support/result.h"

namespace kl::lsp {

// Levels: trace, debug, info, warn, error, off. Empty picks $KERNEL_LSP_LOG, else "info".
Result<bool> configure_logging(const std::string& level,
                               const std::optional<std::filesystem::path>& log_file);

bool is_log_level(const std::string& level);

}  // namespace kl::lsp
