#include "analyzers/frontend/toolkit_pch.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Basic/Version.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>

#include <fstream>

#include "analyzers/frontend/content_hash.h"
#include "analyzers/frontend/device_invocation.h"
#include "support/fs_paths.h"

namespace kl::analyzers {
namespace fs = std::filesystem;

namespace {

// Records every file the PCH build enters, for its .inputs list.
class InputRecorder : public clang::PPCallbacks {
 public:
  InputRecorder(const clang::SourceManager& sources, std::set<std::string>& files)
      : sources_(sources), files_(files) {}
  void FileChanged(clang::SourceLocation loc, FileChangeReason reason, clang::SrcMgr::CharacteristicKind,
                   clang::FileID) override {
    if (reason != EnterFile) return;
    if (auto entry = sources_.getFileEntryRefForID(sources_.getFileID(loc)))
      files_.insert(sources_.getFileManager().getCanonicalName(*entry).str());
  }

 private:
  const clang::SourceManager& sources_;
  std::set<std::string>& files_;
};

class RecordingPchAction : public clang::GeneratePCHAction {
 public:
  explicit RecordingPchAction(std::set<std::string>& files) : files_(files) {}

 protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci, llvm::StringRef in) override {
    ci.getPreprocessor().addPPCallbacks(std::make_unique<InputRecorder>(ci.getSourceManager(), files_));
    return clang::GeneratePCHAction::CreateASTConsumer(ci, in);
  }

 private:
  std::set<std::string>& files_;
};

// One line per input: "<size> <mtime ns> <path>".
std::string stamp_of(const fs::path& file) {
  std::error_code ec;
  auto size = fs::file_size(file, ec);
  if (ec) return {};
  auto time = fs::last_write_time(file, ec);
  if (ec) return {};
  return std::to_string(size) + " " + std::to_string(time.time_since_epoch().count());
}

bool inputs_unchanged(const fs::path& list) {
  std::ifstream in(list);
  if (!in) return false;
  std::string line;
  size_t count = 0;
  while (std::getline(in, line)) {
    size_t second_space = line.find(' ', line.find(' ') + 1);
    if (second_space == std::string::npos) return false;
    if (stamp_of(line.substr(second_space + 1)) != line.substr(0, second_space)) return false;
    ++count;
  }
  return count > 0;
}

// Which -include files a toolkit PCH may hold: kernel-lsp's shims, in system folders. A user
// header in a PCH would have its function bodies skipped and its declarations out of the
// model's walk, so a command that includes one gets no PCH.
bool only_shim_includes(const std::vector<std::string>& argv) {
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a.rfind("-include-pch", 0) == 0 || a.rfind("-imacros", 0) == 0) return false;
    std::string included;
    if (a == "-include" && i + 1 < argv.size()) included = argv[i + 1];
    else if (a.rfind("-include", 0) == 0 && a.size() > 8) included = a.substr(8);  // -includefoo.h
    if (!included.empty() && fs::path(included).filename().string().rfind("kernel_lsp_", 0) != 0) return false;
  }
  return true;
}

// C++20 and later: clang 19 crashes (Sema::MarkFunctionReferenced from ActOnCXXDelete) on a
// plain `delete p` in the user's host code when CUDA's headers come from a PCH, and parses it
// fine without one. Those standards parse the headers with every file until a clang without the
// fault is in use.
bool standard_breaks_pch(const std::vector<std::string>& argv) {
  for (size_t i = 0; i < argv.size(); ++i) {
    std::string value;
    if (argv[i].rfind("-std=", 0) == 0) value = argv[i].substr(5);
    else if (argv[i].rfind("--std=", 0) == 0) value = argv[i].substr(6);
    else if ((argv[i] == "-std" || argv[i] == "--std") && i + 1 < argv.size()) value = argv[i + 1];
    else continue;
    size_t plus = value.find("++");
    if (plus == std::string::npos) continue;
    std::string year = value.substr(plus + 2);
    if (year == "2a" || year == "2b" || year == "2c" || year == "20" || year == "23" || year == "26") return true;
  }
  return false;
}

std::string key_of(const std::vector<std::string>& argv) {
  std::string text = std::string(KERNEL_LSP_VERSION) + "\n" + clang::getClangFullVersion() + "\n";
  for (size_t i = 0; i + 1 < argv.size(); ++i) text += argv[i] + '\0';
  return content_hash(text);
}

}  // namespace

fs::path default_toolkit_pch_dir() {
  fs::path dir = user_cache_dir("KERNEL_LSP_PCH_DIR", "pch");
  if (!dir.empty()) return dir;
  std::error_code ec;
  return fs::temp_directory_path(ec) / "kernel-lsp-pch";
}

ToolkitPchStore::ToolkitPchStore(fs::path dir) : dir_(dir.empty() ? default_toolkit_pch_dir() : std::move(dir)) {}

std::optional<fs::path> ToolkitPchStore::get(const std::vector<std::string>& argv) {
  if (argv.size() < 2 || !only_shim_includes(argv) || standard_breaks_pch(argv)) return std::nullopt;
  std::string key = key_of(argv);
  fs::path pch = dir_ / (key + ".pch");
  std::lock_guard lock(mutex_);
  if (failed_.count(key)) return std::nullopt;
  std::error_code ec;
  if (!rejected_.count(key) && fs::exists(pch, ec) && inputs_unchanged(dir_ / (key + ".inputs"))) return pch;
  rejected_.erase(key);
  auto built = build(argv, key);
  if (!built) failed_.insert(key);
  return built;
}

void ToolkitPchStore::reject(const fs::path& pch) {
  std::lock_guard lock(mutex_);
  rejected_.insert(pch.stem().string());
  // Removed, so that other processes rebuild it too instead of each parsing twice.
  std::error_code ec;
  fs::remove(pch, ec);
}

std::optional<fs::path> ToolkitPchStore::build(const std::vector<std::string>& argv, const std::string& key) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  // The PCH's own main file: empty, written once and never rewritten (its time is an input).
  fs::path main = dir_ / "kernel_lsp_pch_main.cu";
  if (!fs::exists(main, ec) && !write_file_atomically(main, "")) return std::nullopt;
  std::vector<std::string> args = argv;
  args.back() = main.string();
  std::shared_ptr<clang::CompilerInvocation> invocation = device_invocation(args);
  if (!invocation) return std::nullopt;
  fs::path pch = dir_ / (key + ".pch");
  fs::path temporary = temporary_sibling(pch);
  invocation->getFrontendOpts().ProgramAction = clang::frontend::GeneratePCH;
  invocation->getFrontendOpts().OutputFile = temporary.string();
  // Everything here is a system header, whose bodies a parse skips too (device_parser.cpp).
  invocation->getFrontendOpts().SkipFunctionBodies = true;

  clang::IgnoringDiagConsumer ignore;
  clang::CompilerInstance ci;
  ci.setInvocation(std::move(invocation));
  ci.createDiagnostics(&ignore, /*ShouldOwnClient=*/false);
  if (!ci.hasDiagnostics()) return std::nullopt;
  std::set<std::string> inputs;
  RecordingPchAction action(inputs);
  bool ok = false;
  try {
    ok = ci.ExecuteAction(action) && !ci.getDiagnostics().hasErrorOccurred();
  } catch (const std::exception&) {
    ok = false;
  }
  std::string list;
  for (const auto& input : inputs) {
    std::string stamp = stamp_of(input);
    if (stamp.empty()) ok = false;
    list += stamp + " " + input + "\n";
  }
  if (!ok || inputs.empty() || !write_file_atomically(dir_ / (key + ".inputs"), list)) {
    fs::remove(temporary, ec);
    return std::nullopt;
  }
  fs::rename(temporary, pch, ec);
  if (ec) {
    fs::remove(temporary, ec);
    return std::nullopt;
  }
  return pch;
}

bool is_pch_rejection(std::string_view message) {
  return message.find("precompiled header") != std::string_view::npos ||
         message.find("PCH file") != std::string_view::npos || message.find("AST file") != std::string_view::npos;
}

}  // namespace kl::analyzers
