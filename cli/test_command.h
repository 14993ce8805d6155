#pragma once
// `kernel-lsp test DIR`: runs a project's tests, under compute-sanitizer when asked, and turns
// each report (an out-of-bounds access, a race, a divergent barrier, an uninitialised read) into
// a finding at the source line the program's line info names, in the lint report formats.
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/registered_command.h"

namespace kl::cli {

struct TestOptions {
  std::string project;
  std::string command;               // the tests' command line (run with /bin/sh -c in the project)
  std::vector<std::string> tools;    // compute-sanitizer tools; empty: run the tests plainly
  std::string format = "text";       // text | json | sarif | github
  std::string cuda_path;             // where compute-sanitizer is (else PATH, CUDA_PATH, /usr/local/cuda)
  int timeout_seconds = 1800;        // per tool
  // The output of a compute-sanitizer run made elsewhere (a GPU machine, a CI job): reported as
  // if this run had printed it; nothing runs. Needs exactly one tool.
  std::string from_output;
};

int run_test(const TestOptions& options, std::ostream& out, std::ostream& err);

RegisteredCommand add_test_command(CLI::App& app);

}  // namespace kl::cli
