// cli/result_cache: when a lint result is handed back, when it is not, and that no state of
// the folder (corrupt entries, another binary's folder) turns into an error.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "cli/cache_key.h"
#include "cli/result_cache.h"

namespace fs = std::filesystem;
using kl::cli::AnalysisRecord;
using kl::cli::CachedResult;
using kl::cli::ResultCache;

namespace {

void write(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::trunc) << text; }

// Files the tests create are given a modification time well in the past: the cache refuses
// inputs modified within a second of an analysis (result_cache.h).
void age(const fs::path& path, int seconds_ago) {
  fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::seconds(seconds_ago));
}

struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("kl_result_cache_test_" + std::to_string(::getpid()));
  fs::path root = dir / "cache";
  fs::path source = dir / "project" / "kernel.cu";
  fs::path header = dir / "project" / "kernel.cuh";
  Scratch() {
    fs::remove_all(dir);
    fs::create_directories(source.parent_path());
    write(header, "#pragma once\n__device__ int twice(int x) { return 2 * x; }\n");
    age(header, 60);
  }
  ~Scratch() { fs::remove_all(dir); }
  std::unique_ptr<ResultCache> open(const std::string& identity = "0.1.0-test", const std::string& key = "k1") {
    return ResultCache::open(root, identity, key, /*use_compile_commands=*/true);
  }
};

CachedResult one_finding(const std::string& file) {
  kl::analyzers::Finding f;
  f.rule_id = "uncoalesced-access";
  f.severity = kl::analyzers::Severity::Warning;
  f.location = {file, {{2, 4}, {2, 9}}};
  f.message = "a message";
  f.notes.push_back({{file, {{1, 0}, {1, 3}}}, "a note"});
  CachedResult result;
  result.findings.push_back(f);
  kl::analyzers::KernelCoverage kernel;
  kernel.name = "copy";
  kernel.global_loads = 3;
  result.kernels.push_back(kernel);
  return result;
}

AnalysisRecord record_of(const Scratch& s) {
  AnalysisRecord record;
  record.inputs = {s.header.string()};
  record.started_ns = kl::cli::analysis_clock_ns();
  return record;
}

const std::string kText = "#include \"kernel.cuh\"\n__global__ void k(int* p) { p[0] = twice(1); }\n";

}  // namespace

TEST_CASE("an unchanged file hits, with the findings and kernels it was stored with") {
  Scratch s;
  auto cache = s.open();
  REQUIRE(cache);
  CHECK_FALSE(cache->lookup(s.source, kText));
  REQUIRE(cache->store(s.source, kText, one_finding(s.source.string()), record_of(s)));
  auto again = s.open();  // a later run: nothing of the first one's memory
  auto hit = again->lookup(s.source, kText);
  REQUIRE(hit);
  REQUIRE(hit->findings.size() == 1);
  CHECK(hit->findings[0].rule_id == "uncoalesced-access");
  CHECK(hit->findings[0].location.range.start.column == 4);
  CHECK(hit->findings[0].notes.at(0).message == "a note");
  CHECK(hit->kernels.at(0) == one_finding(s.source.string()).kernels.at(0));
}

TEST_CASE("an edited source, an edited header or other settings miss") {
  Scratch s;
  REQUIRE(s.open()->store(s.source, kText, one_finding(s.source.string()), record_of(s)));
  CHECK_FALSE(s.open()->lookup(s.source, kText + "// edited\n"));
  CHECK_FALSE(s.open("0.1.0-test", "k2")->lookup(s.source, kText));
  CHECK_FALSE(s.open()->lookup(s.dir / "project" / "other.cu", kText));
  write(s.header, "#pragma once\n__device__ int twice(int x) { return x + x; }\n");  // same size
  age(s.header, 30);
  CHECK_FALSE(s.open()->lookup(s.source, kText));
  fs::remove(s.header);
  CHECK_FALSE(s.open()->lookup(s.source, kText));
}

TEST_CASE("a touch without a change still hits") {
  Scratch s;
  REQUIRE(s.open()->store(s.source, kText, one_finding(s.source.string()), record_of(s)));
  age(s.header, 20);  // a new modification time, the same content
  CHECK(s.open()->lookup(s.source, kText));
}

TEST_CASE("a build.toml that appears above the file is noticed") {
  Scratch s;
  REQUIRE(s.open()->store(s.source, kText, one_finding(s.source.string()), record_of(s)));
  write(s.source.parent_path() / "build.toml", "[general]\nname = \"x\"\n");
  CHECK_FALSE(s.open()->lookup(s.source, kText));
}

TEST_CASE("inputs modified during or just before the analysis are not stored") {
  Scratch s;
  write(s.header, "#pragma once\n");  // modified now, as the analysis starts
  CHECK_FALSE(s.open()->store(s.source, kText, one_finding(s.source.string()), record_of(s)));
  AnalysisRecord missing = record_of(s);
  missing.inputs = {(s.dir / "gone.h").string()};
  CHECK_FALSE(s.open()->store(s.source, kText, one_finding(s.source.string()), missing));
}

TEST_CASE("a corrupt entry is a miss, and storing again repairs it") {
  Scratch s;
  auto cache = s.open();
  REQUIRE(cache->store(s.source, kText, one_finding(s.source.string()), record_of(s)));
  for (const auto& entry : fs::directory_iterator(cache->folder()))
    if (entry.path().extension() == ".json") write(entry.path(), "{\"format\": 1, \"file\": tru");
  CHECK_FALSE(s.open()->lookup(s.source, kText));
  for (const auto& entry : fs::directory_iterator(cache->folder()))
    if (entry.path().extension() == ".json") write(entry.path(), "[]");
  CHECK_FALSE(s.open()->lookup(s.source, kText));
  REQUIRE(s.open()->store(s.source, kText, one_finding(s.source.string()), record_of(s)));
  CHECK(s.open()->lookup(s.source, kText));
}

TEST_CASE("another binary's folder is removed when this one's is created; foreign folders stay") {
  Scratch s;
  auto old_cache = s.open("0.0.9-old");
  REQUIRE(old_cache->store(s.source, kText, one_finding(s.source.string()), record_of(s)));
  fs::create_directories(s.root / "not-ours");
  auto new_cache = s.open("0.1.0-new");
  REQUIRE(new_cache);
  CHECK_FALSE(fs::exists(s.root / "0.0.9-old"));
  CHECK(fs::exists(s.root / "not-ours"));
  CHECK(fs::exists(s.root / "CACHEDIR.TAG"));
  CHECK_FALSE(new_cache->lookup(s.source, kText));
}

TEST_CASE("a folder that cannot be made means no cache, not an error") {
  Scratch s;
  write(s.dir / "a-file", "");
  CHECK_FALSE(ResultCache::open(s.dir / "a-file" / "cache", "0.1.0-test", "k", true));
  CHECK_FALSE(ResultCache::open("", "0.1.0-test", "k", true));
}

TEST_CASE("keys: the same settings give the same key, other settings another") {
  kl::analyzers::AnalysisSettings a, b;
  CHECK(kl::cli::settings_key(a) == kl::cli::settings_key(b));
  b.extra_flags.push_back("-DX=1");
  CHECK(kl::cli::settings_key(a) != kl::cli::settings_key(b));
  b = a;
  b.cache_parses = true;  // how, not what: the same results
  CHECK(kl::cli::settings_key(a) == kl::cli::settings_key(b));
  b.disabled_rules.insert("uncoalesced-access");
  CHECK(kl::cli::settings_key(a) != kl::cli::settings_key(b));
  CHECK(kl::cli::binary_identity("0.1.0") == kl::cli::binary_identity("0.1.0"));
  CHECK(kl::cli::binary_identity("0.1.0").rfind("0.1.0-", 0) == 0);
}
