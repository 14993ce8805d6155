#pragma once
// Runs a child process to completion and captures what it prints. Used for nvcc (toolkit
// discovery, builds), benchmarks and tests. Thread-safe: each call owns its child.
// Cost: one fork/exec; the call blocks until the child exits, the timeout passes, or
// `should_stop` returns true (then the child's process group is killed). Each child leads its
// own process group, so that a stop reaches the compilers nvcc starts.
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "support/result.h"

namespace kl {

struct ProcessRequest {
  std::filesystem::path program;  // absolute, or looked up on PATH
  std::vector<std::string> args;
  std::optional<std::filesystem::path> working_directory;
  std::map<std::string, std::string> extra_environment;
  std::chrono::milliseconds timeout{std::chrono::minutes(10)};
  std::string stdin_text;  // written to the child's standard input, which is then closed
  // Polled; true ends the child and everything it started (its process group: TERM, then KILL
  // after 2 s). A time-out does the same.
  std::function<bool()> should_stop;
  // Called with each chunk of output as it arrives (stdout and stderr merged), if set.
  std::function<void(std::string_view)> on_output;
};

struct ProcessOutcome {
  int exit_code = -1;
  bool timed_out = false;
  bool stopped = false;
  std::string stdout_text;
  std::string stderr_text;
};

Result<ProcessOutcome> run_process(const ProcessRequest& request);

// `first`, then this process's value of the list variable `name` (PYTHONPATH, PYTEST_PLUGINS)
// after `separator` when it has one: what a child gets so that `first` comes before the rest.
std::string prepended_to_environment(const std::string& name, const std::string& first, char separator);

// Finds `name` on PATH; empty when absent.
std::filesystem::path find_on_path(const std::string& name);

}  // namespace kl
