#include "analyzers/project/declared_archs.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include "support/fs_paths.h"
#include "support/line_index.h"

namespace kl::analyzers {
namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxBuildFileBytes = 1 << 20;  // a generated CMake file of megabytes says nothing we read
constexpr int kMaxFoldersUp = 12;
constexpr size_t kMaxFilesPerFolder = 40;

// "80" → 8.0, "90a" → 9.0a, "120" → 12.0, "100f" → 10.0f.
std::optional<Capability> capability_of_number(std::string_view digits, std::string_view suffix) {
  if (digits.size() < 2 || digits.size() > 3) return std::nullopt;
  int n = 0;
  for (char c : digits) n = n * 10 + (c - '0');
  Capability cap;
  cap.major = n / 10;
  cap.minor = n % 10;
  if (suffix == "a") cap.variant = ArchVariant::Specific;
  if (suffix == "f") cap.variant = ArchVariant::Family;
  if (cap.major < 2) return std::nullopt;
  return cap;
}

// `#` comments of Python, CMake, Make and shell blanked out (offsets kept, so lines stay right).
// A `#` inside a quoted string is text.
std::string without_hash_comments(std::string_view text) {
  std::string out(text);
  char quote = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    char c = out[i];
    if (c == '\n') {
      quote = 0;
      continue;
    }
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#') {
      while (i < out.size() && out[i] != '\n') out[i++] = ' ';
      --i;
    }
  }
  return out;
}

// `cap` (without +PTX: whether PTX is embedded changes nothing the rules check) at `where`,
// unless it is listed already.
void add_unique(std::vector<DeclaredArch>& out, const Capability& cap, const Location& where) {
  Capability plain = cap;
  plain.ptx = false;
  for (const auto& d : out)
    if (d.arch == plain) return;
  out.push_back({plain, where});
}

// The torch names TORCH_CUDA_ARCH_LIST accepts for groups of capabilities.
std::vector<std::string_view> named_group(std::string_view word) {
  static const std::pair<std::string_view, std::vector<std::string_view>> kNames[] = {
      {"Kepler+Tesla", {"3.7"}},   {"Kepler", {"3.5"}},        {"Maxwell+Tegra", {"5.3"}},
      {"Maxwell", {"5.0", "5.2"}}, {"Pascal", {"6.0", "6.1"}}, {"Volta+Tegra", {"7.2"}},
      {"Volta", {"7.0"}},          {"Turing", {"7.5"}},        {"Ampere+Tegra", {"8.7"}},
      {"Ampere", {"8.0", "8.6"}},  {"Ada", {"8.9"}},           {"Hopper", {"9.0"}},
  };
  for (const auto& [name, caps] : kNames)
    if (word == name) return caps;
  return {};
}

}  // namespace

std::vector<Capability> parse_torch_arch_list(std::string_view value) {
  std::vector<Capability> out;
  std::string word;
  auto flush = [&] {
    if (word.empty()) return;
    std::string text = word;
    word.clear();
    auto plus = text.find('+');
    if (plus != std::string::npos) {
      std::string rest = text.substr(plus);
      for (auto& c : rest) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (rest == "+PTX") text = text.substr(0, plus) + rest;
    }
    if (auto cap = parse_capability(text)) {
      out.push_back(*cap);
      return;
    }
    for (std::string_view each : named_group(text))
      if (auto cap = parse_capability(each)) out.push_back(*cap);
  };
  for (char c : value) {
    if (c == ';' || c == ' ' || c == ',' || c == '\t')
      flush();
    else
      word += c;
  }
  flush();
  return out;
}

std::vector<DeclaredArch> archs_declared_in_text(const std::string& file, std::string_view text_in) {
  std::vector<DeclaredArch> out;
  const std::string text = without_hash_comments(text_in);
  const LineIndex lines(text);
  auto each = [&](const std::regex& re, auto&& on_match) {
    for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) {
      uint32_t line = 0, column = 0;
      lines.position_of(static_cast<size_t>(it->position(0)), line, column);
      on_match(*it, Location{file, Range{{line, 0}, {line, 0}}});
    }
  };
  // nvcc's -gencode: the real archs of `code=`, or the virtual arch when only PTX is embedded.
  static const std::regex gencode(R"(arch\s*=\s*compute_(\d+)([af]?)\s*,\s*code\s*=\s*\[?([A-Za-z0-9_,]*))");
  static const std::regex sm(R"(sm_(\d+)([af]?))");
  each(gencode, [&](const std::smatch& m, const Location& where) {
    std::string code = m[3].str();
    bool any = false;
    for (auto it = std::sregex_iterator(code.begin(), code.end(), sm); it != std::sregex_iterator(); ++it) {
      if (auto cap = capability_of_number((*it)[1].str(), (*it)[2].str())) {
        add_unique(out, *cap, where);
        any = true;
      }
    }
    if (!any)
      if (auto cap = capability_of_number(m[1].str(), m[2].str())) add_unique(out, *cap, where);
  });
  // -arch=sm_80, "-arch", "sm_80", --gpu-architecture=compute_90a, clang's --cuda-gpu-arch.
  static const std::regex arch_flag(
      R"((?:-arch|--gpu-architecture|--cuda-gpu-arch|--offload-arch)['"]?[\s=,'"]*(?:sm|compute)_(\d+)([af]?))");
  each(arch_flag, [&](const std::smatch& m, const Location& where) {
    if (auto cap = capability_of_number(m[1].str(), m[2].str())) add_unique(out, *cap, where);
  });
  // TORCH_CUDA_ARCH_LIST set to a string (Python, CMake's ENV{}, shell, Make).
  static const std::regex torch_list(R"(TORCH_CUDA_ARCH_LIST['"\]}]*\s*[:?]?[=,]?\s*['"]([^'"\n]*)['"])");
  static const std::regex torch_list_bare(R"(TORCH_CUDA_ARCH_LIST\s*[:?]?=\s*([0-9][0-9.;+ a-zA-Z]*))");
  auto on_torch_list = [&](const std::smatch& m, const Location& where) {
    for (const Capability& cap : parse_torch_arch_list(m[1].str())) add_unique(out, cap, where);
  };
  each(torch_list, on_torch_list);
  each(torch_list_bare, on_torch_list);
  // CMake's architecture lists: 70;75 80-real 90a-virtual, after the variable or property name.
  static const std::regex cmake_list(
      R"((?:CMAKE_CUDA_ARCHITECTURES|CUDA_ARCHITECTURES)\}?\s*[=\s]\s*["']?((?:\d{2,3}[af]?(?:-real|-virtual)?[;\s,"']*)+))");
  static const std::regex cmake_item(R"((\d{2,3})([af]?))");
  each(cmake_list, [&](const std::smatch& m, const Location& where) {
    std::string items = m[1].str();
    for (auto it = std::sregex_iterator(items.begin(), items.end(), cmake_item); it != std::sregex_iterator();
         ++it)
      if (auto cap = capability_of_number((*it)[1].str(), (*it)[2].str())) add_unique(out, *cap, where);
  });
  std::stable_sort(out.begin(), out.end(), [](const DeclaredArch& a, const DeclaredArch& b) {
    return a.location.range.start.line < b.location.range.start.line;
  });
  return out;
}

std::vector<Capability> archs_of_command(const std::vector<std::string>& argv) {
  std::string joined;
  for (const auto& a : argv) joined += a + " ";
  std::vector<Capability> out;
  for (const DeclaredArch& d : archs_declared_in_text("", joined)) out.push_back(d.arch);
  return out;
}

namespace {

bool is_build_file(const fs::path& p) {
  std::string name = p.filename().string();
  std::string ext = p.extension().string();
  return name == "setup.py" || name == "pyproject.toml" || name == "setup.cfg" || name == "CMakeLists.txt" ||
         name == "Makefile" || name == "makefile" || name == "GNUmakefile" || ext == ".cmake" || ext == ".mk";
}

// The build files of one folder, and of a cmake/ folder beside them, in name order.
std::vector<fs::path> build_files_in(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const fs::path& where : {dir, dir / "cmake"}) {
    std::error_code ec;
    for (fs::directory_iterator it(where, ec), end; !ec && it != end; it.increment(ec)) {
      std::error_code type_ec;
      if (it->is_regular_file(type_ec) && is_build_file(it->path())) files.push_back(it->path());
      if (files.size() >= kMaxFilesPerFolder) break;
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string origin_name(const std::vector<fs::path>& files, const fs::path& dir) {
  std::string out;
  for (const auto& f : files) out += (out.empty() ? "" : ", ") + f.lexically_relative(dir).string();
  return out;
}

}  // namespace

DeclaredArchs find_declared_archs(const fs::path& source, const std::optional<fs::path>& compile_database,
                                  const std::vector<std::string>& compile_command,
                                  const std::optional<std::string>& torch_arch_list_env) {
  DeclaredArchs result;
  // 1. The compile command of the file (or of its neighbour), when the analysis has one.
  if (compile_database && !compile_command.empty()) {
    result.files_read.push_back(*compile_database);
    for (const Capability& cap : archs_of_command(compile_command))
      add_unique(result.archs, cap, Location{compile_database->string(), Range{}});
    if (!result.archs.empty()) {
      result.origin = "compile_commands.json";
      return result;
    }
  }
  // 2. The nearest folder whose build files declare any.
  std::error_code ec;
  fs::path dir = fs::absolute(source, ec).parent_path();
  for (int up = 0; up < kMaxFoldersUp && !dir.empty(); ++up) {
    std::vector<fs::path> declaring;
    for (const fs::path& file : build_files_in(dir)) {
      result.files_read.push_back(file);
      std::error_code size_ec;
      if (fs::file_size(file, size_ec) > kMaxBuildFileBytes || size_ec) continue;
      auto text = read_file_text(file);
      if (!text) continue;
      std::vector<DeclaredArch> found = archs_declared_in_text(file.string(), *text);
      if (!found.empty()) declaring.push_back(file);
      for (const auto& d : found) add_unique(result.archs, d.arch, d.location);
    }
    if (!result.archs.empty()) {
      result.origin = origin_name(declaring, dir);
      return result;
    }
    // A repository's root is as far as its build can declare anything.
    if (fs::exists(dir / ".git", ec)) break;
    fs::path parent = dir.parent_path();
    if (parent == dir) break;
    dir = parent;
  }
  // 3. The environment's TORCH_CUDA_ARCH_LIST.
  if (torch_arch_list_env) {
    for (const Capability& cap : parse_torch_arch_list(*torch_arch_list_env))
      add_unique(result.archs, cap, Location{});
    if (!result.archs.empty()) result.origin = "the environment's TORCH_CUDA_ARCH_LIST";
  }
  return result;
}

}  // namespace kl::analyzers
