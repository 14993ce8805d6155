#include "runner/project_build.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "analyzers/frontend/cuda_toolkit.h"
#include "analyzers/project/build_config.h"
#include "analyzers/project/project_locator.h"
#include "support/fs_paths.h"
#include "support/process.h"

namespace kl::runner {
namespace fs = std::filesystem;

namespace {

// ptxas reports mangled names; c++filt (binutils) turns them back into what the user wrote.
void demangle(std::vector<CompileUnit>& units) {
  std::set<std::string> names;
  for (const auto& u : units)
    for (const auto& k : u.kernels) names.insert(k.mangled_name);
  if (names.empty() || find_on_path("c++filt").empty()) return;
  std::vector<std::string> args(names.begin(), names.end());
  ProcessRequest request{"c++filt", args};
  request.timeout = std::chrono::seconds(30);
  auto out = run_process(request);
  if (!out || out->exit_code != 0) return;
  std::istringstream lines(out->stdout_text);
  std::map<std::string, std::string> readable;
  std::string line;
  for (const auto& name : args) {
    if (!std::getline(lines, line)) break;
    readable[name] = line;
  }
  for (auto& u : units)
    for (auto& k : u.kernels)
      if (auto it = readable.find(k.mangled_name); it != readable.end()) k.name = it->second;
}

}  // namespace

BuildReport build_project(const BuildRequest& request) {
  BuildReport report;
  report.project = request.project;
  fs::path toml = request.project / "build.toml";
  auto text = read_file_text(toml);
  if (!text) {
    analyzers::Finding f;
    f.rule_id = "build-toml";
    f.severity = analyzers::Severity::Error;
    f.location.file = toml.string();
    f.message = "no build.toml in " + request.project.string();
    report.build_toml_problems.push_back(f);
    return report;
  }
  auto parsed = analyzers::parse_build_toml(toml, *text);
  report.build_toml_problems = parsed.problems;
  bool has_errors = std::any_of(parsed.problems.begin(), parsed.problems.end(),
                                [](const analyzers::Finding& f) { return f.severity == analyzers::Severity::Error; });
  if (!parsed.config || has_errors) return report;

  fs::path nvcc = request.nvcc;
  std::optional<analyzers::CudaToolkit> toolkit;
  if (auto found = analyzers::find_cuda_toolkit(std::nullopt)) toolkit = *found;
  if (nvcc.empty() && toolkit) nvcc = toolkit->nvcc;
  if (nvcc.empty()) {
    analyzers::Finding f;
    f.rule_id = "frontend";
    f.severity = analyzers::Severity::Error;
    f.location.file = toml.string();
    f.message = "no nvcc found (CUDA_PATH, CUDA_HOME, PATH, /usr/local/cuda): cannot build";
    report.build_toml_problems.push_back(f);
    return report;
  }

  for (const auto& kernel : parsed.config->kernels) {
    if (kernel.backend != "cuda") continue;
    std::vector<std::string> caps;
    if (kernel.cuda_capabilities) {
      for (const auto& e : *kernel.cuda_capabilities) caps.push_back(e.text);
    } else {
      int major = toolkit ? toolkit->version_major : 13, minor = toolkit ? toolkit->version_minor : 0;
      for (const auto& c : analyzers::builder_default_capabilities(major, minor)) caps.push_back(c.text());
    }
    for (const auto& src : kernel.src) {
      fs::path source = request.project / src;
      if (source.extension() != ".cu") continue;
      for (const auto& cap : caps) {
        if (!request.only_capabilities.empty() &&
            std::find(request.only_capabilities.begin(), request.only_capabilities.end(), cap) ==
                request.only_capabilities.end())
          continue;
        CompileUnit unit;
        unit.kernel_section = kernel.name;
        unit.source = source;
        unit.capability = cap;
        auto parsed_cap = analyzers::parse_capability(cap);
        if (!parsed_cap || (toolkit && !toolkit->can_target(*parsed_cap))) unit.skipped = true;
        report.units.push_back(unit);
      }
    }
  }

  std::atomic<size_t> next{0}, done{0};
  std::mutex progress_mutex;
  unsigned jobs = request.jobs ? request.jobs : std::max(1u, std::thread::hardware_concurrency());
  auto worker = [&] {
    for (size_t i = next++; i < report.units.size(); i = next++) {
      CompileUnit& unit = report.units[i];
      if (unit.skipped || (request.cancel && request.cancel->is_cancelled())) continue;
      auto cap = *analyzers::parse_capability(unit.capability);
      const analyzers::KernelSection* section = nullptr;
      for (const auto& k : parsed.config->kernels)
        if (k.name == unit.kernel_section) section = &k;
      std::vector<std::string> args = {"-std=c++17", cap.gencode(), "-Xptxas", "-v", "-c", "-o", "/dev/null"};
      if (section) {
        for (const auto& flag : section->cuda_flags) args.push_back(flag);
        for (const auto& inc : section->include) args.push_back("-I" + (request.project / inc).string());
      }
      args.push_back(unit.source.string());
      ProcessRequest process{nvcc, args};
      process.working_directory = request.project;
      process.timeout = std::chrono::minutes(10);
      process.should_stop = [&] { return request.cancel && request.cancel->is_cancelled(); };
      auto started = std::chrono::steady_clock::now();
      auto outcome = run_process(process);
      unit.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      if (!outcome) {
        unit.compiler_output = outcome.error().describe();
      } else {
        unit.ok = outcome->exit_code == 0;
        std::string all = outcome->stdout_text + outcome->stderr_text;
        unit.kernels = parse_ptxas_report(all);
        // Keep what a person needs: errors and warnings, not ptxas' info lines.
        std::istringstream lines(all);
        std::string line;
        while (std::getline(lines, line))
          if (line.find("ptxas info") == std::string::npos && line.find("bytes stack frame") == std::string::npos)
            unit.compiler_output += line + "\n";
      }
      size_t finished = ++done;
      if (request.on_progress) {
        std::lock_guard lock(progress_mutex);
        request.on_progress(unit.source.filename().string() + " for " + unit.capability,
                            static_cast<int>(100 * finished / report.units.size()));
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < jobs; ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  demangle(report.units);
  report.ok = !(request.cancel && request.cancel->is_cancelled()) &&
              std::all_of(report.units.begin(), report.units.end(), [](const CompileUnit& u) { return u.ok || u.skipped; });
  return report;
}

std::string format_build_report(const BuildReport& report) {
  std::ostringstream out;
  for (const auto& p : report.build_toml_problems)
    out << p.location.file << ":" << p.location.range.start.line + 1 << ":" << p.location.range.start.column + 1
        << ": " << analyzers::severity_name(p.severity) << ": " << p.message << "\n";
  char row[512];
  std::snprintf(row, sizeof row, "%-44s %-8s %5s %8s %7s %7s %6s\n", "kernel", "target", "regs", "smem B",
                "stack B", "spill B", "time");
  bool header = false;
  for (const auto& unit : report.units) {
    if (unit.skipped) {
      out << unit.source.filename().string() << " [" << unit.capability << "]: skipped (the toolkit cannot target it)\n";
      continue;
    }
    if (!unit.ok) {
      out << unit.source.filename().string() << " [" << unit.capability << "]: FAILED\n" << unit.compiler_output;
      continue;
    }
    if (!header) {
      out << row;
      header = true;
    }
    for (const auto& k : unit.kernels) {
      // "void (anonymous namespace)::rms_kernel<...>(args)" -> "rms_kernel<...>": the part a
      // person recognises, cut at the right where it is too long.
      std::string name = k.name;
      if (name.rfind("void ", 0) == 0) name = name.substr(5);
      for (const std::string noise : {"(anonymous namespace)::"})
        for (size_t at = name.find(noise); at != std::string::npos; at = name.find(noise)) name.erase(at, noise.size());
      if (size_t paren = name.rfind('('); paren != std::string::npos && paren > 0) name = name.substr(0, paren);
      if (name.size() > 44) name = name.substr(0, 41) + "...";
      char line[512];
      std::snprintf(line, sizeof line, "%-44s %-8s %5u %8u %7u %7u %5.1fs\n", name.c_str(), k.target.c_str(),
                    k.registers, k.shared_bytes, k.stack_frame_bytes, k.spill_store_bytes + k.spill_load_bytes,
                    unit.seconds);
      out << line;
    }
  }
  size_t failed = std::count_if(report.units.begin(), report.units.end(), [](const CompileUnit& u) { return !u.ok && !u.skipped; });
  out << (report.ok ? "build ok: " : "build FAILED: ") << report.units.size() << " compiles, " << failed << " failed\n";
  return out.str();
}

}  // namespace kl::runner
