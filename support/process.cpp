#include "support/process.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/process.hpp>
#include <boost/process/async.hpp>
#include <cstdlib>
#include <sstream>

namespace kl {
namespace bp = boost::process;

std::filesystem::path find_on_path(const std::string& name) {
  auto found = bp::search_path(name);
  return found.empty() ? std::filesystem::path() : std::filesystem::path(found.string());
}

namespace {
// Reads one pipe asynchronously into `sink`, forwarding chunks to the observer; calls `closed`
// once, at end of file or error.
void read_pipe(bp::async_pipe& pipe, std::vector<char>& buffer, std::string& sink,
               const std::function<void(std::string_view)>& observer, const std::function<void()>& closed) {
  pipe.async_read_some(boost::asio::buffer(buffer),
                       [&pipe, &buffer, &sink, &observer, &closed](const boost::system::error_code& ec,
                                                                   size_t n) {
                         if (n > 0) {
                           sink.append(buffer.data(), n);
                           if (observer) observer(std::string_view(buffer.data(), n));
                         }
                         if (!ec) read_pipe(pipe, buffer, sink, observer, closed);
                         else closed();
                       });
}
}  // namespace

Result<ProcessOutcome> run_process(const ProcessRequest& request) {
  std::filesystem::path program = request.program;
  if (!program.is_absolute() && program.string().find('/') == std::string::npos) {
    program = find_on_path(program.string());
    if (program.empty()) return make_error("program not found on PATH: " + request.program.string());
  }
  if (!std::filesystem::exists(program)) return make_error("program not found: " + program.string());

  boost::asio::io_context io;
  bp::async_pipe out_pipe(io);
  bp::async_pipe err_pipe(io);
  ProcessOutcome outcome;
  std::vector<char> out_buffer(1 << 14);
  std::vector<char> err_buffer(1 << 14);
  auto env = boost::this_process::environment();
  bp::environment child_env = env;
  for (const auto& [key, value] : request.extra_environment) child_env[key] = value;

  std::error_code spawn_error;
  bp::child child;
  try {
    if (request.working_directory) {
      child = bp::child(program.string(), bp::args(request.args), bp::std_out > out_pipe,
                        bp::std_err > err_pipe, bp::std_in < bp::null, child_env,
                        bp::start_dir(request.working_directory->string()), io);
    } else {
      child = bp::child(program.string(), bp::args(request.args), bp::std_out > out_pipe,
                        bp::std_err > err_pipe, bp::std_in < bp::null, child_env, io);
    }
  } catch (const std::exception& e) {
    return make_error("cannot start " + program.string() + ": " + e.what());
  }

  auto deadline = std::chrono::steady_clock::now() + request.timeout;
  boost::asio::steady_timer poll(io);
  // Once both pipes are closed the child has (nearly always) exited: stop the poll timer, so that
  // a 2 ms `nvcc --version` does not take the timer's 50 ms.
  int open_pipes = 2;
  std::function<void()> pipe_closed = [&] {
    if (--open_pipes == 0) poll.cancel();
  };
  read_pipe(out_pipe, out_buffer, outcome.stdout_text, request.on_output, pipe_closed);
  read_pipe(err_pipe, err_buffer, outcome.stderr_text, request.on_output, pipe_closed);

  std::function<void()> arm;
  arm = [&]() {
    poll.expires_after(std::chrono::milliseconds(50));
    poll.async_wait([&](const boost::system::error_code& ec) {
      if (ec) return;
      bool running = child.running();
      if (!running) return;
      if (std::chrono::steady_clock::now() > deadline) {
        outcome.timed_out = true;
        child.terminate();
        return;
      }
      if (request.should_stop && request.should_stop()) {
        outcome.stopped = true;
        child.terminate();
        return;
      }
      arm();
    });
  };
  arm();
  io.run();
  std::error_code wait_error;
  child.wait(wait_error);
  outcome.exit_code = child.exit_code();
  return outcome;
}

}  // namespace kl
