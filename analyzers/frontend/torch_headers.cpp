#include "analyzers/frontend/torch_headers.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>

#include "analyzers/frontend/include_flags.h"
#include "support/fs_paths.h"
#include "support/process.h"
#include "support/resources.h"

namespace kl::analyzers {
namespace fs = std::filesystem;

namespace {

bool folder_exists(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

bool has_aten(const fs::path& dir) {
  std::error_code ec;
  return fs::exists(dir / "ATen" / "ATen.h", ec);
}

fs::path normalised(const fs::path& p) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(p, ec);
  return ec ? p.lexically_normal() : canonical;
}

// Searched by clang anyway; as -isystem they would move ahead of libstdc++'s own folders and
// break its #include_next <stdlib.h>.
bool is_default_system_dir(const fs::path& dir) {
  fs::path n = normalised(dir);
  return n == "/usr/include" || n == "/usr/local/include";
}

// The folders that exist, in order, without repeats or default system folders.
std::vector<fs::path> usable_dirs(const std::vector<fs::path>& dirs) {
  std::vector<fs::path> out;
  for (const auto& d : dirs) {
    if (d.empty() || !folder_exists(d) || is_default_system_dir(d)) continue;
    fs::path n = normalised(d);
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  }
  return out;
}

bool any_has_aten(const std::vector<fs::path>& dirs) {
  return std::any_of(dirs.begin(), dirs.end(), [](const fs::path& d) { return has_aten(d); });
}

// What TorchConfig.cmake sets TORCH_INCLUDE_DIRS to for an installation prefix.
std::vector<fs::path> prefix_include_dirs(const fs::path& prefix) {
  return {prefix / "include", prefix / "include" / "torch" / "csrc" / "api" / "include"};
}

// The installation prefix above a CMake package folder: the nearest ancestor with
// include/ATen/ATen.h (pip: torch/share/cmake/Torch -> torch; Debian:
// /usr/lib/x86_64-linux-gnu/cmake/Torch -> /usr).
std::optional<fs::path> prefix_above(const fs::path& package_dir) {
  fs::path p = normalised(package_dir);
  for (int depth = 0; depth < 8 && !p.empty(); ++depth) {
    if (has_aten(p / "include")) return p;
    if (p == p.parent_path()) break;
    p = p.parent_path();
  }
  return std::nullopt;
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

// "1.13" from the first torch/version.h among the folders.
std::string read_torch_version(const std::vector<fs::path>& dirs) {
  static const std::regex major(R"(#define\s+TORCH_VERSION_MAJOR\s+(\d+))");
  static const std::regex minor(R"(#define\s+TORCH_VERSION_MINOR\s+(\d+))");
  for (const auto& d : dirs) {
    auto text = read_file_text(d / "torch" / "version.h");
    if (!text) continue;
    std::smatch a, b;
    if (std::regex_search(*text, a, major) && std::regex_search(*text, b, minor))
      return a.str(1) + "." + b.str(1);
  }
  return {};
}

constexpr const char* kPythonProgram =
    "import sysconfig\n"
    "import torch.utils.cpp_extension as c\n"
    "print('\\n'.join(c.include_paths()))\n"
    "print(sysconfig.get_paths()['include'])\n";

struct PythonAnswer {
  std::vector<fs::path> dirs;
  std::string problem;  // why there are none
};

PythonAnswer ask_python_once_uncached(const TorchHeaderQuery& query) {
  fs::path program = query.python;
  if (!program.is_absolute()) program = find_on_path(program.string());
  if (program.empty()) return {{}, query.python.string() + " is not on PATH"};
  ProcessRequest request;
  request.program = program;
  request.args = {"-c", kPythonProgram};
  request.timeout = query.python_timeout;
  auto outcome = run_process(request);
  if (!outcome) return {{}, outcome.error().describe()};
  if (outcome->timed_out) return {{}, program.string() + " did not answer within the time limit"};
  if (outcome->exit_code != 0)
    return {{},
            "could not import torch.utils.cpp_extension (exit " + std::to_string(outcome->exit_code) + ")"};
  PythonAnswer answer;
  std::istringstream lines(outcome->stdout_text);
  for (std::string line; std::getline(lines, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) answer.dirs.emplace_back(line);
  }
  return answer;
}

// Once per process for each python program: `import torch` takes a second or more. The first
// caller runs it; callers arriving meanwhile wait for its answer.
PythonAnswer ask_python(const TorchHeaderQuery& query) {
  static std::mutex mutex;
  static std::map<std::string, PythonAnswer> answers;
  std::lock_guard lock(mutex);
  auto it = answers.find(query.python.string());
  if (it == answers.end()) it = answers.emplace(query.python.string(), ask_python_once_uncached(query)).first;
  return it->second;
}

// A candidate's folders when one of them reaches ATen/ATen.h; otherwise a note saying why not.
bool accept(const std::vector<fs::path>& candidate, const std::string& found_by, TorchHeaders& result) {
  if (!any_has_aten(candidate)) {
    result.notes.push_back(found_by + ": no ATen/ATen.h under its folders");
    return false;
  }
  result.include_dirs = usable_dirs(candidate);
  result.found_by = found_by;
  result.version = read_torch_version(candidate);
  return true;
}

bool try_environment(TorchHeaders& result) {
  if (std::string dir = env("Torch_DIR"); !dir.empty()) {
    if (auto prefix = prefix_above(dir)) {
      if (accept(prefix_include_dirs(*prefix), "Torch_DIR", result)) return true;
    } else {
      result.notes.push_back("Torch_DIR: no include/ATen/ATen.h above " + dir);
    }
  }
  if (std::string prefix = env("TORCH_INSTALL_PREFIX"); !prefix.empty())
    if (accept(prefix_include_dirs(prefix), "TORCH_INSTALL_PREFIX", result)) return true;
  return false;
}

bool try_debian(const fs::path& root, bool accept_cpu_only, TorchHeaders& result) {
  if (!has_aten(root) || !folder_exists(root / "torch" / "csrc" / "api" / "include")) return false;
  if (!accept_cpu_only && !fs::exists(root / "c10" / "cuda" / "impl" / "cuda_cmake_macros.h")) {
    result.notes.push_back("libtorch-dev: built without CUDA (no c10/cuda/impl/cuda_cmake_macros.h), so "
                           "the stand-in serves CUDA files better");
    return false;
  }
  std::vector<fs::path> dirs = {root, root / "torch" / "csrc" / "api" / "include"};
  if (auto python = python_include_beside(root)) dirs.push_back(*python);
  return accept(dirs, "libtorch-dev", result);
}

}  // namespace

std::string TorchHeaders::describe() const {
  if (!found()) return "none found";
  std::string text =
      "PyTorch " + (version.empty() ? std::string() : version + " ") + "headers from " + found_by + " (";
  for (size_t i = 0; i < include_dirs.size(); ++i) text += (i ? ", " : "") + include_dirs[i].string();
  return text + ")";
}

TorchHeaders find_torch_headers(const TorchHeaderQuery& query) {
  TorchHeaders result;
  if (!query.explicit_dirs.empty()) {
    std::vector<fs::path> dirs = usable_dirs(query.explicit_dirs);
    if (!dirs.empty()) {
      // The user's setting is taken as given, even when it does not reach ATen/ATen.h.
      result.include_dirs = std::move(dirs);
      result.found_by = "torchIncludePath";
      result.version = read_torch_version(result.include_dirs);
      if (!any_has_aten(result.include_dirs))
        result.notes.push_back("torchIncludePath: no ATen/ATen.h under its folders");
      return result;
    }
    result.notes.push_back("torchIncludePath: no usable folder (missing, or searched by default)");
  }
  if (try_environment(result)) return result;
  if (query.ask_python) {
    PythonAnswer answer = ask_python(query);
    if (!answer.dirs.empty() && accept(answer.dirs, query.python.filename().string() + " (torch)", result))
      return result;
    if (!answer.problem.empty()) result.notes.push_back(query.python.string() + ": " + answer.problem);
  }
  if (try_debian(query.debian_root, query.accept_cpu_only_debian, result)) return result;
  return result;
}

std::optional<fs::path> python_include_beside(const fs::path& root) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("python3", 0) == 0 && fs::exists(it->path() / "Python.h", ec)) found.push_back(it->path());
  }
  if (found.empty()) return std::nullopt;
  std::sort(found.begin(), found.end(), [](const fs::path& a, const fs::path& b) {
    auto minor = [](const fs::path& p) {
      return std::atoi(p.filename().string().c_str() + 8);
    };  // "python3."
    return minor(a) < minor(b);
  });
  return found.back();
}

fs::path default_torch_standin_dir() {
  if (auto found = find_resource(resources::kTorchStandIn)) return *found;
  return {};
}

bool include_flags_reach_torch(const std::vector<std::string>& flags) {
  std::vector<std::string> dirs = include_dirs_in(flags);
  return std::any_of(dirs.begin(), dirs.end(), [](const std::string& d) { return has_aten(d); });
}

std::vector<std::string> torch_include_flags(const TorchHeaders& found, const fs::path& standin_dir) {
  std::vector<std::string> flags;
  if (found.found()) {
    for (const auto& dir : found.include_dirs) {
      flags.push_back("-isystem");
      flags.push_back(dir.string());
    }
  } else if (!standin_dir.empty()) {
    flags.push_back("-isystem");
    flags.push_back(standin_dir.string());
  }
  return flags;
}

}  // namespace kl::analyzers
