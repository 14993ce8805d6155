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

#include "analyzers/frontend/content_hash.h"
#include "analyzers/frontend/cuda_toolkit.h"
#include "analyzers/frontend/torch_headers.h"
#include "analyzers/project/build_config.h"
#include "analyzers/project/builder_compile_flags.h"
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

analyzers::Finding build_error(const char* rule_id, const fs::path& toml, std::string message) {
  analyzers::Finding f;
  f.rule_id = rule_id;
  f.severity = analyzers::Severity::Error;
  f.location.file = toml.string();
  f.message = std::move(message);
  return f;
}

bool has_error(const std::vector<analyzers::Finding>& problems) {
  return std::any_of(problems.begin(), problems.end(),
                     [](const analyzers::Finding& f) { return f.severity == analyzers::Severity::Error; });
}

// The toolkit decides which capabilities can be targeted and the defaults of a section without
// cuda-capabilities; the request's nvcc, when given, is still the compiler that runs.
struct BuildTools {
  fs::path nvcc;
  std::optional<analyzers::CudaToolkit> toolkit;
};

BuildTools find_build_tools(const BuildRequest& request) {
  BuildTools tools;
  tools.nvcc = request.nvcc;
  if (auto found = analyzers::find_cuda_toolkit(std::nullopt)) tools.toolkit = *found;
  if (tools.nvcc.empty() && tools.toolkit) tools.nvcc = tools.toolkit->nvcc;
  return tools;
}

// A section's cuda-capabilities, or kernel-builder's defaults for this toolkit (CUDA 13.0's
// when no toolkit was found).
std::vector<std::string> section_capabilities(const analyzers::KernelSection& kernel,
                                              const std::optional<analyzers::CudaToolkit>& toolkit) {
  std::vector<std::string> caps;
  if (kernel.cuda_capabilities) {
    for (const auto& e : *kernel.cuda_capabilities) caps.push_back(e.text);
  } else {
    int major = toolkit ? toolkit->version_major : 13, minor = toolkit ? toolkit->version_minor : 0;
    for (const auto& c : analyzers::builder_default_capabilities(major, minor)) caps.push_back(c.text());
  }
  return caps;
}

bool requested(const BuildRequest& request, const std::string& cap) {
  return request.only_capabilities.empty() ||
         std::find(request.only_capabilities.begin(), request.only_capabilities.end(), cap) !=
             request.only_capabilities.end();
}

// One unit per .cu source and capability of each CUDA section, in build.toml's order; those the
// toolkit cannot target (or that do not parse) are kept, marked skipped, so the report says so.
std::vector<CompileUnit> plan_compiles(const analyzers::BuildConfig& config, const BuildRequest& request,
                                       const std::optional<analyzers::CudaToolkit>& toolkit) {
  std::vector<CompileUnit> units;
  for (const auto& kernel : config.kernels) {
    if (kernel.backend != "cuda") continue;
    std::vector<std::string> caps = section_capabilities(kernel, toolkit);
    for (const auto& src : kernel.src) {
      fs::path source = request.project / src;
      if (source.extension() != ".cu") continue;
      for (const auto& cap : caps) {
        if (!requested(request, cap)) continue;
        CompileUnit unit;
        unit.kernel_section = kernel.name;
        unit.source = source;
        unit.capability = cap;
        auto parsed_cap = analyzers::parse_capability(cap);
        if (!parsed_cap || (toolkit && !toolkit->can_target(*parsed_cap))) unit.skipped = true;
        units.push_back(unit);
      }
    }
  }
  return units;
}

using analyzers::depends_on_torch;

// PyTorch's real headers (never the analyzers' device-side stand-in: this is a real compile), for
// the sections that depend on torch, as kernel-builder builds them against the torch it targets.
analyzers::TorchHeaders torch_headers_for(const analyzers::BuildConfig& config, const BuildRequest& request,
                                          std::string& note) {
  if (std::none_of(config.kernels.begin(), config.kernels.end(), depends_on_torch)) return {};
  analyzers::TorchHeaderQuery query;
  query.explicit_dirs = request.torch_include_dirs;
  analyzers::TorchHeaders found = analyzers::find_torch_headers(query);
  note = found.found() ? found.describe() + " on the include path of the sections that depend on torch"
                       : "no PyTorch headers found (torchIncludePath, Torch_DIR, TORCH_INSTALL_PREFIX, the torch of "
                         "python3): sources of sections that depend on torch and include its headers cannot compile "
                         "here";
  return found;
}

// What kernel-builder's CMake adds to every CUDA compile besides build.toml's flags
// (analyzers/project/builder_compile_flags.h): its preamble's defines and, for sections that
// depend on torch, the CUDA flags torch's CMake package brings.
std::vector<std::string> builder_flags(const analyzers::BuildConfig& config, const analyzers::KernelSection* section) {
  std::vector<std::string> flags = analyzers::builder_defines(config);
  if (section && depends_on_torch(*section))
    for (const auto& flag : analyzers::torch_nvcc_flags()) flags.push_back(flag);
  return flags;
}

// The nvcc command kernel-builder would run for this unit, with ptxas' resource report on.
std::vector<std::string> nvcc_arguments(const CompileUnit& unit, const analyzers::BuildConfig& config,
                                        const fs::path& project, const analyzers::TorchHeaders& torch) {
  auto cap = *analyzers::parse_capability(unit.capability);
  const analyzers::KernelSection* section = nullptr;
  for (const auto& k : config.kernels)
    if (k.name == unit.kernel_section) section = &k;
  std::vector<std::string> args = {"-std=c++17", cap.gencode(), "-Xptxas", "-v", "-c", "-o", "/dev/null"};
  for (const auto& flag : builder_flags(config, section)) args.push_back(flag);
  if (section) {
    for (const auto& flag : section->cuda_flags) args.push_back(flag);
    for (const auto& inc : section->include) args.push_back("-I" + (project / inc).string());
    if (depends_on_torch(*section))
      for (const auto& dir : torch.include_dirs) {  // nvcc wants the folder as its own argument
        args.push_back("-isystem");
        args.push_back(dir.string());
      }
  }
  args.push_back(unit.source.string());
  return args;
}

// Keep what a person needs: errors and warnings, not ptxas' info lines.
std::string compiler_messages(const std::string& all) {
  std::string kept;
  std::istringstream lines(all);
  std::string line;
  while (std::getline(lines, line))
    if (line.find("ptxas info") == std::string::npos && line.find("bytes stack frame") == std::string::npos)
      kept += line + "\n";
  return kept;
}

bool cancelled(const BuildRequest& request) {
  return (request.cancel && request.cancel->is_cancelled()) || (request.should_stop && request.should_stop());
}

std::string command_line(const fs::path& program, const std::vector<std::string>& args) {
  std::string line = program.string();
  for (const auto& arg : args) line += " " + arg;
  return line;
}

void compile_unit(CompileUnit& unit, const analyzers::BuildConfig& config, const BuildRequest& request,
                  const fs::path& nvcc, const analyzers::TorchHeaders& torch) {
  ProcessRequest process{nvcc, nvcc_arguments(unit, config, request.project, torch)};
  process.working_directory = request.project;
  process.timeout = std::chrono::minutes(10);
  process.should_stop = [&] { return cancelled(request); };
  auto started = std::chrono::steady_clock::now();
  auto outcome = run_process(process);
  unit.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!outcome) {
    unit.compiler_output = outcome.error().describe();
  } else {
    unit.ok = outcome->exit_code == 0 && !outcome->stopped && !outcome->timed_out;
    unit.stopped = outcome->stopped;
    std::string all = outcome->stdout_text + outcome->stderr_text;
    unit.kernels = parse_ptxas_report(all);
    unit.compiler_output = compiler_messages(all);
    if (outcome->timed_out) unit.compiler_output += "kernel-lsp: nvcc ran over 10 minutes and was stopped\n";
  }
  if (request.on_output) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1f s", unit.seconds);
    request.on_output("$ " + command_line(nvcc, process.args) + "\n" + unit.compiler_output +
                      (unit.stopped ? "(stopped)\n" : unit.ok ? "(ok, " + std::string(seconds) + ")\n"
                                                               : "(failed, " + std::string(seconds) + ")\n"));
  }
}

// Content hashes of every file the sections list, read now (before any compile), so that a
// later edit shows against what was compiled.
std::map<fs::path, std::string> hash_sources(const analyzers::BuildConfig& config, const fs::path& project) {
  std::map<fs::path, std::string> hashes;
  auto add = [&](const std::string& relative) {
    fs::path file = (project / relative).lexically_normal();
    if (auto text = read_file_text(file)) hashes[file] = analyzers::content_hash(*text);
  };
  for (const auto& kernel : config.kernels)
    for (const auto& src : kernel.src) add(src);
  for (const auto& src : config.framework.src) add(src);
  return hashes;
}

// What a compile-only build says about the binding: it compiles the CUDA sources for every
// capability; the torch extension (binding included) is built by `kernel-lsp bench`.
std::string binding_note(const analyzers::BuildConfig& config) {
  std::string files;
  for (const auto& src : config.framework.src)
    if (fs::path(src).extension() == ".cpp" || fs::path(src).extension() == ".cc")
      files += (files.empty() ? "" : ", ") + src;
  if (files.empty()) return "";
  return "binding not compiled (" + files +
         "): this build compiles the CUDA sources only, which needs no torch; `kernel-lsp bench` builds "
         "the whole extension where torch is installed";
}

// Runs the planned compiles on `jobs` threads, each taking the next unit; skipped units and
// everything after a cancellation are left as they are. Progress is reported once per compile
// that ran, one caller at a time.
void compile_all(std::vector<CompileUnit>& units, const analyzers::BuildConfig& config,
                 const BuildRequest& request, const fs::path& nvcc, const analyzers::TorchHeaders& torch) {
  std::atomic<size_t> next{0}, done{0};
  std::mutex progress_mutex;
  unsigned jobs = request.jobs ? request.jobs : std::max(1u, std::thread::hardware_concurrency());
  auto worker = [&] {
    for (size_t i = next++; i < units.size(); i = next++) {
      CompileUnit& unit = units[i];
      if (unit.skipped || cancelled(request)) continue;
      compile_unit(unit, config, request, nvcc, torch);
      size_t finished = ++done;
      if (request.on_progress) {
        std::lock_guard lock(progress_mutex);
        request.on_progress(unit.source.filename().string() + " for " + unit.capability,
                            static_cast<int>(100 * finished / units.size()));
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < jobs; ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
}

}  // namespace

BuildReport build_project(const BuildRequest& request) {
  BuildReport report;
  report.project = request.project;
  report.started = std::chrono::system_clock::now();
  struct StampFinish {
    BuildReport& report;
    ~StampFinish() { report.finished = std::chrono::system_clock::now(); }
  } stamp{report};
  fs::path toml = request.project / "build.toml";
  auto text = read_file_text(toml);
  if (!text) {
    report.build_toml_problems.push_back(
        build_error("build-toml", toml, "no build.toml in " + request.project.string()));
    return report;
  }
  auto parsed = analyzers::parse_build_toml(toml, *text);
  report.build_toml_problems = parsed.problems;
  if (!parsed.config || has_error(parsed.problems)) return report;

  BuildTools tools = find_build_tools(request);
  if (tools.nvcc.empty()) {
    report.build_toml_problems.push_back(build_error(
        "frontend", toml, "no nvcc found (CUDA_PATH, CUDA_HOME, PATH, /usr/local/cuda): cannot build"));
    return report;
  }

  report.source_hashes = hash_sources(*parsed.config, request.project);
  report.binding_note = binding_note(*parsed.config);
  report.units = plan_compiles(*parsed.config, request, tools.toolkit);
  analyzers::TorchHeaders torch = torch_headers_for(*parsed.config, request, report.torch_note);
  compile_all(report.units, *parsed.config, request, tools.nvcc, torch);
  demangle(report.units);
  report.cancelled = cancelled(request);
  report.ok = !report.cancelled && std::all_of(report.units.begin(), report.units.end(),
                                                 [](const CompileUnit& u) { return u.ok || u.skipped; });
  return report;
}

size_t failed_compiles(const BuildReport& report) {
  return std::count_if(report.units.begin(), report.units.end(), [](const CompileUnit& u) { return !u.ok && !u.skipped; });
}

std::string target_name(const std::string& capability) {
  auto cap = analyzers::parse_capability(capability);
  if (!cap) return capability;
  std::string gencode = cap->gencode();  // -gencode=arch=compute_90a,code=sm_90a
  size_t at = gencode.rfind("code=");
  return at == std::string::npos ? capability : gencode.substr(at + 5);
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
  size_t failed = failed_compiles(report);
  if (!report.torch_note.empty()) out << report.torch_note << "\n";
  if (!report.binding_note.empty()) out << report.binding_note << "\n";
  if (report.cancelled) out << "build cancelled\n";
  out << (report.ok ? "build ok: " : "build FAILED: ") << report.units.size() << " compiles, " << failed << " failed\n";
  return out.str();
}

}  // namespace kl::runner
