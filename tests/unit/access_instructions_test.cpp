// Accesses the expressions do not show: inline PTX in the user's kernels, and global memory
// reached through calls into library headers (the way CUTLASS and CuTe kernels reach it). The
// "library" here is a system header (`#pragma clang system_header`, as CUTLASS and CuTe are when
// found through -isystem) in a `cutlass/` folder beside a `cutlass/cutlass.h`, which is how the
// parser knows to keep its function bodies (frontend/function_bodies.h).
#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "analyzers/pipeline/analysis.h"
#include "tests/unit/analysis_test_support.h"

using namespace kl::analyzers;
using namespace kl::analyzers::testing;

namespace {

const char* kLibraryHeader = R"(#pragma once
#pragma clang system_header
namespace lib {
template <int Bytes> struct global_load;
template <> struct global_load<16> {
  __device__ __forceinline__ global_load(uint4& d, const void* ptr) {
    asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(d.x), "=r"(d.y), "=r"(d.z), "=r"(d.w) : "l"(ptr));
  }
};
template <int Bytes> __device__ __forceinline__ void cp_async(void* smem, const void* gmem) {
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], %2;" :: "r"(s), "l"(gmem), "n"(Bytes));
}
struct Iterator {
  const char* pointer;
  long stride;
  __device__ const void* get() const { return pointer; }
  __device__ void load(uint4& d) const { global_load<16>(d, get()); }
};
template <class T> struct gmem_ptr { T ptr; };
template <class T> struct rmem_ptr { T ptr; };
template <class Engine> struct Tensor { Engine engine; };
template <class S, class D> __device__ void copy(Tensor<S> const& src, Tensor<D>& dst) {
  *dst.engine.ptr = *src.engine.ptr;
}
}  // namespace lib
)";

FileAnalysis analyse(const std::string& source) {
  static Analyzer analyzer(settings_for_archs({"9.0"}));
  std::filesystem::path main = scratch_file("kl_access_instructions_test", "kernels.cu");
  std::filesystem::path cutlass = main.parent_path() / "cutlass";
  std::filesystem::create_directories(cutlass / "arch");
  std::ofstream(cutlass / "cutlass.h") << "#pragma once\n";
  std::ofstream(cutlass / "arch" / "library.h") << kLibraryHeader;
  return analyzer.analyze_source(main, "#include \"cutlass/arch/library.h\"\n" + source);
}

std::vector<const MemoryAccess*> global_accesses(const FileAnalysis& a, const std::string& kernel) {
  std::vector<const MemoryAccess*> out;
  for (const auto& m : a.facts.accesses)
    if (m.space == MemorySpace::Global && m.kernel == kernel) out.push_back(&m);
  return out;
}

bool judged(const MemoryAccess& m) { return m.pattern != LanePattern::Unknown && m.pattern != LanePattern::DataDependent; }

}  // namespace

TEST_CASE("inline PTX loads and stores are judged through their address operands") {
  auto a = analyse(
      "__global__ void copy16(const uint4* in, uint4* out) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  unsigned x, y, z, w;\n"
      "  asm volatile(\"ld.global.nc.v4.u32 {%0,%1,%2,%3}, [%4];\" : \"=r\"(x), \"=r\"(y), \"=r\"(z), \"=r\"(w) : \"l\"(in + i));\n"
      "  asm volatile(\"st.global.v4.u32 [%0], {%1,%2,%3,%4};\" :: \"l\"(out + i), \"r\"(x), \"r\"(y), \"r\"(z), \"r\"(w));\n"
      "}\n"
      "__global__ void strided(const uint4* in, unsigned* out) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  unsigned x, y, z, w;\n"
      "  asm volatile(\"ld.global.v4.u32 {%0,%1,%2,%3}, [%4];\" : \"=r\"(x), \"=r\"(y), \"=r\"(z), \"=r\"(w) : \"l\"(in + 8 * i));\n"
      "  out[i] = x + y + z + w;\n"
      "}\n");
  auto copy = global_accesses(a, "copy16");
  REQUIRE(copy.size() == 2);
  CHECK(copy[0]->type_name == "ld.global.nc.v4.u32");
  CHECK_FALSE(copy[0]->is_store);
  CHECK(copy[1]->type_name == "st.global.v4.u32");
  CHECK(copy[1]->is_store);
  for (const MemoryAccess* m : copy) {
    CHECK(m->width == 16);
    CHECK(judged(*m));
    CHECK(m->lane_stride == 16);
  }
  auto f = findings_of_rule(a, "uncoalesced-access");
  REQUIRE(f.size() == 1);  // the strided load, 128 bytes between lanes
  CHECK(f[0]->location.range.start.line == 10);
}

TEST_CASE("memory operands of an asm statement are loads and stores") {
  auto a = analyse(
      "__global__ void to_half(const float* x, unsigned short* y) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(y[i]) : \"f\"(x[i]));\n"
      "}\n");
  auto m = global_accesses(a, "to_half");
  REQUIRE(m.size() == 2);
  CHECK(m[0]->base_name == "x");
  CHECK_FALSE(m[0]->is_store);
  CHECK(m[1]->base_name == "y");
  CHECK(m[1]->is_store);
  CHECK(judged(*m[0]));
  CHECK(judged(*m[1]));
}

TEST_CASE("a library primitive called with the kernel's pointer is judged with that pointer") {
  auto a = analyse(
      "__global__ void via_library(const uint4* in, uint4* out) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  uint4 d;\n"
      "  lib::global_load<16>(d, in + 2 * i);\n"
      "  out[i] = d;\n"
      "}\n"
      "__global__ void staged(const float4* in) {\n"
      "  __shared__ float4 tile[256];\n"
      "  lib::cp_async<16>(&tile[threadIdx.x], in + blockIdx.x * 256 + threadIdx.x);\n"
      "}\n");
  auto loads = global_accesses(a, "via_library");
  REQUIRE(loads.size() == 2);
  CHECK(loads[0]->width == 16);
  CHECK(loads[0]->lane_stride == 32);
  CHECK(contains(loads[0]->type_name, "ld.global.v4.u32"));
  CHECK(judged(*loads[0]));
  auto staged = global_accesses(a, "staged");
  REQUIRE(staged.size() == 1);
  CHECK(staged[0]->width == 16);  // cp.async's size, an "n" operand from the template argument
  CHECK(staged[0]->lane_stride == 16);
  CHECK(judged(*staged[0]));
}

TEST_CASE("global memory reached inside a library object is seen and left unjudged") {
  auto a = analyse(
      "__global__ void iterate(lib::Iterator it, uint4* out) {\n"
      "  uint4 d;\n"
      "  it.load(d);\n"
      "  out[threadIdx.x] = d;\n"
      "}\n"
      "__global__ void tensors(const float* in, float* out) {\n"
      "  lib::Tensor<lib::gmem_ptr<const float*>> g{{in + threadIdx.x}};\n"
      "  float r = 0;\n"
      "  lib::Tensor<lib::rmem_ptr<float*>> reg{{&r}};\n"
      "  lib::copy(g, reg);\n"
      "  lib::Tensor<lib::gmem_ptr<float*>> o{{out + threadIdx.x}};\n"
      "  lib::Tensor<lib::rmem_ptr<const float*>> from{{&r}};\n"
      "  lib::copy(from, o);\n"
      "}\n");
  auto it = global_accesses(a, "iterate");
  REQUIRE(it.size() == 2);
  CHECK_FALSE(it[0]->is_store);
  CHECK_FALSE(judged(*it[0]));
  CHECK(it[0]->location.range.start.line == 3);  // `it.load(d)`, in the kernel
  CHECK(contains(it[0]->base_name, "global memory read inside `load`"));
  CHECK(contains(it[0]->base_name, "ld.global.v4.u32 (library.h:"));
  CHECK(judged(*it[1]));  // out[threadIdx.x]
  auto t = global_accesses(a, "tensors");
  REQUIRE(t.size() == 2);
  CHECK_FALSE(t[0]->is_store);
  CHECK(t[1]->is_store);
  CHECK(contains(t[1]->base_name, "gmem tensor `dst`"));
  // Seen, not judged: no finding either way.
  CHECK(findings_of_rule(a, "uncoalesced-access").empty());
  CHECK(findings_of_rule(a, "misaligned-access").empty());
}
