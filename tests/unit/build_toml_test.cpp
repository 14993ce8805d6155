// parse_build_toml and BuildConfig::kernels_for_source, read as a specification: what a
// build.toml means, and which problem is reported where (0-based line, UTF-8 byte column).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "analyzers/project/build_config.h"

namespace {

using namespace kl::analyzers;
namespace fs = std::filesystem;

const fs::path kFixtures = fs::path(KL_FIXTURES_DIR) / "build_toml";

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

BuildConfigParse parse(std::string_view text) {
  return parse_build_toml("/project/build.toml", text);
}

BuildConfigParse parse_fixture(const std::string& name) {
  const fs::path path = kFixtures / name;
  return parse_build_toml(path, read_text(path));
}

Range range(uint32_t line, uint32_t column, uint32_t end_line, uint32_t end_column) {
  return Range{{line, column}, {end_line, end_column}};
}

std::string describe(const std::vector<Finding>& problems) {
  std::string out;
  for (const Finding& f : problems)
    out += std::to_string(f.location.range.start.line) + ":" +
           std::to_string(f.location.range.start.column) + "-" +
           std::to_string(f.location.range.end.line) + ":" +
           std::to_string(f.location.range.end.column) + " " + severity_name(f.severity) + ": " +
           f.message + "\n";
  return out;
}

// The one problem whose message contains `needle`.
const Finding& problem(const BuildConfigParse& parsed, std::string_view needle) {
  const Finding* found = nullptr;
  int count = 0;
  for (const Finding& f : parsed.problems)
    if (f.message.find(needle) != std::string::npos) {
      found = &f;
      ++count;
    }
  INFO("looking for \"" << std::string(needle) << "\" in:\n" << describe(parsed.problems));
  REQUIRE(count == 1);
  return *found;
}

std::string applied(std::string_view text, const Fix& fix);  // below

// A complete, valid edition-5 file to derive small cases from.
constexpr std::string_view kValid = R"([general]
name = "rmsnorm"
version = 1
edition = 5
license = "apache-2.0"
backends = ["cuda"]

[torch]
src = ["torch-ext/torch_binding.cpp"]

[kernel.rmsnorm]
backend = "cuda"
depends = ["torch"]
src = ["rmsnorm_cuda/rmsnorm.cu"]
cuda-capabilities = ["8.0", "9.0a"]
)";

std::string replaced(std::string_view text, std::string_view from, std::string_view to) {
  std::string out(text);
  auto at = out.find(from);
  REQUIRE(at != std::string::npos);
  out.replace(at, from.size(), to);
  return out;
}

// Applies the edits of `fix` (one line range each, as build.toml fixes are) to `text`.
std::string applied(std::string_view text, const Fix& fix) {
  std::vector<size_t> line_starts{0};
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') line_starts.push_back(i + 1);
  auto offset = [&](Position p) {
    return p.line < line_starts.size() ? line_starts[p.line] + p.column : text.size();
  };
  std::string out(text);
  for (auto it = fix.edits.rbegin(); it != fix.edits.rend(); ++it)
    out.replace(offset(it->range.start), offset(it->range.end) - offset(it->range.start),
                it->new_text);
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Valid files

TEST_CASE("a realistic edition-5 project with two CUDA kernels is read completely") {
  BuildConfigParse parsed = parse_fixture("rmsnorm/build.toml");
  INFO(describe(parsed.problems));
  REQUIRE(parsed.problems.empty());
  REQUIRE(parsed.config);
  const BuildConfig& config = *parsed.config;

  CHECK(config.file == (kFixtures / "rmsnorm/build.toml").lexically_normal());
  CHECK(config.project_dir() == (kFixtures / "rmsnorm").lexically_normal());
  CHECK(config.format_version == 5);
  CHECK(config.general.name == "rmsnorm");
  CHECK(config.general.version == 1);
  CHECK(config.general.edition == 5);
  CHECK(config.general.license == "apache-2.0");
  CHECK(config.general.backends == std::vector<std::string>{"cuda", "rocm"});
  CHECK(config.general.upstream == "https://github.com/huggingface/kernels-community");
  CHECK(config.general.python_depends == std::vector<std::string>{"einops"});
  CHECK(config.general.cuda_minver == "12.4");
  CHECK(config.general.cuda_python_depends == std::vector<std::string>{"nvidia-cutlass-dsl"});
  CHECK(config.general.hub_repo_id == "kernels-community/rmsnorm");

  CHECK(config.framework.kind == FrameworkKind::Torch);
  CHECK(config.framework.src ==
        std::vector<std::string>{"torch-ext/torch_binding.cpp", "torch-ext/torch_binding.h"});
  CHECK(config.framework.pyext == std::vector<std::string>{"py", "pyi"});  // the default
  CHECK(config.framework.stable_abi == "2.10");

  // In the order of the file, not alphabetical.
  REQUIRE(config.kernels.size() == 3);
  const KernelSection& rmsnorm = config.kernels[0];
  CHECK(rmsnorm.name == "rmsnorm");
  CHECK(rmsnorm.header_range == range(21, 0, 21, 16));
  CHECK(rmsnorm.backend == "cuda");
  CHECK(rmsnorm.depends == std::vector<std::string>{"torch"});
  CHECK(rmsnorm.src ==
        std::vector<std::string>{"rmsnorm_cuda/rmsnorm.cu", "rmsnorm_cuda/rmsnorm.cuh"});
  CHECK(rmsnorm.cuda_flags == std::vector<std::string>{"-O3", "--use_fast_math"});
  REQUIRE(rmsnorm.cuda_capabilities);
  CHECK(rmsnorm.cuda_capabilities_range == range(28, 20, 28, 51));

  const KernelSection& fused = config.kernels[1];
  CHECK(fused.name == "fused_add_rmsnorm");
  CHECK(fused.header_range == range(31, 0, 31, 26));
  CHECK(fused.depends == std::vector<std::string>{"torch", "cutlass_3_9"});
  CHECK(fused.include == std::vector<std::string>{"fused_cuda/detail"});
  CHECK_FALSE(fused.cuda_capabilities);  // the builder's defaults apply

  const KernelSection& rocm = config.kernels[2];
  CHECK(rocm.backend == "rocm");
  CHECK(rocm.rocm_archs == std::vector<std::string>{"gfx90a", "gfx942"});
  CHECK(rocm.hip_flags == std::vector<std::string>{"-O3"});
}

TEST_CASE("every cuda-capabilities string is kept with its exact range, valid or not") {
  BuildConfigParse parsed = parse_fixture("rmsnorm/build.toml");
  REQUIRE(parsed.config);
  const auto& entries = *parsed.config->kernels[0].cuda_capabilities;
  REQUIRE(entries.size() == 4);
  CHECK(entries[0].text == "8.0");
  CHECK(entries[0].range == range(28, 21, 28, 26));
  CHECK(entries[1].text == "9.0a");
  CHECK(entries[1].range == range(28, 28, 28, 34));
  REQUIRE(entries[1].capability);
  CHECK(entries[1].capability->variant == ArchVariant::Specific);
  CHECK(entries[2].text == "10.0");
  CHECK(entries[2].range == range(28, 36, 28, 42));
  CHECK(entries[3].text == "12.0");
  CHECK(entries[3].range == range(28, 44, 28, 50));

  // Unknown strings are the arch-unsupported rule's business: kept, not reported here.
  BuildConfigParse odd =
      parse(replaced(kValid, R"(["8.0", "9.0a"])", R"(["sm_90", "9.0a+PTX", "10.0f", "13.7"])"));
  INFO(describe(odd.problems));
  CHECK(odd.problems.empty());
  REQUIRE(odd.config);
  const auto& kept = *odd.config->kernels[0].cuda_capabilities;
  REQUIRE(kept.size() == 4);
  CHECK(kept[0].text == "sm_90");
  CHECK_FALSE(kept[0].capability);
  CHECK(kept[0].range == range(14, 21, 14, 28));
  CHECK(kept[1].capability->ptx);
  CHECK(kept[2].capability->variant == ArchVariant::Family);
  CHECK(kept[3].capability->number() == 137);
}

TEST_CASE("all five kernel backends, stable-abi per backend and general.xpu are accepted") {
  BuildConfigParse parsed = parse_fixture("multi_backend.toml");
  INFO(describe(parsed.problems));
  CHECK(parsed.problems.empty());
  REQUIRE(parsed.config);
  REQUIRE(parsed.config->kernels.size() == 5);
  CHECK(parsed.config->kernels[0].backend == "cpu");
  CHECK(parsed.config->kernels[1].cuda_minver == "12.8");
  CHECK(parsed.config->kernels[2].depends == std::vector<std::string>{"torch", "metal-cpp"});
  CHECK(parsed.config->kernels[4].sycl_flags == std::vector<std::string>{"-fsycl"});
  CHECK(parsed.config->framework.minver == "2.8");
  CHECK(parsed.config->framework.maxver == "2.10");
  CHECK(parsed.config->framework.cxx_flags == std::vector<std::string>{"-DRELU_EXTRA"});
  CHECK(parsed.config->framework.stable_abi == "cuda=2.10,xpu=2.10");
}

TEST_CASE("[tvm-ffi] and kernel-depends with a version or a revision") {
  BuildConfigParse parsed = parse_fixture("tvm_ffi.toml");
  INFO(describe(parsed.problems));
  CHECK(parsed.problems.empty());  // `depends = []` is fine outside a PyTorch extension
  REQUIRE(parsed.config);
  CHECK(parsed.config->framework.kind == FrameworkKind::TvmFfi);
  CHECK(parsed.config->framework.src == std::vector<std::string>{"tvm-ffi/binding.cpp"});
  const auto& deps = parsed.config->general.kernel_depends;
  REQUIRE(deps.size() == 2);
  CHECK(deps[0].repo_id == "kernels-community/activation");
  CHECK(deps[0].version == 1);
  CHECK_FALSE(deps[0].revision);
  CHECK(deps[0].range == range(8, 2, 8, 59));  // the inline table
  CHECK(deps[1].revision == "3f2a9c1");
  CHECK_FALSE(deps[1].version);
}

TEST_CASE("[torch-noarch] without kernels is a complete project") {
  BuildConfigParse parsed = parse_fixture("noarch.toml");
  INFO(describe(parsed.problems));
  CHECK(parsed.problems.empty());
  REQUIRE(parsed.config);
  CHECK(parsed.config->framework.kind == FrameworkKind::TorchNoarch);
  CHECK(parsed.config->kernels.empty());
}

TEST_CASE("every problem is on the file and names no rule: the build-toml rule reports it") {
  BuildConfigParse parsed = parse(replaced(kValid, "version = 1", "version = \"1\""));
  REQUIRE(parsed.problems.size() == 1);
  const Finding& f = parsed.problems[0];
  CHECK(f.severity == Severity::Error);
  CHECK(f.location.file == "/project/build.toml");
  // rule_catalog_test checks that the build-toml rule adds its id.
  CHECK(f.rule_id.empty());
}

// ---------------------------------------------------------------------------------------------
// Unknown keys

TEST_CASE("misspelt keys are reported on the key with a did-you-mean and a rename fix") {
  BuildConfigParse parsed = parse_fixture("misspelt_keys.toml");
  INFO(describe(parsed.problems));
  REQUIRE(parsed.problems.size() == 4);  // and no "missing license/src/depends" on top

  const Finding& licence = problem(parsed, "`licence`");
  CHECK(licence.message == "unknown key `licence` in [general]; did you mean `license`?");
  CHECK(licence.location.range == range(4, 0, 4, 7));
  REQUIRE(licence.fixes.size() == 1);
  REQUIRE(licence.fixes[0].edits.size() == 1);
  CHECK(licence.fixes[0].edits[0].range == range(4, 0, 4, 7));
  CHECK(licence.fixes[0].edits[0].new_text == "license");
  CHECK(licence.fixes[0].edits[0].file == licence.location.file);

  CHECK(problem(parsed, "`srcs` in [torch]; did you mean `src`?").location.range ==
        range(8, 0, 8, 4));
  CHECK(problem(parsed, "`dependencies` in [kernel.layer_norm]; did you mean `depends`?")
            .location.range == range(12, 0, 12, 12));
  CHECK(problem(parsed,
                "`cuda-capabilites` in [kernel.layer_norm]; did you mean "
                "`cuda-capabilities`?")
            .location.range == range(14, 0, 14, 16));

  // The values under the misspelt keys still reach the model.
  REQUIRE(parsed.config);
  CHECK(parsed.config->general.license == "apache-2.0");
  CHECK(parsed.config->framework.src == std::vector<std::string>{"torch-ext/torch_binding.cpp"});
  CHECK(parsed.config->kernels[0].depends == std::vector<std::string>{"torch"});
  REQUIRE(parsed.config->kernels[0].cuda_capabilities);
  CHECK(parsed.config->kernels[0].cuda_capabilities->at(0).text == "8.0");
}

TEST_CASE("snake_case spellings of kebab-case keys are recognised") {
  BuildConfigParse parsed = parse(replaced(kValid, "cuda-capabilities", "cuda_capabilities"));
  const Finding& f = problem(parsed, "did you mean `cuda-capabilities`?");
  CHECK(f.location.range == range(14, 0, 14, 17));
  CHECK(applied(replaced(kValid, "cuda-capabilities", "cuda_capabilities"), f.fixes.at(0)) ==
        kValid);
}

TEST_CASE("an unknown key with nothing close lists the known keys") {
  BuildConfigParse parsed = parse(replaced(kValid, "version = 1", "version = 1\nflavour = \"x\""));
  const Finding& f = problem(parsed, "`flavour`");
  CHECK(f.location.range == range(3, 0, 3, 7));
  CHECK(f.message.find("known keys: name, version, edition, license, backends") !=
        std::string::npos);
  CHECK(f.fixes.empty());
}

TEST_CASE("unknown sections at the top level: [kernels.x] means [kernel.x]") {
  std::string text = replaced(kValid, "[kernel.rmsnorm]", "[kernels.rmsnorm]");
  BuildConfigParse parsed = parse(text);
  const Finding& f = problem(parsed, "unknown key `kernels` in build.toml; did you mean `kernel`?");
  CHECK(f.location.range == range(10, 1, 10, 8));
  CHECK(applied(text, f.fixes.at(0)) == kValid);
}

TEST_CASE("keys of another backend are errors in a kernel") {
  std::string text = replaced(kValid, "backend = \"cuda\"", "backend = \"rocm\"");
  BuildConfigParse parsed = parse(text);
  const Finding& f = problem(parsed, "only applies to CUDA kernels");
  CHECK(f.message ==
        "`cuda-capabilities` only applies to CUDA kernels, but [kernel.rmsnorm] has backend = "
        "\"rocm\"");
  CHECK(f.location.range == range(14, 0, 14, 17));
  CHECK(f.severity == Severity::Error);
  REQUIRE(parsed.config);
  CHECK_FALSE(parsed.config->kernels[0].cuda_capabilities);

  BuildConfigParse rocm_in_cuda = parse(replaced(
      kValid, "src = [\"rmsnorm_cuda", "rocm-archs = [\"gfx942\"]\nsrc = [\"rmsnorm_cuda"));
  CHECK(problem(rocm_in_cuda, "`rocm-archs` only applies to ROCm kernels").location.range ==
        range(13, 0, 13, 10));
  BuildConfigParse sycl_in_cuda =
      parse(replaced(kValid, "src = [\"rmsnorm_cuda", "sycl-flags = []\nsrc = [\"rmsnorm_cuda"));
  CHECK(problem(sycl_in_cuda, "`sycl-flags` only applies to XPU kernels").location.range ==
        range(13, 0, 13, 10));
}

// ---------------------------------------------------------------------------------------------
// Wrong types and values

TEST_CASE("wrong types are reported on the value") {
  BuildConfigParse parsed = parse(R"([general]
name = 7
version = "1"
edition = 5
license = "mit"
backends = "cuda"

[torch]
src = ["a.cpp", 3]

[kernel.k]
backend = "cuda"
depends = ["torch"]
src = ["k.cu"]
cuda-capabilities = ["8.0", 9.0]
)");
  INFO(describe(parsed.problems));
  REQUIRE(parsed.problems.size() == 5);
  CHECK(problem(parsed, "`name` in [general] must be a string, not an integer").location.range ==
        range(1, 7, 1, 8));
  CHECK(problem(parsed, "`version` in [general] must be an integer, not a string").location.range ==
        range(2, 10, 2, 13));
  CHECK(problem(parsed, "`backends` in [general] must be an array of strings, not a string")
            .location.range == range(5, 11, 5, 17));
  CHECK(problem(parsed, "entries of `src` in [torch] must be strings, not an integer")
            .location.range == range(8, 16, 8, 17));
  CHECK(problem(parsed,
                "entries of `cuda-capabilities` in [kernel.k] must be strings like "
                "\"9.0a\", not a number with a fraction")
            .location.range == range(14, 28, 14, 31));
  REQUIRE(parsed.config);  // still usable
  CHECK(parsed.config->framework.src == std::vector<std::string>{"a.cpp"});
  REQUIRE(parsed.config->kernels[0].cuda_capabilities->size() == 1);
}

TEST_CASE("[general] name: the kernel-builder pattern, with the Python name explained") {
  std::string text = replaced(kValid, "\"rmsnorm\"", "\"fused_rms_norm\"");
  BuildConfigParse parsed = parse(text);
  const Finding& f = problem(parsed, "may not contain `_`");
  CHECK(f.location.range == range(1, 7, 1, 23));
  CHECK(f.message.find("\"fused-rms-norm\" is imported as `fused_rms_norm`") != std::string::npos);
  REQUIRE(f.fixes.size() == 1);
  CHECK(applied(text, f.fixes[0]) == replaced(kValid, "\"rmsnorm\"", "\"fused-rms-norm\""));

  CHECK(problem(parse(replaced(kValid, "\"rmsnorm\"", "\"RmsNorm\"")), "must be lowercase")
            .fixes.size() == 1);
  for (std::string bad : {"\"a\"", "\"my-kernel-\"", "\"1kernel\"", "\"-x\"", "\"\"", "\"a.b\""}) {
    BuildConfigParse invalid = parse(replaced(kValid, "\"rmsnorm\"", bad));
    INFO(bad);
    CHECK(problem(invalid, "is not a valid kernel name").severity == Severity::Error);
  }
  for (std::string good : {"\"ab\"", "\"relu2d\"", "\"my--kernel\"", "\"flash-attention\""}) {
    INFO(good);
    CHECK(parse(replaced(kValid, "\"rmsnorm\"", good)).problems.empty());
  }
}

TEST_CASE("[general] backends: known names only, with columns counted in UTF-8 bytes") {
  // "ñ" is two bytes: the second string starts at byte 18, code point 17.
  BuildConfigParse parsed = parse(replaced(kValid, R"(["cuda"])", R"(["ñ", "cdua"])"));
  INFO(describe(parsed.problems));
  const Finding& unknown = problem(parsed, "unknown backend `ñ`");
  CHECK(unknown.location.range == range(5, 12, 5, 16));
  CHECK(unknown.message.find("known backends: cann, cpu, cuda, metal, neuron, rocm, tpu, xpu") !=
        std::string::npos);
  const Finding& typo = problem(parsed,
                                "unknown backend `cdua` in [general] backends; did you "
                                "mean `cuda`?");
  CHECK(typo.location.range == range(5, 18, 5, 24));
  CHECK(typo.fixes.at(0).edits.at(0).new_text == "\"cuda\"");
}

TEST_CASE("kernel backend: required, known, and inferred for the model when missing") {
  BuildConfigParse typo = parse(replaced(kValid, "backend = \"cuda\"", "backend = \"cdua\""));
  CHECK(problem(typo, "unknown kernel backend `cdua` in [kernel.rmsnorm]; did you mean `cuda`?")
            .location.range == range(11, 10, 11, 16));

  std::string text = replaced(kValid, "backend = \"cuda\"\n", "");
  BuildConfigParse missing = parse(text);
  INFO(describe(missing.problems));
  REQUIRE(missing.problems.size() == 1);
  const Finding& f = missing.problems[0];
  CHECK(f.message.find("[kernel.rmsnorm] is missing the required key `backend`") !=
        std::string::npos);
  CHECK(f.location.range == range(10, 0, 10, 16));
  CHECK(applied(text, f.fixes.at(0)) == kValid);
  REQUIRE(missing.config);
  CHECK(missing.config->kernels[0].backend == "cuda");  // from its cuda-capabilities
}

TEST_CASE("depends: exactly upstream's values (torch, the CUTLASS versions it ships, sycl_tla, metal-cpp)") {
  auto with_depends = [](std::string_view list) {
    return parse(replaced(kValid, R"(depends = ["torch"])", "depends = " + std::string(list)));
  };
  for (std::string_view ok :
       {R"(["torch", "cutlass_2_10"])", R"(["cutlass_3_5"])", R"(["cutlass_3_8"])",
        R"(["cutlass_4_0"])", R"(["cutlass_4_5"])", R"(["sycl_tla"])", R"(["metal-cpp"])"}) {
    INFO(ok);
    CHECK(with_depends(ok).problems.empty());
  }
  // kernels-data deps.rs has no CUTLASS 3.7, 4.1, 4.2 or 4.3.
  for (std::string_view missing : {"cutlass_3_7", "cutlass_4_1", "cutlass_4_2", "cutlass_4_3", "cutlass_3_10"}) {
    INFO(missing);
    BuildConfigParse parsed = with_depends("[\"" + std::string(missing) + "\"]");
    REQUIRE(parsed.problems.size() == 1);
    CHECK(parsed.problems[0].severity == Severity::Error);
    CHECK(parsed.problems[0].message.find("unknown dependency `" + std::string(missing) + "`") != std::string::npos);
  }
  BuildConfigParse old = with_depends(R"(["torch", "cutlass_3_4"])");
  CHECK(
      problem(old, "unknown dependency `cutlass_3_4` in [kernel.rmsnorm] depends").location.range ==
      range(12, 20, 12, 33));
  CHECK(problem(with_depends(R"(["cutlass"])"), "CUTLASS dependencies name a version").severity ==
        Severity::Error);
  CHECK(problem(with_depends(R"(["torch2"])"), "did you mean `torch`?").fixes.size() == 1);
  CHECK(problem(with_depends(R"(["numpy"])"), "known: torch, cutlass_2_10").fixes.empty());
}

TEST_CASE("python-depends: einops, helion, tvm-ffi in [general]; CUDA ones in [general.cuda]") {
  auto with = [](std::string_view list) {
    return parse(replaced(kValid, "backends = [\"cuda\"]",
                          "backends = [\"cuda\"]\npython-depends = " + std::string(list)));
  };
  CHECK(with(R"(["einops", "helion", "tvm-ffi"])").problems.empty());
  BuildConfigParse numpy = with(R"(["numpy"])");
  CHECK(problem(numpy, "unknown Python dependency `numpy`").location.range == range(6, 18, 6, 25));
  CHECK(problem(with(R"(["einosp"])"), "did you mean `einops`?").severity == Severity::Error);
  CHECK(problem(with(R"(["nvidia-cutlass-dsl"])"), "move it to [general.cuda] python-depends")
            .severity == Severity::Error);
}

TEST_CASE("kernel-depends entries need repo-id and exactly one of version and revision") {
  BuildConfigParse parsed = parse(replaced(kValid, "backends = [\"cuda\"]\n", R"(backends = ["cuda"]
kernel-depends = [
  { repo-id = "a/b" },
  { repo-id = "a/c", version = 1, revision = "main" },
  { version = 2 },
  { repo-id = "a/d", verison = 2 },
  "a/e",
]
)"));
  INFO(describe(parsed.problems));
  CHECK(problem(parsed, "needs `version = <major>` or `revision").location.range ==
        range(7, 2, 7, 21));
  CHECK(problem(parsed, "mutually exclusive").location.range == range(8, 34, 8, 42));
  CHECK(problem(parsed, "is missing the required key `repo-id`").location.range ==
        range(9, 2, 9, 17));
  // The misspelt key counts as `version` once reported.
  CHECK(problem(parsed,
                "unknown key `verison` in a `kernel-depends` entry; did you mean "
                "`version`?")
            .location.range == range(10, 21, 10, 28));
  CHECK(problem(parsed, "entries of `kernel-depends` in [general] must be tables").location.range ==
        range(11, 2, 11, 7));
  CHECK(parsed.problems.size() == 5);
}

TEST_CASE("versions are strings of dot-separated numbers") {
  BuildConfigParse parsed = parse(
      replaced(kValid, "src = [\"rmsnorm_cuda", "cuda-minver = \"12.x\"\nsrc = [\"rmsnorm_cuda"));
  CHECK(problem(parsed, "`cuda-minver` in [kernel.rmsnorm] must be a version such as \"12.8\"")
            .location.range == range(13, 14, 13, 20));
  CHECK(parse(replaced(kValid, "src = [\"rmsnorm_cuda",
                       "cuda-minver = \"12.8\"\nsrc = [\"rmsnorm_cuda"))
            .problems.empty());
}

TEST_CASE("an empty cuda-capabilities list means the builder's defaults") {
  BuildConfigParse parsed = parse(replaced(kValid, R"(["8.0", "9.0a"])", "[]"));
  const Finding& f = problem(parsed, "`cuda-capabilities` is empty, which kernel-builder treats as absent");
  CHECK(f.severity == Severity::Warning);
  CHECK(f.location.range == range(14, 20, 14, 22));
  REQUIRE(parsed.config);
  CHECK_FALSE(parsed.config->kernels[0].cuda_capabilities);  // as if absent: defaults apply
  CHECK(parsed.config->kernels[0].cuda_capabilities_range == range(14, 20, 14, 22));
}

// ---------------------------------------------------------------------------------------------
// Required keys and sections

TEST_CASE("missing required keys are reported at the table header") {
  BuildConfigParse parsed = parse(R"([general]
name = "x1"
edition = 5

[torch]

[kernel.k]
backend = "cuda"
)");
  INFO(describe(parsed.problems));
  REQUIRE(parsed.problems.size() == 5);
  CHECK(problem(parsed, "[general] is missing the required key `version`, e.g. `version = 1`")
            .location.range == range(0, 0, 0, 9));
  CHECK(problem(parsed, "missing the required key `license`").location.range == range(0, 0, 0, 9));
  CHECK(problem(parsed, "missing the required key `backends`").location.range == range(0, 0, 0, 9));
  CHECK(problem(parsed, "[kernel.k] is missing the required key `src`").location.range ==
        range(6, 0, 6, 10));
  CHECK(problem(parsed, "[kernel.k] is missing the required key `depends`").location.range ==
        range(6, 0, 6, 10));
  CHECK(parsed.config);
}

TEST_CASE("[tvm-ffi] needs src") {
  BuildConfigParse parsed = parse(replaced(
      kValid, "[torch]\nsrc = [\"torch-ext/torch_binding.cpp\"]", "[tvm-ffi]\ninclude = []"));
  CHECK(problem(parsed, "[tvm-ffi] is missing the required key `src`").location.range ==
        range(7, 0, 7, 9));
}

TEST_CASE("exactly one framework section") {
  BuildConfigParse none =
      parse(replaced(kValid, "[torch]\nsrc = [\"torch-ext/torch_binding.cpp\"]\n", ""));
  CHECK(problem(none, "needs one framework section").location.range == range(0, 0, 0, 9));

  BuildConfigParse two = parse(std::string(kValid) + "\n[torch-noarch]\n");
  const Finding& f = problem(two, "only one framework section is allowed");
  CHECK(f.message ==
        "only one framework section is allowed, and [torch] (line 8) already is one: "
        "remove [torch-noarch]");
  CHECK(f.location.range == range(16, 0, 16, 14));
  REQUIRE(two.config);
  CHECK(two.config->framework.kind == FrameworkKind::Torch);
}

TEST_CASE("a file without [general] is reported at its start") {
  BuildConfigParse parsed = parse("[torch-noarch]\n");
  CHECK(problem(parsed, "no [general] section").location.range == range(0, 0, 0, 0));
}

TEST_CASE("[[kernel]] arrays of tables are not kernel sections") {
  BuildConfigParse parsed = parse(replaced(kValid, "[kernel.rmsnorm]", "[[kernel]]"));
  CHECK(problem(parsed, "not an array of tables [[kernel]]").severity == Severity::Error);
  REQUIRE(parsed.config);
  CHECK(parsed.config->kernels.empty());
}

// ---------------------------------------------------------------------------------------------
// Editions and older formats

TEST_CASE("edition must be 5") {
  std::string text = replaced(kValid, "edition = 5", "edition = 4");
  BuildConfigParse parsed = parse(text);
  const Finding& f = problem(parsed, "edition 4 is not an edition kernel-builder reads");
  CHECK(f.location.range == range(3, 10, 3, 11));
  CHECK(applied(text, f.fixes.at(0)) == kValid);
  CHECK(problem(parse(replaced(kValid, "edition = 5", "edition = \"5\"")),
                "`edition` in [general] must be an integer")
            .severity == Severity::Error);
}

TEST_CASE("v4 (no edition) is read with a legacy-format warning and an add-edition fix") {
  const std::string text = read_text(kFixtures / "legacy_v4.toml");
  BuildConfigParse parsed = parse_build_toml("legacy_v4.toml", text);
  INFO(describe(parsed.problems));
  REQUIRE(parsed.problems.size() == 1);  // `source`, [general.cuda] and `cxx-flags` are all v4
  const Finding& f = parsed.problems[0];
  CHECK(f.severity == Severity::Warning);
  CHECK(f.message.find("legacy format") != std::string::npos);
  CHECK(f.message.find("add `edition = 5`") != std::string::npos);
  CHECK(f.location.range == range(0, 0, 0, 9));
  REQUIRE(f.fixes.size() == 1);
  CHECK(f.fixes[0].edits.at(0).range == range(0, 9, 0, 9));
  CHECK(applied(text, f.fixes[0]).substr(0, 22) == "[general]\nedition = 5\n");
  REQUIRE(parsed.config);
  CHECK(parsed.config->format_version == 4);
  CHECK(parsed.config->kernels.at(0).backend == "cuda");
  CHECK(parsed.config->general.source == "https://github.com/huggingface/kernels-community");
  CHECK(parsed.config->framework.cxx_flags == std::vector<std::string>{"-DACTIVATION_V4"});

  // Edition 5 has every key of v4 (kernels-data v5.rs): with the edition added, nothing to say.
  BuildConfigParse upgraded = parse(applied(text, f.fixes[0]));
  INFO(describe(upgraded.problems));
  CHECK(upgraded.problems.empty());
  CHECK(upgraded.config->format_version == 5);
}

TEST_CASE("v4 [torch-noarch] has pyext, cuda_capabilities and rocm_archs") {
  BuildConfigParse parsed = parse(R"([general]
name = "noarch"
version = 1
license = "MIT"
backends = ["rocm"]

[torch-noarch]
pyext = ["py", "pyi", "json"]
cuda_capabilities = ["9.0"]
rocm_archs = ["gfx942"]
)");
  INFO(describe(parsed.problems));
  REQUIRE(parsed.problems.size() == 1);
  CHECK(parsed.problems[0].message.find("legacy format") != std::string::npos);
  REQUIRE(parsed.config);
  CHECK(parsed.config->framework.pyext == std::vector<std::string>{"py", "pyi", "json"});
}

TEST_CASE("a per-backend stable-abi table needs edition 5; one version does not") {
  const std::string table = replaced(kValid, "[torch]\n", "[torch]\nstable-abi = { cuda = \"2.10\" }\n");
  CHECK(parse(table).problems.empty());
  BuildConfigParse v4 = parse(replaced(table, "edition = 5\n", ""));
  const Finding& f = problem(v4, "a per-backend `stable-abi` table needs edition 5");
  CHECK(f.severity == Severity::Error);
  CHECK(f.location.range == range(7, 0, 7, 10));
  CHECK(f.message.find("stable-abi = \"2.10\"") != std::string::npos);
  BuildConfigParse one = parse(replaced(replaced(table, "edition = 5\n", ""), "{ cuda = \"2.10\" }", "\"2.10\""));
  INFO(describe(one.problems));
  CHECK(one.problems.size() == 1);  // the legacy-format warning only
}

TEST_CASE("edition-5 keys in a file without edition ask for the edition") {
  BuildConfigParse parsed = parse(
      replaced(kValid, "edition = 5\n", "kernel-depends = [{ repo-id = \"a/b\", version = 1 }]\n"));
  const Finding& f = problem(parsed, "`kernel-depends` needs edition 5");
  CHECK(f.location.range == range(3, 0, 3, 14));
  CHECK(f.message.find("add `edition = 5` to [general]") != std::string::npos);
}

TEST_CASE("v3 and older are errors that say what to change") {
  BuildConfigParse parsed = parse_fixture("legacy_v3.toml");
  INFO(describe(parsed.problems));
  const std::string text = read_text(kFixtures / "legacy_v3.toml");

  const Finding& minver = problem(parsed, "`cuda-minver` was removed");
  CHECK(minver.location.range == range(2, 0, 2, 11));
  CHECK(minver.message.find("write `minver = \"...\"` in a [general.cuda] section") !=
        std::string::npos);
  CHECK(minver.message.find("run `kernel-builder update-build`") != std::string::npos);

  const Finding& universal = problem(parsed, "`universal` was removed");
  CHECK(universal.location.range == range(5, 0, 5, 9));
  CHECK(universal.fixes.at(0).edits.at(0).range == range(5, 0, 6, 0));  // deletes the line
  CHECK(universal.fixes.at(0).edits.at(0).new_text.empty());

  const Finding& language = problem(parsed, "`language` was removed: use `backend = \"cuda\"`");
  CHECK(language.location.range == range(9, 0, 9, 8));
  CHECK(language.message.find("run `kernel-builder update-build`") != std::string::npos);
  CHECK(language.fixes.at(0).edits.at(0).range == range(9, 0, 9, 17));
  CHECK(language.fixes.at(0).edits.at(0).new_text == "backend = \"cuda\"");

  // update-build needs a license and backends; v3 had no version, the migration adds it.
  CHECK(problem(parsed, "missing the required key `license`").location.range == range(0, 0, 0, 9));
  CHECK(problem(parsed, "missing the required key `backends`").location.range == range(0, 0, 0, 9));
  CHECK(parsed.problems.size() == 5);
  for (const Finding& f : parsed.problems) CHECK(f.severity == Severity::Error);

  // What it meant is still read: the arch rules keep working on an old project.
  REQUIRE(parsed.config);
  CHECK(parsed.config->format_version == 3);
  CHECK(parsed.config->general.cuda_minver == "11.8");
  CHECK(parsed.config->kernels.at(0).backend == "cuda");
  CHECK(parsed.config->kernels.at(0).cuda_capabilities->size() == 2);
}

TEST_CASE("v3 [torch] universal = true means [torch-noarch]") {
  BuildConfigParse parsed = parse(R"([general]
name = "triton-kernels"
universal = true

[torch]
universal = true
)");
  INFO(describe(parsed.problems));
  CHECK(problem(parsed, "a pure-Python kernel uses a [torch-noarch] section instead of [torch]")
            .location.range == range(5, 0, 5, 9));
  CHECK(problem(parsed, "list the backends in `backends = [...]`").location.range ==
        range(2, 0, 2, 9));
  REQUIRE(parsed.config);
  CHECK(parsed.config->framework.kind == FrameworkKind::TorchNoarch);
}

TEST_CASE("language = \"cuda-hipify\" becomes a ROCm kernel") {
  BuildConfigParse parsed =
      parse(replaced(kValid, "backend = \"cuda\"", "language = \"cuda-hipify\""));
  CHECK(problem(parsed, "use `backend = \"rocm\"`").location.range == range(11, 0, 11, 8));
}

TEST_CASE("the LTX-Video example from the skill blog is rejected for the right reasons") {
  const std::string text = read_text(kFixtures / "ltx_video_broken.toml");
  BuildConfigParse parsed = parse_build_toml("ltx/build.toml", text);
  INFO(describe(parsed.problems));
  REQUIRE(parsed.problems.size() == 6);
  const auto& p = parsed.problems;  // ordered by position
  CHECK(p[0].message == "[general] is missing the required key `version`, e.g. `version = 1`");
  CHECK(p[0].location.range == range(2, 0, 2, 9));
  CHECK(p[1].severity == Severity::Warning);
  CHECK(p[1].message.find("legacy format") != std::string::npos);
  CHECK(p[2].message.find("missing the required key `license`") != std::string::npos);
  CHECK(p[3].message.find("`name` may not contain `_`") != std::string::npos);
  CHECK(p[3].message.find("is imported as `ltx_kernels`") != std::string::npos);
  CHECK(p[3].location.range == range(3, 7, 3, 20));
  CHECK(applied(text, p[3].fixes.at(0)).find("name = \"ltx-kernels\"") != std::string::npos);
  for (int i : {4, 5}) {
    CHECK(p[i].severity == Severity::Warning);
    CHECK(p[i].message.find("`depends` is empty") != std::string::npos);
  }
  CHECK(p[4].location.range == range(14, 10, 14, 12));
  CHECK(applied(text, p[4].fixes.at(0)).find("depends = [\"torch\"]") != std::string::npos);
  CHECK(p[5].location.range == range(20, 10, 20, 12));
  REQUIRE(parsed.config);
  CHECK(parsed.config->kernels.size() == 2);
}

// ---------------------------------------------------------------------------------------------
// Broken input never crashes and gives one clean error

TEST_CASE("a TOML syntax error is one error at toml++'s position, and no config") {
  BuildConfigParse parsed = parse_fixture("malformed.toml");
  INFO(describe(parsed.problems));
  REQUIRE(parsed.problems.size() == 1);
  CHECK_FALSE(parsed.config);
  CHECK(parsed.problems[0].message.rfind("invalid TOML: ", 0) == 0);
  // The array of `backends` is not closed; toml++ stops at the `[` of `[torch]`.
  CHECK(parsed.problems[0].message ==
        "invalid TOML: Error while parsing array: expected comma or closing ']', saw '['");
  CHECK(parsed.problems[0].location.range == range(7, 0, 7, 1));

  // Columns in UTF-8 bytes: `é` is two bytes, so the stray `x` is at byte 12 (code point 11).
  BuildConfigParse unicode = parse("[general]\nname = \"é\" x\n");
  REQUIRE(unicode.problems.size() == 1);
  CHECK(unicode.problems[0].location.range == range(1, 12, 1, 13));

  BuildConfigParse eol = parse("[general]\nname = \n");  // at the end of the line: empty range
  REQUIRE(eol.problems.size() == 1);
  CHECK(eol.problems[0].location.range == range(1, 7, 1, 7));

  BuildConfigParse duplicate = parse(std::string(kValid) + "\n[general]\n");
  REQUIRE(duplicate.problems.size() == 1);
  CHECK(duplicate.problems[0].location.range.start.line == 16);
}

TEST_CASE("empty, blank, binary and absurd files give one clean error") {
  for (std::string_view blank : {"", "\n\n", "  \t\r\n"}) {
    BuildConfigParse parsed = parse(blank);
    REQUIRE(parsed.problems.size() == 1);
    CHECK(parsed.problems[0].message.find("build.toml is empty") != std::string::npos);
    CHECK(parsed.problems[0].location.range == range(0, 0, 0, 0));
    CHECK_FALSE(parsed.config);
  }

  std::mt19937 random(12345);
  for (int round = 0; round < 20; ++round) {
    std::string garbage(4096, '\0');
    for (char& c : garbage) c = static_cast<char>(random() & 0xFF);
    BuildConfigParse parsed = parse(garbage);
    REQUIRE(parsed.problems.size() == 1);
    CHECK(parsed.problems[0].severity == Severity::Error);
    CHECK_FALSE(parsed.config);
  }
  CHECK(parse(std::string("name = \"a\0b\"", 12)).problems.size() == 1);  // NUL
  CHECK(parse("name = \"\xff\xfe\"").problems.size() == 1);               // not UTF-8

  BuildConfigParse deep_arrays = parse("a = " + std::string(100000, '['));
  REQUIRE(deep_arrays.problems.size() == 1);
  CHECK(deep_arrays.problems[0].message.find("nested") != std::string::npos);
  BuildConfigParse deep_tables = parse("a = " + std::string(5000, '{') + "\n");
  CHECK(deep_tables.problems.size() == 1);
  BuildConfigParse deep_headers = parse("[" + std::string(50000, 'a') + std::string("]"));
  CHECK(deep_headers.problems.size() >= 1);  // parses (one long key), then the schema complains
}

TEST_CASE("a huge but valid file is read") {
  std::string list = "src = [\n";
  for (int i = 0; i < 100000; ++i) list += "  \"csrc/file_" + std::to_string(i) + ".cu\", # ü\n";
  list += "]";
  BuildConfigParse parsed = parse(replaced(kValid, R"(src = ["rmsnorm_cuda/rmsnorm.cu"])", list));
  INFO(describe(parsed.problems));
  CHECK(parsed.problems.empty());
  REQUIRE(parsed.config);
  CHECK(parsed.config->kernels[0].src.size() == 100000);
  CHECK(parsed.config->kernels[0].cuda_capabilities->at(0).range.start.line == 100015);
}

// ---------------------------------------------------------------------------------------------
// kernels_for_source

TEST_CASE("kernels_for_source: the CUDA kernels whose src lists a file or its folder") {
  BuildConfigParse parsed = parse_fixture("rmsnorm/build.toml");
  REQUIRE(parsed.config);
  const BuildConfig& config = *parsed.config;
  const fs::path project = kFixtures / "rmsnorm";
  auto names = [&](const fs::path& source) {
    std::vector<std::string> out;
    for (const KernelSection* kernel : config.kernels_for_source(source))
      out.push_back(kernel->name);
    return out;
  };
  // The ROCm kernel lists the same file but is not a CUDA kernel.
  CHECK(names(project / "rmsnorm_cuda/rmsnorm.cu") == std::vector<std::string>{"rmsnorm"});
  CHECK(names(project / "rmsnorm_cuda/rmsnorm.cuh") == std::vector<std::string>{"rmsnorm"});
  CHECK(names(project / "rmsnorm_cuda/../rmsnorm_cuda/./rmsnorm.cu") ==
        std::vector<std::string>{"rmsnorm"});
  // `src = ["fused_cuda/"]` names a folder: everything below it.
  CHECK(names(project / "fused_cuda/fused_add_rmsnorm.cu") ==
        std::vector<std::string>{"fused_add_rmsnorm"});
  CHECK(names(project / "fused_cuda/detail/vec.cuh") ==
        std::vector<std::string>{"fused_add_rmsnorm"});
  CHECK(names(project / "fused_cuda_old/x.cu").empty());  // a prefix of the name is not a folder
  CHECK(names(project / "torch-ext/torch_binding.cpp").empty());
  CHECK(names(project / "rmsnorm.cu").empty());
  CHECK(names(kFixtures / "rmsnorm_cuda/rmsnorm.cu").empty());  // outside the project

  // Several kernels may list one file; `./` in src is normalised.
  BuildConfigParse shared = parse(std::string(kValid) + R"(
[kernel.other]
backend = "cuda"
depends = ["torch"]
src = ["./rmsnorm_cuda//rmsnorm.cu", "common"]
)");
  REQUIRE(shared.config);
  auto found = shared.config->kernels_for_source("/project/rmsnorm_cuda/rmsnorm.cu");
  REQUIRE(found.size() == 2);
  CHECK(found[0]->name == "rmsnorm");
  CHECK(found[1]->name == "other");
  CHECK(shared.config->kernels_for_source("/project/common/a/b.cuh").size() == 1);
}

TEST_CASE("an empty depends is a warning only when a source of the kernel reaches PyTorch's headers") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "kl_build_toml_depends";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "rmsnorm_cuda");
  const std::string toml = replaced(kValid, "depends = [\"torch\"]", "depends = []");
  auto empty_depends_warnings = [&] {
    BuildConfigParse parsed = parse_build_toml((dir / "build.toml").string(), toml);
    int n = 0;
    for (const auto& p : parsed.problems) n += p.message.find("`depends` is empty") != std::string::npos;
    return n;
  };
  // Plain CUDA behind a binding: nothing to depend on.
  std::ofstream(dir / "rmsnorm_cuda" / "rmsnorm.cu") << "#include <cuda_runtime.h>\n#include \"vec.cuh\"\n";
  std::ofstream(dir / "rmsnorm_cuda" / "vec.cuh") << "#include <cuda_bf16.h>\n";
  CHECK(empty_depends_warnings() == 0);
  // Through one of the project's headers, PyTorch's.
  std::ofstream(dir / "rmsnorm_cuda" / "vec.cuh") << "#include <ATen/cuda/CUDAContext.h>\n";
  CHECK(empty_depends_warnings() == 1);
  // A source that is not there: nothing says it does not include them.
  std::filesystem::remove_all(dir / "rmsnorm_cuda");
  CHECK(empty_depends_warnings() == 1);
  std::filesystem::remove_all(dir);
}
