#pragma once
// The last version of each build.toml that parsed, kept in memory, so that while the file (in
// the editor or on disk) does not parse, its project's sources are still analysed against the
// archs and kernels it last declared: a half-typed edit must not turn a project's archs into an
// assumption for every open .cu. A server that starts with a build.toml that does not parse has
// no earlier version; its sources then fall back as the analyzers decide (target_archs.h).
//
// Analyses made against a stand-in version carry a note (build_toml_fallback_note) that the
// server puts where the user looks: the arch origin (status, hover) and one Information
// diagnostic in each source. Thread-safe: jobs are made on the I/O thread, results read on
// worker threads.
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "analyzers/pipeline/analysis.h"

namespace kl::lsp {

class LastParsedBuildTomls {
 public:
  struct Choice {
    std::shared_ptr<const std::string> text;  // the build.toml text to analyse the sources against
    bool stand_in = false;                    // `text` is the last version that parsed, not the current
  };

  // Remembers `current` when it parses; returns it, or the last version that parsed when it
  // does not and one is known. Parses once per distinct text.
  Choice choose(const std::filesystem::path& build_toml, std::shared_ptr<const std::string> current);

  // "build.toml does not parse (line N: …); using the last version that parsed" for an analysis
  // made against `text`, when `text` is the stand-in handed out for the current version of
  // `build_toml`; nullopt otherwise (including once the file parses again).
  std::optional<std::string> note_for(const std::filesystem::path& build_toml, const std::string* text) const;

 private:
  struct Entry {
    std::shared_ptr<const std::string> seen;    // the newest text looked at
    std::string problem;                        // its first error ("line 3: …"); empty: it parses
    std::shared_ptr<const std::string> parsed;  // the newest text that parsed
  };
  mutable std::mutex mutex_;
  std::map<std::filesystem::path, Entry> entries_;
};

// An analysis made against a stand-in build.toml, told so: the origin of its archs is `note`
// (the stand-in's capability line is no line of the current file) and one Information finding
// of the build-toml rule at the top of `file` says it.
analyzers::FileAnalysis with_build_toml_note(analyzers::FileAnalysis analysis,
                                             const std::filesystem::path& file, const std::string& note);

}  // namespace kl::lsp
