#include "analyzers/isolation/analysis_worker.h"

#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "analyzers/data/arch_table.h"
#include "analyzers/data/feature_table.h"
#include "analyzers/frontend/cuda_toolkit.h"
#include "analyzers/isolation/analysis_wire.h"
#include "analyzers/isolation/worker_channel.h"
#include "support/cancellation.h"
#include "support/crash_stage.h"

namespace kl::analyzers {
namespace {

// clang recurses deeply on deeply nested code (long `a + b + ...` chains, nested templates); so
// does the access model. clangd parses on threads of 8 MB or more for the same reason.
constexpr size_t kAnalysisStackBytes = 64u << 20;

struct WorkerState {
  int channel_fd = -1;
  std::unique_ptr<Analyzer> analyzer;

  std::mutex mutex;
  std::condition_variable wake;
  std::deque<WorkerRequest> queue;
  uint64_t running_id = 0;
  std::shared_ptr<CancellationToken> running_cancel;
  bool closed = false;
};

// Reads requests as they come, so that a cancel reaches the analysis it is meant for while
// that analysis runs.
void read_requests(WorkerState& state, ChannelReader& reader) {
  for (;;) {
    ChannelMessage message;
    ChannelStatus status = reader.read(message);
    if (status != ChannelStatus::Ok) break;
    WorkerRequest request;
    try {
      request = decode_request(message);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "kernel-lsp worker: malformed request: %s\n", e.what());
      break;
    }
    std::lock_guard<std::mutex> lock(state.mutex);
    if (request.operation == WorkerOperation::Cancel) {
      if (state.running_cancel && state.running_id == request.id) state.running_cancel->cancel();
      for (auto it = state.queue.begin(); it != state.queue.end(); ++it)
        if (it->id == request.id) {
          state.queue.erase(it);
          break;
        }
      continue;
    }
    state.queue.push_back(std::move(request));
    state.wake.notify_one();
  }
  std::lock_guard<std::mutex> lock(state.mutex);
  state.closed = true;
  if (state.running_cancel) state.running_cancel->cancel();
  state.wake.notify_one();
}

// Tests need a file whose analysis fails after every real crash has been fixed:
// KERNEL_LSP_TEST_FAULT=<kind>:<marker> makes this worker fail, in the named way, on any text
// that contains <marker>. Kinds: segv, abort, throw, hang, stack (unbounded recursion).
// Never set outside tests.
int recurse_forever(int depth) {
  volatile char frame[1024];
  frame[0] = static_cast<char>(depth);
  return recurse_forever(depth + 1) + frame[0];
}

void inject_test_fault(const std::string& text) {
  static const std::string setting = [] {
    const char* v = std::getenv("KERNEL_LSP_TEST_FAULT");
    return std::string(v ? v : "");
  }();
  size_t colon = setting.find(':');
  if (colon == std::string::npos || colon + 1 >= setting.size()) return;
  if (text.find(setting.substr(colon + 1)) == std::string::npos) return;
  std::string kind = setting.substr(0, colon);
  CrashStage stage("a fault injected by KERNEL_LSP_TEST_FAULT");
  if (kind == "segv") {
    volatile int* null_pointer = nullptr;
    *null_pointer = 1;
  } else if (kind == "abort") {
    std::abort();
  } else if (kind == "throw") {
    throw std::runtime_error("injected by KERNEL_LSP_TEST_FAULT");
  } else if (kind == "hang") {
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  } else if (kind == "stack") {
    recurse_forever(0);
  }
}

// Sends each early result of a source analysis as a partial reply, ahead of the final one.
PartialAnalysisSink partial_replies(const WorkerRequest& request, int channel_fd) {
  return [id = request.id, channel_fd](const FileAnalysis& early) {
    WorkerReply reply;
    reply.id = id;
    reply.partial = true;
    reply.analysis = early;
    (void)write_channel_message(channel_fd, encode_reply(reply));  // a broken channel fails the final reply too
  };
}

WorkerReply analyse(Analyzer& analyzer, const WorkerRequest& request, const CancellationToken& cancel,
                    int channel_fd) {
  WorkerReply reply;
  reply.id = request.id;
  try {
    inject_test_fault(request.text);
    if (request.operation == WorkerOperation::BuildToml) {
      FileAnalysis result;
      result.findings = analyzer.analyze_build_toml(request.file, request.text);
      result.build_toml = request.file;
      reply.analysis = std::move(result);
    } else if (request.project) {
      // The editor's unsaved build.toml wins over the file on disk.
      BuildConfigParse project = parse_build_toml(request.project->build_toml, request.project->text);
      reply.analysis =
          analyzer.analyze_source(request.file, request.text, &cancel, &project, partial_replies(request, channel_fd));
    } else {
      reply.analysis =
          analyzer.analyze_source(request.file, request.text, &cancel, nullptr, partial_replies(request, channel_fd));
    }
  } catch (const std::exception& e) {
    reply.analysis.reset();
    reply.error = e.what();
  }
  return reply;
}

void serve_requests(WorkerState& state) {
  prepare_thread_for_crash_reports();
  for (;;) {
    WorkerRequest request;
    auto cancel = std::make_shared<CancellationToken>();
    {
      std::unique_lock<std::mutex> lock(state.mutex);
      state.wake.wait(lock, [&] { return state.closed || !state.queue.empty(); });
      if (state.closed) return;
      request = std::move(state.queue.front());
      state.queue.pop_front();
      state.running_id = request.id;
      state.running_cancel = cancel;
    }
    switch (request.operation) {
      case WorkerOperation::Forget:
        state.analyzer->forget(request.file);
        break;
      case WorkerOperation::ForgetAll:
        state.analyzer->forget_all();
        break;
      default: {
        WorkerReply reply = analyse(*state.analyzer, request, *cancel, state.channel_fd);
        if (!write_channel_message(state.channel_fd, encode_reply(reply))) return;
        break;
      }
    }
    std::lock_guard<std::mutex> lock(state.mutex);
    state.running_cancel.reset();
    state.running_id = 0;
  }
}

void* serve_requests_thread(void* state) {
  serve_requests(*static_cast<WorkerState*>(state));
  return nullptr;
}

}  // namespace

int run_analysis_worker(int channel_fd, int report_fd) {
  // No PR_SET_PDEATHSIG: Linux sends it when the *thread* that started the worker exits, and
  // workers are started by whichever thread first needs one (a lint job thread that may finish
  // while another thread still uses the worker). An orphan is noticed instead through its
  // channel: when the supervisor exits or dies, the socket's other end closes and the worker
  // exits at once, even in the middle of a file (read_requests below).
  // A worker forked from the server shows the server's command line; its name in top, htop and
  // `ps -o comm` says what it is.
  prctl(PR_SET_NAME, "kl-analysis");
  install_crash_reporter(report_fd);

  // What every analysis needs whatever its settings, done while the supervisor is still sending
  // them (a server starts its workers before the client's `initialize`): the default toolkit
  // probe (nvcc, ~5 ms; cached per root, so the Analyzer's own lookup finds it) and the
  // embedded tables.
  std::thread warm_up([] {
    (void)find_cuda_toolkit(std::nullopt);
    (void)FeatureTable::builtin();
    (void)ArchTable::builtin();
  });
  ChannelReader reader(channel_fd);
  ChannelMessage hello;
  ChannelStatus greeted = reader.read(hello);
  warm_up.join();
  if (greeted != ChannelStatus::Ok) return 0;
  WorkerState state;
  state.channel_fd = channel_fd;
  try {
    state.analyzer = std::make_unique<Analyzer>(settings_from_json(hello.header.at("settings")));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kernel-lsp worker: bad settings: %s\n", e.what());
    return 2;
  }
  // One worker of a pool (the first) looks the libraries up now, so that the first analysis finds
  // them ready; the others when they first need them, so that a server's start does not run one
  // `import torch` per worker on a machine of two cores.
  if (hello.header.value("look_up_libraries", false))
    state.analyzer->find_toolkit_and_libraries_in_background();
  else
    state.analyzer->find_toolkit_in_background();

  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, kAnalysisStackBytes);
  pthread_t analysis_thread;
  if (pthread_create(&analysis_thread, &attributes, serve_requests_thread, &state) != 0) {
    pthread_attr_destroy(&attributes);
    std::fprintf(stderr, "kernel-lsp worker: cannot start the analysis thread\n");
    return 2;
  }
  pthread_attr_destroy(&attributes);
  read_requests(state, reader);
  // The channel closed: nobody waits for a reply, so an analysis still running is not waited
  // for either. Skip static destructors: nothing needs flushing, and clang's take time.
  std::fflush(nullptr);
  _exit(0);
}

}  // namespace kl::analyzers
