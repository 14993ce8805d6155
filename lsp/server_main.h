#pragma once
// The one entry point of the language server, called by the `kernel-lsp` binary (cli/):
//   kernel-lsp                      → stdio
//   kernel-lsp --stdio              → stdio (vscode-languageclient appends it)
//   kernel-lsp serve [flags]        → the same flags, after the subcommand
// Flags: --stdio | --listen HOST:PORT (TCP, one client connection), --clientProcessId=N,
//        --log-file PATH, --log-level trace|debug|info|warn|error|off (default: $KERNEL_LSP_LOG,
//        else info). Logs go to stderr (and the file), never stdout.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace kl::lsp {

struct ServerOptions {
  enum class Mode { Stdio, Tcp };
  Mode mode = Mode::Stdio;
  std::string listen_host = "127.0.0.1";
  uint16_t listen_port = 0;  // 0: any free port (logged on stderr)
  std::optional<int64_t> client_process_id;
  std::optional<std::filesystem::path> log_file;
  std::string log_level;  // empty: $KERNEL_LSP_LOG, else "info"
};

// Parses argv[1..argc) (argv[0] is the program or subcommand name and is skipped).
// Returns 0 and fills `options`; or returns 2 with a one-line `error` (usage problem).
// `--help` returns 1 with the usage text in `error`.
int parse_server_args(int argc, char** argv, ServerOptions& options, std::string& error);

// The usage text for `--help`.
std::string server_usage();

// Runs one LSP session to its end and returns the process exit code: 0 after shutdown + exit,
// 1 when the client exits (or vanishes) without shutdown, 2 when the server cannot start.
int run_server(const ServerOptions& options);

}  // namespace kl::lsp
