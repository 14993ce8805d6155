// The per-document scheduler and its debounce policy: stale updates skipped, running work
// cancelled, outdated results dropped, reads answered exactly once.
#include <atomic>
#include <catch2/catch.hpp>
#include <future>
#include <mutex>
#include <thread>

#include "lsp/scheduler/debounce_policy.h"
#include "lsp/scheduler/document_scheduler.h"
#include "tests/lsp/fake_backend.h"

using namespace std::chrono_literals;
using kl::lsp::AnalysisJob;
using kl::lsp::AnalysisOutcome;
using kl::lsp::DocumentScheduler;
using kl::lsp::ReadResult;
using kl::lsp::ReadStatus;
using kl::lsp::testing::FakeBackend;

TEST_CASE("debounce: minimum without history, median of recent times, clamped", "[debounce]") {
  kl::lsp::DebouncePolicy policy;
  kl::lsp::AnalysisHistory history;
  CHECK(policy.compute(history) == 50ms);
  for (double ms : {100.0, 300.0, 200.0}) history.record(ms);
  CHECK(policy.compute(history) == 200ms);
  for (int i = 0; i < 10; ++i) history.record(5000);
  CHECK(policy.compute(history) == 500ms);  // only the last 8 count; clamped to max
  CHECK(history.recent().size() == kl::lsp::AnalysisHistory::kCapacity);
  kl::lsp::AnalysisHistory fast;
  fast.record(1);
  CHECK(policy.compute(fast) == 50ms);
  policy.fixed = 0ms;
  CHECK(policy.compute(history) == 0ms);
}

namespace {

AnalysisJob job(int version, std::string text, const char* file = "/w/a.cu") {
  AnalysisJob j;
  j.file = file;
  j.version = version;
  j.text = std::make_shared<const std::string>(std::move(text));
  return j;
}

struct Results {
  std::mutex mutex;
  std::vector<std::shared_ptr<const AnalysisOutcome>> outcomes;
  void add(const std::shared_ptr<const AnalysisOutcome>& o) {
    std::lock_guard<std::mutex> lock(mutex);
    outcomes.push_back(o);
  }
  std::vector<int64_t> versions() {
    std::lock_guard<std::mutex> lock(mutex);
    std::vector<int64_t> v;
    for (auto& o : outcomes) v.push_back(o->job.version);
    return v;
  }
};

kl::lsp::SchedulerCallbacks callbacks(Results& results) {
  kl::lsp::SchedulerCallbacks c;
  c.results = [&results](const std::shared_ptr<const AnalysisOutcome>& o) { results.add(o); };
  return c;
}

kl::lsp::SchedulerOptions options(std::chrono::milliseconds debounce) {
  kl::lsp::SchedulerOptions o;
  o.workers = 2;
  o.debounce.fixed = debounce;
  return o;
}

}  // namespace

TEST_CASE("a burst of edits is analysed once, for the last version", "[scheduler]") {
  FakeBackend backend;
  Results results;
  DocumentScheduler scheduler(backend, options(100ms), callbacks(results));
  for (int v = 1; v <= 5; ++v) scheduler.update(job(v, "v" + std::to_string(v)), /*debounce=*/true);
  REQUIRE(scheduler.wait_until_idle(5s));
  CHECK(backend.job_count() == 1);
  CHECK(results.versions() == std::vector<int64_t>{5});
}

TEST_CASE("an open is analysed at once, without debounce", "[scheduler]") {
  FakeBackend backend;
  Results results;
  DocumentScheduler scheduler(backend, options(10s), callbacks(results));
  scheduler.update(job(1, "BUG"), /*debounce=*/false);
  REQUIRE(scheduler.wait_until_idle(5s));
  REQUIRE(results.versions() == std::vector<int64_t>{1});
  CHECK(results.outcomes[0]->analysis.findings.size() == 1);
}

TEST_CASE("an edit cancels the running analysis and its result is dropped", "[scheduler]") {
  FakeBackend backend;
  backend.delay_ms = 2000;
  Results results;
  DocumentScheduler scheduler(backend, options(0ms), callbacks(results));
  scheduler.update(job(1, "slow"), false);
  while (backend.job_count() == 0) std::this_thread::sleep_for(1ms);
  backend.delay_ms = 0;
  auto started = std::chrono::steady_clock::now();
  scheduler.update(job(2, "fast"), true);
  REQUIRE(scheduler.wait_until_idle(5s));
  CHECK(std::chrono::steady_clock::now() - started < 1500ms);  // did not wait out the slow one
  CHECK(results.versions() == std::vector<int64_t>{2});
  CHECK(backend.job_count() == 2);
}

TEST_CASE("a read waits for the analysis of the current version", "[scheduler]") {
  FakeBackend backend;
  backend.delay_ms = 50;
  Results results;
  DocumentScheduler scheduler(backend, options(0ms), callbacks(results));
  scheduler.update(job(1, "BUG\nBUG"), false);
  std::promise<ReadResult> promise;
  scheduler.read("/w/a.cu", [&](ReadResult r) { promise.set_value(r); });
  auto future = promise.get_future();
  REQUIRE(future.wait_for(5s) == std::future_status::ready);
  ReadResult read = future.get();
  CHECK(read.status == ReadStatus::Ready);
  CHECK(read.outcome->job.version == 1);
  CHECK(read.outcome->analysis.findings.size() == 2);
  // Once there, later reads are answered on the caller's thread at once.
  bool immediate = false;
  scheduler.read("/w/a.cu", [&](ReadResult r) { immediate = r.status == ReadStatus::Ready; });
  CHECK(immediate);
}

TEST_CASE("a read of a version that an edit replaces gets ContentModified", "[scheduler]") {
  FakeBackend backend;
  Results results;
  DocumentScheduler scheduler(backend, options(10s), callbacks(results));
  scheduler.update(job(1, "a"), true);  // waits 10 s: the read cannot be answered before v2
  std::optional<ReadStatus> status;
  scheduler.read("/w/a.cu", [&](ReadResult r) { status = r.status; });
  CHECK_FALSE(status);
  scheduler.update(job(2, "b"), true);
  REQUIRE(status);
  CHECK(*status == ReadStatus::ContentModified);
  scheduler.stop();
}

TEST_CASE("a re-lint of the same version keeps the read waiting for the newer result", "[scheduler]") {
  FakeBackend backend;
  Results results;
  DocumentScheduler scheduler(backend, options(10s), callbacks(results));
  scheduler.update(job(1, "a"), true);
  std::promise<ReadResult> promise;
  scheduler.read("/w/a.cu", [&](ReadResult r) { promise.set_value(r); });
  AnalysisJob relint = job(1, "a");
  relint.project = kl::lsp::ProjectSnapshot{"/w/build.toml", std::make_shared<const std::string>("x")};
  scheduler.update(relint, false);
  auto future = promise.get_future();
  REQUIRE(future.wait_for(5s) == std::future_status::ready);
  ReadResult read = future.get();
  CHECK(read.status == ReadStatus::Ready);
  CHECK(read.outcome->job.project.has_value());
}

TEST_CASE("closing a document answers its reads and drops its work", "[scheduler]") {
  FakeBackend backend;
  Results results;
  DocumentScheduler scheduler(backend, options(10s), callbacks(results));
  scheduler.update(job(1, "a"), true);
  std::optional<ReadStatus> status;
  scheduler.read("/w/a.cu", [&](ReadResult r) { status = r.status; });
  scheduler.remove("/w/a.cu");
  REQUIRE(status);
  CHECK(*status == ReadStatus::Closed);
  std::optional<ReadStatus> after;
  scheduler.read("/w/a.cu", [&](ReadResult r) { after = r.status; });
  CHECK(after == ReadStatus::Closed);
  CHECK(scheduler.wait_until_idle(1s));
  CHECK(backend.job_count() == 0);
}

TEST_CASE("stop answers waiting reads and joins", "[scheduler]") {
  FakeBackend backend;
  Results results;
  DocumentScheduler scheduler(backend, options(10s), callbacks(results));
  scheduler.update(job(1, "a"), true);
  std::optional<ReadStatus> status;
  scheduler.read("/w/a.cu", [&](ReadResult r) { status = r.status; });
  scheduler.stop();
  CHECK(status == ReadStatus::ShuttingDown);
  scheduler.update(job(2, "b"), false);  // ignored after stop
  CHECK(backend.job_count() == 0);
}

TEST_CASE("documents are analysed independently and in parallel", "[scheduler]") {
  FakeBackend backend;
  backend.delay_ms = 200;
  Results results;
  DocumentScheduler scheduler(backend, options(0ms), callbacks(results));
  scheduler.update(job(1, "a", "/w/a.cu"), false);
  scheduler.update(job(1, "b", "/w/b.cu"), false);
  REQUIRE(scheduler.wait_until_idle(5s));
  CHECK(backend.max_running == 2);  // two workers, two documents
  CHECK(results.versions().size() == 2);
  CHECK(scheduler.documents() == 2);
}

TEST_CASE("one document never has two analyses at once", "[scheduler]") {
  FakeBackend backend;
  backend.delay_ms = 50;
  Results results;
  DocumentScheduler scheduler(backend, options(0ms), callbacks(results));
  for (int v = 1; v <= 20; ++v) {
    scheduler.update(job(v, "x"), v % 2 == 0);
    std::this_thread::sleep_for(5ms);
  }
  REQUIRE(scheduler.wait_until_idle(10s));
  CHECK(backend.max_running == 1);
  CHECK(results.versions().back() == 20);
}

TEST_CASE("adaptive debounce follows the document's edits, not its open", "[scheduler]") {
  FakeBackend backend;
  backend.delay_ms = 120;
  Results results;
  kl::lsp::SchedulerOptions o;
  o.workers = 1;  // adaptive (no fixed value)
  DocumentScheduler scheduler(backend, o, callbacks(results));
  CHECK(scheduler.debounce_for("/w/a.cu") == 50ms);
  // The open is analysed cold (no preamble yet): it says nothing about how long an edit takes.
  scheduler.update(job(1, "a"), /*debounce=*/false);
  REQUIRE(scheduler.wait_until_idle(5s));
  CHECK(scheduler.debounce_for("/w/a.cu") == 50ms);
  scheduler.update(job(2, "b"), /*debounce=*/true);
  REQUIRE(scheduler.wait_until_idle(5s));
  auto debounce = scheduler.debounce_for("/w/a.cu");
  CHECK(debounce >= 120ms);
  CHECK(debounce <= 500ms);
}

TEST_CASE("adaptive debounce follows an edit's first result, not its complete set", "[scheduler]") {
  // A file parsed in several configurations: the first one's findings come at once, the rest
  // 400 ms later. The user waits for the first; the next edit's delay must not grow to 400 ms.
  FakeBackend backend;
  backend.delay_ms = 400;
  Results results;
  kl::lsp::SchedulerOptions o;
  o.workers = 1;
  DocumentScheduler scheduler(backend, o, callbacks(results));
  scheduler.update(job(1, "BUG\nEARLY\n"), false);
  REQUIRE(scheduler.wait_until_idle(5s));
  for (int v = 2; v <= 4; ++v) {
    scheduler.update(job(v, "BUG\nEARLY\n" + std::to_string(v)), true);
    REQUIRE(scheduler.wait_until_idle(5s));
  }
  CHECK(scheduler.debounce_for("/w/a.cu") < 200ms);
}

TEST_CASE("a SKILL.md is checked in process, never by the backend, and not behind its work", "[scheduler]") {
  FakeBackend backend;
  backend.delay_ms = 5000;
  Results results;
  DocumentScheduler scheduler(backend, options(0ms), callbacks(results));
  scheduler.update(job(1, "slow", "/w/a.cu"), false);
  scheduler.update(job(1, "slow", "/w/b.cu"), false);
  while (backend.job_count() < 2) std::this_thread::sleep_for(1ms);  // both workers busy
  AnalysisJob skill = job(1, "---\nname: other-name\ndescription: Demo.\n---\n", "/w/my-skill/SKILL.md");
  skill.kind = kl::lsp::JobKind::Skill;
  scheduler.update(skill, false);
  std::promise<ReadResult> promise;
  scheduler.read("/w/my-skill/SKILL.md", [&](ReadResult r) { promise.set_value(r); });
  auto future = promise.get_future();
  REQUIRE(future.wait_for(2s) == std::future_status::ready);  // did not wait for the 5 s analyses
  ReadResult read = future.get();
  CHECK(read.status == ReadStatus::Ready);
  REQUIRE_FALSE(read.outcome->analysis.findings.empty());
  CHECK(read.outcome->analysis.findings[0].rule_id == "skill");
  CHECK(backend.job_count() == 2);
}

TEST_CASE("an early result is delivered before the final one, and never for outdated input", "[scheduler]") {
  FakeBackend backend;
  backend.delay_ms = 300;
  Results results;
  DocumentScheduler scheduler(backend, options(0ms), callbacks(results));
  scheduler.update(job(1, "BUG\nEARLY\nBUG\n"), false);
  REQUIRE(scheduler.wait_until_idle(5s));
  {
    std::lock_guard<std::mutex> lock(results.mutex);
    REQUIRE(results.outcomes.size() == 2);
    CHECK(results.outcomes[0]->analysis.partial);
    CHECK(results.outcomes[0]->analysis.findings.size() == 1);
    CHECK_FALSE(results.outcomes[1]->analysis.partial);
    CHECK(results.outcomes[1]->analysis.findings.size() == 2);
  }
  // A read is answered by the final result only.
  std::promise<ReadResult> read;
  scheduler.read("/w/a.cu", [&](ReadResult r) { read.set_value(r); });
  CHECK_FALSE(read.get_future().get().outcome->analysis.partial);

  // An edit while version 2 runs: its early result (already out) stays the only one for it;
  // version 3 gets both.
  scheduler.update(job(2, "BUG\nEARLY\n"), false);
  std::this_thread::sleep_for(100ms);
  scheduler.update(job(3, "EARLY\nBUG\n"), false);
  REQUIRE(scheduler.wait_until_idle(5s));
  std::vector<int64_t> versions = results.versions();
  CHECK(versions == std::vector<int64_t>{1, 1, 2, 3, 3});
}
