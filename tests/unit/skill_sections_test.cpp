// The section index and guidance lookups (guidance/skill_sections.h, skill_constructs.h,
// skill_guidance.h) over the bundled cuda-kernels skill: every construct the server hovers
// resolves to a non-empty section; every rule has a page; headings match tolerantly; topics
// rank sensibly. This is "hover returns guidance for every construct" at the model level.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "analyzers/rules/rule_catalog.h"
#include "guidance/skill_catalog.h"
#include "guidance/skill_constructs.h"
#include "guidance/skill_guidance.h"
#include "support/fs_paths.h"

namespace fs = std::filesystem;
using namespace kl::guidance;
namespace guidance = kl::guidance;

namespace {

const fs::path kSource = KL_SOURCE_DIR;

const guidance::ConstructTable& constructs() {
  static const guidance::ConstructTable table = [] {
    auto text = kl::read_file_text(kSource / "snippets" / "constructs.toml");
    REQUIRE(text);
    auto parsed = guidance::ConstructTable::parse(*text, "constructs.toml");
    if (!parsed) FAIL(parsed.error().describe());
    return *parsed;
  }();
  return table;
}

std::shared_ptr<const guidance::SkillCatalog> bundled_catalog() {
  static const auto catalog =
      std::make_shared<const guidance::SkillCatalog>(guidance::SkillCatalog::load({{kSource / "skills", guidance::SkillOrigin::Bundled}}));
  return catalog;
}

const guidance::SkillGuidance& bundled_guidance() {
  static const guidance::SkillGuidance g(bundled_catalog(), constructs());
  return g;
}

// Non-blank lines of a section's body (heading excluded).
size_t body_lines(const std::string& text) {
  size_t count = 0, start = text.find('\n');
  while (start != std::string::npos && start + 1 < text.size()) {
    size_t end = text.find('\n', start + 1);
    std::string line = text.substr(start + 1, end == std::string::npos ? std::string::npos : end - start - 1);
    if (line.find_first_not_of(" \t") != std::string::npos) ++count;
    start = end;
  }
  return count;
}

}  // namespace

TEST_CASE("the bundled skill is found and indexed by heading") {
  auto skill = bundled_catalog()->find(guidance::kCudaKernelsSkill);
  REQUIRE(skill);
  CHECK(skill->origin() == guidance::SkillOrigin::Bundled);
  CHECK(skill->front_matter_valid());
  const guidance::SkillSectionIndex& index = skill->sections();
  REQUIRE(index.sections().size() > 50);
  // Headings inside code fences (`# build.toml ...`, `#include`) are not sections.
  for (const auto& section : index.sections()) {
    INFO(section.file << ":" << section.first_line + 1 << " " << section.heading);
    CHECK(section.heading.rfind("include", 0) != 0);
    CHECK(section.end_line > section.first_line);
    CHECK_FALSE(section.text.empty());
  }
  const guidance::SkillSection* core = index.find_heading("core patterns");
  REQUIRE(core);
  CHECK(core->file == "SKILL.md");
  CHECK(core->level == 2);
  // A ## section holds its ### subsections.
  CHECK(core->text.find("### Grid and block sizing") != std::string::npos);
}

TEST_CASE("every construct the server knows resolves to a non-empty section of the bundled skill") {
  // The constructs the skill covers, each as the server or a client would spell it.
  const std::vector<std::string> spellings = {"__shfl_xor_sync",
                                              "__shfl_down_sync",
                                              "__shfl_up_sync",
                                              "__shfl_sync",
                                              "__reduce_add_sync",
                                              "__reduce_max_sync",
                                              "__reduce_or_sync",
                                              "reinterpret_cast<float4*>",
                                              "float2",
                                              "float4",
                                              "int4",
                                              "uint4",
                                              "__half2",
                                              "__nv_bfloat162",
                                              "__launch_bounds__",
                                              "__shared__",
                                              "cp.async",
                                              "cp.async.cg.shared.global",
                                              "__pipeline_memcpy_async",
                                              "__syncthreads",
                                              "TORCH_LIBRARY_EXPAND",
                                              "ops.def",
                                              "ops.impl",
                                              "__hmul2",
                                              "__hfma2",
                                              "__float22bfloat162_rn",
                                              "cuda-capabilities",
                                              "depends",
                                              "backend",
                                              "edition"};
  for (const auto& spelling : spellings) {
    INFO(spelling);
    const guidance::Construct* construct = constructs().find(spelling);
    REQUIRE(construct);
    auto g = bundled_guidance().for_construct(*construct);
    REQUIRE(g);
    CHECK(normalize_heading(g->title).rfind(normalize_heading(construct->heading), 0) == 0);
    CHECK(g->relative_file == construct->file);
    CHECK(body_lines(g->markdown) >= 3);
    CHECK(fs::exists(g->file));
  }
  // And every entry of the table, including spellings not listed above.
  for (const auto& construct : constructs().all()) {
    INFO(construct.id);
    CHECK(bundled_guidance().for_construct(construct));
  }
}

TEST_CASE("the construct-section headings the skill uses are found tolerantly") {
  auto skill = bundled_catalog()->find(guidance::kCudaKernelsSkill);
  const guidance::SkillSectionIndex& index = skill->sections();
  for (const char* heading :
       {"Warp shuffles (__shfl_xor_sync, __shfl_down_sync)", "Vector types and reinterpret_cast",
        "__launch_bounds__", "Shared memory (__shared__)", "cp.async", "__syncthreads",
        "TORCH_LIBRARY_EXPAND", "Warp reductions (__reduce_add_sync)", "Vectorised half2 / bfloat162 math"}) {
    INFO(heading);
    const guidance::SkillSection* section = index.find_heading(heading);
    REQUIRE(section);
    CHECK(section->file == "references/constructs.md");
  }
  // Case, backticks and a prefix are enough.
  REQUIRE(index.find_heading("warp SHUFFLES"));
  CHECK(index.find_heading("warp SHUFFLES")->heading.rfind("Warp shuffles", 0) == 0);
  REQUIRE(index.find_heading("`cp.async`"));
  CHECK(index.find_heading("no such heading at all") == nullptr);
}

TEST_CASE("constructs are found at the cursor, in the right scope") {
  const guidance::ConstructTable& table = constructs();
  auto id_at = [&](std::string_view line, std::string_view needle,
                   guidance::ConstructScope scope = guidance::ConstructScope::Cuda, size_t into = 1) -> std::string {
    size_t column = line.find(needle);
    REQUIRE(column != std::string_view::npos);
    auto hit = table.match_at(line, column + into, scope);
    return hit ? hit->construct->id : "";
  };
  CHECK(id_at("  v += __shfl_xor_sync(0xffffffffu, v, d);", "__shfl_xor_sync") == "warp-shuffle");
  CHECK(id_at("  return __reduce_max_sync(mask, v);", "__reduce_max_sync") == "warp-reduce");
  CHECK(id_at(R"(  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::);)", "async") == "cp-async");
  CHECK(id_at("  const float4* p = reinterpret_cast<const float4*>(x);", "reinterpret_cast") ==
        "vector-types");
  CHECK(id_at("  const float4* p = reinterpret_cast<const float4*>(x);", "float4") == "vector-types");
  CHECK(id_at("  auto p = reinterpret_cast<char*>(x);", "reinterpret_cast").empty());  // not a vector type
  CHECK(id_at("__global__ void __launch_bounds__(256) k() {", "__launch_bounds__") == "launch-bounds");
  CHECK(id_at("  __shared__ float tile[32][33];", "__shared__") == "shared-memory");
  CHECK(id_at("  __syncthreads();", "__syncthreads", guidance::ConstructScope::Cuda, 13) ==
        "syncthreads");  // cursor at the end
  CHECK(id_at("TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) {", "TORCH_LIBRARY_EXPAND") ==
        "torch-library-expand");
  CHECK(id_at(R"(  ops.def("f(Tensor x) -> Tensor");)", "def") == "op-schema");
  CHECK(id_at(R"(  ops.impl("f", torch::kCUDA, &f);)", "impl") == "torch-library-expand");
  CHECK(id_at("  v.p[k] = __hfma2(v.p[k], s2, b2);", "__hfma2") == "half2-math");
  CHECK(id_at("cuda-capabilities = [\"8.0\"]", "capabilities", guidance::ConstructScope::Toml) == "cuda-capabilities");
  CHECK(id_at("depends = [\"torch\"]", "depends", guidance::ConstructScope::Toml) == "build-toml-kernel");
  CHECK(id_at("edition = 5", "edition", guidance::ConstructScope::Toml) == "build-toml-general");
  CHECK(id_at("  int depends = 0;", "depends").empty());  // a build.toml key means nothing in CUDA
  CHECK(id_at("  int x = threadIdx.x;", "threadIdx").empty());
}

TEST_CASE("every rule in the catalog has a guidance page") {
  for (const kl::analyzers::Rule* rule : kl::analyzers::rule_catalog()) {
    if (rule->id == kl::analyzers::kFrontend) continue;
    INFO(rule->id);
    // nvcc and ptxas (a build's compiler messages) share one page; every other rule has its own.
    std::string page = rule->id == kl::analyzers::kNvcc || rule->id == kl::analyzers::kPtxas
                           ? "references/rules/build-messages.md"
                           : "references/rules/" + std::string(rule->id) + ".md";
    CHECK(rule->guidance_page == page);
    CHECK(fs::exists(kSource / "skills" / "cuda-kernels" / page));
    auto g = bundled_guidance().for_rule(rule->id);
    REQUIRE(g);
    CHECK(g->relative_file == page);
    CHECK(g->line == 0);
    CHECK(body_lines(g->markdown) >= 3);
  }
  // frontend's page is troubleshooting.md, through the rule catalog.
  auto frontend = bundled_guidance().for_rule(kl::analyzers::kFrontend);
  REQUIRE(frontend);
  CHECK(frontend->relative_file == "references/troubleshooting.md");
}

TEST_CASE("guidance is trimmed for hovers, never inside an open code fence, and links to its file") {
  auto g = bundled_guidance().lookup({"", "__syncthreads", ""}, 10);
  REQUIRE(g);
  CHECK(g->trimmed);
  CHECK(g->title == "__syncthreads");
  size_t fences = 0;
  for (size_t at = g->markdown.find("```"); at != std::string::npos; at = g->markdown.find("```", at + 3))
    ++fences;
  CHECK(fences % 2 == 0);
  CHECK(g->markdown.find("more lines in [references/constructs.md](file://") != std::string::npos);
  CHECK(g->markdown.find("#L" + std::to_string(g->line + 1) + ")") != std::string::npos);

  auto full = bundled_guidance().lookup({"", "__syncthreads", ""}, 1000);
  REQUIRE(full);
  CHECK_FALSE(full->trimmed);
  CHECK(full->markdown.find("From [references/constructs.md]") != std::string::npos);
}

TEST_CASE("lookup: rule id, then construct, then topic") {
  auto by_rule = bundled_guidance().lookup({"smem-limit", "__shfl_xor_sync", "coalescing"});
  REQUIRE(by_rule);
  CHECK(by_rule->relative_file == "references/rules/smem-limit.md");
  auto by_construct = bundled_guidance().lookup({"", "__shfl_xor_sync", "coalescing"});
  REQUIRE(by_construct);
  CHECK(by_construct->title.rfind("Warp shuffles", 0) == 0);
  // A construct that is not in the table but is a heading.
  auto by_heading = bundled_guidance().lookup({"", "Grid and block sizing", ""});
  REQUIRE(by_heading);
  CHECK(by_heading->title == "Grid and block sizing");
  CHECK(!bundled_guidance().lookup({"no-such-rule", "", ""}));
}

TEST_CASE("topics rank sections by the words they hold") {
  auto skill = bundled_catalog()->find(guidance::kCudaKernelsSkill);
  const guidance::SkillSectionIndex& index = skill->sections();
  auto top = [&](const std::string& topic) {
    auto ranked = index.search(topic, 1);
    REQUIRE_FALSE(ranked.empty());
    return ranked.front()->heading;
  };
  CHECK(top("coalescing adjacent lanes") == "Coalescing: adjacent lanes, adjacent addresses");
  CHECK(top("bank conflicts shared memory padding") == "Shared memory (__shared__)");
  CHECK(top("migrating older build.toml files") == "Migrating older files");
  CHECK(index.search("the of and", 5).empty());  // stop words only
  auto g = bundled_guidance().for_topic("cp.async pipeline");
  REQUIRE(g);
  CHECK(g->title == "cp.async");
}

TEST_CASE("workspace skills take precedence over the bundled one; missing sections fall through") {
  const fs::path root = fs::temp_directory_path() / ("kl-skill-precedence-" + std::to_string(::getpid()));
  fs::remove_all(root);
  const fs::path copy = root / ".claude" / "skills" / "cuda-kernels";
  fs::create_directories(copy / "references");
  {
    std::ofstream(copy / "SKILL.md")
        << "---\nname: cuda-kernels\ndescription: A team's edited copy.\n---\n\n"
           "# Team copy\n\n## __syncthreads\nOur own barrier advice.\nLine two.\nLine three.\n";
  }
  std::vector<guidance::SkillFolder> folders = {{root / ".claude" / "skills", guidance::SkillOrigin::Workspace},
                                      {kSource / "skills", guidance::SkillOrigin::Bundled}};
  auto catalog = std::make_shared<const guidance::SkillCatalog>(guidance::SkillCatalog::load(folders));
  REQUIRE(catalog->find_all(guidance::kCudaKernelsSkill).size() == 2);
  CHECK(catalog->find(guidance::kCudaKernelsSkill)->origin() == guidance::SkillOrigin::Workspace);
  guidance::SkillGuidance g(catalog, constructs());
  auto barrier = g.lookup({"", "__syncthreads", ""});
  REQUIRE(barrier);
  CHECK(barrier->markdown.find("Our own barrier advice") != std::string::npos);
  auto shuffle = g.lookup({"", "__shfl_down_sync", ""});  // not in the team copy: the bundled one answers
  REQUIRE(shuffle);
  CHECK(shuffle->file.string().find(".claude") == std::string::npos);
  fs::remove_all(root);
}

TEST_CASE("skill search folders: workspace, user agents, bundled") {
  auto folders = skill_search_folders({"/ws"}, "/home/me");
  std::vector<std::string> paths;
  for (const auto& f : folders) paths.push_back(f.path.generic_string());
  auto has = [&](const std::string& p) { return std::find(paths.begin(), paths.end(), p) != paths.end(); };
  CHECK(has("/ws/.skills"));
  CHECK(has("/ws/skills"));
  CHECK(has("/ws/.claude/skills"));
  CHECK(has("/home/me/.claude/skills"));
  CHECK(has("/home/me/.codex/skills"));
  CHECK(has("/home/me/.config/opencode/skills"));
  CHECK(folders.front().origin == guidance::SkillOrigin::Workspace);
  CHECK(folders.back().origin == guidance::SkillOrigin::Bundled);
}
