#include "lsp/transport/logging.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <memory>
#include <vector>

namespace kl::lsp {

bool is_log_level(const std::string& level) {
  return level == "trace" || level == "debug" || level == "info" || level == "warn" || level == "warning" ||
         level == "error" || level == "off";
}

Result<bool> configure_logging(const std::string& level,
                               const std::optional<std::filesystem::path>& log_file) {
  std::string chosen = level;
  if (chosen.empty()) {
    const char* env = std::getenv("KERNEL_LSP_LOG");
    chosen = env && *env ? env : "info";
  }
  if (!is_log_level(chosen)) return make_error("unknown log level '" + chosen + "'");

  std::vector<spdlog::sink_ptr> sinks;
  sinks.push_back(std::make_shared<spdlog::sinks::stderr_sink_mt>());
  if (log_file) {
    try {
      sinks.push_back(std::make_shared<spdlog::sinks::basic_file_sink_mt>(log_file->string()));
    } catch (const spdlog::spdlog_ex& e) {
      return make_error("cannot open log file " + log_file->string() + ": " + e.what());
    }
  }
  auto logger = std::make_shared<spdlog::logger>("kernel-lsp", sinks.begin(), sinks.end());
  logger->set_level(spdlog::level::from_str(chosen == "warning" ? "warn" : chosen));
  logger->set_pattern("[%H:%M:%S.%e %^%l%$ %t] %v");
  logger->flush_on(spdlog::level::warn);
  spdlog::set_default_logger(logger);
  return true;
}

}  // namespace kl::lsp
