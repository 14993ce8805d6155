// out-of-bounds through the analyzers' front door: a rounded-up grid whose last block's threads
// make an unguarded access, against every way a kernel or its host can rule the tail out.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analyzers/pipeline/analysis.h"
#include "tests/unit/analysis_test_support.h"

using namespace kl::analyzers;
using namespace kl::analyzers::testing;

namespace {

FileAnalysis analyse(const std::string& source) {
  static Analyzer analyzer(settings_for_archs({"9.0"}));
  return analyzer.analyze_source(scratch_file("kl_out_of_bounds_test", "snippet.cu"), source);
}

std::vector<uint32_t> lines_of(const FileAnalysis& a) {
  std::vector<uint32_t> lines;
  for (const auto* f : findings_of_rule(a, "out-of-bounds")) lines.push_back(f->location.range.start.line);
  return lines;
}

}  // namespace

TEST_CASE("an unguarded access under a rounded-up grid reaches past the count") {
  auto a = analyse(
      "__global__ void add(float* out, const float* a, const float* b, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[i] = a[i] + b[i];\n"
      "}\n"
      "void run(float* o, const float* a, const float* b, int n) { add<<<(n + 255) / 256, 256>>>(o, a, b, n); }\n");
  auto f = findings_of_rule(a, "out-of-bounds");
  REQUIRE(f.size() == 3);  // the store and both loads
  CHECK(f[0]->severity == Severity::Warning);
  CHECK(f[0]->location.range.start.line == 2);
  CHECK(contains(f[0]->message, "out-of-bounds store to `out` when n % 256 != 0"));
  CHECK(contains(f[0]->message, "(n + 255) / 256 blocks of 256 threads"));
  CHECK(contains(f[0]->message, "at indices up to n + 254"));
  CHECK(contains(f[0]->message, "the kernel receives the count as `n`"));
  REQUIRE_FALSE(f[0]->notes.empty());
  CHECK(f[0]->notes[0].location.range.start.line == 4);  // the launch
}

TEST_CASE("guards, early returns, grid-stride loops and exact grids are silent") {
  auto a = analyse(
      "__global__ void guarded(float* out, const float* in, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) out[i] = in[i];\n"
      "}\n"
      "__global__ void early(float* out, const float* in, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i >= n) return;\n"
      "  out[i] = in[i];\n"
      "}\n"
      "__global__ void strided(float* out, const float* in, int n) {\n"
      "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) out[i] = in[i];\n"
      "}\n"
      "__global__ void exact(float* out, const float* in, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[i] = in[i];\n"
      "}\n"
      "__global__ void clamped(float* out, const float* in, int n) {\n"
      "  int i = min(int(blockIdx.x * blockDim.x + threadIdx.x), n - 1);\n"
      "  out[i] = in[i];\n"
      "}\n"
      "void run(float* o, const float* i, int n) {\n"
      "  guarded<<<(n + 255) / 256, 256>>>(o, i, n);\n"
      "  early<<<(n + 255) / 256, 256>>>(o, i, n);\n"
      "  strided<<<(n + 255) / 256, 256>>>(o, i, n);\n"
      "  exact<<<n / 256, 256>>>(o, i, n);\n"
      "  clamped<<<(n + 255) / 256, 256>>>(o, i, n);\n"
      "}\n");
  CHECK(lines_of(a).empty());
}

TEST_CASE("a host check that the block divides the count rules the tail out") {
  auto source = [](const std::string& check) {
    return "__global__ void scale(float* out, const float* in, int n) {\n"
           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  out[i] = 2.0f * in[i];\n"
           "}\n"
           "void run(float* o, const float* i, int n) {\n" +
           check +
           "  scale<<<(n + 127) / 128, 128>>>(o, i, n);\n"
           "}\n";
  };
  CHECK(lines_of(analyse(source(""))) == std::vector<uint32_t>{2, 2});
  CHECK(lines_of(analyse(source("  if (n % 128 != 0) return;\n"))).empty());
  CHECK(lines_of(analyse(source("  if (__builtin_expect(n % 128 != 0, 0)) return;\n"))).empty());
  // A smaller multiple leaves the tail.
  CHECK(lines_of(analyse(source("  if (n % 64 != 0) return;\n"))) == std::vector<uint32_t>{2, 2});
}

TEST_CASE("the other ways to round up, and block sizes that do not match the rounding") {
  auto a = analyse(
      "__global__ void copy(float* out, const float* in, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[i + 1] = in[i];\n"
      "}\n"
      "__global__ void twice(float* out, const float* in, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[i] = in[i];\n"
      "}\n"
      "void run(float* o, const float* i, int n) {\n"
      "  copy<<<(n - 1) / 256 + 1, 256>>>(o, i, n);\n"
      "  twice<<<(n + 255) / 256, 128>>>(o, i, n);\n"  // 128 threads per block: not the rounding
      "}\n");
  auto f = findings_of_rule(a, "out-of-bounds");
  REQUIRE(f.size() == 2);
  for (const auto* x : f) CHECK(x->location.range.start.line == 2);
  CHECK(contains(f[0]->message, "at indices up to n + 255"));  // the store, one past the thread
}

TEST_CASE("a guard in the kernel covers the accesses of the helpers it calls") {
  auto a = analyse(
      "__device__ void write_row(float* out, const float* in, long i, bool flip) {\n"
      "  float v;\n"
      "  if (flip) v = -in[i]; else v = in[i];\n"
      "  out[i] = v;\n"
      "}\n"
      "__global__ void rows(float* out, const float* in, long n, bool flip) {\n"
      "  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i >= n) return;\n"
      "  write_row(out, in, i, flip);\n"
      "}\n"
      "#define CEIL_DIV(M, N) (((M) + (N) - 1) / (N))\n"
      "__global__ void plain(float* out, const float* in, long n) {\n"
      "  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[i] = in[i];\n"
      "}\n"
      "void run(float* o, const float* i, long n) {\n"
      "  rows<<<(n + 255) / 256, 256>>>(o, i, n, true);\n"
      "  const int count = n;\n"
      "  plain<<<CEIL_DIV(count, 256), 256>>>(o, i, count);\n"
      "}\n");
  auto f = findings_of_rule(a, "out-of-bounds");
  REQUIRE(f.size() == 2);  // plain's store and load; nothing in write_row
  for (const auto* x : f) CHECK(x->location.range.start.line == 13);
  CHECK(contains(f[0]->message, "when count % 256 != 0"));
  CHECK(contains(f[0]->message, "the kernel receives the count as `n`"));
}

TEST_CASE("a 2-D grid guarded along one dimension runs past the other's rows") {
  auto a = analyse(
      "__global__ void scale2d(float* out, const float* in, int rows, int cols) {\n"
      "  int c = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  int r = blockIdx.y * blockDim.y + threadIdx.y;\n"
      "  if (c < cols) out[r * cols + c] = 2.0f * in[r * cols + c];\n"
      "}\n"
      "__global__ void guarded2d(float* out, const float* in, int rows, int cols) {\n"
      "  int c = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  int r = blockIdx.y * blockDim.y + threadIdx.y;\n"
      "  if (c < cols && r < rows) out[r * cols + c] = 2.0f * in[r * cols + c];\n"
      "}\n"
      "__global__ void batch_flag(float* out, const float* in, int n, bool on) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (on) out[blockIdx.y * n + i] = in[blockIdx.y * n + i];\n"  // a test of a parameter bounds no thread
      "}\n"
      "void run(float* o, const float* i, int rows, int cols, int n) {\n"
      "  dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);\n"
      "  scale2d<<<grid, block>>>(o, i, rows, cols);\n"
      "  guarded2d<<<grid, block>>>(o, i, rows, cols);\n"
      "  batch_flag<<<dim3((n + 127) / 128, 4), 128>>>(o, i, n, true);\n"
      "}\n");
  auto f = findings_of_rule(a, "out-of-bounds");
  std::vector<uint32_t> lines;
  for (const auto* x : f) lines.push_back(x->location.range.start.line);
  CHECK(lines == std::vector<uint32_t>{3, 3, 12, 12});
  REQUIRE_FALSE(f.empty());
  CHECK(contains(f[0]->message, "when rows % 8 != 0"));
  CHECK(contains(f[0]->message, "at index rows * cols or beyond, past the end of a rows x cols buffer"));
  CHECK(contains(f[0]->message, "blockIdx.y * blockDim.y + threadIdx.y < rows"));
  CHECK(contains(f[2]->message, "at index n or beyond"));
}

TEST_CASE("a loop that lets its variable reach a row's length walks into the next row") {
  auto a = analyse(
      "__global__ void row_sum(float* out, const float* in, int cols) {\n"
      "  float s = 0;\n"
      "  for (int c = 0; c <= cols; ++c) s += in[blockIdx.x * cols + c];\n"
      "  out[blockIdx.x] = s;\n"
      "}\n"
      "__global__ void column_walk(float* m, int width) {\n"
      "  int r = blockIdx.y * blockDim.y + threadIdx.y;\n"
      "  for (int x = 1; x <= width; x++) m[r * width + x] = 0.f;\n"
      "}\n");
  auto f = findings_of_rule(a, "out-of-bounds");
  REQUIRE(f.size() == 2);
  CHECK(f[0]->location.range.start.line == 2);
  CHECK(contains(f[0]->message, "out-of-bounds load from `in` in the loop's last iteration: `c <= cols` lets `c` reach cols"));
  CHECK(contains(f[0]->message, "ends at index blockIdx.x * cols + cols, the first element of the next row"));
  CHECK(contains(f[0]->message, "Loop while `c < cols`"));
  CHECK(f[1]->location.range.start.line == 7);
  CHECK(contains(f[1]->message, "store to `m`"));
}

TEST_CASE("inclusive loops that stay inside their rows or their buffers are silent") {
  auto a = analyse(
      // The row bound is exclusive.
      "__global__ void exclusive(float* out, const float* in, int cols) {\n"
      "  float s = 0;\n"
      "  for (int c = 0; c < cols; ++c) s += in[blockIdx.x * cols + c];\n"
      "  out[blockIdx.x] = s;\n"
      "}\n"
      // Rows one longer than the bound (a CSR offset array, a polynomial's coefficients).
      "__global__ void padded(float* out, const float* in, int k) {\n"
      "  float s = 0;\n"
      "  for (int c = 0; c <= k; ++c) s += in[blockIdx.x * (k + 1) + c];\n"
      "  out[blockIdx.x] = s;\n"
      "}\n"
      // One buffer of n + 1 offsets, no rows.
      "__global__ void offsets(int* offs, int n) {\n"
      "  for (int i = 0; i <= n; ++i) offs[i] = 0;\n"
      "}\n"
      // A test inside the loop decides the last column.
      "__global__ void tested(float* out, const float* in, int cols) {\n"
      "  float s = 0;\n"
      "  for (int c = 0; c <= cols; ++c) if (c < cols) s += in[blockIdx.x * cols + c];\n"
      "  out[blockIdx.x] = s;\n"
      "}\n"
      // The variable after the loop is not its last value.
      "__global__ void after(float* out, const float* in, int cols) {\n"
      "  int c = 0;\n"
      "  for (; c <= cols; ++c) {}\n"
      "  out[blockIdx.x] = in[blockIdx.x * cols];\n"
      "}\n"
      // A row index that may go down (a difference), a bound that is not the stride.
      "__global__ void other(float* out, const float* in, int cols, int n) {\n"
      "  for (int c = 0; c <= n; ++c) out[blockIdx.x * cols + c] = in[c];\n"
      "}\n");
  CHECK(lines_of(a).empty());
}

TEST_CASE("a vector access that tests only its first element crosses the count's end") {
  auto a = analyse(
      "__global__ void scale(float* out, const float* in, int n) {\n"
      "  int v = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (4 * v < n) {\n"
      "    float4 x = reinterpret_cast<const float4*>(in)[v];\n"
      "    reinterpret_cast<float4*>(out)[v] = x;\n"
      "  }\n"
      "}\n"
      // 8 bf16 (stored as unsigned short) per 16-byte load, in a grid-stride loop
      "__global__ void pack8(unsigned short* out, const unsigned short* in, long n) {\n"
      "  for (long v = blockIdx.x * blockDim.x + threadIdx.x; 8 * v < n; v += blockDim.x * gridDim.x)\n"
      "    reinterpret_cast<uint4*>(out)[v] = reinterpret_cast<const uint4*>(in)[v];\n"
      "}\n");
  auto f = findings_of_rule(a, "out-of-bounds");
  REQUIRE(lines_of(a) == std::vector<uint32_t>{3, 4, 9, 9});
  CHECK(contains(f[0]->message, "load from `in` when n % 4 != 0"));
  CHECK(contains(f[0]->message, "reads 4 float elements at once (16 bytes)"));
  CHECK(contains(f[0]->message, "up to 3 elements past the end"));
  CHECK(contains(f[1]->message, "store to `out`"));
  CHECK(contains(f[2]->message, "when n % 8 != 0"));
  CHECK(contains(f[2]->message, "8 unsigned short elements"));
}

TEST_CASE("vector accesses that bound their last element, or whose count the vector divides, are silent") {
  auto a = analyse(
      // the last element tested, the rest one by one
      "__global__ void tail_handled(float* out, const float* in, int n) {\n"
      "  int v = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (4 * v + 3 < n) {\n"
      "    reinterpret_cast<float4*>(out)[v] = reinterpret_cast<const float4*>(in)[v];\n"
      "  } else {\n"
      "    for (int i = 4 * v; i < n; ++i) out[i] = in[i];\n"
      "  }\n"
      "}\n"
      // a count of vectors
      "__global__ void by_vectors(float* out, const float* in, int n) {\n"
      "  int v = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (v < n / 4) reinterpret_cast<float4*>(out)[v] = reinterpret_cast<const float4*>(in)[v];\n"
      "}\n"
      // the kernel checks that 4 divides the count
      "__global__ void checked(float* out, const float* in, int n) {\n"
      "  if (n % 4 != 0) return;\n"
      "  int v = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (4 * v < n) reinterpret_cast<float4*>(out)[v] = reinterpret_cast<const float4*>(in)[v];\n"
      "}\n"
      // the host checks it before every launch
      "__global__ void host_checked(float* out, const float* in, int n) {\n"
      "  int v = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (4 * v < n) reinterpret_cast<float4*>(out)[v] = reinterpret_cast<const float4*>(in)[v];\n"
      "}\n"
      "void launch(float* o, const float* i, int n) {\n"
      "  if (n % 4 != 0) return;\n"
      "  host_checked<<<(n / 4 + 255) / 256, 256>>>(o, i, n);\n"
      "}\n"
      // a scalar access under the same test
      "__global__ void scalar(float* out, const float* in, int n) {\n"
      "  int v = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (4 * v < n) out[4 * v] = in[4 * v];\n"
      "}\n");
  CHECK(lines_of(a).empty());
}

TEST_CASE("an access past the guard's count into a buffer the host allocates that long is an error") {
  auto a = analyse(
      "#define CHECK(x) do { if ((x) != cudaSuccess) abort(); } while (0)\n"
      "__global__ void diff(float* out, const float* in, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) out[i] = in[i + 1] - in[i];\n"
      "}\n"
      "__global__ void early(float* out, const float* in, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i >= n) return;\n"
      "  out[i] = in[i + 2];\n"
      "}\n"
      "__global__ void inclusive(float* out, const float* in, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i <= n) out[i] = in[i];\n"
      "}\n"
      "__global__ void strided(float* out, const float* in, int n) {\n"
      "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) out[i] = in[i + 1];\n"
      "}\n"
      "float* device_floats(size_t count) {\n"
      "  float* p;\n"
      "  cudaMalloc(&p, count * sizeof(float));\n"
      "  return p;\n"
      "}\n"
      "int main() {\n"
      "  int n = 5000;\n"
      "  float *out, *in;\n"
      "  CHECK(cudaMalloc((void**)&out, n * sizeof(float)));\n"
      "  CHECK(cudaMalloc(&in, sizeof(float) * n));\n"
      "  diff<<<(n + 127) / 128, 128>>>(out, in, n);\n"
      "  early<<<(n + 127) / 128, 128>>>(out, in, n);\n"
      "  float* helper = device_floats(n);\n"
      "  inclusive<<<(n + 127) / 128, 128>>>(out, helper, n);\n"
      "  strided<<<4, 128>>>(out, in, n);\n"
      "}\n");
  auto f = findings_of_rule(a, "out-of-bounds");
  REQUIRE(lines_of(a) == std::vector<uint32_t>{3, 8, 12, 12, 15});
  for (const auto* x : f) CHECK(x->severity == Severity::Error);
  CHECK(contains(f[0]->message, "load from `in`: the path lets `128 * blockIdx.x + threadIdx.x` reach n - 1 (`< n`)"));
  CHECK(contains(f[0]->message, "at that index + 1, so it reaches element n, past the end"));
  CHECK(contains(f[0]->message, "the launch at line 28 passes `in`, which holds 5000 elements (cudaMalloc at line 27)"));
  CHECK(contains(f[1]->message, "reaches elements n to n + 1"));
  CHECK(contains(f[2]->message, "when n % 128 != 0: the path lets `128 * blockIdx.x + threadIdx.x` reach n (`<= n`)"));
  CHECK(contains(f[3]->message, "`helper`, which holds 5000 elements (cudaMalloc at line 20)"));
  CHECK(contains(f[4]->message, "the path lets `i` reach n - 1"));
}

TEST_CASE("a tensor's data is as long as its numel()") {
  auto a = analyse(
      "namespace at { struct Tensor { long numel() const; template <typename T> T* data_ptr() const; }; }\n"
      "__global__ void shift(float* out, const float* in, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) out[i] = in[i + 1];\n"
      "}\n"
      "void run(at::Tensor out, at::Tensor x) {\n"
      "  int n = x.numel();\n"
      "  shift<<<(n + 255) / 256, 256>>>(out.data_ptr<float>(), x.data_ptr<float>(), n);\n"
      "}\n");
  auto f = findings_of_rule(a, "out-of-bounds");
  REQUIRE(f.size() == 1);
  CHECK(f[0]->location.range.start.line == 3);
  CHECK(contains(f[0]->message, "passes `x.data_ptr<float>()`, which holds n elements (all of the tensor `x`)"));

  // Counted before the tensor is assigned anew (`x = x.narrow(...)`): its numel() may differ.
  auto narrowed = analyse(
      "namespace at { struct Tensor { long numel() const; template <typename T> T* data_ptr() const;\n"
      "  Tensor narrow(long, long, long) const; }; }\n"
      "__global__ void shift(float* out, const float* in, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) out[i] = in[i + 1];\n"
      "}\n"
      "void run(at::Tensor out, at::Tensor x) {\n"
      "  int n = x.numel();\n"
      "  x = x.narrow(0, 0, 5);\n"
      "  shift<<<(n + 255) / 256, 256>>>(out.data_ptr<float>(), x.data_ptr<float>(), n);\n"
      "}\n");
  CHECK(lines_of(narrowed).empty());
}

TEST_CASE("a buffer longer than the guard's count, another test of the index, or launches that disagree are silent") {
  auto a = analyse(
      "__global__ void lengths(int* len, const int* row_ptr, int rows) {\n"
      "  int r = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (r < rows) len[r] = row_ptr[r + 1] - row_ptr[r];\n"
      "}\n"
      "__global__ void two_bounds(float* out, const float* in, int n, int m) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n && i < m) out[i] = in[i + 1];\n"
      "}\n"
      "__global__ void twice(float* out, const float* in, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) out[i] = in[i + 1];\n"
      "}\n"
      "__global__ void interior(float* out, const float* in, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i > 0 && i + 1 < n) out[i] = in[i - 1] + in[i + 1];\n"
      "}\n"
      "void run(int rows, int n, int m) {\n"
      "  int *len, *row_ptr;\n"
      "  float *out, *in, *padded;\n"
      "  cudaMalloc(&len, rows * sizeof(int));\n"
      "  cudaMalloc(&row_ptr, (rows + 1) * sizeof(int));\n"
      "  cudaMalloc(&out, n * sizeof(float));\n"
      "  cudaMalloc(&in, n * sizeof(float));\n"
      "  cudaMalloc(&padded, (n + 1) * sizeof(float));\n"
      "  lengths<<<(rows + 255) / 256, 256>>>(len, row_ptr, rows);\n"
      "  two_bounds<<<(n + 255) / 256, 256>>>(out, in, n, m);\n"
      "  twice<<<(n + 255) / 256, 256>>>(out, in, n);\n"
      "  twice<<<(n + 255) / 256, 256>>>(out, padded, n);\n"
      "  interior<<<(n + 255) / 256, 256>>>(out, in, n);\n"
      "}\n");
  CHECK(lines_of(a).empty());
}
