#pragma once
// Parses the device side of one translation unit for one target architecture with clang 19 and
// hands the AST to a visitor while it is alive. The visitor turns it into plain data
// (model/unit_facts.h); nothing of clang escapes this call.
//
// Tolerance: an #include that cannot be found (torch, ATen, CUTLASS, a project header absent on
// the lint machine) is skipped and recorded, and parsing goes on; what depended on it becomes
// recovery expressions that the model treats as opaque. Syntax errors never abort the parse.
// Thread-safety: independent calls may run concurrently. Cost: ~0.3-0.6 s per call with CUDA's
// headers on a 2-core machine, most of it in the headers; with a PreambleCache the second
// parse of an edited file reuses the precompiled #include region.
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/finding.h"
#include "analyzers/frontend/configuration_signature.h"
#include "support/cancellation.h"
#include "support/result.h"

namespace clang {
class ASTContext;
class SourceManager;
class SourceLocation;
class SourceRange;
class Preprocessor;
}  // namespace clang

namespace kl::analyzers {

class PreambleCache;
class ToolkitPchStore;

// Which locations are the user's (the main file and project headers, not CUDA's or clang's
// headers), and how to turn clang locations into our Locations.
class SourceView {
 public:
  SourceView(const clang::SourceManager& sources, std::string main_file_name);
  bool is_user_location(clang::SourceLocation location) const;
  bool is_main_file(clang::SourceLocation location) const;
  // Range of the tokens (end = after the last token), in the file where the user wrote them
  // (expansion locations for macros).
  Location location_of(clang::SourceRange range) const;
  Location location_of(clang::SourceLocation location) const;
  const clang::SourceManager& sources() const { return sources_; }

 private:
  const clang::SourceManager& sources_;
  std::string main_file_name_;
};

struct ParseDiagnostic {
  Location location;
  std::string message;
  bool is_error = false;
};

struct ParseOutcome {
  std::vector<std::string> missing_headers;  // as written in #include
  // Every file the preprocessor entered besides the main file (project, CUDA and system
  // headers alike), as canonical absolute paths, sorted and without duplicates. A result
  // cache keyed by these files' contents stays valid while none of them changes.
  std::vector<std::string> included_files;
  std::vector<ParseDiagnostic> errors;       // clang errors in user files (first 50)
  bool arch_dependent = false;  // user code reads __CUDA_ARCH__ or an arch-feature macro
  // Expansions, in user files, of the macros the caller asked to watch (`__cluster_dims__`).
  std::vector<std::pair<std::string, Location>> watched_macro_uses;
  // What this arch's macros made of the user's code (configuration_signature.h): equal
  // signatures, equal tokens, one parse for both archs.
  ConfigurationSignature signature;
  ConfigurationEvents
      events;  // with ConfigurationParse::record_events: the signature's events (a preamble's as one)
  bool preamble_reused = false;
  double parse_milliseconds = 0;
};

using AstVisitor = std::function<void(clang::ASTContext&, const SourceView&)>;

// What a parse of one configuration among several of a file records or skips
// (pipeline/shared_bodies.h).
struct ConfigurationParse {
  bool record_events = false;  // fill ParseOutcome::events
  // The bodies of the main file's function definitions whose names start at these byte offsets
  // (sorted) are skipped, as those of system headers are (function_bodies.h).
  const std::vector<uint32_t>* skipped_bodies = nullptr;
};

// `argv` comes from device_parse_command(); `text` replaces the file's content on disk. A parse
// with no preamble of its own (none cached, or `preambles` null) starts from the toolkit PCH
// of `toolkit_pchs` when given (toolkit_pch.h). With `macro_names`, adds the configuration's
// macro names to it (configuration_signature.h).
Result<ParseOutcome> parse_device_side(
    const std::vector<std::string>& argv, const std::filesystem::path& file, std::string_view text,
    const AstVisitor& visitor, const std::vector<std::string>& watched_macros = {},
    const CancellationToken* cancel = nullptr, PreambleCache* preambles = nullptr,
    ToolkitPchStore* toolkit_pchs = nullptr, MacroNames* macro_names = nullptr,
    ConfigurationParse configuration = {});

}  // namespace kl::analyzers
