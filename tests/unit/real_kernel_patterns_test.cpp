// Access patterns of public programs measured on an H200 (tests/accuracy/real_programs): each
// case is the shape of a kernel whose Nsight Compute label an earlier version of the model got wrong,
// reduced to a few lines, with the verdict the measurement gave.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "analyzers/pipeline/analysis.h"
#include "tests/unit/analysis_test_support.h"

using namespace kl::analyzers;
using namespace kl::analyzers::testing;

namespace {

FileAnalysis analyse(const std::string& source, const char* name = "pattern.cu") {
  static Analyzer analyzer(settings_for_archs({"9.0"}));
  return analyzer.analyze_source(scratch_file("kl_real_kernel_patterns_test", name), source);
}

std::vector<const Finding*> uncoalesced(const FileAnalysis& a) { return findings_of_rule(a, "uncoalesced-access"); }

size_t global_accesses(const FileAnalysis& a) {
  size_t n = 0;
  for (const auto& m : a.facts.accesses) n += m.space == MemorySpace::Global;
  return n;
}

// A row softmax: one block per row of C floats (llm.c's softmax_forward_kernel2 shape).
std::string row_softmax(const std::string& c_at_launch) {
  return "__global__ void rows(float* out, const float* inp, int N, int C) {\n"
         "  const float* x = inp + blockIdx.x * C;\n"
         "  for (int i = threadIdx.x; i < C; i += blockDim.x) out[blockIdx.x * C + i] = x[i];\n"
         "}\n"
         "void launch(float* o, const float* i, int c) { rows<<<4096, 256>>>(o, i, 4096, " + c_at_launch + "); }\n";
}

}  // namespace

TEST_CASE("rows whose launch-time pitch is off a sector are reported, with the pitch") {
  auto f = uncoalesced(analyse(row_softmax("50257")));
  REQUIRE(f.size() == 2);  // the load and the store
  CHECK(contains(f[0]->message, "`C` (50257 at the launches in this file)"));
  CHECK(contains(f[0]->message, "7 of every 8 rows start inside a sector"));
  CHECK(contains(f[0]->message, "+21 % traffic on average"));
}

TEST_CASE("rows are not blamed when the pitch is sector-sized or unknown") {
  CHECK(uncoalesced(analyse(row_softmax("768"))).empty());
  CHECK(uncoalesced(analyse(row_softmax("c"))).empty());
}

TEST_CASE("a launcher that switches on the block size launches each instantiation with that size") {
  // cuda-samples' reduce4: `i + blockSize` lies 16 bytes into a sector only for blockSize = 4,
  // which the switch launches with 4 threads: one sector either way.
  auto a = analyse(
      "template <int blockSize> __global__ void reduce(const int* in, int* out, unsigned n) {\n"
      "  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;\n"
      "  int s = in[i];\n"
      "  if (i + blockSize < n) s += in[i + blockSize];\n"
      "  out[blockIdx.x] = s;\n"
      "}\n"
      "void run(int threads, const int* in, int* out, unsigned n) {\n"
      "  dim3 block(threads, 1, 1);\n"
      "  switch (threads) {\n"
      "    case 256: reduce<256><<<64, block>>>(in, out, n); break;\n"
      "    case 4: reduce<4><<<64, block>>>(in, out, n); break;\n"
      "  }\n"
      "}\n");
  CHECK(uncoalesced(a).empty());
}

TEST_CASE("both fields of a float2 are one 8-byte access") {
  auto a = analyse(
      "__global__ void k(float* out, const float2* in, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) out[i] = in[i].x + in[i].y;\n"
      "}\n"
      "__global__ void half_used(float* out, const float4* in) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[i] = in[i].x;\n"
      "}\n");
  auto f = uncoalesced(a);
  REQUIRE(f.size() == 1);
  CHECK(f[0]->location.range.start.line == 6);
}

TEST_CASE("an index every lane of a row reads alike picks a row, not a gather") {
  // llm.c's encoder_forward_kernel2: the token id is loaded once per (b, t), C lanes share it.
  auto a = analyse(
      "__global__ void enc(float* out, const int* inp, const float* wte, int N, int T, int C) {\n"
      "  int idx = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (idx < N) {\n"
      "    int bt = idx / C, c = idx % C;\n"
      "    int ix = inp[bt];\n"
      "    out[idx] = wte[ix * C + c];\n"
      "  }\n"
      "}\n"
      "__global__ void gather(float* out, const int* ids, const float* table) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[i] = table[ids[i]];\n"
      "}\n"
      "void launch(float* o, const int* i, const float* w, const int* d, const float* t) {\n"
      "  enc<<<96, 256>>>(o, i, w, 24576, 1024, 768);\n"
      "  gather<<<96, 256>>>(o, d, t);\n"
      "}\n");
  auto f = uncoalesced(a);
  REQUIRE(f.size() == 1);
  CHECK(f[0]->location.range.start.line == 10);
}

TEST_CASE("cooperative groups ranks are thread indices") {
  auto a = analyse(
      "#include <cooperative_groups.h>\n"
      "namespace cg = cooperative_groups;\n"
      "__global__ void bias(float* dbias, const float* dout, int BT, int OC) {\n"
      "  cg::thread_block block = cg::this_thread_block();\n"
      "  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);\n"
      "  int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();\n"
      "  float sum = 0.0f;\n"
      "  for (int i = warp.thread_rank(); i < BT; i += warp.size()) sum += dout[i * OC + idx];\n"
      "  if (warp.thread_rank() == 0) dbias[idx] = sum;\n"
      "}\n"
      "__global__ void copy(float* out, const float* in) {\n"
      "  cg::thread_block block = cg::this_thread_block();\n"
      "  out[block.thread_rank()] = in[block.thread_rank()];\n"
      "}\n");
  auto f = uncoalesced(a);
  REQUIRE(f.size() == 1);
  CHECK(f[0]->location.range.start.line == 7);
  CHECK(contains(f[0]->message, "`OC` elements apart"));
}

TEST_CASE("cache-hint loads and stores are accesses, a clamped index is the index") {
  auto a = analyse(
      "__global__ void k(float* out, const float* x, int C) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  float v = __ldcs(&x[min(C - 1, 2 * i)]);\n"
      "  __stcs(out + i, v + __ldcg(x + i));\n"
      "}\n");
  CHECK(global_accesses(a) == 3);
  auto f = uncoalesced(a);
  REQUIRE(f.size() == 1);
  CHECK(f[0]->location.range.start.line == 2);
}

TEST_CASE("divisions by launch constants are followed per lane") {
  // llm.c's permute_kernel: a 4-D transpose through / and % of dimensions the launch fixes.
  auto a = analyse(
      "__global__ void permute(float* out, const float* in, int d1, int d2, int d3, int d4) {\n"
      "  int idx = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  int i1 = (idx / (d2 * d3 * d4)) % d1, i2 = (idx / (d3 * d4)) % d2;\n"
      "  int i3 = (idx / d4) % d3, i4 = idx % d4;\n"
      "  out[i4 * (d3 * d1 * d2) + i3 * (d1 * d2) + i1 * d2 + i2] = in[idx];\n"
      "}\n"
      "void launch(float* o, const float* i) { permute<<<1024, 256>>>(o, i, 8, 1024, 12, 64); }\n");
  auto f = uncoalesced(a);
  REQUIRE(f.size() == 1);
  CHECK(f[0]->location.range.start.line == 4);
}

TEST_CASE("one lane's gather is not a coalescing problem; a struct copy is the user's line") {
  auto a = analyse(
      "struct RGB { unsigned r, g, b; };\n"
      "__global__ void loss(float* losses, const float* logits, const int* targets, int V) {\n"
      "  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;\n"
      "  if (threadIdx.x % 32 == 0) losses[row] = logits[row * V + targets[row]];\n"
      "}\n"
      "__global__ void copy(RGB* out, const RGB* in) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[i] = in[i];\n"
      "}\n");
  auto f = uncoalesced(a);
  REQUIRE_FALSE(f.empty());
  for (const Finding* x : f) CHECK(x->location.range.start.line == 7);
}
