#include "analyzers/frontend/compile_database.h"

#include <nlohmann/json.hpp>

#include "support/fs_paths.h"

namespace kl::analyzers {
namespace fs = std::filesystem;

std::vector<std::string> split_command_line(const std::string& command) {
  std::vector<std::string> out;
  std::string current;
  bool in_token = false;
  char quote = 0;
  for (size_t i = 0; i < command.size(); ++i) {
    char c = command[i];
    if (quote) {
      if (c == quote) quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < command.size()) current += command[++i];
      else current += c;
      continue;
    }
    if (c == '\'' || c == '"') { quote = c; in_token = true; continue; }
    if (c == '\\' && i + 1 < command.size()) { current += command[++i]; in_token = true; continue; }
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_token) out.push_back(current);
      current.clear();
      in_token = false;
      continue;
    }
    current += c;
    in_token = true;
  }
  if (in_token) out.push_back(current);
  return out;
}

namespace {

std::string absolute_in(const std::string& path, const fs::path& directory) {
  fs::path p(path);
  return p.is_absolute() ? p.lexically_normal().string() : (directory / p).lexically_normal().string();
}

// A forced include is looked up in the compile's folder first, then on the include path (as
// `#include "..."` would be): a name that is not in the folder stays a name, so that the search
// path finds it (`-include kernel_lsp_launch_shim.h` from the shim folder).
std::string forced_include_in(const std::string& path, const fs::path& directory) {
  std::error_code ec;
  if (fs::path(path).is_absolute() || fs::exists(directory / path, ec)) return absolute_in(path, directory);
  return path;
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// The macros nvcc defines per target architecture (nvcc_arch_macros): each device parse sets its
// own, so a value from a command line must not override them for every arch. nvcc's own command
// lines never carry them; the ones `kernel-lsp clangd-config` writes do, for the one arch clangd
// parses.
bool is_arch_macro(const std::string& definition) {
  const std::string name = definition.substr(0, definition.find('='));
  return name == "__CUDA_ARCH__" || name == "__CUDA_ARCH_LIST__" || name == "__CUDA_ARCH_SPECIFIC__" ||
         name == "__CUDA_ARCH_FAMILY_SPECIFIC__" || starts_with(name, "__CUDA_ARCH_FEAT_");
}

bool is_macro_flag(const std::string& clang_flag) { return clang_flag == "-D" || clang_flag == "-U"; }

// Flags whose value is the next argument and that we keep, with a path value or not.
struct KeptFlag {
  const char* name;
  bool is_path;
};
constexpr KeptFlag kKeptWithValue[] = {
    {"-I", true}, {"-isystem", true}, {"-iquote", true}, {"-idirafter", true},
    {"-include", true}, {"-D", false}, {"-U", false},
    {"--include-path", true}, {"--system-include", true}, {"--define-macro", false},
    {"--undefine-macro", false}, {"--pre-include", true},
};

// nvcc long spellings mapped onto clang's.
std::string clang_spelling(const std::string& flag) {
  if (flag == "--include-path") return "-I";
  if (flag == "--system-include") return "-isystem";
  if (flag == "--define-macro") return "-D";
  if (flag == "--undefine-macro") return "-U";
  if (flag == "--pre-include") return "-include";
  return flag;
}

// A kept flag and its value, in clang's spelling: paths made absolute (a forced include only when
// it is in the compile's folder), arch macro definitions left out.
void keep(const KeptFlag& kept, std::string value, const fs::path& directory, std::vector<std::string>& out) {
  const std::string name = clang_spelling(kept.name);
  if (kept.is_path)
    value = name == "-include" ? forced_include_in(value, directory) : absolute_in(value, directory);
  if (is_macro_flag(name) && is_arch_macro(value)) return;
  out.push_back(name);
  out.push_back(std::move(value));
}

void translate_into(const std::vector<std::string>& argv, size_t first, const fs::path& directory,
                    std::vector<std::string>& out) {
  for (size_t i = first; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    bool handled = false;
    for (const auto& kept : kKeptWithValue) {
      std::string name = kept.name;
      if (a == name && i + 1 < argv.size()) {
        keep(kept, argv[i + 1], directory, out);
        ++i;
        handled = true;
        break;
      }
      // -Ipath, -DNAME=1, --include-path=path
      std::string joined_prefix = name.size() > 2 && name[1] == '-' ? name + "=" : name;
      if (a.size() > joined_prefix.size() && starts_with(a, joined_prefix.c_str()) &&
          (name.size() == 2 || name[1] == '-')) {
        keep(kept, a.substr(joined_prefix.size()), directory, out);
        handled = true;
        break;
      }
    }
    if (handled) continue;
    if (starts_with(a, "-std=") || starts_with(a, "--std=")) {
      std::string value = a.substr(a.find('=') + 1);
      out.push_back("-std=" + value);
    } else if (a == "-std" || a == "--std") {
      if (i + 1 < argv.size()) out.push_back("-std=" + argv[++i]);
    } else if (a == "-Xcompiler" || a == "--compiler-options") {
      // Host-compiler flags, comma separated; keep those that also make sense to clang.
      if (i + 1 < argv.size()) {
        std::vector<std::string> inner{"cc"};
        std::string list = argv[++i];
        size_t start = 0;
        while (start <= list.size()) {
          size_t comma = list.find(',', start);
          inner.push_back(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
          if (comma == std::string::npos) break;
          start = comma + 1;
        }
        translate_into(inner, 1, directory, out);
      }
    } else if (starts_with(a, "-Xcompiler=")) {
      std::vector<std::string> inner{"cc", a.substr(11)};
      translate_into(inner, 1, directory, out);
    } else if (a == "-rdc=true" || a == "--relocatable-device-code=true" || a == "-rdc") {
      out.push_back("-fgpu-rdc");
    }
    // Everything else (-gencode, -arch, --expt-*, --use_fast_math, -O3, -o, -c, -x cu, -M*,
    // -Xptxas, -ccbin, --threads, the source file ...) does not change how the device side parses
    // for us, or would make clang reject the command line: dropped.
  }
}

}  // namespace

std::vector<std::string> translate_compile_command(const std::vector<std::string>& argv,
                                                   const fs::path& directory) {
  std::vector<std::string> out;
  translate_into(argv, 1, directory, out);
  return out;
}

std::optional<fs::path> find_compile_database(const fs::path& source) {
  std::error_code ec;
  fs::path dir = fs::absolute(source, ec).parent_path();
  for (int depth = 0; depth < 64 && !dir.empty(); ++depth) {
    for (const fs::path& candidate : {dir / "compile_commands.json", dir / "build" / "compile_commands.json"}) {
      if (fs::is_regular_file(candidate, ec)) return candidate;
    }
    if (dir == dir.parent_path()) break;
    dir = dir.parent_path();
  }
  return std::nullopt;
}

std::optional<CompileFlags> flags_from_database(const fs::path& database, const fs::path& source) {
  auto text = read_file_text(database);
  if (!text) return std::nullopt;
  nlohmann::json entries = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!entries.is_array()) return std::nullopt;
  std::error_code ec;
  fs::path wanted = fs::weakly_canonical(source, ec);
  const nlohmann::json* neighbour = nullptr;
  for (const auto& entry : entries) {
    if (!entry.is_object() || !entry.contains("file") || !entry["file"].is_string()) continue;
    fs::path directory = entry.value("directory", std::string());
    fs::path file = entry["file"].get<std::string>();
    if (!file.is_absolute()) file = directory / file;
    file = fs::weakly_canonical(file, ec);
    bool same = file == wanted;
    if (!same && !(neighbour == nullptr && file.parent_path() == wanted.parent_path())) continue;
    if (!same) {
      neighbour = &entry;
      continue;
    }
    neighbour = &entry;
    break;
  }
  if (!neighbour) return std::nullopt;
  const auto& entry = *neighbour;
  std::vector<std::string> argv;
  if (entry.contains("arguments") && entry["arguments"].is_array()) {
    for (const auto& a : entry["arguments"])
      if (a.is_string()) argv.push_back(a.get<std::string>());
  } else if (entry.contains("command") && entry["command"].is_string()) {
    argv = split_command_line(entry["command"].get<std::string>());
  }
  if (argv.empty()) return std::nullopt;
  CompileFlags flags;
  flags.args = translate_compile_command(argv, entry.value("directory", std::string()));
  flags.database = database;
  flags.command = std::move(argv);
  fs::path file = entry["file"].get<std::string>();
  if (!file.is_absolute()) file = fs::path(entry.value("directory", std::string())) / file;
  flags.exact_match = fs::weakly_canonical(file, ec) == wanted;
  return flags;
}

}  // namespace kl::analyzers
