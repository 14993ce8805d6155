// kernel-lsp: the language server and command-line tool for CUDA kernels written for PyTorch.
// With no subcommand (or --stdio, --listen, --clientProcessId) it serves LSP; otherwise it runs
// one of the subcommands below. Argument parsing is CLI11's; each subcommand lives in its file
// and adds its own options (`add_<name>_command`); main only picks the entry and dispatches.
#include <CLI/CLI.hpp>
#include <iostream>
#include <vector>

#include "analyzers/isolation/analysis_worker.h"
#include "cli/subcommands.h"
#include "lsp/server_main.h"

namespace {

bool is_server_invocation(int argc, char** argv) {
  if (argc == 1) return true;
  std::string first = argv[1];
  return first == "serve" || first == "--stdio" || first.rfind("--listen", 0) == 0 ||
         first.rfind("--clientProcessId", 0) == 0 || first.rfind("--log", 0) == 0;
}

// `kernel-lsp [serve] [server options]`: the server's own parser reads what follows `serve`.
int serve(int argc, char** argv) {
  kl::lsp::ServerOptions server_options;
  std::string error;
  int skip = (argc > 1 && std::string(argv[1]) == "serve") ? 1 : 0;
  std::vector<char*> server_argv;
  server_argv.push_back(argv[0]);
  for (int i = 1 + skip; i < argc; ++i) server_argv.push_back(argv[i]);
  int parsed = kl::lsp::parse_server_args(static_cast<int>(server_argv.size()), server_argv.data(),
                                          server_options, error);
  if (parsed == 1) {  // --help
    std::cout << error << "\n";
    return 0;
  }
  if (parsed != 0) {
    std::cerr << "kernel-lsp: " << error << "\n";
    return 2;
  }
  return kl::lsp::run_server(server_options);
}

}  // namespace

int main(int argc, char** argv) {
  // Not a user command: the analysis worker a lint run or the server starts (isolated_analyzer.h).
  if (argc == 2 && std::string(argv[1]) == "__analysis-worker")
    return kl::analyzers::run_analysis_worker(kl::analyzers::kWorkerChannelFd, kl::analyzers::kWorkerReportFd);
  if (is_server_invocation(argc, argv)) return serve(argc, argv);

  CLI::App app{"kernel-lsp: language server and lint for CUDA kernels written for PyTorch"};
  app.set_version_flag("--version", std::string("kernel-lsp ") + KERNEL_LSP_VERSION);
  app.require_subcommand(1);
  kl::cli::register_subcommands(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return kl::cli::run_registered_subcommand(app);
}
