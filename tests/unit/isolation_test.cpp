// The process boundary of analysis (analyzers/isolation): what crosses it survives intact, and
// what happens on the other side (a crash, a hang, a cancellation) reaches the caller as a
// result, never as the caller's own death.
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "analyzers/isolation/analysis_wire.h"
#include "analyzers/isolation/failure_finding.h"
#include "analyzers/isolation/isolated_analyzer.h"
#include "analyzers/isolation/worker_channel.h"

namespace ka = kl::analyzers;

namespace {

const char* kGood = R"(__global__ void copy(const float4 *in, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i * 2] = in[i * 2];
}
void launch(const float4 *in, float4 *out, int n) { copy<<<n / 256, 256>>>(in, out, n); }
)";

ka::AnalysisSettings settings_for_tests() {
  ka::AnalysisSettings settings;
  settings.arch_override = {*ka::parse_capability("8.0"), *ka::parse_capability("9.0")};
  return settings;
}

ka::IsolationOptions options_for_tests(bool eager = false) {
  ka::IsolationOptions options;
  options.start_eagerly = eager;  // the worker takes the environment of the moment it starts
  options.worker_executable = KL_BINARY;
  options.workers = 1;
  options.timeout = std::chrono::seconds(60);
  options.cancel_grace = std::chrono::seconds(1);
  return options;
}

std::string describe(const std::vector<ka::Finding>& findings) {
  std::ostringstream out;
  for (const auto& f : findings)
    out << f.rule_id << " " << f.location.range.start.line << ":" << f.location.range.start.column << " "
        << f.message << "\n";
  return out.str();
}

}  // namespace

TEST_CASE("an analysis survives the round trip through the wire format") {
  ka::Analyzer analyzer(settings_for_tests());
  ka::FileAnalysis original = analyzer.analyze_source("/tmp/kl_isolation_wire.cu", kGood);
  REQUIRE(!original.findings.empty());
  REQUIRE(!original.facts.kernels.empty());
  REQUIRE(!original.facts.launches.empty());
  ka::FileAnalysis copy = ka::analysis_from_json(ka::analysis_to_json(original));
  CHECK(describe(copy.findings) == describe(original.findings));
  CHECK(copy.archs.archs == original.archs.archs);
  CHECK(copy.archs.origin == original.archs.origin);
  REQUIRE(copy.facts.kernels.size() == original.facts.kernels.size());
  CHECK(copy.facts.kernels[0].name == original.facts.kernels[0].name);
  CHECK(copy.facts.kernels[0].body_range == original.facts.kernels[0].body_range);
  REQUIRE(copy.facts.launches.size() == original.facts.launches.size());
  CHECK(copy.facts.launches[0].block_x == original.facts.launches[0].block_x);
  CHECK(copy.timings.size() == original.timings.size());
  REQUIRE(original.coverage.size() == 1);  // `copy`: one load, one store
  CHECK(original.coverage[0].global_accesses() == 2);
  CHECK(copy.coverage == original.coverage);
}

TEST_CASE("per-kernel coverage crosses the wire; the access records it was made from do not") {
  ka::FileAnalysis original;
  original.coverage.push_back({"ns::scale", {"/tmp/k.cu", {{3, 16}, {3, 21}}}, 2, 1, 1});
  original.coverage.push_back({"tile", {"/tmp/k.cu", {{9, 16}, {9, 20}}}, 0, 0, 0});
  original.coverage.push_back({"unlisted", {}, 1, 0, 1});
  original.facts.accesses.emplace_back();
  ka::FileAnalysis copy = ka::analysis_from_json(ka::analysis_to_json(original));
  CHECK(copy.coverage == original.coverage);
  CHECK(copy.facts.accesses.empty());
}

TEST_CASE("settings survive the round trip") {
  ka::AnalysisSettings s = settings_for_tests();
  s.cuda_path = "/opt/cuda";
  s.extra_flags = {"-I/x", "-DFOO=1"};
  s.severity_overrides["uncoalesced-access"] = ka::Severity::Error;
  s.disabled_rules = {"smem-limit"};
  s.assumed_pointer_alignment = 16;
  s.cache_parses = true;
  ka::AnalysisSettings t = ka::settings_from_json(ka::settings_to_json(s));
  CHECK(t.cuda_path == s.cuda_path);
  CHECK(t.extra_flags == s.extra_flags);
  CHECK(t.arch_override == s.arch_override);
  CHECK(t.severity_overrides == s.severity_overrides);
  CHECK(t.disabled_rules == s.disabled_rules);
  CHECK(t.assumed_pointer_alignment == 16);
  CHECK(t.cache_parses);
}

TEST_CASE("source bytes cross the channel exactly, whatever their encoding") {
  int fds[2];
  REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
  ka::WorkerRequest request;
  request.id = 7;
  request.file = "/tmp/gbk.cu";
  request.text =
      std::string("// \xd6\xd0\xce\xc4 comment\n__global__ void k() {}\n") + std::string(1, '\0') + "tail";
  request.project = ka::ProjectText{"/tmp/build.toml", "[general]\nname = \"\xff\"\n"};
  REQUIRE(ka::write_channel_message(fds[0], ka::encode_request(request)));
  ka::ChannelReader reader(fds[1]);
  ka::ChannelMessage message;
  REQUIRE(reader.read(message, std::chrono::steady_clock::now() + std::chrono::seconds(5)) ==
          ka::ChannelStatus::Ok);
  ka::WorkerRequest got = ka::decode_request(message);
  CHECK(got.id == 7);
  CHECK(got.text == request.text);
  REQUIRE(got.project);
  CHECK(got.project->text == request.project->text);

  // A reply whose message quotes invalid UTF-8 from the source is still written (replaced).
  ka::WorkerReply reply;
  reply.id = 7;
  reply.analysis = ka::FileAnalysis{};
  reply.analysis->findings.push_back(ka::analysis_failure_finding("/tmp/gbk.cu", "quote \xd6\xd0"));
  REQUIRE(ka::write_channel_message(fds[1], ka::encode_reply(reply)));
  ka::ChannelReader back(fds[0]);
  REQUIRE(back.read(message, std::chrono::steady_clock::now() + std::chrono::seconds(5)) ==
          ka::ChannelStatus::Ok);
  CHECK(ka::decode_reply(message).analysis->findings.size() == 1);

  // Garbage is Malformed, a closed peer is Closed, silence is TimedOut.
  const char garbage[] = "this is not json\n";
  REQUIRE(::write(fds[1], garbage, sizeof garbage - 1) == static_cast<ssize_t>(sizeof garbage - 1));
  CHECK(back.read(message, std::chrono::steady_clock::now() + std::chrono::seconds(5)) ==
        ka::ChannelStatus::Malformed);
  ka::ChannelReader quiet(fds[1]);
  CHECK(quiet.read(message, std::chrono::steady_clock::now() + std::chrono::milliseconds(50)) ==
        ka::ChannelStatus::TimedOut);
  ::close(fds[0]);
  CHECK(quiet.read(message, std::chrono::steady_clock::now() + std::chrono::seconds(5)) ==
        ka::ChannelStatus::Closed);
  ::close(fds[1]);
}

TEST_CASE("a worker process gives the same findings as an analysis in this process") {
  ka::Analyzer local(settings_for_tests());
  ka::IsolatedAnalyzer isolated(settings_for_tests(), options_for_tests());
  auto expected = local.analyze_source("/tmp/kl_isolation_same.cu", kGood);
  auto got = isolated.analyze_source("/tmp/kl_isolation_same.cu", kGood);
  CHECK(describe(got.findings) == describe(expected.findings));
  CHECK(got.facts.kernels.size() == expected.facts.kernels.size());
  auto toml = isolated.analyze_build_toml("/tmp/kl_isolation_build.toml", "[general\nname = 1\n");
  CHECK(describe(toml.findings) ==
        describe(local.analyze_build_toml("/tmp/kl_isolation_build.toml", "[general\nname = 1\n")));
}

TEST_CASE("a crash in a worker is one file's error finding; the next file is analysed by a new worker") {
  ::setenv("KERNEL_LSP_TEST_FAULT", "segv:KL-UNIT-CRASH", 1);
  ka::IsolatedAnalyzer isolated(settings_for_tests(), options_for_tests(/*eager=*/true));
  ::unsetenv("KERNEL_LSP_TEST_FAULT");  // workers started later must not inherit it
  std::string crashing = std::string(kGood) + "// KL-UNIT-CRASH\n";
  auto failed = isolated.analyze_source("/tmp/kl_isolation_crash.cu", crashing);
  REQUIRE(failed.findings.size() == 1);
  CHECK(ka::is_analysis_failure(failed.findings[0]));
  CHECK(failed.findings[0].severity == ka::Severity::Error);
  CHECK(failed.findings[0].message.find("SIGSEGV") != std::string::npos);
  // The same input is answered from memory: no new worker, no second crash.
  auto again = isolated.analyze_source("/tmp/kl_isolation_crash.cu", crashing);
  CHECK(describe(again.findings) == describe(failed.findings));
  // A fresh worker (without the fault in its environment) analyses the next file.
  auto good = isolated.analyze_source("/tmp/kl_isolation_after.cu", kGood);
  CHECK(std::none_of(good.findings.begin(), good.findings.end(), ka::is_analysis_failure));
  CHECK(std::any_of(good.findings.begin(), good.findings.end(),
                    [](const ka::Finding& f) { return f.rule_id == "uncoalesced-access"; }));
}

TEST_CASE("a cancelled analysis comes back cancelled, and the worker stays usable") {
  ::setenv("KERNEL_LSP_TEST_FAULT", "hang:KL-UNIT-HANG", 1);
  ka::IsolatedAnalyzer isolated(settings_for_tests(), options_for_tests(/*eager=*/true));
  ::unsetenv("KERNEL_LSP_TEST_FAULT");
  kl::CancellationToken cancel;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancel.cancel();
  });
  auto started = std::chrono::steady_clock::now();
  // The hang ignores cancellation, so the supervisor must give up on the worker after its grace.
  auto result =
      isolated.analyze_source("/tmp/kl_isolation_hang.cu", std::string(kGood) + "// KL-UNIT-HANG\n", &cancel);
  canceller.join();
  CHECK(result.cancelled);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(30));
  auto good = isolated.analyze_source("/tmp/kl_isolation_after_hang.cu", kGood);
  CHECK(std::none_of(good.findings.begin(), good.findings.end(), ka::is_analysis_failure));
}

TEST_CASE("an early result crosses the process boundary ahead of the final one") {
  const char* guarded =
      "__global__ void k(int* out) {\n"
      "#if __CUDA_ARCH__ >= 900\n"
      "  out[threadIdx.x] = __reduce_add_sync(0xffffffffu, out[threadIdx.x]);\n"
      "#else\n"
      "  out[threadIdx.x] = 1;\n"
      "#endif\n"
      "}\n";
  ka::AnalysisSettings settings;
  settings.arch_override = {*ka::parse_capability("8.0"), *ka::parse_capability("9.0")};
  ka::IsolatedAnalyzer isolated(settings, options_for_tests());
  std::vector<ka::FileAnalysis> early;
  ka::FileAnalysis final = isolated.analyze_source("/tmp/kl_isolation_partial.cu", guarded, nullptr, nullptr,
                                                   [&](const ka::FileAnalysis& e) { early.push_back(e); });
  REQUIRE(early.size() == 1);
  CHECK(early[0].partial);
  CHECK(early[0].archs_pending == std::vector<ka::Capability>{*ka::parse_capability("8.0")});
  CHECK_FALSE(final.partial);
  CHECK(final.archs_pending.empty());
  CHECK(final.timings.size() > early[0].timings.size());
}
