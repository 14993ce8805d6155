// Which device code nvcc emits, as arch-mismatch sees it: inline PTX counts only in kernels and in
// what they reach (calls, instantiations, lambdas, addresses in __device__ tables); a missing
// declaration counts wherever a non-template function or an instantiation holds it. Through the
// analyzers' front door with the real clang front end and CUDA headers; every case here is one
// nvcc 13 was asked about (tests/fixtures/arch/reachability holds the same cases for the oracle).
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "analyzers/pipeline/analysis.h"
#include "tests/unit/analysis_test_support.h"

using namespace kl::analyzers;
using namespace kl::analyzers::testing;

namespace {

// elect.sync needs 9.0; the analysis builds for 8.0 and 9.0.
const std::string kElect =
    "  unsigned leader;\n"
    "  asm volatile(\"{\\n .reg .pred P;\\n elect.sync _|P, 0xffffffff;\\n selp.u32 %0, 1, 0, P;\\n}\" "
    ": \"=r\"(leader));\n";

FileAnalysis analyse(const std::string& source) {
  static Analyzer analyzer(settings_for_archs({"8.0", "9.0"}));
  return analyzer.analyze_source(scratch_file("kl_device_reachability_test", "reach.cu"), source);
}

std::vector<const Finding*> mismatches(const FileAnalysis& analysis) { return findings_of_rule(analysis, "arch-mismatch"); }

}  // namespace

TEST_CASE("PTX in device functions no kernel calls is never emitted, whatever the linkage") {
  for (const std::string& head : {"static __device__ unsigned f() {\n", "__device__ __forceinline__ unsigned f() {\n",
                                  "namespace { __device__ unsigned f() {\n", "__device__ unsigned f() {\n"}) {
    std::string close = head.rfind("namespace", 0) == 0 ? "  return leader; } }\n" : "  return leader; }\n";
    auto a = analyse(head + kElect + close + "__global__ void k(int* o) { o[0] = 1; }\n");
    CHECK(mismatches(a).empty());
  }
}

TEST_CASE("PTX a kernel reaches through calls is reported, naming the kernel") {
  auto a = analyse("static __device__ __forceinline__ unsigned f() {\n" + kElect +
                   "  return leader; }\n"
                   "__device__ unsigned g() { return f(); }\n"
                   "__global__ void launch_me(int* o) { o[0] = g(); }\n");
  auto found = mismatches(a);
  REQUIRE(found.size() == 1);
  CHECK(found[0]->location.range.start.line == 2);
  CHECK(contains(found[0]->message, "8.0"));
  CHECK(contains(found[0]->message, "reached from kernel `launch_me`"));
  bool noted = false;
  for (const auto& note : found[0]->notes)
    noted = noted || (note.location.range.start.line == 5 && contains(note.message, "launch_me"));
  CHECK(noted);
}

TEST_CASE("PTX in a kernel names no other kernel") {
  auto a = analyse("__global__ void k(int* o) {\n" + kElect + "  o[0] = leader; }\n");
  auto found = mismatches(a);
  REQUIRE(found.size() == 1);
  CHECK_FALSE(contains(found[0]->message, "reached from"));
}

TEST_CASE("templates count only as instantiated, and instantiations only when reached") {
  const std::string tmpl = "template <int N> __device__ unsigned f() {\n" + kElect + "  return leader + N; }\n";
  CHECK(mismatches(analyse(tmpl + "__global__ void k(int* o) { o[0] = 1; }\n")).empty());
  CHECK(mismatches(analyse(tmpl + "static __device__ unsigned unused() { return f<1>(); }\n"
                                  "__global__ void k(int* o) { o[0] = 1; }\n"))
            .empty());
  CHECK(mismatches(analyse(tmpl + "__global__ void k(int* o) { o[0] = f<1>(); }\n")).size() == 1);
}

TEST_CASE("each instantiation drops its own discarded if-constexpr branch") {
  const std::string tmpl = "template <bool kElect> __device__ unsigned f() {\n  if constexpr (kElect) {\n" + kElect +
                           "  return leader; } else { return 0; } }\n";
  CHECK(mismatches(analyse(tmpl + "__global__ void k(int* o) { o[0] = f<false>(); }\n")).empty());
  CHECK(mismatches(analyse(tmpl + "__global__ void k(int* o) { o[0] = f<true>(); }\n")).size() == 1);
}

TEST_CASE("lambdas, member functions and __device__ function tables reach their PTX") {
  CHECK(mismatches(analyse("__global__ void k(int* o) { auto f = [] {\n" + kElect +
                           "  return leader; };\n  o[0] = f(); }\n"))
            .size() == 1);
  CHECK(mismatches(analyse("template <class Body> __device__ unsigned run(Body b) { return b(1u); }\n"
                           "__global__ void k(int* o) { o[0] = run([](auto n) {\n" +
                           kElect + "  return leader * n; }); }\n"))
            .size() == 1);
  CHECK(mismatches(analyse("struct W { __device__ unsigned f() const {\n" + kElect +
                           "  return leader; } };\n__global__ void k(int* o) { W w; o[0] = w.f(); }\n"))
            .size() == 1);
  CHECK(mismatches(analyse("static __device__ unsigned f() {\n" + kElect +
                           "  return leader; }\ntypedef unsigned (*Fn)();\n__device__ Fn table[] = {f};\n"
                           "__global__ void k(int* o) { o[0] = 1; }\n"))
            .size() == 1);
}

TEST_CASE("a declaration CUDA leaves out fails wherever a non-template function writes it") {
  const std::string cluster = "#include <cooperative_groups.h>\n";
  CHECK(mismatches(analyse(cluster +
                           "static __device__ void r() { (void)cooperative_groups::this_cluster(); }\n"
                           "__global__ void k(int* o) { o[0] = 1; }\n"))
            .size() == 1);
  CHECK(mismatches(analyse(cluster +
                           "template <class T> __device__ T r() {\n"
                           "  return static_cast<T>(cooperative_groups::this_cluster().block_rank()); }\n"
                           "__global__ void k(int* o) { o[0] = 1; }\n"))
            .empty());
}
