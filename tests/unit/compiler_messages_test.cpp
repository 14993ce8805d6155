// What nvcc prints when a compile fails, as messages and Findings (runner/compiler_messages.h).
// First real nvcc on planted errors, compiled as `kernel-lsp build` compiles (one capability per
// run): each tool's format, with the file and 0-based line of every planted error; skipped with a
// WARN where there is no nvcc. Then literal samples of what is not cheap to produce here (nvlink,
// EDG's catastrophic errors, gcc's instantiation chains, CRLF output), and the merging of
// messages across compiles.
#include "runner/compiler_messages.h"

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "analyzers/project/capability.h"
#include "support/process.h"

namespace fs = std::filesystem;
using kl::analyzers::Finding;
using kl::analyzers::Severity;
using kl::runner::CompilerMessage;
using kl::runner::UnitMessages;

namespace {

fs::path find_nvcc() {
  for (const fs::path candidate : {fs::path(KL_NVCC), fs::path("/usr/local/cuda/bin/nvcc")})
    if (!candidate.empty() && fs::exists(candidate)) return candidate;
  return kl::find_on_path("nvcc");
}

// A folder of planted sources, removed at the end of the test.
struct PlantedSources {
  fs::path dir = fs::temp_directory_path() / ("kl-compiler-messages-" + std::to_string(::getpid()));
  PlantedSources() { fs::create_directories(dir); }
  ~PlantedSources() { fs::remove_all(dir); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(dir / name) << text; }
};

// nvcc as project_build.cpp runs it, from the sources' folder with a relative source path, so
// that resolving paths against the working directory is part of what is tested.
UnitMessages compile(const fs::path& nvcc, const PlantedSources& sources, const std::string& source,
                     const std::string& capability, std::vector<std::string> extra = {}) {
  auto cap = kl::analyzers::parse_capability(capability);
  REQUIRE(cap);
  kl::ProcessRequest request;
  request.program = nvcc;
  request.args = std::vector<std::string>{"-std=c++17", cap->gencode(), "-Xptxas", "-v"};
  request.args.insert(request.args.end(), extra.begin(), extra.end());
  for (const char* arg : {"-c", "-o", "/dev/null"}) request.args.push_back(arg);
  request.args.push_back(source);
  request.working_directory = sources.dir;
  request.timeout = std::chrono::minutes(3);
  auto outcome = kl::run_process(request);
  REQUIRE(outcome);
  const std::string output = outcome->stdout_text + outcome->stderr_text;
  UNSCOPED_INFO("nvcc " << source << " for " << capability << " printed:\n" << output);
  return {sources.dir / source, capability, kl::runner::parse_compiler_output(output, sources.dir)};
}

const CompilerMessage* find_message(const std::vector<CompilerMessage>& messages, const std::string& part) {
  for (const CompilerMessage& m : messages)
    if (m.text.find(part) != std::string::npos) return &m;
  return nullptr;
}

const Finding* find_finding(const std::vector<Finding>& findings, const std::string& part) {
  for (const Finding& f : findings)
    if (f.message.find(part) != std::string::npos) return &f;
  return nullptr;
}

bool has_text(const std::vector<CompilerMessage>& messages, const std::string& part) {
  return find_message(messages, part) != nullptr;
}

}  // namespace

TEST_CASE("real nvcc: planted errors keep their file and 0-based line, per tool") {
  const fs::path nvcc = find_nvcc();
  if (nvcc.empty()) {
    WARN("nvcc not found (KL_NVCC, /usr/local/cuda/bin/nvcc, PATH): real compiler output NOT parsed");
    return;
  }
  PlantedSources src;

  SECTION("EDG error, and the same error for two capabilities is one finding naming both") {
    src.write("undefined.cu",
              "__global__ void k(float* p) {\n"
              "  p[0] = 1.0f;\n"
              "  p[1] = planted_undefined;\n"  // line 2
              "}\n");
    UnitMessages sm80 = compile(nvcc, src, "undefined.cu", "8.0");
    UnitMessages sm90 = compile(nvcc, src, "undefined.cu", "9.0");
    for (const UnitMessages* unit : {&sm80, &sm90}) {
      REQUIRE(unit->messages.size() == 1);  // no summary line, no echoed source
      const CompilerMessage& m = unit->messages[0];
      CHECK(m.tool == "nvcc");
      CHECK(m.severity == Severity::Error);
      CHECK(m.file == src.dir / "undefined.cu");
      CHECK(m.line == 2u);
      CHECK(m.text == "identifier \"planted_undefined\" is undefined");
    }
    auto findings = kl::runner::compiler_findings({sm90, sm80}, {});
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].message == "identifier \"planted_undefined\" is undefined (sm_80, sm_90)");
    CHECK(findings[0].rule_id == "nvcc");
    CHECK(findings[0].location.file == (src.dir / "undefined.cu").string());
    CHECK(findings[0].location.range.start.line == 2);
  }

  SECTION("EDG warning with its number; the -diag-suppress remark is no message") {
    src.write("unused.cu",
              "__global__ void k(float* p) {\n"
              "  int planted_unused;\n"  // line 1
              "  p[0] = 1.0f;\n"
              "}\n");
    UnitMessages unit = compile(nvcc, src, "unused.cu", "9.0");
    REQUIRE(unit.messages.size() == 1);
    const CompilerMessage& m = unit.messages[0];
    CHECK(m.severity == Severity::Warning);
    CHECK(m.code == "177-D");
    CHECK(m.line == 1u);
    CHECK(m.text == "variable \"planted_unused\" was declared but never referenced");
    CHECK_FALSE(has_text(unit.messages, "diag-suppress"));
    auto findings = kl::runner::compiler_findings({unit}, {});
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == Severity::Warning);
    CHECK(findings[0].message ==
          "variable \"planted_unused\" was declared but never referenced [#177-D] (sm_90)");
  }

  SECTION("EDG template error in a header, with the instantiation chain in the source") {
    src.write("twice.cuh",
              "template <typename T>\n"
              "__device__ T twice(T v) {\n"
              "  return v.planted_member * 2;\n"  // line 2
              "}\n");
    src.write("instantiate.cu",
              "#include \"twice.cuh\"\n"
              "template <typename T>\n"
              "__global__ void k(T* p) {\n"
              "  p[0] = twice(p[1]);\n"  // line 3
              "}\n"
              "template __global__ void k<float>(float*);\n");  // line 5
    UnitMessages unit = compile(nvcc, src, "instantiate.cu", "8.0");
    REQUIRE(unit.messages.size() == 1);
    const CompilerMessage& m = unit.messages[0];
    CHECK(m.file == src.dir / "twice.cuh");
    CHECK(m.line == 2u);
    CHECK(m.text.find("must have class type") != std::string::npos);
    REQUIRE(m.context.size() == 2);
    CHECK(m.context[0].file == src.dir / "instantiate.cu");
    CHECK(m.context[0].line == 3u);
    CHECK(m.context[0].text.find("instantiation of \"T twice(T) [with T=float]\"") == 0);
    CHECK(m.context[1].file == src.dir / "instantiate.cu");
    CHECK(m.context[1].line == 5u);
    auto findings = kl::runner::compiler_findings({unit}, {});
    REQUIRE(findings.size() == 1);
    REQUIRE(findings[0].notes.size() == 2);
    CHECK(findings[0].notes[0].location.file == (src.dir / "instantiate.cu").string());
    CHECK(findings[0].notes[0].location.range.start.line == 3);
  }

  SECTION("an instantiation in the same file names no file: it is the message's") {
    src.write("same_file.cu",
              "template <typename T>\n"
              "__device__ T twice(T v) { return v.planted_member * 2; }\n"  // line 1
              "__global__ void k(float* p) {\n"
              "  p[0] = twice(p[1]);\n"  // line 3
              "}\n");
    UnitMessages unit = compile(nvcc, src, "same_file.cu", "8.0");
    REQUIRE(unit.messages.size() == 1);
    CHECK(unit.messages[0].line == 1u);
    REQUIRE(unit.messages[0].context.size() == 1);
    CHECK(unit.messages[0].context[0].file == src.dir / "same_file.cu");
    CHECK(unit.messages[0].context[0].line == 3u);
  }

  SECTION("EDG notes and continuation lines belong to their error") {
    src.write("overload.cu",
              "void f(int);\n"     // line 0
              "void f(double);\n"  // line 1
              "__global__ void k(int* p) { p[0] = 1; }\n"
              "int main() { f(\"planted\"); }\n");  // line 3
    UnitMessages unit = compile(nvcc, src, "overload.cu", "8.0");
    REQUIRE(unit.messages.size() == 1);
    const CompilerMessage& m = unit.messages[0];
    CHECK(m.line == 3u);
    CHECK(m.text.find("no instance of overloaded function \"f\"") == 0);
    CHECK(m.text.find("; argument types are: (const char [8])") != std::string::npos);
    CHECK(m.text.find("int main()") == std::string::npos);  // the echoed source line is not text
    REQUIRE(m.context.size() == 2);
    CHECK(m.context[0].severity == Severity::Information);
    CHECK(m.context[0].code == "3326-D");
    CHECK(m.context[0].line == 1u);
    CHECK(m.context[1].line == 0u);
  }

  SECTION("host compiler: error with a column, its function, and its include chain") {
    src.write("forbid.h",
              "__attribute__((error(\"planted host error\"))) void forbidden();\n"
              "inline void call_forbidden() {\n"
              "  forbidden();\n"  // line 2
              "}\n");
    src.write("host.cu",
              "#include \"forbid.h\"\n"
              "__global__ void k(int* p) { p[0] = 1; }\n"
              "int main() { call_forbidden(); }\n");
    UnitMessages unit = compile(nvcc, src, "host.cu", "9.0");
    const CompilerMessage* m = find_message(unit.messages, "planted host error");
    REQUIRE(m);
    CHECK(m->tool == "host compiler");
    CHECK(m->severity == Severity::Error);
    CHECK(m->file == src.dir / "forbid.h");
    CHECK(m->line == 2u);
    // gcc's column 10: the call's parenthesis, counted in cudafe++'s output, which drops the
    // line's indentation (2 here). Preprocessor errors (below) count in the file itself.
    REQUIRE(m->column);
    CHECK(*m->column == 9u);
    REQUIRE_FALSE(m->context.empty());
    CHECK(m->context.front().text.find("In function") == 0);
    CHECK(m->context.front().file == src.dir / "forbid.h");
  }

  SECTION("host preprocessor: #error in a header, with the file that includes it") {
    src.write("inner.h", "#pragma once\n#error \"planted preprocessor error\"\n");  // line 1
    src.write("outer.h", "#include \"inner.h\"\n");
    src.write("includes.cu", "#include \"outer.h\"\n__global__ void k() {}\n");
    UnitMessages unit = compile(nvcc, src, "includes.cu", "9.0");
    REQUIRE(unit.messages.size() == 1);  // "compilation terminated." is no message
    const CompilerMessage& m = unit.messages[0];
    CHECK(m.file == src.dir / "inner.h");
    CHECK(m.line == 1u);
    CHECK(m.column == 1u);
    REQUIRE(m.context.size() == 2);
    CHECK(m.context[0].file == src.dir / "outer.h");
    CHECK(m.context[0].line == 0u);
    CHECK(m.context[0].text == "inner.h is included here");
    CHECK(m.context[1].file == src.dir / "includes.cu");
    CHECK(m.context[1].text == "outer.h is included here");
  }

  SECTION("ptxas: too much shared data names its kernel, which locate_kernel places") {
    src.write("smem.cu",
              "__global__ void planted_smem(float* p) {\n"
              "  __shared__ float big[16384];\n"
              "  big[threadIdx.x] = p[threadIdx.x];\n"
              "  __syncthreads();\n"
              "  p[threadIdx.x] = big[threadIdx.x + 1];\n"
              "}\n");
    UnitMessages sm80 = compile(nvcc, src, "smem.cu", "8.0");
    const CompilerMessage* m = find_message(sm80.messages, "uses too much shared data");
    REQUIRE(m);
    CHECK(m->tool == "ptxas");
    CHECK(m->severity == Severity::Error);
    CHECK(m->file.empty());
    CHECK(m->entry_function == "_Z12planted_smemPf");
    CHECK(sm80.messages.size() == 1);  // the resource report is not messages

    auto at_source = kl::runner::compiler_findings({sm80}, {});
    REQUIRE(at_source.size() == 1);
    CHECK(at_source[0].rule_id == "ptxas");
    CHECK(at_source[0].location.file == (src.dir / "smem.cu").string());
    CHECK(at_source[0].location.range.start.line == 0);

    std::string asked;
    auto locate = [&](const std::string& mangled) -> std::optional<kl::analyzers::Location> {
      asked = mangled;
      kl::analyzers::Location at;
      at.file = (src.dir / "smem.cu").string();
      at.range.start = {0, 16};
      at.range.end = {0, 28};
      return at;
    };
    auto at_kernel = kl::runner::compiler_findings({sm80}, locate);
    CHECK(asked == "_Z12planted_smemPf");
    REQUIRE(at_kernel.size() == 1);
    CHECK(at_kernel[0].location.range.start.column == 16);
  }

  SECTION("ptxas: inline asm too new for the target, on a temporary .ptx") {
    src.write("wgmma.cu",
              "__global__ void k(float* p) {\n"
              "  asm volatile(\"wgmma.fence.sync.aligned;\");\n"
              "  p[0] = 1;\n"
              "}\n");
    UnitMessages unit = compile(nvcc, src, "wgmma.cu", "8.0");
    REQUIRE(unit.messages.size() == 1);  // "Ptx assembly aborted due to errors" only repeats it
    const CompilerMessage& m = unit.messages[0];
    CHECK(m.tool == "ptxas");
    CHECK(m.severity == Severity::Error);
    CHECK(m.file.empty());  // /tmp/tmpxft_..ptx is gone
    CHECK_FALSE(m.line);
    CHECK(m.text.find("wgmma.fence") != std::string::npos);
    CHECK(m.text.find("sm_80") != std::string::npos);
  }

  SECTION("ptxas: spill warnings under -warn-spills name the function") {
    src.write("spill.cu",
              "__global__ void planted_spill(float* p, int n) {\n"
              "  float acc[24];\n"
              "#pragma unroll\n"
              "  for (int i = 0; i < 24; ++i) acc[i] = p[i * n + threadIdx.x];\n"
              "#pragma unroll\n"
              "  for (int j = 0; j < 8; ++j)\n"
              "#pragma unroll\n"
              "    for (int i = 0; i < 24; ++i) acc[i] = acc[i] * acc[(i + j) % 24] + 1.0f;\n"
              "  float s = 0;\n"
              "#pragma unroll\n"
              "  for (int i = 0; i < 24; ++i) s += acc[i];\n"
              "  p[threadIdx.x] = s;\n"
              "}\n");
    UnitMessages unit =
        compile(nvcc, src, "spill.cu", "9.0", {"-maxrregcount=16", "-Xptxas", "-warn-spills"});
    const CompilerMessage* m = find_message(unit.messages, "spilled");
    REQUIRE(m);
    CHECK(m->tool == "ptxas");
    CHECK(m->severity == Severity::Warning);
    CHECK(m->entry_function == "_Z13planted_spillPfi");
  }

  SECTION("nvcc fatal: an architecture nvcc does not know") {
    src.write("fine.cu", "__global__ void k() {}\n");
    kl::ProcessRequest request;
    request.program = nvcc;
    request.args =
        std::vector<std::string>{"-gencode=arch=compute_95,code=sm_95", "-c", "-o", "/dev/null", "fine.cu"};
    request.working_directory = src.dir;
    auto outcome = kl::run_process(request);
    REQUIRE(outcome);
    auto messages = kl::runner::parse_compiler_output(outcome->stdout_text + outcome->stderr_text, src.dir);
    REQUIRE(messages.size() == 1);
    CHECK(messages[0].tool == "nvcc fatal");
    CHECK(messages[0].severity == Severity::Error);
    CHECK(messages[0].file.empty());
    CHECK(messages[0].text == "Unsupported gpu architecture 'compute_95'");
  }
}

TEST_CASE("literal samples: nvlink, nvcc's own warnings, ptxas on a real .ptx, EDG's catastrophic error") {
  const fs::path wd = "/work/project";
  const char* output =
      "nvcc warning : incompatible redefinition for option 'std', the last value of this option was used\n"
      "nvlink error   : Undefined reference to '_Z6ext_fni' in '/tmp/tmpxft_00002741_00000000-11_link.o'\n"
      "nvlink error   : Entry function '_Z4big1Pf' uses too much shared data (0x10000 bytes, 0xc000 max)\n"
      "ptxas kernels/hand.ptx, line 4; error   : Unknown modifier '.instr'\n"
      "ptxas fatal   : Ptx assembly aborted due to errors\n"
      "ptxas warning : Value of threads per SM for entry _Z1kPf is out of range. .minnctapersm will be "
      "ignored\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "src/a.cu(99999999999999999999): warning: a line number no file has\n"
      "src/a.cu(1): catastrophic error: cannot open source file \"cutlass/cutlass.h\"\n"
      "  #include \"cutlass/cutlass.h\"\n"
      "                              ^\n"
      "\n"
      "1 catastrophic error detected in the compilation of \"src/a.cu\".\n"
      "Compilation terminated.\n";
  auto messages = kl::runner::parse_compiler_output(output, wd);
  REQUIRE(messages.size() == 7);
  CHECK(messages[0].tool == "nvcc");
  CHECK(messages[0].severity == Severity::Warning);
  CHECK(messages[0].file.empty());
  CHECK(messages[1].tool == "nvlink");
  CHECK(messages[1].entry_function.empty());  // an undefined reference is no kernel to point at
  CHECK(messages[2].entry_function == "_Z4big1Pf");
  CHECK(messages[3].tool == "ptxas");
  CHECK(messages[3].file == wd / "kernels/hand.ptx");
  CHECK(messages[3].line == 3u);
  CHECK(messages[4].severity == Severity::Warning);
  CHECK(messages[4].entry_function == "_Z1kPf");
  CHECK(messages[5].file == wd / "src/a.cu");
  CHECK_FALSE(messages[5].line);  // too large to be a line: kept, without one
  CHECK(messages[6].severity == Severity::Error);
  CHECK(messages[6].file == wd / "src/a.cu");
  CHECK(messages[6].line == 0u);
  CHECK(messages[6].text == "cannot open source file \"cutlass/cutlass.h\"");
}

TEST_CASE("literal samples: gcc's instantiation chain comes before its error, notes after") {
  const char* output =
      "a.cu: In instantiation of 'void fill(T*) [with T = int]':\r\n"
      "a.cu:9:7:   required from here\r\n"
      "a.cu:3:10: error: 'struct S' has no member named 'x'\r\n"
      "    3 |   p->x = 0;\r\n"
      "      |   ~~~^\r\n"
      "a.cu:1:8: note: 'struct S' declared here\r\n"
      "cc1plus: warning: command-line option '-Wplanted' is valid for C but not for C++\r\n"
      "cc1plus: all warnings being treated as errors\r\n";
  auto messages = kl::runner::parse_compiler_output(output, "/w");
  REQUIRE(messages.size() == 2);
  const CompilerMessage& error = messages[0];
  CHECK(error.tool == "host compiler");
  CHECK(error.file == "/w/a.cu");
  CHECK(error.line == 2u);
  CHECK(error.column == 9u);
  CHECK(error.text == "'struct S' has no member named 'x'");
  REQUIRE(error.context.size() == 3);
  CHECK(error.context[0].text == "In instantiation of 'void fill(T*) [with T = int]'");
  CHECK_FALSE(error.context[0].line);
  CHECK(error.context[1].text == "required from here");
  CHECK(error.context[1].line == 8u);
  CHECK(error.context[1].column == 6u);
  CHECK(error.context[2].severity == Severity::Information);
  CHECK(error.context[2].line == 0u);
  CHECK(messages[1].severity == Severity::Warning);
  CHECK(messages[1].file.empty());
  CHECK(messages[1].text.find("-Wplanted") != std::string::npos);
}

TEST_CASE("findings: merged across compiles, targets in capability order, rule ids, notes kept once") {
  CompilerMessage undefined;
  undefined.severity = Severity::Error;
  undefined.tool = "nvcc";
  undefined.file = "/p/common.cuh";
  undefined.line = 4;
  undefined.text = "identifier \"x\" is undefined";
  CompilerMessage spill;
  spill.severity = Severity::Warning;
  spill.tool = "ptxas";
  spill.text = "Registers are spilled to local memory in function '_Z1kv'";
  spill.entry_function = "_Z1kv";
  CompilerMessage fatal;
  fatal.tool = "nvcc fatal";
  fatal.text = "Unsupported gpu architecture 'compute_95'";
  CompilerMessage with_note = undefined;
  CompilerMessage note;
  note.severity = Severity::Information;
  note.file = "/p/a.cu";
  note.line = 1;
  note.text = "a.cu's instantiation";
  with_note.context = {note};

  // The header's error comes from two sources and three targets; "10.0" sorts after "9.0a".
  std::vector<UnitMessages> units = {
      {"/p/a.cu", "10.0", {with_note, spill}},
      {"/p/a.cu", "9.0a", {with_note, spill}},
      {"/p/b.cu", "8.0", {undefined, fatal}},
      {"/p/a.cu", "8.0", {with_note, fatal}},
  };
  auto findings = kl::runner::compiler_findings(units, {});
  REQUIRE(findings.size() == 4);
  const Finding* header = find_finding(findings, "is undefined");
  REQUIRE(header);
  CHECK(header->message == "identifier \"x\" is undefined (sm_80, sm_90a, sm_100)");
  CHECK(header->location.file == "/p/common.cuh");
  CHECK(header->location.range.start.line == 4);
  REQUIRE(header->notes.size() == 1);
  CHECK(header->notes[0].location.file == "/p/a.cu");
  CHECK(header->notes[0].location.range.start.line == 1);

  const Finding* spilled = find_finding(findings, "spilled");
  REQUIRE(spilled);
  CHECK(spilled->rule_id == "ptxas");
  CHECK(spilled->severity == Severity::Warning);
  CHECK(spilled->location.file == "/p/a.cu");  // no locator: the unit's source, line 0
  CHECK(spilled->message.find("(sm_90a, sm_100)") != std::string::npos);

  // A message without a file stays with its own source: one finding per source.
  size_t fatals = std::count_if(findings.begin(), findings.end(), [](const Finding& f) {
    return f.message.find("compute_95") != std::string::npos;
  });
  CHECK(fatals == 2);
  CHECK(findings.back().rule_id == "nvcc");
}
