// Workers outlive the thread that started them. A lint job thread (or a scheduler thread) starts a
// worker the first time its slot needs one; when that thread has finished its last file and
// exits, another thread may still be using the worker. Workers used to set PR_SET_PDEATHSIG,
// which Linux ties to the starting thread. This test states the behaviour wanted; it did not
// reproduce the kill with PR_SET_PDEATHSIG put back (run by hand), so it guards the behaviour,
// not that particular cause.
#include <catch2/catch.hpp>
#include <thread>

#include "analyzers/isolation/failure_finding.h"
#include "analyzers/isolation/isolated_analyzer.h"

namespace ka = kl::analyzers;

namespace {

const char* kKernel = R"(__global__ void copy(const float *in, float *out) {
  out[threadIdx.x * 2] = in[threadIdx.x];
}
)";

bool failed(const ka::FileAnalysis& analysis) {
  for (const ka::Finding& f : analysis.findings)
    if (ka::is_analysis_failure(f)) return true;
  return false;
}

}  // namespace

TEST_CASE("a worker started by a thread that has exited still analyses for the others") {
  ka::AnalysisSettings settings;
  settings.arch_override = {*ka::parse_capability("9.0")};
  ka::IsolationOptions options;
  options.start_eagerly = false;  // started by the first analysis, on the thread below
  options.worker_executable = KL_BINARY;
  options.workers = 1;
  options.timeout = std::chrono::seconds(60);
  ka::IsolatedAnalyzer isolated(settings, options);

  ka::FileAnalysis first;
  std::thread starter([&] { first = isolated.analyze_source("/tmp/kl_threads_a.cu", kKernel); });
  starter.join();
  REQUIRE_FALSE(failed(first));
  REQUIRE_FALSE(first.findings.empty());

  // Give a signal sent at the starter's exit the time to arrive before the worker is used again.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ka::FileAnalysis second = isolated.analyze_source("/tmp/kl_threads_b.cu", kKernel);
  CHECK_FALSE(failed(second));
  CHECK(second.findings.size() == first.findings.size());
}
