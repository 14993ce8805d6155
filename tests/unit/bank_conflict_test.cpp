// Shared-memory bank conflicts: the wavefront count on its own (shared_banks.h), then the
// bank-conflict rule through the analyzers' front door, on the textbook pairs: an unpadded tile
// read by column against its padded twin, strides of 2 words, wide elements, broadcasts.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analyzers/model/shared_banks.h"
#include "analyzers/pipeline/analysis.h"
#include "tests/unit/analysis_test_support.h"

using namespace kl::analyzers;
using namespace kl::analyzers::testing;

namespace {

FileAnalysis analyse(const std::string& source) {
  static Analyzer analyzer(settings_for_archs({"9.0"}));
  return analyzer.analyze_source(scratch_file("kl_bank_conflict_test", "snippet.cu"), source);
}

// Wavefronts of 32 lanes `stride` bytes apart, `width` bytes each.
uint32_t wavefronts(int64_t stride, uint32_t width, uint32_t& ideal) {
  std::vector<int64_t> addresses;
  std::vector<int> lanes;
  for (int lane = 0; lane < 32; ++lane) {
    addresses.push_back(lane * stride);
    lanes.push_back(lane);
  }
  return bank_wavefronts(addresses, lanes, width, ideal);
}

}  // namespace

TEST_CASE("wavefronts: consecutive words, a column of a 32x32 tile, its padded twin") {
  uint32_t ideal = 0;
  CHECK(wavefronts(4, 4, ideal) == 1);
  CHECK(ideal == 1);
  CHECK(wavefronts(128, 4, ideal) == 32);  // every lane in bank 0
  CHECK(ideal == 1);
  CHECK(wavefronts(132, 4, ideal) == 1);   // [32][33]: one bank further per row
  CHECK(wavefronts(8, 4, ideal) == 2);     // every other word: 16 banks, two words each
  CHECK(wavefronts(0, 4, ideal) == 1);     // a broadcast
}

TEST_CASE("wavefronts: 8- and 16-byte lanes are served 128 bytes at a time") {
  uint32_t ideal = 0;
  CHECK(wavefronts(8, 8, ideal) == 2);
  CHECK(ideal == 2);
  CHECK(wavefronts(16, 16, ideal) == 4);
  CHECK(ideal == 4);
  // doubles a 32-double row apart: the 16 lanes of a phase all start in bank 0.
  CHECK(wavefronts(256, 8, ideal) == 32);
  CHECK(ideal == 2);
}

TEST_CASE("wavefronts: only the active lanes count, phase by phase") {
  uint32_t ideal = 0;
  // Lanes 0 and 16 of an 8-byte access are in different phases: no conflict between them.
  CHECK(bank_wavefronts({0, 256}, {0, 16}, 8, ideal) == 2);
  CHECK(ideal == 2);
  CHECK(bank_wavefronts({0, 256}, {0, 1}, 8, ideal) == 2);
  CHECK(ideal == 1);
}

TEST_CASE("the column read of an unpadded tile is a 32-way conflict; the padded tile is clean") {
  auto a = analyse(
      "__global__ void transpose(float* out, const float* in, int n) {\n"
      "  __shared__ float tile[32][32];\n"
      "  __shared__ float padded[32][33];\n"
      "  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;\n"
      "  for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];\n"
      "  for (int j = 0; j < 32; j += 8) padded[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];\n"
      "  __syncthreads();\n"
      "  for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];\n"
      "  for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] += padded[threadIdx.x][threadIdx.y + j];\n"
      "}\n"
      "void launch(float* o, const float* i, int n) { transpose<<<dim3(n / 32, n / 32), dim3(32, 8)>>>(o, i, n); }\n");
  auto f = findings_of_rule(a, "bank-conflict");
  REQUIRE(f.size() == 1);
  CHECK(f[0]->severity == Severity::Warning);
  CHECK(f[0]->location.range.start.line == 7);
  CHECK(contains(f[0]->message, "load from `tile`"));
  CHECK(contains(f[0]->message, "128 bytes apart"));
  INFO(f[0]->message);
  CHECK(contains(f[0]->message, "32 wavefronts where 1 would do (32-way)"));
  CHECK(contains(f[0]->message, "[32][33]"));
}

TEST_CASE("16x16 blocks: two rows of threadIdx.x share a warp") {
  auto a = analyse(
      "__global__ void t16(float* out, const float* in, int n) {\n"
      "  __shared__ float tile[16][16];\n"
      "  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * n + threadIdx.x];\n"
      "  __syncthreads();\n"
      "  out[threadIdx.y * n + threadIdx.x] = tile[threadIdx.x][threadIdx.y];\n"
      "}\n"
      "void launch(float* o, const float* i, int n) { t16<<<1, dim3(16, 16)>>>(o, i, n); }\n");
  auto f = findings_of_rule(a, "bank-conflict");
  REQUIRE(f.size() == 1);
  CHECK(f[0]->location.range.start.line == 4);
  // Lanes 0-15 walk a column 64 bytes apart: the even ones share bank t, the odd ones bank 16 + t;
  // lanes 16-31 do the same one column further. Eight words per bank.
  CHECK(contains(f[0]->message, "8 wavefronts where 1 would do (8-way)"));
}

TEST_CASE("strided words, doubles by column, and what is not judged") {
  auto a = analyse(
      "__global__ void k(float* out, const float* in, double* dout, int ld) {\n"
      "  __shared__ float s[1024];\n"
      "  __shared__ double d[32][32];\n"
      "  extern __shared__ float dyn[];\n"
      "  s[threadIdx.x] = in[threadIdx.x];\n"
      "  d[threadIdx.x][0] = in[threadIdx.x];\n"
      "  dyn[threadIdx.x] = in[threadIdx.x];\n"
      "  __syncthreads();\n"
      "  out[threadIdx.x] = s[2 * threadIdx.x];\n"
      "  dout[threadIdx.x] = d[threadIdx.x][1];\n"
      "  out[threadIdx.x] += s[0];\n"
      "  out[threadIdx.x] += dyn[threadIdx.x * ld];\n"
      "  atomicAdd(&s[(threadIdx.x % 4) * 32], 1.0f);\n"
      "}\n"
      "void launch(float* o, const float* i, double* d, int ld) { k<<<1, 32, 4096>>>(o, i, d, ld); }\n");
  auto f = findings_of_rule(a, "bank-conflict");
  // (0-based lines) 5: the column store of doubles, 16-way per phase of 16 lanes; 8: every other
  // word, 2-way; 9: the column load of doubles. Not: the broadcast s[0], the runtime stride of
  // dyn, the atomic, the unit-stride stores.
  std::vector<uint32_t> lines;
  for (const auto* x : f) lines.push_back(x->location.range.start.line);
  CHECK(lines == std::vector<uint32_t>{5, 8, 9});
  for (const auto* x : f) {
    if (x->location.range.start.line == 8) CHECK(contains(x->message, "2 wavefronts where 1 would do (2-way)"));
    if (x->location.range.start.line == 9) CHECK(contains(x->message, "32 wavefronts where 2 would do (16-way)"));
  }
}

TEST_CASE("pairs that nvcc fuses into one 8-byte access are not conflicts") {
  auto a = analyse(
      "__global__ void pairs(float* out, const float* in) {\n"
      "  __shared__ float s[64];\n"
      "  s[threadIdx.x] = in[threadIdx.x];\n"
      "  s[threadIdx.x + 32] = in[threadIdx.x + 32];\n"
      "  __syncthreads();\n"
      "  float lo = s[2 * threadIdx.x];\n"
      "  float hi = s[2 * threadIdx.x + 1];\n"
      "  out[threadIdx.x] = lo - hi;\n"
      "}\n"
      "void launch(float* o, const float* i) { pairs<<<1, 32>>>(o, i); }\n");
  CHECK(findings_of_rule(a, "bank-conflict").empty());
}

TEST_CASE("an unrolled loop that walks each lane through the gap is one vector access") {
  auto a = analyse(
      "__global__ void quads(float* out, const float4* in) {\n"
      "  __shared__ float4 sh[32];\n"
      "  sh[threadIdx.x] = in[threadIdx.x];\n"
      "  __syncthreads();\n"
      "  const float* row = reinterpret_cast<const float*>(&sh[threadIdx.x]);\n"
      "  float acc = 0.0f;\n"
      "#pragma unroll\n"
      "  for (int k = 0; k < 4; ++k) acc += row[k];\n"
      "  out[threadIdx.x] = acc;\n"
      "}\n"
      "void launch(float* o, const float4* i) { quads<<<1, 32>>>(o, i); }\n");
  CHECK(findings_of_rule(a, "bank-conflict").empty());
}

TEST_CASE("an unrolled loop over a lane's elements is judged as the vector nvcc makes of it") {
  auto a = analyse(
      "struct Vertex { float v[18]; };\n"
      "__global__ void k(float* out, const float* in) {\n"
      "  __shared__ Vertex verts[32];\n"
      "  __shared__ int counts[33][64];\n"
      "  int t = threadIdx.x;\n"
      "  for (int j = 0; j < 18; ++j) verts[t].v[j] = in[j * 32 + t];\n"
      "  for (int i = 0; i < 64; ++i) counts[t + 1][i] = 0;\n"
      "  __syncthreads();\n"
      "  out[t] = verts[t].v[2] + counts[t + 1][t];\n"
      "}\n"
      "void launch(float* o, const float* i) { k<<<1, 32>>>(o, i); }\n");
  auto f = findings_of_rule(a, "bank-conflict");
  // (0-based lines) 5: 8-byte pairs 72 bytes apart spread over all banks (measured clean);
  // 6: 16-byte runs 256 bytes apart, 8-way per phase (measured); 8: single words 72 bytes apart.
  std::vector<uint32_t> lines;
  for (const auto* x : f) lines.push_back(x->location.range.start.line);
  CHECK(lines == std::vector<uint32_t>{6, 8});
  REQUIRE_FALSE(f.empty());
  CHECK(contains(f[0]->message, "16-byte accesses (the unrolled loop's 4-byte elements, one vector per lane)"));
}

TEST_CASE("an unpadded tile read by column gets the padding fix; a tile also used flat does not") {
  auto a = analyse(
      "#define TILE 32\n"
      "__global__ void t(float* out, const float* in, int n) {\n"
      "  __shared__ float tile[TILE][TILE];\n"
      "  __shared__ float flat[TILE][TILE];\n"
      "  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * n + threadIdx.x];\n"
      "  flat[threadIdx.y][threadIdx.x] = in[threadIdx.y * n + threadIdx.x];\n"
      "  __syncthreads();\n"
      "  out[threadIdx.y * n + threadIdx.x] = tile[threadIdx.x][threadIdx.y] + flat[threadIdx.x][threadIdx.y]\n"
      "      + reinterpret_cast<float*>(flat)[threadIdx.x];\n"
      "}\n"
      "void launch(float* o, const float* i, int n) { t<<<1, dim3(32, 32)>>>(o, i, n); }\n");
  auto f = findings_of_rule(a, "bank-conflict");
  REQUIRE(f.size() == 2);
  const Finding* on_tile = contains(f[0]->message, "`tile`") ? f[0] : f[1];
  const Finding* on_flat = on_tile == f[0] ? f[1] : f[0];
  REQUIRE(on_tile->fixes.size() == 1);
  CHECK(on_tile->fixes[0].title == "Pad each row of `tile` by one element ([TILE + 1])");
  REQUIRE(on_tile->fixes[0].edits.size() == 1);
  const TextEdit& edit = on_tile->fixes[0].edits[0];
  CHECK(edit.new_text == "TILE + 1");
  CHECK(edit.range.start.line == 2);  // the declaration's second `TILE`
  CHECK(edit.range.start.column == 30);
  CHECK(edit.range.end.column == 34);
  CHECK(on_flat->fixes.empty());  // a flat view of it would move with the padding
}

TEST_CASE("a literal row size is padded as a literal") {
  auto a = analyse(
      "__global__ void col(double* out, const double* in) {\n"
      "  __shared__ double d[32][32];\n"
      "  for (int r = 0; r < 32; ++r) d[r][threadIdx.x] = in[r * 32 + threadIdx.x];\n"
      "  __syncthreads();\n"
      "  out[threadIdx.x] = d[threadIdx.x][3];\n"
      "}\n"
      "void launch(double* o, const double* i) { col<<<1, 32>>>(o, i); }\n");
  auto f = findings_of_rule(a, "bank-conflict");
  REQUIRE(f.size() == 1);
  REQUIRE(f[0]->fixes.size() == 1);
  CHECK(f[0]->fixes[0].title == "Pad each row of `d` by one element ([33])");
  CHECK(f[0]->fixes[0].edits[0].new_text == "33");
}

TEST_CASE("a loop variable the model cannot step is judged in the loop's first iteration") {
  auto a = analyse(
      "__global__ void interleaved(float* out, const float* in) {\n"
      "  extern __shared__ float sdata[];\n"
      "  unsigned tid = threadIdx.x;\n"
      "  sdata[tid] = in[blockIdx.x * blockDim.x + tid];\n"
      "  __syncthreads();\n"
      "  for (unsigned s = 1; s < blockDim.x; s *= 2) {\n"
      "    unsigned index = 2 * s * tid;\n"
      "    if (index < blockDim.x) sdata[index] += sdata[index + s];\n"
      "    __syncthreads();\n"
      "  }\n"
      "  if (tid == 0) out[blockIdx.x] = sdata[0];\n"
      "}\n"
      "__global__ void modulo(float* out, const float* in) {\n"
      "  extern __shared__ float sdata[];\n"
      "  unsigned tid = threadIdx.x;\n"
      "  sdata[tid] = in[blockIdx.x * blockDim.x + tid];\n"
      "  __syncthreads();\n"
      "  for (unsigned s = 1; s < blockDim.x; s *= 2) {\n"
      "    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];\n"
      "    __syncthreads();\n"
      "  }\n"
      "  if (tid == 0) out[blockIdx.x] = sdata[0];\n"
      "}\n"
      "__global__ void sequential(float* out, const float* in) {\n"
      "  extern __shared__ float sdata[];\n"
      "  unsigned tid = threadIdx.x;\n"
      "  sdata[tid] = in[blockIdx.x * blockDim.x + tid];\n"
      "  __syncthreads();\n"
      "  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {\n"
      "    if (tid < s) sdata[tid] += sdata[tid + s];\n"
      "    __syncthreads();\n"
      "  }\n"
      "  if (tid == 0) out[blockIdx.x] = sdata[0];\n"
      "}\n"
      "__global__ void per_thread_bins(unsigned* out) {\n"
      "  __shared__ unsigned char bins[64 * 64];\n"
      "  for (int i = threadIdx.x; i < 64 * 64; i += 64) bins[i] = 0;\n"
      "  __syncthreads();\n"
      "  unsigned char* mine = bins + threadIdx.x * 64;\n"
      "  unsigned pos = 4 * (threadIdx.x & 15), sum = 0;\n"
      "  for (int i = 0; i < 16; ++i) {\n"
      "    sum += mine[pos];\n"
      "    pos = (pos + 4) & 63;\n"
      "  }\n"
      "  out[threadIdx.x] = sum;\n"
      "}\n"
      "void launch(float* o, const float* i, unsigned* u) {\n"
      "  interleaved<<<64, 256, 1024>>>(o, i);\n"
      "  modulo<<<64, 256, 1024>>>(o, i);\n"
      "  sequential<<<64, 256, 1024>>>(o, i);\n"
      "  per_thread_bins<<<64, 64>>>(u);\n"
      "}\n");
  auto f = findings_of_rule(a, "bank-conflict");
  std::vector<uint32_t> lines;
  for (const auto* x : f) lines.push_back(x->location.range.start.line);
  // The interleaved tree's two reads and its store (line 7): 2-way when s = 1 and worse later;
  // the per-thread bins (line 41): lanes 16 words + 1 apart meet again at lane 16. Not the
  // modulo tree (its active lanes are 2 * s apart but never share a bank) nor the sequential one.
  CHECK(lines == std::vector<uint32_t>{7, 7, 41});
  for (const auto* x : f) {
    if (x->location.range.start.line == 41) {
      CHECK(contains(x->message, "in the first iteration of its loop, where `pos` = "));
      CHECK(contains(x->message, "2 wavefronts where 1 would do (2-way)"));
    } else {
      // The loop condition fixes s's values (1 .. 128 with 256 threads): the worst is named.
      CHECK(contains(x->message, "(one of the values its loop runs through)"));
      INFO(x->message);
    }
  }
}

TEST_CASE("a runtime stride that every launch fixes is judged at that value") {
  auto source = [](int d) {
    return "__global__ void tiles(float* out, const float* K, int d) {\n"
           "  extern __shared__ float Kj[];\n"
           "  int tx = threadIdx.x;\n"
           "  for (int x = 0; x < d; x++) Kj[tx * d + x] = K[blockIdx.x * 32 * d + tx * d + x];\n"
           "  __syncthreads();\n"
           "  out[blockIdx.x * 32 + tx] = Kj[tx];\n"
           "}\n"
           "void launch(float* o, const float* k) { tiles<<<8, 32, 32 * " +
           std::to_string(d) + " * 4>>>(o, k, " + std::to_string(d) + "); }\n";
  };
  auto conflicted = analyse(source(64));
  auto f = findings_of_rule(conflicted, "bank-conflict");
  REQUIRE(f.size() == 1);
  CHECK(f[0]->location.range.start.line == 3);
  CHECK(contains(f[0]->message, "`d` elements apart (a runtime value; 64 at the launches in this file)"));
  INFO(f[0]->message);
  CHECK(contains(f[0]->message, "32 wavefronts where 1 would do (32-way)"));
  // An odd row length puts each lane's row start in another bank.
  CHECK(findings_of_rule(analyse(source(65)), "bank-conflict").empty());
}

TEST_CASE("a shared atomic at the lane's own data is a conflict whose degree is the data's") {
  auto a = analyse(
      "__global__ void hist(unsigned* out, const unsigned* data, const int* ids, float* vals, int n) {\n"
      "  __shared__ unsigned bins[256];\n"
      "  __shared__ float table[256];\n"
      "  bins[threadIdx.x] = 0;\n"
      "  table[threadIdx.x] = vals[threadIdx.x];\n"
      "  __syncthreads();\n"
      "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {\n"
      "    atomicAdd(&bins[data[i] & 255], 1u);\n"
      "    vals[i] = table[ids[i] & 255];\n"
      "  }\n"
      "  __syncthreads();\n"
      "  atomicOr(&bins[bins[threadIdx.x] / 32], 1u);\n"  // a value the block computed: not guessed"
      "  atomicAdd(&out[threadIdx.x], bins[threadIdx.x]);\n"
      "}\n"
      "void launch(unsigned* o, const unsigned* d, const int* ids, float* v, int n) { hist<<<64, 256>>>(o, d, ids, v, n); }\n");
  auto f = findings_of_rule(a, "bank-conflict");
  // The atomic only: a plain load of a table at loaded indices broadcasts equal values.
  REQUIRE(f.size() == 1);
  CHECK(f[0]->location.range.start.line == 7);
  CHECK(f[0]->severity == Severity::Warning);
  CHECK(contains(f[0]->message, "shared-memory atomic on `bins` at an address each lane computes from"));
  CHECK(contains(f[0]->message, "__match_any_sync"));
}
