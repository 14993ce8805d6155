// A bare `kernel-lsp serve` for when cli/ does not build the product binary: the same two calls
// cli/main.cpp makes (parse_server_args, run_server). Accepts and ignores a leading "serve".
#include <cstdio>
#include <string>
#include <vector>

#include "lsp/server_main.h"

int main(int argc, char** argv) {
  std::vector<char*> args(argv, argv + argc);
  if (args.size() > 1 && std::string(args[1]) == "serve") args.erase(args.begin() + 1);
  kl::lsp::ServerOptions options;
  std::string error;
  if (int code = kl::lsp::parse_server_args(static_cast<int>(args.size()), args.data(), options, error)) {
    std::fprintf(stderr, "kernel-lsp: %s\n", error.c_str());
    return code == 1 ? 0 : code;
  }
  return kl::lsp::run_server(options);
}
