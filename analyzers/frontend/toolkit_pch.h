#pragma once
// A precompiled header of what every parse includes before the user's first line: clang's CUDA
// wrapper (`__clang_cuda_runtime_wrapper.h`, which pulls in CUDA's runtime and math headers and
// parts of the C++ library) and kernel-lsp's shims. One per distinct command line without the
// file (the arch, the flags, the include folders), shared by every file parsed with it, by
// every process (the CLI's workers, the server's, later runs), on disk. Without it each parse
// spends ~0.25 s of a 2-core machine on those headers before reaching the file's own code; with
// it a parse costs the file's own code and the headers it includes itself.
//
// Correctness: function bodies in system headers are skipped in the PCH as they are in a plain
// parse (device_parser.cpp), so a parse with it sees what a parse without it sees; the result
// is checked by a test (findings identical with and without). A PCH records every file it was
// built from with its size and modification time; when one changed it is rebuilt, and when
// clang rejects one anyway the parse runs without it and the next use rebuilds it.
//
// The file's own opening includes: when a file starts with `#include <...>` lines that resolve to
// system headers (cooperative_groups.h, cub, cuda_bf16.h, the torch stand-in), a PCH of the
// wrapper *and those headers* serves it instead (leading_includes.h: nothing of the file comes
// before them, so the parse reaches its own code in the same state). cooperative_groups.h alone
// costs ~0.5 s per parse on a 2-core machine; from the PCH it costs nothing, in every
// configuration, every process and every later session; the server's preambles are built on
// top of it (preamble_cache.h), holding only the rest of the #include region. A header set gets its PCH on its second
// request (from any process, marked on disk by `<key>.wanted`), so a file opened once does not
// pay for a PCH it never reuses; until then the wrapper's PCH serves. A set that reaches a user
// header (found through -I) gets none, and `<key>.refused` says so to every process. The store
// keeps the most recently used PCHs, up to 3 GiB.
//
// Storage: `<dir>/<key>.pch` with `<key>.inputs` beside it, where the key hashes the command,
// kernel-lsp's version and clang's. Written to a temporary name and renamed, so concurrent
// builders (two workers on their first file) never see half a file: the last rename wins and
// both results are the same.
//
// Not used (get() answers nullopt) for commands whose language standard is C++20 or later,
// where clang 19 crashes in some of the user's host code with a PCH and not without.
//
// Thread-safety: all members may be called concurrently.
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kl::analyzers {

class ToolkitPchStore {
 public:
  // `dir`: where PCHs are kept; created on first use. Empty: default_toolkit_pch_dir().
  explicit ToolkitPchStore(std::filesystem::path dir);

  // The PCH for parses with `argv` (from device_parse_command; its last element, the file, is
  // not part of the key), built now when there is none or it is stale; nullopt when it cannot
  // be built (then parse without one). The first call for a command costs about one parse.
  // With `main_text` (the file's text), the PCH that also holds the file's opening system
  // includes when one is built or due, else the wrapper's.
  std::optional<std::filesystem::path> get(const std::vector<std::string>& argv, std::string_view main_text = {});

  // clang refused `pch` although its inputs looked unchanged: it is deleted, and rebuilt at the
  // next get() of this process or any other.
  void reject(const std::filesystem::path& pch);

  const std::filesystem::path& dir() const { return dir_; }

 private:
  // The PCH of `key` (argv and `headers`); with `build_now` false, only one already built.
  std::optional<std::filesystem::path> get_keyed(const std::vector<std::string>& argv,
                                                 const std::vector<std::string>& headers);
  std::optional<std::filesystem::path> build(const std::vector<std::string>& argv, const std::string& key,
                                             const std::vector<std::string>& headers);
  void trim();  // drops the least recently used PCHs beyond the size kept

  std::filesystem::path dir_;
  std::mutex mutex_;
  std::set<std::string> rejected_;  // keys clang refused: rebuild at the next get()
  std::set<std::string> failed_;    // keys whose build failed: not tried again by this process
};

// What a preamble build of a file parsed with `argv` starts from (PreambleCache's BasePch): the
// PCH `store` gives for the file's text, asked when the build runs. Empty without a store.
std::function<std::optional<std::string>()> toolkit_pch_source(ToolkitPchStore* store,
                                                               const std::vector<std::string>& argv,
                                                               std::string_view text);

// Whether a clang error says it could not use a precompiled header (stale, mismatched, gone).
bool is_pch_rejection(std::string_view message);

// KERNEL_LSP_PCH_DIR, else $XDG_CACHE_HOME/kernel-lsp/pch, else ~/.cache/kernel-lsp/pch, else
// a folder in the temporary directory.
std::filesystem::path default_toolkit_pch_dir();

}  // namespace kl::analyzers
