#pragma once
// The analyzers' front door: source text (+ its project) in, Findings out. Used the same way by
// the CLI (`kernel-lsp lint`) and the language server. Knows nothing of LSP or JSON-RPC.
//
// Threading: an Analyzer may be called from several threads at once for different files (and
// for the same file; the parse cache serialises per file). Cost: the first analysis of a file
// parses its device side once (or once per target arch when the user's code tests
// __CUDA_ARCH__); later analyses of the same file reuse a precompiled preamble.
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/finding.h"
#include "analyzers/model/unit_facts.h"
#include "analyzers/pipeline/coverage.h"
#include "analyzers/project/build_config.h"
#include "analyzers/project/capability.h"
#include "support/cancellation.h"

namespace kl::analyzers {

struct AnalysisSettings {
  std::optional<std::filesystem::path> cuda_path;  // else CUDA_PATH, CUDA_HOME, nvcc on PATH, /usr/local/cuda
  std::vector<std::string> extra_flags;            // appended to the clang command line
  // PyTorch's include folders (torchIncludePath, --torch-include-path); else they are looked
  // for (frontend/torch_headers.h), and kernel-lsp's stand-in is used when none are found.
  std::vector<std::filesystem::path> torch_include_path;
  // CUTLASS checkouts (cutlassPath, --cutlass-path); else CUTLASS_PATH and the like
  // (frontend/cutlass_headers.h); nothing when none is found.
  std::vector<std::filesystem::path> cutlass_path;
  std::vector<Capability> arch_override;           // --arch: replaces build.toml's list
  std::vector<Capability> default_archs;           // used when no build.toml applies (else builder default)
  std::map<std::string, Severity> severity_overrides;
  std::set<std::string> disabled_rules;
  uint32_t assumed_pointer_alignment = 256;  // bytes; kernel pointer parameters
  bool use_compile_commands = true;          // read compile_commands.json when one is found
  bool cache_parses = false;                 // keep ASTs for fast re-analysis (the server sets it)
  // How many of a file's configurations after the first are preprocessed and parsed at once
  // (pipeline/arch_parses.h). 1 in the CLI, whose workers already keep every core busy with
  // files of their own; the server, which waits for one file at a time, sets the hardware's
  // thread count (at most 4).
  unsigned configuration_threads = 1;
  // Start parses from a precompiled header of the toolkit headers, shared by every file and
  // process with the same command (frontend/toolkit_pch.h), kept in `pch_dir` (empty: the
  // default, KERNEL_LSP_PCH_DIR or the user's cache folder). Results are the same without.
  bool shared_pch = true;
  std::filesystem::path pch_dir;
};

struct StageTiming {
  std::string stage;  // "toolkit", "build.toml", "parse sm_90", "model", "rules"
  double milliseconds = 0;
};

// Where the list of target architectures came from, for messages and hovers.
struct ArchSelection {
  std::vector<Capability> archs;
  std::string origin;  // "build.toml", "--arch", "setup.py", "the configured default archs", ...
  std::optional<Location> origin_location;  // the cuda-capabilities array in build.toml
  // Nothing declares the file's archs (no build.toml, no build file of the project's, no
  // setting): `archs` is an assumption, and the arch rules say so and only warn.
  bool assumed = false;
};

struct FileAnalysis {
  std::vector<Finding> findings;  // suppressions applied, sorted by position
  std::vector<StageTiming> timings;
  ArchSelection archs;
  std::optional<std::filesystem::path> build_toml;  // the one that applies, if any
  std::vector<std::string> missing_headers;         // #includes that could not be found
  // The first parse's clang errors, when there were many (findings may be incomplete): how many,
  // the first one and where. The file's one `frontend` note says so; not sent between processes.
  size_t clang_errors = 0;  // 0 when there were few
  std::string first_clang_error;
  Location first_clang_error_location;
  // Every file the analysis read besides the source itself: the included files of every
  // parse, the build.toml in force, the compile_commands.json used. Absolute paths, each
  // once (in no promised order); what a result cache must check to know the findings still hold.
  std::vector<std::string> inputs;
  UnitFacts facts;                                  // from the parse for the highest arch
  // Per kernel of `facts`: its global accesses and how many the model could not judge
  // (coverage.h). Crosses the isolation wire, unlike facts.accesses it is made from; empty
  // when the analysis stopped before the rules (no arch, cancelled, no parse).
  std::vector<KernelCoverage> coverage;
  bool cancelled = false;
  // A partial result (see PartialAnalysisSink): complete for the target archs whose
  // configuration was parsed, and these, of archs.archs, still to come.
  bool partial = false;
  std::vector<Capability> archs_pending;
};

// Receives, before analyze_source returns, a result for the first configuration parsed when
// more are to follow (the file's code tests an arch macro, so other archs may need parses of
// their own). It is a complete, consistent set of findings for the archs that parse serves:
// the final result only adds findings for the archs in `archs_pending`. Called on the
// analysing thread; not called when one parse serves every arch.
using PartialAnalysisSink = std::function<void(const FileAnalysis& partial)>;

class Analyzer {
 public:
  explicit Analyzer(AnalysisSettings settings);
  ~Analyzer();
  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;

  // Analyse a .cu/.cuh (or .cpp/.h inside a kernel project) whose current text is `text`.
  // `project` overrides build.toml discovery (the server passes the editor's unsaved copy).
  FileAnalysis analyze_source(const std::filesystem::path& file, std::string_view text,
                              const CancellationToken* cancel = nullptr,
                              const BuildConfigParse* project = nullptr,
                              const PartialAnalysisSink& partial = {});

  // Problems in a build.toml itself: syntax, schema, and arch-unsupported.
  std::vector<Finding> analyze_build_toml(const std::filesystem::path& file, std::string_view text);

  // Looks the CUDA toolkit up (nvcc --version, ~100 ms) on a background thread, so that a
  // server's first analysis does not wait for it. Optional; analyses find it on demand anyway.
  void find_toolkit_in_background();
  // The same, then the libraries' headers (PyTorch's may take python3's `import torch`: a second
  // or more where torch is installed), so that the first analysis does not start that lookup
  // only when it needs it. Analyses wait for a lookup under way.
  void find_toolkit_and_libraries_in_background();

  // Drop cached parses of one file (closed in the editor) or of all.
  void forget(const std::filesystem::path& file);
  void forget_all();

  const AnalysisSettings& settings() const;
  // The toolkit in use, or a message saying why none was found.
  std::string toolkit_description() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace kl::analyzers
