// Per-kernel coverage (analyzers/pipeline/coverage.h): what `lint --format json` sums and
// `check` lists. Hand-made facts pin down what counts; one real analysis shows the access
// model's records land on the kernels they were made for.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "analyzers/pipeline/analysis.h"
#include "analyzers/pipeline/coverage.h"

using namespace kl::analyzers;

namespace {

const char* kFile = "/tmp/kl_coverage_test.cu";

Range lines(uint32_t first, uint32_t last) { return Range{{first, 0}, {last, 80}}; }

KernelInfo kernel(const std::string& name, uint32_t first_line, uint32_t last_line,
                  const std::string& qualified = "") {
  KernelInfo k;
  k.name = name;
  k.qualified_name = qualified.empty() ? name : qualified;
  k.location = Location{kFile, Range{{first_line, 16}, {first_line, 16 + static_cast<uint32_t>(name.size())}}};
  k.body_range = lines(first_line, last_line);
  return k;
}

MemoryAccess access(const std::string& kernel_analysed, uint32_t line, uint32_t column, bool store,
                    LanePattern pattern = LanePattern::Estimated, MemorySpace space = MemorySpace::Global) {
  MemoryAccess a;
  a.kernel = kernel_analysed;
  a.function = kernel_analysed;
  a.location = Location{kFile, Range{{line, column}, {line, column + 6}}};
  a.is_store = store;
  a.space = space;
  a.pattern = pattern;
  return a;
}

}  // namespace

TEST_CASE("a template is one kernel, and one expression one access, whatever its records") {
  UnitFacts facts;
  facts.kernels = {kernel("scale", 0, 4)};
  facts.accesses = {access("scale<float>", 2, 2, false), access("scale<float>", 2, 12, true),
                    access("scale<double>", 2, 2, false), access("scale<double>", 2, 12, true),
                    access("scale<double>", 2, 12, true)};  // a second loop pass
  auto coverage = coverage_of(facts);
  REQUIRE(coverage.size() == 1);
  CHECK(coverage[0].name == "scale");
  CHECK(coverage[0].location == facts.kernels[0].location);
  CHECK(coverage[0].global_loads == 1);
  CHECK(coverage[0].global_stores == 1);
  CHECK(coverage[0].global_accesses() == 2);
  CHECK(coverage[0].unjudged == 0);
}

TEST_CASE("a read-modify-write is a load and a store; an atomic is a store") {
  UnitFacts facts;
  facts.kernels = {kernel("accumulate", 0, 3)};
  MemoryAccess atomic = access("accumulate", 2, 20, true);
  atomic.is_atomic = true;
  facts.accesses = {access("accumulate", 1, 2, false), access("accumulate", 1, 2, true), atomic};
  auto coverage = coverage_of(facts);
  REQUIRE(coverage.size() == 1);
  CHECK(coverage[0].global_loads == 1);
  CHECK(coverage[0].global_stores == 2);
}

TEST_CASE("unjudged: no record of the access knows its lanes' addresses; named gathers are judged") {
  UnitFacts facts;
  facts.kernels = {kernel("k", 0, 9)};
  MemoryAccess gather = access("k", 3, 2, false, LanePattern::DataDependent);
  gather.gather_index = "idx[threadIdx.x]";
  facts.accesses = {
      access("k", 1, 2, false, LanePattern::Unknown),                                        // lost
      access("k<int>", 2, 2, false, LanePattern::Unknown), access("k<float>", 2, 2, false),  // one judged
      gather,
      access("k", 4, 2, true, LanePattern::Uniform),
      access("k", 5, 2, true, LanePattern::SingleLane),
      access("k", 6, 2, true, LanePattern::DataDependent),  // varies through what the model cannot see
  };
  auto coverage = coverage_of(facts);
  REQUIRE(coverage.size() == 1);
  CHECK(coverage[0].global_accesses() == 6);
  CHECK(coverage[0].unjudged == 2);
}

TEST_CASE("kernels without global accesses are listed with none; shared memory does not count") {
  UnitFacts facts;
  facts.kernels = {kernel("copy", 0, 3), kernel("tile", 5, 9), kernel("empty", 11, 11)};
  facts.accesses = {access("copy", 1, 2, false), access("copy", 1, 12, true),
                    access("tile", 6, 2, true, LanePattern::Unknown, MemorySpace::Shared)};
  auto coverage = coverage_of(facts);
  REQUIRE(coverage.size() == 3);
  CHECK(coverage[0].global_accesses() == 2);
  CHECK(coverage[1].name == "tile");
  CHECK(coverage[1].global_accesses() == 0);
  CHECK(coverage[1].unjudged == 0);
  CHECK(coverage[2].global_accesses() == 0);
}

TEST_CASE("kernels of one name are told apart by the body the access or its call site is in") {
  UnitFacts facts;
  facts.kernels = {kernel("k", 0, 3, "a::k"), kernel("k", 5, 9, "b::k")};
  MemoryAccess in_helper = access("k", 20, 2, true);  // in a device function below both kernels
  in_helper.function = "store_one";
  in_helper.call_chain = {Location{kFile, Range{{7, 4}, {7, 20}}}};
  facts.accesses = {access("k", 1, 2, false), in_helper};
  auto coverage = coverage_of(facts);
  REQUIRE(coverage.size() == 2);
  CHECK(coverage[0].name == "a::k");
  CHECK(coverage[0].global_loads == 1);
  CHECK(coverage[0].global_stores == 0);
  CHECK(coverage[1].name == "b::k");
  CHECK(coverage[1].global_loads == 0);
  CHECK(coverage[1].global_stores == 1);
}

TEST_CASE("a helper's access counts in every kernel that reaches it") {
  UnitFacts facts;
  facts.kernels = {kernel("first", 0, 3), kernel("second", 5, 8)};
  MemoryAccess from_first = access("first", 20, 2, false);
  from_first.call_chain = {Location{kFile, Range{{1, 2}, {1, 12}}}};
  MemoryAccess from_second = access("second", 20, 2, false);
  from_second.call_chain = {Location{kFile, Range{{6, 2}, {6, 12}}}};
  facts.accesses = {from_first, from_second};
  auto coverage = coverage_of(facts);
  REQUIRE(coverage.size() == 2);
  CHECK(coverage[0].global_loads == 1);
  CHECK(coverage[1].global_loads == 1);
}

TEST_CASE("records of a kernel the inventory does not list get a record of their own, after the others") {
  UnitFacts facts;
  facts.kernels = {kernel("listed", 0, 3)};
  facts.accesses = {access("unlisted<4>", 10, 2, false, LanePattern::Unknown)};
  auto coverage = coverage_of(facts);
  REQUIRE(coverage.size() == 2);
  CHECK(coverage[0].global_accesses() == 0);
  CHECK(coverage[1].name == "unlisted");
  CHECK(coverage[1].location.file.empty());
  CHECK(coverage[1].global_loads == 1);
  CHECK(coverage[1].unjudged == 1);
}

TEST_CASE("the access model's records of a real parse land on their kernels") {
  AnalysisSettings settings;
  settings.arch_override.push_back(*parse_capability("9.0"));
  settings.use_compile_commands = false;
  Analyzer analyzer(settings);
  auto dir = std::filesystem::temp_directory_path() / "kl_coverage_test";
  std::filesystem::create_directories(dir);
  FileAnalysis a = analyzer.analyze_source(dir / "real.cu",
                                           "template <typename T>\n"
                                           "__global__ void scale(T* out, const T* in, T f) {\n"
                                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                           "  out[i] = in[i] * f;\n"
                                           "}\n"
                                           "template __global__ void scale<float>(float*, const float*, float);\n"
                                           "template __global__ void scale<double>(double*, const double*, double);\n"
                                           "__global__ void tile(float* out) {\n"
                                           "  __shared__ float t[256];\n"
                                           "  t[threadIdx.x] = threadIdx.x;\n"
                                           "  __syncthreads();\n"
                                           "}\n");
  auto coverage = coverage_of(a.facts);
  REQUIRE(coverage.size() == 2);
  CHECK(coverage[0].name == "scale");
  CHECK(coverage[0].global_loads == 1);
  CHECK(coverage[0].global_stores == 1);
  CHECK(coverage[0].unjudged == 0);
  CHECK(coverage[1].name == "tile");
  CHECK(coverage[1].global_accesses() == 0);
  // The pipeline fills FileAnalysis::coverage the same way.
  CHECK(a.coverage == coverage);
}

TEST_CASE("shared accesses are counted apart; a runtime stride or a gather leaves them unjudged") {
  UnitFacts facts;
  facts.kernels = {kernel("k", 0, 9)};
  MemoryAccess strided = access("k", 4, 2, false, LanePattern::Estimated, MemorySpace::Shared);
  strided.runtime_stride = true;
  MemoryAccess gather = access("k", 5, 2, false, LanePattern::DataDependent, MemorySpace::Shared);
  gather.gather_index = "idx[t]";
  facts.accesses = {access("k", 2, 2, true, LanePattern::Estimated, MemorySpace::Shared),
                    access("k", 3, 2, false, LanePattern::Estimated, MemorySpace::Shared), strided, gather,
                    access("k", 6, 2, false)};
  auto coverage = coverage_of(facts);
  REQUIRE(coverage.size() == 1);
  CHECK(coverage[0].global_accesses() == 1);
  CHECK(coverage[0].shared_accesses == 4);
  CHECK(coverage[0].shared_unjudged == 2);
}
