// shared-race and divergent-barrier through the analyzers' front door: each bug and its fixed
// twin, the conditions that must stay silent, the severities compute-sanitizer justified, and
// the barrier quick fix.
#include <catch2/catch.hpp>

#include <string>

#include "analyzers/pipeline/analysis.h"
#include "tests/unit/analysis_test_support.h"

using namespace kl::analyzers;
using namespace kl::analyzers::testing;

namespace {

FileAnalysis analyse(const std::string& source) {
  static Analyzer analyzer(settings_for_archs({"9.0"}));
  return analyzer.analyze_source(scratch_file("kl_sync_rules_test", "snippet.cu"), source);
}

const std::string kLaunch256 = "void run(float* o, const float* i) { k<<<64, 256>>>(o, i); }\n";

}  // namespace

TEST_CASE("shared-race: a neighbour read with no barrier is an error with the two threads and a fix") {
  auto a = analyse(
      "__global__ void k(float* out, const float* in) {\n"
      "  __shared__ float s[257];\n"
      "  int t = threadIdx.x;\n"
      "  s[t] = in[blockIdx.x * 256 + t];\n"
      "  out[t] = s[t] + s[t + 1];\n"
      "}\n" + kLaunch256);
  auto races = findings_of_rule(a, "shared-race");
  REQUIRE(races.size() == 1);
  CHECK(races[0]->severity == Severity::Error);
  CHECK(races[0]->location.range.start.line == 4);
  CHECK(contains(races[0]->message, "thread 32 writes it at line 4"));
  REQUIRE(races[0]->fixes.size() == 1);
  CHECK(races[0]->fixes[0].edits[0].new_text == "  __syncthreads();\n");
  CHECK(races[0]->fixes[0].edits[0].range.start.line == 4);
  REQUIRE_FALSE(races[0]->notes.empty());
  CHECK(races[0]->notes[0].location.range.start.line == 3);

  auto fixed = analyse(
      "__global__ void k(float* out, const float* in) {\n"
      "  __shared__ float s[257];\n"
      "  int t = threadIdx.x;\n"
      "  s[t] = in[blockIdx.x * 256 + t];\n"
      "  __syncthreads();\n"
      "  out[t] = s[t] + s[t + 1];\n"
      "}\n" + kLaunch256);
  CHECK(findings_of_rule(fixed, "shared-race").empty());
}

TEST_CASE("shared-race: a tile loop with one barrier races across the back edge; two barriers do not") {
  std::string body =
      "__global__ void k(float* out, const float* in) {\n"
      "  __shared__ float tile[256];\n"
      "  float acc = 0.0f;\n"
      "  for (int j = 0; j < 8; ++j) {\n"
      "    tile[threadIdx.x] = in[j * 256 + threadIdx.x];\n"
      "    __syncthreads();\n"
      "    acc += tile[255 - threadIdx.x];\n";
  auto racy = analyse(body + "  }\n  out[threadIdx.x] = acc;\n}\n" + kLaunch256);
  auto races = findings_of_rule(racy, "shared-race");
  REQUIRE(races.size() == 1);
  CHECK(contains(races[0]->message, "in the next one"));
  CHECK(races[0]->fixes.empty());  // the barrier belongs at the end of the body, not before the store
  auto fixed = analyse(body + "    __syncthreads();\n  }\n  out[threadIdx.x] = acc;\n}\n" + kLaunch256);
  CHECK(findings_of_rule(fixed, "shared-race").empty());
}

TEST_CASE("shared-race: warp-synchronous steps are a warning; atomics and data-indexed accesses are not judged") {
  auto tail = analyse(
      "__global__ void k(float* out, const float* in) {\n"
      "  __shared__ float s[64];\n"
      "  int t = threadIdx.x;\n"
      "  s[t] = in[t];\n"
      "  __syncthreads();\n"
      "  if (t < 32) {\n"
      "    volatile float* v = s;\n"
      "    v[t] += v[t + 32];\n"
      "    v[t] += v[t + 16];\n"
      "  }\n"
      "}\n"
      "void run(float* o, const float* i) { k<<<1, 64>>>(o, i); }\n");
  auto races = findings_of_rule(tail, "shared-race");
  REQUIRE_FALSE(races.empty());
  for (const Finding* f : races) CHECK(f->severity == Severity::Warning);
  CHECK(contains(races[0]->message, "__syncwarp()"));

  auto atomics = analyse(
      "__global__ void k(int* out, const int* keys) {\n"
      "  __shared__ int bins[16];\n"
      "  atomicAdd(&bins[keys[threadIdx.x] & 15], 1);\n"
      "  atomicAdd(&bins[threadIdx.x & 15], 1);\n"
      "}\n");
  CHECK(findings_of_rule(atomics, "shared-race").empty());
}

TEST_CASE("divergent-barrier: a thread-index branch with a later barrier is an error") {
  auto a = analyse(
      "__global__ void k(float* out, const float* in) {\n"
      "  __shared__ float s[256];\n"
      "  int t = threadIdx.x;\n"
      "  s[t] = in[t];\n"
      "  if (t < 128) {\n"
      "    __syncthreads();\n"
      "    s[t] += s[t + 128];\n"
      "  }\n"
      "  __syncthreads();\n"
      "  out[t] = s[t];\n"
      "}\n" + kLaunch256);
  auto found = findings_of_rule(a, "divergent-barrier");
  REQUIRE(found.size() == 1);
  CHECK(found[0]->severity == Severity::Error);
  CHECK(found[0]->location.range.start.line == 5);
  CHECK(contains(found[0]->message, "`t < 128`"));
  REQUIRE_FALSE(found[0]->notes.empty());
  CHECK(found[0]->notes[0].location.range.start.line == 4);
}

TEST_CASE("divergent-barrier: skipping threads that exit, per-thread trip counts and data are warnings") {
  auto exits = analyse(
      "__device__ void stage(float* s) { __syncthreads(); s[threadIdx.x] = 0.0f; __syncthreads(); }\n"
      "__global__ void k(float* out, const float* in) {\n"
      "  __shared__ float s[256];\n"
      "  if (threadIdx.x < 64) stage(s);\n"
      "}\n" + kLaunch256);
  auto found = findings_of_rule(exits, "divergent-barrier");
  REQUIRE(found.size() == 2);
  for (const Finding* f : found) CHECK(f->severity == Severity::Warning);
  CHECK(contains(found[0]->message, "reach no other barrier"));

  auto loop = analyse(
      "__global__ void k(float* out, const float* in, int n) {\n"
      "  __shared__ float s[256];\n"
      "  for (int i = threadIdx.x; i < n; i += blockDim.x) {\n"
      "    s[threadIdx.x] = in[i];\n"
      "    __syncthreads();\n"
      "    out[i] = s[255 - threadIdx.x];\n"
      "    __syncthreads();\n"
      "  }\n"
      "}\n");
  found = findings_of_rule(loop, "divergent-barrier");
  REQUIRE(found.size() == 2);
  CHECK(found[0]->severity == Severity::Warning);
  CHECK(contains(found[0]->message, "trip count"));
}

TEST_CASE("divergent-barrier: block-uniform conditions, whole rounds and early returns stay silent") {
  auto a = analyse(
      "__global__ void k(float* out, const float* in, int n) {\n"
      "  __shared__ float s[256];\n"
      "  __shared__ int total;\n"
      "  int t = threadIdx.x;\n"
      "  if (blockIdx.x * 256 + t >= n) return;\n"
      "  if (t == 0) total = n;\n"
      "  __syncthreads();\n"
      "  if (blockIdx.x % 2 == 0) __syncthreads();\n"
      "  if (n > 64) __syncthreads();\n"
      "  if (__syncthreads_or(t == 0)) __syncthreads();\n"
      "  if (total > 0) __syncthreads();\n"
      "  for (int i = t; i < 1024; i += 256) { s[t] = in[i]; __syncthreads(); }\n"
      "  out[t] = s[t];\n"
      "}\n"
      "void run(float* o, const float* i, int n) { k<<<64, 256>>>(o, i, n); }\n");
  CHECK(findings_of_rule(a, "divergent-barrier").empty());
}

TEST_CASE("shared-race: accesses whose threads or addresses the model cannot name are not judged") {
  // `lane == 0 || lane == 2` is no guard the model can evaluate; a thread's own array (ranks of a
  // sort) holds per-thread indices; opposite outcomes of one uniform test are never one path.
  auto a = analyse(
      "__global__ void k(float* out, const float* in, int mode) {\n"
      "  __shared__ float s[2][8];\n"
      "  __shared__ float buf[512];\n"
      "  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;\n"
      "  for (int i = 0; i < 2; ++i)\n"
      "    if (lane == 0 || lane == 2) s[warp][i * 4 + lane / 2] = in[i];\n"
      "  int ranks[2];\n"
      "  ranks[0] = (int)in[threadIdx.x];\n"
      "  ranks[1] = ranks[0] + 1;\n"
      "  buf[ranks[0]] = 1.0f;\n"
      "  buf[ranks[1]] = 2.0f;\n"
      "  if (mode == 0) out[threadIdx.x] = buf[threadIdx.x + 1];\n"
      "  if (mode == 0) {} else { buf[threadIdx.x] = 0.0f; }\n"
      "}\n"
      "void run(float* o, const float* i) { k<<<64, 64>>>(o, i, 0); }\n");
  for (const Finding* f : findings_of_rule(a, "shared-race")) FAIL_CHECK(f->message);
}
