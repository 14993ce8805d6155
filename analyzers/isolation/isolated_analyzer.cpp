#include "analyzers/isolation/isolated_analyzer.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <fstream>
#include <list>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "analyzers/isolation/failure_finding.h"
#include "analyzers/isolation/worker_process.h"

namespace kl::analyzers {
namespace {

using Clock = std::chrono::steady_clock;

// Failed inputs remembered (so that they are not run again); the oldest are forgotten first.
constexpr size_t kRememberedFailures = 64;

struct Slot {
  std::unique_ptr<WorkerProcess> process;
  bool busy = false;
  std::vector<ChannelMessage> pending;  // forget requests that arrived while it was busy
};

// FNV-1a over the parts of a request that decide its result.
class InputKey {
 public:
  InputKey& add(std::string_view bytes) {
    for (unsigned char c : bytes) hash_ = (hash_ ^ c) * 1099511628211ull;
    hash_ = (hash_ ^ 0xff) * 1099511628211ull;  // separator, so ("ab","c") != ("a","bc")
    return *this;
  }
  uint64_t value() const { return hash_; }

 private:
  uint64_t hash_ = 1469598103934665603ull;
};

uint64_t key_of(const WorkerRequest& request) {
  InputKey key;
  key.add(request.operation == WorkerOperation::BuildToml ? "toml" : "source")
      .add(request.file.string())
      .add(request.text);
  if (request.project) key.add(request.project->build_toml.string()).add(request.project->text);
  return key.value();
}

std::string seconds_text(std::chrono::milliseconds limit) {
  auto ms = limit.count();
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
}

// Workers started before their settings were known (prestart_analysis_workers).
struct Nursery {
  std::mutex mutex;
  std::filesystem::path executable;
  std::vector<std::unique_ptr<WorkerProcess>> waiting;

  std::unique_ptr<WorkerProcess> adopt(const std::filesystem::path& wanted) {
    std::lock_guard<std::mutex> lock(mutex);
    if (waiting.empty() || executable != wanted) return nullptr;
    auto worker = std::move(waiting.back());
    waiting.pop_back();
    return worker;
  }
  void clear() {
    std::vector<std::unique_ptr<WorkerProcess>> ended;
    std::lock_guard<std::mutex> lock(mutex);
    ended.swap(waiting);
  }
};

// /proc/self/status says how many threads this process has.
bool this_process_is_single_threaded() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8)) == 1;
  return false;
}

Nursery& nursery() {
  static Nursery* instance = new Nursery();  // outlives static destruction order questions
  return *instance;
}

}  // namespace

void prestart_analysis_workers(unsigned count, const std::filesystem::path& executable) {
  std::filesystem::path program = executable.empty() ? default_worker_executable() : executable;
  // Forked, not spawned, when this process is still single-threaded and is itself the worker
  // executable: the children are ready at once instead of after loading clang again.
  bool fork_self = executable.empty() && std::getenv("KERNEL_LSP_WORKER_EXECUTABLE") == nullptr &&
                   this_process_is_single_threaded();
  std::vector<std::unique_ptr<WorkerProcess>> started;
  for (unsigned i = 0; i < count; ++i) {
    std::string error;
    auto worker =
        fork_self ? WorkerProcess::fork_from_single_threaded(error) : WorkerProcess::spawn(program, error);
    if (worker) started.push_back(std::move(worker));
  }
  Nursery& n = nursery();
  std::lock_guard<std::mutex> lock(n.mutex);
  n.executable = program;
  for (auto& worker : started) n.waiting.push_back(std::move(worker));
}

struct IsolatedAnalyzer::State {
  AnalysisSettings settings;
  IsolationOptions options;
  std::filesystem::path executable;

  std::mutex mutex;
  std::condition_variable freed;
  std::vector<Slot> slots;
  std::map<std::string, size_t> affinity;  // file -> slot that analysed it last
  std::list<std::pair<uint64_t, FileAnalysis>> failures;
  std::atomic<uint64_t> next_id{1};

  size_t acquire(const std::string& file) {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      if (auto it = affinity.find(file); it != affinity.end() && !slots[it->second].busy) {
        slots[it->second].busy = true;
        return it->second;
      }
      // A free slot with a live worker first (its clang is warm), then any free slot.
      for (bool want_live : {true, false})
        for (size_t i = 0; i < slots.size(); ++i)
          if (!slots[i].busy && (!want_live || slots[i].process)) {
            slots[i].busy = true;
            return i;
          }
      freed.wait(lock);
    }
  }

  void release(size_t slot, const std::string& file) {
    std::lock_guard<std::mutex> lock(mutex);
    if (slots[slot].process)
      for (const auto& message : slots[slot].pending) slots[slot].process->send(message);
    slots[slot].pending.clear();
    slots[slot].busy = false;
    affinity[file] = slot;
    freed.notify_one();
  }

  std::optional<FileAnalysis> remembered_failure(uint64_t key) {
    std::lock_guard<std::mutex> lock(mutex);
    for (const auto& [k, analysis] : failures)
      if (k == key) return analysis;
    return std::nullopt;
  }

  void remember_failure(uint64_t key, const FileAnalysis& analysis) {
    std::lock_guard<std::mutex> lock(mutex);
    failures.emplace_back(key, analysis);
    if (failures.size() > kRememberedFailures) failures.pop_front();
  }

  // The slot's worker, started if it has none. Only the slot's holder calls this.
  WorkerProcess* worker(size_t slot, std::string& error) {
    if (!slots[slot].process) {
      // The first slot takes the first analysis: its worker has the libraries ready for it.
      const bool look_up_libraries = slot == 0;
      if (auto adopted = nursery().adopt(executable);
          adopted && adopted->configure(settings, error, look_up_libraries))
        slots[slot].process = std::move(adopted);
      else
        slots[slot].process = WorkerProcess::start(executable, settings, error, look_up_libraries);
    }
    return slots[slot].process.get();
  }

  FileAnalysis failed(const WorkerRequest& request, const std::string& what) {
    FileAnalysis result;
    result.findings.push_back(analysis_failure_finding(request.file.string(), what));
    if (request.operation == WorkerOperation::BuildToml) result.build_toml = request.file;
    return result;
  }

  FileAnalysis run(WorkerRequest request, const CancellationToken* cancel, const PartialAnalysisSink& partial = {}) {
    uint64_t key = key_of(request);
    if (auto known = remembered_failure(key)) return *known;
    std::string file = request.file.string();
    size_t slot = acquire(file);
    FileAnalysis result = run_on(slot, request, key, cancel, partial);
    release(slot, file);
    return result;
  }

  FileAnalysis run_on(size_t slot, WorkerRequest& request, uint64_t key, const CancellationToken* cancel,
                      const PartialAnalysisSink& partial) {
    request.id = next_id++;
    std::string error;
    WorkerProcess* process = worker(slot, error);
    // A worker that died idle (killed from outside, out of memory) is replaced once.
    if (process && !process->send(encode_request(request))) {
      slots[slot].process.reset();
      process = worker(slot, error);
      if (process && !process->send(encode_request(request))) {
        error = "the analysis worker closed its channel (" + process->reap().describe() + ")";
        slots[slot].process.reset();
        process = nullptr;
      }
    }
    if (!process) return failed(request, "could not start the analysis worker: " + error);

    auto deadline = Clock::now() + options.timeout;
    bool cancel_sent = false;
    for (;;) {
      ChannelMessage message;
      auto interrupt = [&] { return cancel && !cancel_sent && cancel->is_cancelled(); };
      ChannelStatus status = process->receive(message, deadline, interrupt);
      if (status == ChannelStatus::Interrupted) {
        WorkerRequest stop;
        stop.id = request.id;
        stop.operation = WorkerOperation::Cancel;
        process->send(encode_request(stop));
        cancel_sent = true;
        deadline = std::min(deadline, Clock::now() + options.cancel_grace);
        continue;
      }
      if (status == ChannelStatus::Ok) {
        WorkerReply reply;
        try {
          reply = decode_reply(message);
        } catch (const std::exception& e) {
          status = ChannelStatus::Malformed;
        }
        if (status == ChannelStatus::Ok) {
          if (reply.id != request.id) continue;  // the late answer to a cancelled request
          if (reply.partial) {
            if (reply.analysis && partial && !cancel_sent) partial(*reply.analysis);
            continue;
          }
          if (reply.analysis) return std::move(*reply.analysis);
          FileAnalysis result = failed(request, "internal error (" + reply.error + ")");
          remember_failure(key, result);
          return result;
        }
      }
      if (status == ChannelStatus::TimedOut) {
        slots[slot].process->kill_and_reap();
        slots[slot].process.reset();
        if (cancel_sent) {
          FileAnalysis result;
          result.cancelled = true;
          return result;
        }
        FileAnalysis result = failed(request, "it ran past the " + seconds_text(options.timeout) + " limit");
        remember_failure(key, result);
        return result;
      }
      // Closed or Malformed: the worker died (or wrote garbage, which is as bad).
      WorkerDeath death = status == ChannelStatus::Closed ? slots[slot].process->reap()
                                                          : slots[slot].process->kill_and_reap();
      slots[slot].process.reset();
      if (cancel_sent && cancel->is_cancelled() && status == ChannelStatus::Closed && death.signal == 0) {
        FileAnalysis result;
        result.cancelled = true;
        return result;
      }
      FileAnalysis result =
          failed(request, status == ChannelStatus::Malformed ? "the analysis worker sent a malformed reply"
                                                             : death.describe());
      remember_failure(key, result);
      return result;
    }
  }
};

IsolatedAnalyzer::IsolatedAnalyzer(AnalysisSettings settings, IsolationOptions options)
    : state_(std::make_unique<State>()) {
  state_->settings = std::move(settings);
  state_->options = std::move(options);
  state_->executable = state_->options.worker_executable.empty() ? default_worker_executable()
                                                                 : state_->options.worker_executable;
  unsigned workers =
      state_->options.workers ? state_->options.workers : std::max(1u, std::thread::hardware_concurrency());
  state_->options.workers = workers;
  state_->slots.resize(workers);
  if (state_->options.start_eagerly) {
    for (size_t i = 0; i < state_->slots.size(); ++i) {
      std::string error;
      state_->worker(i, error);  // a failure here is reported by the first analysis
    }
    nursery().clear();  // more were started than this server uses (a `workers` setting)
  }
}

IsolatedAnalyzer::~IsolatedAnalyzer() = default;

FileAnalysis IsolatedAnalyzer::analyze_source(const std::filesystem::path& file, std::string_view text,
                                              const CancellationToken* cancel, const ProjectText* project,
                                              const PartialAnalysisSink& partial) {
  WorkerRequest request;
  request.operation = WorkerOperation::Source;
  std::error_code ec;
  request.file = std::filesystem::absolute(file, ec).lexically_normal();
  request.text = std::string(text);
  if (project) request.project = *project;
  return state_->run(std::move(request), cancel, partial);
}

FileAnalysis IsolatedAnalyzer::analyze_build_toml(const std::filesystem::path& file, std::string_view text) {
  WorkerRequest request;
  request.operation = WorkerOperation::BuildToml;
  request.file = file;
  request.text = std::string(text);
  return state_->run(std::move(request), nullptr);
}

void IsolatedAnalyzer::forget(const std::filesystem::path& file) {
  WorkerRequest request;
  request.operation = WorkerOperation::Forget;
  request.file = file;
  ChannelMessage message = encode_request(request);
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->affinity.erase(file.string());
  // A busy worker is owned by the thread waiting for it (which may replace it): it is told
  // when it is released.
  for (auto& slot : state_->slots) {
    if (slot.busy)
      slot.pending.push_back(message);
    else if (slot.process)
      slot.process->send(message);
  }
}

void IsolatedAnalyzer::forget_all() {
  WorkerRequest request;
  request.operation = WorkerOperation::ForgetAll;
  ChannelMessage message = encode_request(request);
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->affinity.clear();
  for (auto& slot : state_->slots) {
    if (slot.busy)
      slot.pending.push_back(message);
    else if (slot.process)
      slot.process->send(message);
  }
}

const AnalysisSettings& IsolatedAnalyzer::settings() const { return state_->settings; }
const IsolationOptions& IsolatedAnalyzer::options() const { return state_->options; }

}  // namespace kl::analyzers
