// What a build says about each kernel, joined to the kernels of a source (the code
// lenses' data), and the one-job-per-project rule of builds started from the editor.
#include "lsp/features/kernel_usage.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "runner/project_jobs.h"
#include "runner/resource_usage.h"

using kl::lsp::kernel_usage;
using kl::lsp::usage_details;
using kl::lsp::usage_summary;
using kl::lsp::usage_title;
using kl::runner::kernel_base_name;

namespace {

kl::runner::KernelResources entry(std::string demangled, std::string target, uint32_t regs,
                                  uint32_t spill = 0, uint32_t smem = 0) {
  kl::runner::KernelResources k;
  k.mangled_name = "_Z" + demangled;
  k.name = std::move(demangled);
  k.target = std::move(target);
  k.registers = regs;
  k.spill_store_bytes = spill;
  k.shared_bytes = smem;
  return k;
}

kl::runner::CompileUnit unit(std::string capability, std::vector<kl::runner::KernelResources> kernels) {
  kl::runner::CompileUnit u;
  u.capability = std::move(capability);
  u.ok = true;
  u.kernels = std::move(kernels);
  return u;
}

const char* kSource =
    "#include <cuda_runtime.h>\n"
    "template <typename T, int N>\n"
    "__global__ void scale(T* x, int n) { x[threadIdx.x] *= 2; }\n"
    "__global__ void __launch_bounds__(128) bounded(float* x) { x[threadIdx.x] = 0; }\n"
    "extern \"C\" __global__ void plain(float* x) { x[threadIdx.x] = 1; }\n";

}  // namespace

TEST_CASE("ptxas' demangled names come back to the name the kernel is written with") {
  CHECK(kernel_base_name("void scale<float, 4>(float*, int)") == "scale");
  CHECK(
      kernel_base_name("void (anonymous namespace)::rms_kernel<__nv_bfloat16, 8, true>(uint4 const*, int)") ==
      "rms_kernel");
  CHECK(kernel_base_name("void ns::inner::k<(anonymous namespace)::Op, 2>(void (*)(int), float*)") == "k");
  CHECK(kernel_base_name("plain") == "plain");
  CHECK(kernel_base_name("void f(int)") == "f");
}

TEST_CASE("every instantiation of a template kernel counts towards its lens, per target") {
  kl::runner::BuildReport build;
  build.units = {
      unit("8.0",
           {entry("void scale<float, 4>(float*, int)", "sm_80", 40),
            entry("void scale<__half, 8>(__half*, int)", "sm_80", 64, 16), entry("plain", "sm_80", 10)}),
      unit("9.0", {entry("void scale<float, 4>(float*, int)", "sm_90", 38), entry("plain", "sm_90", 8)})};
  auto usage = kernel_usage(kSource, nullptr, build);
  REQUIRE(usage.size() == 3);
  CHECK(usage[0].name == "scale");
  CHECK(usage[0].name_range.start.line == 2);
  REQUIRE(usage[0].targets.size() == 2);
  const auto& sm80 = usage[0].targets[0];
  CHECK(sm80.target == "sm_80");
  CHECK(sm80.instantiations == 2);
  CHECK(sm80.registers_min == 40);
  CHECK(sm80.registers_max == 64);
  CHECK(sm80.spill_bytes_max == 16);
  CHECK(usage_title(sm80).rfind("sm_80 (2 instantiations): 40–64 regs · 16 B spill · 0 B smem", 0) == 0);
  CHECK(usage[0].targets[1].registers_max == 38);
  CHECK(usage[1].name == "bounded");
  CHECK(usage[1].targets.empty());  // the build reported no such kernel
  CHECK(usage[2].targets.size() == 2);
}

TEST_CASE("occupancy is given at the block size the code shows, else at the best one") {
  kl::runner::BuildReport build;
  build.units = {unit("9.0", {entry("void bounded(float*)", "sm_90", 128), entry("plain", "sm_90", 128)})};
  // With facts, the kernels are the parse's (document symbols' rule), with their positions.
  kl::analyzers::UnitFacts facts;
  auto kernel_at = [&](std::string name, uint32_t line, uint32_t column) {
    kl::analyzers::KernelInfo k;
    k.name = k.qualified_name = std::move(name);
    k.location.range = {{line, column}, {line, column + static_cast<uint32_t>(k.name.size())}};
    k.body_range = {{line, 0}, {line, 80}};
    facts.kernels.push_back(k);
    return &facts.kernels.back();
  };
  kernel_at("scale", 2, 16);
  kernel_at("bounded", 3, 39)->max_threads_per_block = 128;
  kernel_at("plain", 4, 27);
  kl::analyzers::LaunchSite launch;
  launch.kernel_name = "plain";
  launch.block_x = 256;
  facts.launches.push_back(launch);
  auto usage = kernel_usage(kSource, &facts, build);
  REQUIRE(usage.size() == 3);
  // 128 registers × 128 threads: 4 warps × 128 × 32 = 16,384 registers per block; 4 blocks per
  // SM = 16 warps of 64 = 25 %.
  const auto& b = usage[1].targets.at(0);
  CHECK(b.threads == 128);
  CHECK(b.threads_source == "launch bounds");
  REQUIRE(b.occupancy);
  CHECK(*b.occupancy == Approx(0.25));
  CHECK(usage_title(b).find("25% occupancy at 128 threads") != std::string::npos);
  const auto& p = usage[2].targets.at(0);
  CHECK(p.threads == 256);
  CHECK(p.threads_source == "launches in this file");
  CHECK(*p.occupancy == Approx(0.25));
  // No block size anywhere: the largest that reaches the best occupancy, said as such.
  auto unknown = kernel_usage(kSource, nullptr, build);
  CHECK(unknown[2].targets.at(0).threads_source == "best block size");
  CHECK(usage_title(unknown[2].targets.at(0)).find("up to") != std::string::npos);
}

TEST_CASE("a kernel that cannot launch its block size says so instead of an occupancy") {
  kl::runner::BuildReport build;
  build.units = {unit("9.0", {entry("plain", "sm_90", 255)})};
  kl::analyzers::UnitFacts facts;
  for (auto [name, line] : {std::pair<const char*, uint32_t>{"scale", 2}, {"bounded", 3}, {"plain", 4}}) {
    kl::analyzers::KernelInfo k;
    k.name = k.qualified_name = name;
    k.location.range = {{line, 0}, {line, 5}};
    k.body_range = {{line, 0}, {line, 80}};
    facts.kernels.push_back(k);
  }
  kl::analyzers::LaunchSite launch;
  launch.kernel_name = "plain";
  launch.block_x = 1024;  // 255 registers × 1024 threads is over the 64 K register file
  facts.launches.push_back(launch);
  auto usage = kernel_usage(kSource, &facts, build);
  const auto& t = usage[2].targets.at(0);
  CHECK_FALSE(t.occupancy);
  CHECK(usage_title(t).find("cannot launch 1024 threads per block") != std::string::npos);
  CHECK(usage_summary(usage[2].targets) == "255 regs · 0 B smem · cannot launch 1024 threads");
}

TEST_CASE("a kernel's lens title is a short summary over every target; the details list each") {
  // kernel-builder's default capability list: eight targets, which on one line per target did
  // not fit beside Build and Benchmark.
  kl::runner::BuildReport build;
  for (const char* cap : {"7.0", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"}) {
    std::string target = "sm_" + std::string(cap).erase(std::string(cap).find('.'), 1);
    build.units.push_back(unit(cap, {entry("plain", target, 48, 0, 4096)}));
  }
  auto usage = kernel_usage(kSource, nullptr, build);
  const auto& targets = usage[2].targets;
  REQUIRE(targets.size() == 8);
  std::string title = usage_summary(targets);
  CHECK(title.rfind("48 regs · 4 KiB smem · ", 0) == 0);
  CHECK(title.find("% occupancy") != std::string::npos);
  CHECK(title.size() < 80);
  std::string details = usage_details("plain", targets);
  CHECK(details.rfind("plain, per target:\nsm_70: 48 regs · 0 B spill · 4 KiB smem · ", 0) == 0);
  CHECK(std::count(details.begin(), details.end(), '\n') == 8);
  CHECK(usage_summary({}).empty());
  // One target: its numbers exactly.
  kl::runner::BuildReport one;
  one.units = {unit("9.0", {entry("plain", "sm_90", 32, 0, 4096)})};
  CHECK(usage_summary(kernel_usage(kSource, nullptr, one)[2].targets) == "32 regs · 4 KiB smem · 100% occupancy");
}

TEST_CASE("the summary gives ranges where targets differ and spills when there are any") {
  kl::runner::BuildReport build;
  build.units = {unit("8.0", {entry("plain", "sm_80", 40, 0, 1536)}),
                 unit("9.0", {entry("plain", "sm_90", 128, 24, 512)})};
  auto usage = kernel_usage(kSource, nullptr, build);
  std::string title = usage_summary(usage[2].targets);
  CHECK(title.rfind("40–128 regs · 24 B spill · 1.5 KiB smem · ", 0) == 0);
  CHECK(title.find("% occupancy") != std::string::npos);
  CHECK(title.size() < 80);
}

TEST_CASE("one job per project: a second is refused while the first runs, cancel ends it") {
  kl::runner::ProjectJobs jobs;
  std::atomic<bool> started{false}, saw_cancel{false};
  auto first = jobs.start("/p", "build", [&](const kl::CancellationToken& cancel) -> kl::runner::AfterJob {
    started = true;
    while (!cancel.is_cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    saw_cancel = true;
    return {};
  });
  CHECK_FALSE(first);
  while (!started) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  auto second = jobs.start("/p", "bench", [](const kl::CancellationToken&) -> kl::runner::AfterJob { return {}; });
  REQUIRE(second);
  CHECK(second->kind == "build");
  bool other_ran = false;
  CHECK_FALSE(jobs.start("/q", "build", [&](const kl::CancellationToken&) -> kl::runner::AfterJob {
    other_ran = true;
    return {};
  }));
  CHECK(jobs.cancel("/p"));
  CHECK_FALSE(jobs.cancel("/none"));
  jobs.wait_all();
  CHECK(saw_cancel);
  CHECK(other_ran);
  CHECK(jobs.running().empty());
  // The project is free again.
  CHECK_FALSE(jobs.start("/p", "bench", [](const kl::CancellationToken&) -> kl::runner::AfterJob { return {}; }));
  jobs.wait_all();
}

TEST_CASE("a job's reply runs once its project is free: whoever hears it can start the next job") {
  // The e2e client cancelled a build, read the reply and asked for a benchmark of the same
  // project at once; it was told "already running" because the reply was sent while the job
  // still held the project.
  kl::runner::ProjectJobs jobs;
  std::atomic<bool> next_refused{true}, next_ran{false};
  std::atomic<bool> replied{false};
  CHECK_FALSE(jobs.start("/p", "build", [&](const kl::CancellationToken&) -> kl::runner::AfterJob {
    return [&] {
      // What a client does on hearing the reply: start the next job of the project.
      next_refused = jobs.start("/p", "bench", [&](const kl::CancellationToken&) -> kl::runner::AfterJob {
                       next_ran = true;
                       return {};
                     }).has_value();
      replied = true;
    };
  }));
  while (!replied) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  jobs.wait_all();
  CHECK_FALSE(next_refused);
  CHECK(next_ran);
  CHECK(jobs.running().empty());
}
