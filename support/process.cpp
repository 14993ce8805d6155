#include "support/process.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/process.hpp>
#include <boost/process/async.hpp>
#include <boost/process/extend.hpp>
#include <csignal>
#include <cstdlib>
#include <sstream>
#include <thread>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kl {
namespace bp = boost::process;

std::string prepended_to_environment(const std::string& name, const std::string& first, char separator) {
  const char* current = std::getenv(name.c_str());
  return current && *current ? first + separator + current : first;
}

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
// Ends the child's whole process group: nvcc runs cicc, ptxas and the host compiler, a benchmark
// runs ninja and compilers, and killing only the direct child would leave those running. TERM
// first so that they can remove their temporary files, KILL for what is still there after the
// grace period.
void stop_process_group(bp::child& child) {
  pid_t group = child.id();
  if (group <= 0) return;
  ::kill(-group, SIGTERM);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (std::chrono::steady_clock::now() < deadline) {
    child.running();  // reaps the leader once it has exited, so that it no longer counts
    if (::kill(-group, 0) != 0) return;  // ESRCH: no member of the group is left
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(-group, SIGKILL);
}

// The child leads a new process group (set in the child before exec), so that
// stop_process_group reaches everything it starts.
struct NewProcessGroup : bp::extend::handler {
  template <typename Executor>
  void on_exec_setup(Executor&) const {
    ::setpgid(0, 0);
  }
};

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
  bp::async_pipe in_pipe(io);  // the child reads `stdin_text`, then end of file
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
                        bp::std_err > err_pipe, bp::std_in < in_pipe, child_env,
                        bp::start_dir(request.working_directory->string()), NewProcessGroup{}, io);
    } else {
      child = bp::child(program.string(), bp::args(request.args), bp::std_out > out_pipe,
                        bp::std_err > err_pipe, bp::std_in < in_pipe, child_env, NewProcessGroup{}, io);
    }
  } catch (const std::exception& e) {
    return make_error("cannot start " + program.string() + ": " + e.what());
  }

  // A child that exits without reading all of its input closes the pipe: the write then fails
  // (EPIPE, not SIGPIPE: boost.asio's pipes ignore it), which is no error of ours.
  boost::asio::async_write(in_pipe, boost::asio::buffer(request.stdin_text),
                           [&](const boost::system::error_code&, size_t) { in_pipe.close(); });

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
      // A child that has exited while what it started still holds the pipes open keeps being
      // watched: a stop or the deadline must still reach those.
      if (!running && open_pipes == 0) return;
      if (std::chrono::steady_clock::now() > deadline) {
        outcome.timed_out = true;
        stop_process_group(child);
        return;
      }
      if (request.should_stop && request.should_stop()) {
        outcome.stopped = true;
        stop_process_group(child);
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
