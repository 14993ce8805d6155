// The access model and its two rules through the analyzers' front door: the real clang front
// end and CUDA headers, small kernels, the findings a person would see.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "analyzers/pipeline/analysis.h"
#include "tests/unit/analysis_test_support.h"

using namespace kl::analyzers;
using namespace kl::analyzers::testing;

namespace {

FileAnalysis analyse(const std::string& source, const char* name = "snippet.cu") {
  static Analyzer analyzer(settings_for_archs({"9.0"}));
  return analyzer.analyze_source(scratch_file("kl_access_model_test", name), source);
}


}  // namespace

TEST_CASE("naive transpose: the column-wise store is reported with its exact range") {
  auto a = analyse(
      "__global__ void transpose(float* out, const float* in, int n) {\n"
      "  int x = blockIdx.x * 32 + threadIdx.x;\n"
      "  int y = blockIdx.y * 32 + threadIdx.y;\n"
      "  float v = in[y * n + x];\n"
      "  out[x * n + y] = v;\n"
      "}\n");
  auto f = findings_of_rule(a, "uncoalesced-access");
  REQUIRE(f.size() == 1);
  CHECK(f[0]->severity == Severity::Warning);
  CHECK(f[0]->location.range.start.line == 4);
  CHECK(f[0]->location.range.start.column == 2);
  CHECK(f[0]->location.range.end.column == 16);  // `out[x * n + y]`
  CHECK(contains(f[0]->message, "`n` elements apart (a runtime value)"));
  CHECK(contains(f[0]->message, "32 sectors where 4 would do"));
  CHECK(contains(f[0]->message, "shared memory"));
  CHECK_FALSE(a.facts.accesses.empty());
}

TEST_CASE("wide elements at unit stride, broadcasts and grid-stride loops are coalesced") {
  auto a = analyse(
      "__global__ void k(double* d, const float4* v, float4* o, const float* w, int n) {\n"
      "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {\n"
      "    d[i] = d[i] * w[0];\n"
      "    o[i] = v[i];\n"
      "  }\n"
      "}\n");
  CHECK(findings_of_rule(a, "uncoalesced-access").empty());
}

TEST_CASE("warp per row is coalesced; lanes walking rows are not") {
  auto a = analyse(
      "__global__ void rows(float* y, const float* A, int n) {\n"
      "  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;\n"
      "  int lane = threadIdx.x % 32;\n"
      "  float s = 0.f;\n"
      "  for (int k = lane; k < n; k += 32) s += A[warp * n + k];\n"
      "  if (lane == 0) y[warp * 64] = s;\n"
      "}\n"
      "__global__ void cols(float* y, const float* A, int n) {\n"
      "  int warp = threadIdx.x >> 5;\n"
      "  int lane = threadIdx.x & 31;\n"
      "  y[warp] = A[lane * n + warp];\n"
      "}\n");
  auto f = findings_of_rule(a, "uncoalesced-access");
  REQUIRE(f.size() == 1);
  CHECK(f[0]->location.range.start.line == 10);
}

TEST_CASE("blockDim.x known from the launch decides whether threadIdx.y varies in a warp") {
  auto a = analyse(
      "__global__ void k16(float* out, const float* in, int n) {\n"
      "  int r = blockIdx.x * 16 + threadIdx.x;\n"
      "  int c = blockIdx.y * 16 + threadIdx.y;\n"
      "  out[c * n + r] = in[r * n + c];\n"
      "}\n"
      "__global__ void k4(float* out, const float* in, int n) {\n"
      "  int x = blockIdx.x * 4 + threadIdx.x;\n"
      "  int y = blockIdx.y * 64 + threadIdx.y;\n"
      "  out[y * n + x] = 1.f;\n"
      "}\n"
      "void launch(float* o, const float* i, int n) {\n"
      "  k16<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(o, i, n);\n"
      "  dim3 block(4, 64);\n"
      "  k4<<<dim3(n / 4, n / 64), block>>>(o, i, n);\n"
      "}\n");
  auto f = findings_of_rule(a, "uncoalesced-access");
  REQUIRE(f.size() == 2);
  CHECK(f[0]->location.range.start.line == 3);
  CHECK(f[0]->location.range.start.column == 19);  // the load, not the store
  CHECK(f[1]->location.range.start.line == 8);
  CHECK(contains(f[1]->message, "8 sectors where 4 would do"));
}

TEST_CASE("single-lane accesses are not reported") {
  auto a = analyse(
      "__global__ void k(float* out, const float* in, int stride) {\n"
      "  if (threadIdx.x == 0) out[blockIdx.x * stride] = in[threadIdx.x * 32];\n"
      "}\n");
  CHECK(findings_of_rule(a, "uncoalesced-access").empty());
}

TEST_CASE("arrays of structs: a field per lane, with the structure-of-arrays hint") {
  auto a = analyse(
      "struct P { float x, y, z, w; };\n"
      "__global__ void k(float* out, const P* p) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[i] = p[i].y;\n"
      "}\n");
  auto f = findings_of_rule(a, "uncoalesced-access");
  REQUIRE(f.size() == 1);
  CHECK(contains(f[0]->message, "16 bytes apart"));
  CHECK(contains(f[0]->message, "structure of arrays"));
}

TEST_CASE("indices computed in helpers are followed; the finding sits in the helper") {
  auto a = analyse(
      "__device__ int at(int r, int c, int ld) { return r * ld + c; }\n"
      "__device__ float get(const float* m, int i) { return m[i]; }\n"
      "__global__ void k(float* out, const float* in, int ld) {\n"
      "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[t] = get(in, at(t, 0, ld));\n"
      "}\n");
  auto f = findings_of_rule(a, "uncoalesced-access");
  REQUIRE(f.size() == 1);
  CHECK(f[0]->location.range.start.line == 1);
  REQUIRE(f[0]->notes.size() == 1);
  CHECK(f[0]->notes[0].location.range.start.line == 4);
}

TEST_CASE("misaligned by construction: a float4 view one float in is an error") {
  auto a = analyse(
      "__global__ void k(float* out, const float* in) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  float4 v = reinterpret_cast<const float4*>(in + 1)[i];\n"
      "  out[i] = v.x + v.y + v.z + v.w;\n"
      "}\n");
  auto f = findings_of_rule(a, "misaligned-access");
  REQUIRE(f.size() == 1);
  CHECK(f[0]->severity == Severity::Error);
  CHECK(f[0]->location.range.start.line == 2);
  CHECK(contains(f[0]->message, "4 bytes past a multiple of 16"));
}

TEST_CASE("a runtime row length: the condition as information, silent once the code checks it") {
  const std::string body =
      "  const float4* xr = reinterpret_cast<const float4*>(x + blockIdx.x * hidden);\n"
      "  float s = 0.f;\n"
      "  for (int i = threadIdx.x; i < hidden / 4; i += blockDim.x) { float4 v = xr[i]; s += v.x + v.w; }\n"
      "  out[blockIdx.x] = s;\n"
      "}\n";
  auto unchecked = analyse("__global__ void k(float* out, const float* x, int hidden) {\n" + body);
  auto f = findings_of_rule(unchecked, "misaligned-access");
  REQUIRE(f.size() == 1);
  CHECK(f[0]->severity == Severity::Information);  // the host code, elsewhere, may well guarantee it
  CHECK(contains(f[0]->message, "hidden % 4 == 0"));

  for (const char* check : {"  if (hidden % 4) return;\n", "  if (hidden % 4 != 0) { out[0] = 0.f; return; }\n",
                            "  if ((hidden & 3) != 0) return;\n", "  __builtin_assume(hidden % 4 == 0);\n"}) {
    auto checked = analyse("__global__ void k(float* out, const float* x, int hidden) {\n" + std::string(check) + body);
    CHECK(findings_of_rule(checked, "misaligned-access").empty());
  }
  auto tmpl = analyse("template <int hidden> __global__ void k(float* out, const float* x) {\n" + body +
                      "template __global__ void k<1024>(float*, const float*);\n");
  CHECK(findings_of_rule(tmpl, "misaligned-access").empty());
  auto asserted = analyse("template <int hidden> __global__ void k(float* out, const float* x) {\n"
                          "  static_assert(hidden % 4 == 0, \"rows of whole vectors\");\n" + body);
  CHECK(findings_of_rule(asserted, "misaligned-access").empty());
}

TEST_CASE("__half2 at an odd element offset is an error; bf16 rows give a condition") {
  auto a = analyse(
      "#include <cuda_fp16.h>\n"
      "#include <cuda_bf16.h>\n"
      "__global__ void k(__half* out, const __half* x, const __nv_bfloat16* b, int dim) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  __half2 v = *reinterpret_cast<const __half2*>(x + 2 * i + 1);\n"
      "  uint4 w = reinterpret_cast<const uint4*>(b + blockIdx.x * dim)[threadIdx.x];\n"
      "  out[i] = __low2half(v);\n"
      "  out[i + 1] = __float2half((float)w.x);\n"
      "}\n");
  auto f = findings_of_rule(a, "misaligned-access");
  REQUIRE(f.size() == 2);
  CHECK(f[0]->severity == Severity::Error);
  CHECK(f[1]->severity == Severity::Information);
  CHECK(contains(f[1]->message, "dim % 8 == 0"));
}

TEST_CASE("shared byte buffers used as vectors need __align__") {
  auto a = analyse(
      "__global__ void k(float* out) {\n"
      "  __shared__ unsigned char raw[4096];\n"
      "  __shared__ __align__(16) unsigned char ok[4096];\n"
      "  reinterpret_cast<float4*>(raw)[threadIdx.x] = make_float4(1.f, 2.f, 3.f, 4.f);\n"
      "  reinterpret_cast<float4*>(ok)[threadIdx.x] = make_float4(1.f, 2.f, 3.f, 4.f);\n"
      "  __syncthreads();\n"
      "  out[threadIdx.x] = raw[threadIdx.x] + ok[threadIdx.x];\n"
      "}\n");
  auto f = findings_of_rule(a, "misaligned-access");
  REQUIRE(f.size() == 1);
  CHECK(f[0]->location.range.start.line == 3);
  CHECK(contains(f[0]->message, "__align__(16)"));
}

TEST_CASE("a launch that passes an offset pointer makes the kernel's vector view misaligned") {
  auto a = analyse(
      "__global__ void k(float* out, const float* in) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  float4 v = reinterpret_cast<const float4*>(in)[i];\n"
      "  out[i] = v.x;\n"
      "}\n"
      "void run(float* out, float* buf) { k<<<64, 256>>>(out, buf + 1); }\n");
  auto f = findings_of_rule(a, "misaligned-access");
  REQUIRE(f.size() == 1);
  CHECK(contains(f[0]->message, "buf + 1"));
}

TEST_CASE("missing torch headers: values become opaque, nothing crashes") {
  auto a = analyse(
      "#include <not_installed/torch/extension.h>\n"
      "#include <not_installed/ATen/cuda/CUDAContext.h>\n"
      "template <typename scalar_t>\n"
      "__global__ void k(scalar_t* out, const scalar_t* in, int64_t stride) {\n"
      "  int64_t i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[i] = in[i * stride];\n"
      "}\n"
      "void launch(torch::Tensor out, torch::Tensor in) {\n"
      "  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), \"k\", [&] {\n"
      "    k<scalar_t><<<in.numel() / 256, 256>>>(out.data_ptr<scalar_t>(), in.data_ptr<scalar_t>(), in.stride(0));\n"
      "  });\n"
      "}\n");
  auto f = findings_of_rule(a, "uncoalesced-access");
  REQUIRE(f.size() == 1);
  CHECK(f[0]->location.range.start.line == 5);
  CHECK(contains(f[0]->message, "`stride`"));
}

TEST_CASE("launch facts follow host calls: sizes known in main resolve the alignment condition") {
  const std::string kernel =
      "__global__ void rows(float* out, const float* x, int C) {\n"
      "  const float4* r = reinterpret_cast<const float4*>(x + blockIdx.x * C);\n"
      "  float4 v = r[threadIdx.x];\n"
      "  out[blockIdx.x] = v.x + v.w;\n"
      "}\n"
      "void launch(int variant, float* out, const float* x, int B, int C) {\n"
      "  switch (variant) {\n"
      "    case 0: break;\n"
      "    case 1: rows<<<B, C / 4>>>(out, x, C); break;\n"
      "  }\n"
      "}\n";
  auto known = analyse(kernel + "int main() { float *o, *x; launch(1, o, x, 8, 768); return 0; }\n");
  CHECK(findings_of_rule(known, "misaligned-access").empty());
  auto odd = analyse(kernel + "int main() { float *o, *x; launch(1, o, x, 8, 771); return 0; }\n");
  auto f = findings_of_rule(odd, "misaligned-access");
  REQUIRE(f.size() == 1);
  CHECK(contains(f[0]->message, "C % 4 == 0"));
  auto unknown = analyse(kernel);
  CHECK(findings_of_rule(unknown, "misaligned-access").size() == 1);
}

TEST_CASE("rounding up to a multiple (`(n + 3) & ~3`) is known to be a multiple") {
  auto a = analyse(
      "__global__ void k(float* out, const float* x, int n) {\n"
      "  int padded = (n + 3) & ~3;\n"
      "  float4 v = reinterpret_cast<const float4*>(x + blockIdx.x * padded)[threadIdx.x];\n"
      "  out[blockIdx.x] = v.x;\n"
      "}\n");
  CHECK(findings_of_rule(a, "misaligned-access").empty());
}

TEST_CASE("bf16 and half elements read through conversion operators are accesses") {
  // `(float)x[i]`, `float v = x[i]` and static_cast go through `operator float() const` of
  // CUDA's class types; a load the same code on float would show must show here too, at the
  // element's own size. A temporary's conversion (`(float)__ldg(p)`) is the intrinsic's load.
  auto a = analyse(
      "#include <cuda_bf16.h>\n"
      "#include <cuda_fp16.h>\n"
      "__global__ void k(const __nv_bfloat16* x, const __half* h, float* y) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  float a = (float)x[i * 2];\n"
      "  float b = x[i];\n"
      "  float c = static_cast<float>(h[i * 4]);\n"
      "  float d = __ldg(&h[i * 8]);\n"
      "  y[i] = a + b + c + d;\n"
      "}\n",
      "conversions.cu");
  std::map<uint32_t, const MemoryAccess*> loads;
  for (const auto& access : a.facts.accesses)
    if (!access.is_store) loads[access.location.range.start.line] = &access;
  REQUIRE(loads.count(4));
  REQUIRE(loads.count(5));
  REQUIRE(loads.count(6));
  REQUIRE(loads.count(7));
  CHECK(loads[4]->width == 2);
  CHECK(loads[6]->width == 2);
  auto f = findings_of_rule(a, "uncoalesced-access");
  std::set<uint32_t> lines;
  for (const Finding* finding : f) lines.insert(finding->location.range.start.line);
  CHECK(lines == std::set<uint32_t>{4, 6, 7});  // x[i] (line 5) is coalesced
}

TEST_CASE("an index a warp loads at one address picks a row; one its lanes load apart is a gather") {
  auto a = analyse(
      "__global__ void rows(const float* src, float* dst, const long* slot, const int* ids, int d) {\n"
      "  int idx = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  int warp = idx / 32, lane = idx % 32;\n"
      "  long s = slot[warp];\n"
      "  for (int i = lane; i < d; i += 32) dst[s * d + i] = src[(long)warp * d + i];\n"
      "  int id = ids[idx];\n"
      "  dst[idx] = src[(long)id * d];\n"
      "}\n"
      "void launch(const float* a, float* b, const long* s, const int* ids, int rows, int d) {\n"
      "  rows<<<(rows * 32 + 255) / 256, 256>>>(a, b, s, ids, d);\n"
      "}\n");
  auto f = findings_of_rule(a, "uncoalesced-access");
  REQUIRE(f.size() == 1);
  CHECK(f[0]->location.range.start.line == 6);
  CHECK(contains(f[0]->message, "index it loaded (`id`)"));
}

TEST_CASE("constexpr locals and constant conditions are constants of each instantiation") {
  auto a = analyse(
      "template <int LOG2> __global__ void k(float* dst, const float* src, int stride) {\n"
      "  constexpr int pow2 = 1 << LOG2;\n"
      "  constexpr int W = pow2 < 32 ? pow2 : 32, ITER = pow2 / W, PER = ITER < 4 ? 1 : 4;\n"
      "  const float* s = src + (long)blockIdx.x * stride + threadIdx.x * PER;\n"
      "  if constexpr (PER == 4) {\n"
      "    float4 v = *reinterpret_cast<const float4*>(s);\n"
      "    *reinterpret_cast<float4*>(dst + (long)blockIdx.x * stride + threadIdx.x * PER) = v;\n"
      "  } else {\n"
      "    dst[(long)blockIdx.x * stride + threadIdx.x * PER] = *s;\n"
      "  }\n"
      "}\n"
      "void launch(float* d, const float* s, int rows) {\n"
      "  k<7><<<rows, 32>>>(d, s, 128);\n"
      "  k<5><<<rows, 32>>>(d, s, 32);\n"
      "}\n");
  CHECK(findings_of_rule(a, "uncoalesced-access").empty());
  CHECK(findings_of_rule(a, "misaligned-access").empty());
}

TEST_CASE("a block smaller than a warp has only its own lanes") {
  auto a = analyse(
      "__global__ void col(float* m, int n, int t) {\n"
      "  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
      "  if (x < n && y < n) m[x * n + y] -= m[t * n + y];\n"
      "}\n"
      "__global__ void one(float* out, const float* in, int ld) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[i] = in[(long)i * ld];\n"
      "}\n"
      "void launch(float* m, const float* in, int n, int t) {\n"
      "  col<<<dim3((n + 3) / 4, (n + 3) / 4), dim3(4, 4)>>>(m, n, t);\n"
      "  one<<<n, 1>>>(m, in, n);\n"
      "}\n");
  auto f = findings_of_rule(a, "uncoalesced-access");
  REQUIRE_FALSE(f.empty());
  for (const Finding* finding : f) CHECK(finding->location.range.start.line == 2);  // 4 rows of 4 lanes
}

TEST_CASE("an element index into a vector array is a multiple of the element, whatever its value") {
  auto a = analyse(
      "__global__ void g(const float4* vb, const int3* tri, float4* out, int n) {\n"
      "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (t < n) { int3 v = tri[t]; out[t] = vb[v.z]; }\n"
      "}\n");
  CHECK(findings_of_rule(a, "misaligned-access").empty());
}

TEST_CASE("a grid of exactly n / K blocks is written for sizes K divides") {
  const std::string kernel =
      "__global__ void s4(float* out, const float* in, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  float4 v = reinterpret_cast<const float4*>(in + (size_t)blockIdx.y * n)[i];\n"
      "  reinterpret_cast<float4*>(out + (size_t)blockIdx.y * n)[i] = v;\n"
      "}\n";
  auto exact = analyse(kernel + "void launch(float* o, const float* i, int n, int r) { s4<<<dim3(n / 512, r), 128>>>(o, i, n); }\n",
                       "exact.cu");
  CHECK(findings_of_rule(exact, "misaligned-access").empty());
  auto rounded = analyse(
      kernel + "void launch(float* o, const float* i, int n, int r) { s4<<<dim3((n + 511) / 512, r), 128>>>(o, i, n); }\n",
      "rounded.cu");
  CHECK(findings_of_rule(rounded, "misaligned-access").size() == 2);  // `n % 4 == 0` is not known
}

TEST_CASE("a struct handed by reference to a call the model does not follow is no access") {
  // CUB's pattern: temporary storage carved out of dynamic shared memory at an offset that is 8
  // bytes off 16, bound to a reference and handed to a constructor. Only the callee's member
  // accesses touch it, at their own widths.
  auto a = analyse(
      "struct __align__(16) Storage { float4 v[4]; };  // 64 bytes\n"
      "struct Scan { __device__ explicit Scan(Storage& s); Storage& s; };\n"
      "__global__ void k(float* out) {\n"
      "  extern __shared__ char smem[];\n"
      "  auto& storage = *reinterpret_cast<Storage*>(smem + 8);\n"
      "  Scan scan(storage);\n"
      "  out[threadIdx.x] = 0.0f;\n"
      "}\n");
  CHECK(findings_of_rule(a, "misaligned-access").empty());
}

TEST_CASE("a pointer a loop reassigns is not taken for its value before the loop") {
  auto a = analyse(
      "__global__ void chase(float* out, const float* in, const int* next, int n) {\n"
      "  const float* p = in + threadIdx.x;\n"
      "  float acc = 0;\n"
      "  for (int k = 0; k < n; ++k) {\n"
      "    acc += *p;\n"
      "    p = in + next[k * 32 + threadIdx.x];\n"
      "  }\n"
      "  out[threadIdx.x] = acc;\n"
      "}\n");
  // After the first iteration `*p` reads where `next` says: the lanes' addresses are not known.
  bool seen = false;
  for (const auto& m : a.facts.accesses) {
    if (m.location.range.start.line != 4 || m.base_name != "in") continue;
    seen = true;
    CHECK(m.pattern != LanePattern::Estimated);
  }
  CHECK(seen);
}
