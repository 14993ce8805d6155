#pragma once
// What the last analysis of a file learnt about its configurations, so that the next one, after
// an edit that cannot have changed them, parses the configurations it knows instead of
// preprocessing every other arch first (ten default capabilities: nine preprocessing runs per
// keystroke, ~45 ms of CPU, for an answer the edit could not change). Server only.
//
// Why an edit keeps the configurations: two archs share one exactly when their signatures are
// equal (frontend/configuration_signature.h), and a signature is a set of events at offsets in
// user files: entered headers, skipped branches, macro expansions. Replacing text X by Y in the
// main file, where neither the lines around the edit hold a directive (`#`, `%:`) or a line
// continuation, nor X or Y a comment or string delimiter, nor the identifiers the edit touches
// name a macro of any configuration, adds or removes no event and moves every event after the
// edit by the same amount in every configuration, so equal signatures stay equal and unequal
// ones unequal. Anything else (another command, other targets, a header read by the last
// analysis changed on disk) and the archs are preprocessed again.
//
// Thread-safety: plain values and pure functions; the caller guards the memory it keeps.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/project/capability.h"
#include "analyzers/frontend/configuration_signature.h"
#include "support/fs_paths.h"

namespace kl::analyzers {

struct ConfigurationMemory {
  std::string text;                    // what was analysed
  std::vector<std::string> command;    // the first arch's clang command line
  std::vector<Capability> archs;       // in parse order: the first, then the others
  std::vector<size_t> configuration;   // per other arch: 0 = the first parse's, k = the k-th other parse's
  MacroNames macro_names;              // of every configuration
  std::vector<ConfigurationEvents> events;  // of each other configuration's parse (shared_bodies.h)
  struct Stamp {
    std::string path;
    std::optional<FileStamp> stamp;  // none: it could not be read then
  };
  std::vector<Stamp> inputs;  // every file the analysis read, as it was then
};

// Whether replacing `before` by `after` (the whole main file's text) keeps every configuration's
// events as the header explains, given the names of every configuration's macros.
bool edit_keeps_configurations(std::string_view before, std::string_view after, const MacroNames& macro_names);

// The stamps of `files` now.
std::vector<ConfigurationMemory::Stamp> stamps_of(const std::vector<std::string>& files);

// `memory.events` as they are in `text`, an edit of memory.text that keeps the configurations:
// the main file's offsets after the edit moved by its length.
std::vector<ConfigurationEvents> events_after_edit(const ConfigurationMemory& memory, std::string_view text);

// memory.configuration, when `text`, `command` and `archs` may reuse it: same command and archs,
// no input changed on disk, and an edit that keeps the configurations.
std::optional<std::vector<size_t>> known_configurations(const ConfigurationMemory& memory, std::string_view text,
                                                        const std::vector<std::string>& command,
                                                        const std::vector<Capability>& archs);

}  // namespace kl::analyzers
