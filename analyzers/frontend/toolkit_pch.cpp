#include "analyzers/frontend/toolkit_pch.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Basic/Version.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/MultiplexConsumer.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>

#include <algorithm>
#include <fstream>

#include "analyzers/frontend/content_hash.h"
#include "analyzers/frontend/device_invocation.h"
#include "analyzers/frontend/header_decl_lists.h"
#include "analyzers/frontend/leading_includes.h"
#include "support/fs_paths.h"

namespace kl::analyzers {
namespace fs = std::filesystem;

namespace {

// What the store keeps on disk: the most recently used PCHs up to this size. A wrapper's PCH is
// ~6 MB, one that also holds cooperative_groups.h ~20 MB; linting a dozen projects of ten
// capabilities each needs ~100 of them, and a smaller budget rebuilds them run after run.
constexpr uintmax_t kKeptBytes = uintmax_t(3) << 30;

// Changes when what a PCH build keeps changes, so that PCHs built before are not used.
constexpr const char* kPchLayout = "layout 2: system headers' declaration lists dropped";

// What a PCH build entered: every file, for its .inputs list, and whether one was a user header
// (a file the PCH must not hold).
struct BuildInputs {
  std::set<std::string> files;
  bool user_header = false;
};

class InputRecorder : public clang::PPCallbacks {
 public:
  InputRecorder(const clang::SourceManager& sources, BuildInputs& inputs) : sources_(sources), inputs_(inputs) {}
  void FileChanged(clang::SourceLocation loc, FileChangeReason reason, clang::SrcMgr::CharacteristicKind kind,
                   clang::FileID) override {
    if (reason != EnterFile) return;
    clang::FileID id = sources_.getFileID(loc);
    auto entry = sources_.getFileEntryRefForID(id);
    if (!entry) return;
    inputs_.files.insert(sources_.getFileManager().getCanonicalName(*entry).str());
    if (kind == clang::SrcMgr::C_User && id != sources_.getMainFileID()) inputs_.user_header = true;
  }

 private:
  const clang::SourceManager& sources_;
  BuildInputs& inputs_;
};

class RecordingPchAction : public clang::GeneratePCHAction {
 public:
  explicit RecordingPchAction(BuildInputs& inputs) : inputs_(inputs) {}

 protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci, llvm::StringRef in) override {
    ci.getPreprocessor().addPPCallbacks(std::make_unique<InputRecorder>(ci.getSourceManager(), inputs_));
    auto writer = clang::GeneratePCHAction::CreateASTConsumer(ci, in);
    if (!writer) return writer;
    // The trimmer first: consumers end the translation unit in order, the writer after it.
    std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
    consumers.push_back(make_header_list_trimmer());
    consumers.push_back(std::move(writer));
    return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
  }

 private:
  BuildInputs& inputs_;
};

// One line per input: "<size> <mtime ns> <path>".
std::string stamp_of(const fs::path& file) {
  std::optional<FileStamp> stamp = file_stamp(file);
  if (!stamp) return {};
  return std::to_string(stamp->size) + " " + std::to_string(stamp->modified);
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

std::string key_of(const std::vector<std::string>& argv, const std::vector<std::string>& headers) {
  // The layout names what a PCH holds beyond the headers' declarations (header_decl_lists.h).
  std::string text = std::string(KERNEL_LSP_VERSION) + "\n" + clang::getClangFullVersion() + "\n" +
                     kPchLayout + "\n";
  for (size_t i = 0; i + 1 < argv.size(); ++i) text += argv[i] + '\0';
  for (const auto& header : headers) text += "\n#include <" + header + ">";
  return content_hash(text);
}

// The PCH's own main file: empty for the wrapper's PCH, else the headers' includes.
std::string main_text_of(const std::vector<std::string>& headers) {
  std::string text;
  for (const auto& header : headers) text += "#include <" + header + ">\n";
  return text;
}

}  // namespace

fs::path default_toolkit_pch_dir() {
  fs::path dir = user_cache_dir("KERNEL_LSP_PCH_DIR", "pch");
  if (!dir.empty()) return dir;
  std::error_code ec;
  return fs::temp_directory_path(ec) / "kernel-lsp-pch";
}

ToolkitPchStore::ToolkitPchStore(fs::path dir) : dir_(dir.empty() ? default_toolkit_pch_dir() : std::move(dir)) {}

std::optional<fs::path> ToolkitPchStore::get(const std::vector<std::string>& argv, std::string_view main_text) {
  if (argv.size() < 2 || !only_shim_includes(argv) || standard_breaks_pch(argv)) return std::nullopt;
  std::vector<std::string> headers = leading_angle_includes(main_text);
  if (!headers.empty())
    if (auto pch = get_keyed(argv, headers)) return pch;
  return get_keyed(argv, {});
}

std::optional<fs::path> ToolkitPchStore::get_keyed(const std::vector<std::string>& argv,
                                                   const std::vector<std::string>& headers) {
  std::string key = key_of(argv, headers);
  fs::path pch = dir_ / (key + ".pch");
  fs::path inputs = dir_ / (key + ".inputs");
  std::lock_guard lock(mutex_);
  if (failed_.count(key)) return std::nullopt;
  std::error_code ec;
  if (!headers.empty() && fs::exists(dir_ / (key + ".refused"), ec)) return std::nullopt;
  if (!rejected_.count(key) && fs::exists(pch, ec) && inputs_unchanged(inputs)) {
    fs::last_write_time(inputs, fs::file_time_type::clock::now(), ec);  // recently used: kept by trim()
    return pch;
  }
  if (!headers.empty()) {
    // Built on the second request for this set, from whichever process makes it.
    fs::path wanted = dir_ / (key + ".wanted");
    if (!fs::exists(wanted, ec)) {
      fs::create_directories(dir_, ec);
      write_file_atomically(wanted, "");
      return std::nullopt;
    }
  }
  rejected_.erase(key);
  auto built = build(argv, key, headers);
  if (!built) failed_.insert(key);
  else trim();
  return built;
}

void ToolkitPchStore::trim() {
  struct Kept {
    fs::file_time_type used;
    std::string key;
    uintmax_t bytes = 0;
  };
  std::vector<Kept> kept;
  uintmax_t total = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    if (entry.path().extension() != ".pch") continue;
    Kept pch{{}, entry.path().stem().string(), entry.file_size(ec)};
    if (ec) pch.bytes = 0;
    auto time = fs::last_write_time(dir_ / (pch.key + ".inputs"), ec);
    pch.used = ec ? fs::file_time_type::min() : time;
    total += pch.bytes;
    kept.push_back(std::move(pch));
  }
  if (total <= kKeptBytes) return;
  std::sort(kept.begin(), kept.end(), [](const Kept& a, const Kept& b) { return a.used < b.used; });
  for (const Kept& pch : kept) {
    if (total <= kKeptBytes) break;
    for (const char* extension : {".pch", ".inputs", ".cu", ".wanted", ".refused"}) fs::remove(dir_ / (pch.key + extension), ec);
    total -= pch.bytes;
  }
}

void ToolkitPchStore::reject(const fs::path& pch) {
  std::lock_guard lock(mutex_);
  rejected_.insert(pch.stem().string());
  // Removed, so that other processes rebuild it too instead of each parsing twice.
  std::error_code ec;
  fs::remove(pch, ec);
}

std::optional<fs::path> ToolkitPchStore::build(const std::vector<std::string>& argv, const std::string& key,
                                               const std::vector<std::string>& headers) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  // The PCH's own main file, written once and never rewritten (its time is an input).
  fs::path main = headers.empty() ? dir_ / "kernel_lsp_pch_main.cu" : dir_ / (key + ".cu");
  if (!fs::exists(main, ec) && !write_file_atomically(main, main_text_of(headers))) return std::nullopt;
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
  BuildInputs inputs;
  RecordingPchAction action(inputs);
  bool ok = false;
  try {
    ok = ci.ExecuteAction(action) && !ci.getDiagnostics().hasErrorOccurred();
  } catch (const std::exception&) {
    ok = false;
  }
  if (inputs.user_header) {
    // Never worth another try, by this process or any other: the set reaches a user header.
    write_file_atomically(dir_ / (key + ".refused"), "");
    ok = false;
  }
  std::string list;
  for (const auto& input : inputs.files) {
    std::string stamp = stamp_of(input);
    if (stamp.empty()) ok = false;
    list += stamp + " " + input + "\n";
  }
  if (!ok || inputs.files.empty() || !write_file_atomically(dir_ / (key + ".inputs"), list)) {
    fs::remove(temporary, ec);
    return std::nullopt;
  }
  fs::rename(temporary, pch, ec);
  if (ec) {
    fs::remove(temporary, ec);
    return std::nullopt;
  }
  fs::remove(dir_ / (key + ".wanted"), ec);
  return pch;
}

std::function<std::optional<std::string>()> toolkit_pch_source(ToolkitPchStore* store,
                                                               const std::vector<std::string>& argv,
                                                               std::string_view text) {
  if (!store) return {};
  return [store, argv, text = std::string(text)]() -> std::optional<std::string> {
    if (auto pch = store->get(argv, text)) return pch->string();
    return std::nullopt;
  };
}

bool is_pch_rejection(std::string_view message) {
  return message.find("precompiled header") != std::string_view::npos ||
         message.find("PCH file") != std::string_view::npos || message.find("AST file") != std::string_view::npos;
}

}  // namespace kl::analyzers
