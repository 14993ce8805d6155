#pragma once
// What one preprocessor configuration (one target arch's macros) makes of the user's code, as a
// fingerprint: two archs with equal signatures see the same tokens in the main file and the
// project's headers, so one parse serves both. This is what lets a file that tests
// `__CUDA_ARCH__` be parsed once per distinct configuration instead of once per capability
// (`#if __CUDA_ARCH__ >= 800` splits the builder's ten default capabilities into two).
//
// What is recorded, in user files only (not system headers: their declarations may differ per
// arch, which the rules already allow for by parsing the most capable arch first):
//  - every user file entered, by path;
//  - every range the preprocessor skipped (an inactive #if branch), by file and offsets, unless
//    it holds nothing but macro definitions (and conditionals around them): those change the
//    tokens only where the macros expand, which the next item records (llm.c's common.h picks
//    one of two `#define MAX_1024_THREADS_BLOCKS` by arch, and most files never use it);
//  - every expansion of a macro defined outside user files (`__CUDA_ARCH__`, CUDA's and
//    libcu++'s macros, nested expansions included), by place, name and the definition's
//    tokens: `int v = __CUDA_ARCH__;` differs per arch although no branch does; and of a
//    macro the user defined, by place, name and where the definition is. Expansions in
//    #if/#elif conditions are left out: what they decide is in the skipped ranges.
// Together these fix the user's token stream. Events are combined order-independently (two
// sums of 64-bit hashes and a count), so a preamble's signature and the rest of a parse's add
// up to the signature of a parse without a preamble.
//
// Thread-safety: a recorder belongs to one preprocessor; signatures are plain values.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "support/cancellation.h"
#include "support/result.h"

namespace clang {
class PPCallbacks;
class Preprocessor;
}  // namespace clang

namespace kl::analyzers {

class PreambleCache;
class ToolkitPchStore;

struct ConfigurationSignature {
  uint64_t sum = 0;        // of one hash per event
  uint64_t second_sum = 0;  // of an independent hash per event, against collisions
  uint64_t events = 0;

  void add_event(std::string_view event);
  void merge(const ConfigurationSignature& other);
  friend bool operator==(const ConfigurationSignature&, const ConfigurationSignature&) = default;
};

// One event of a signature with the place it came from, so that two configurations can be told
// apart where they differ, not only whether they do (pipeline/shared_bodies.h). A precompiled
// preamble's events arrive as one (preamble_event): where in its region they were is not kept.
struct ConfigurationEvent {
  static constexpr uint32_t kNone = UINT32_MAX;
  bool in_main_file = false;
  uint64_t file = 0;   // a hash of the user file's name
  uint32_t begin = 0;  // byte offsets in it: a skipped branch's range, a macro name's [at, at + 1)
  uint32_t end = 0;
  uint32_t definition = kNone;  // where in the main file the expanded macro is defined, when it is
  uint64_t hash = 0;            // of what the event is, its offsets aside (they move with edits)
  friend auto operator<=>(const ConfigurationEvent&, const ConfigurationEvent&) = default;
};
using ConfigurationEvents = std::vector<ConfigurationEvent>;

// A preamble's share of a signature as one event of the main file, at offset 0.
ConfigurationEvent preamble_event(const ConfigurationSignature& preamble_signature);

// The name of every macro a configuration defines at its end, or undefines on the way: an
// identifier that is none of these expands to itself wherever it is written.
using MacroNames = std::unordered_set<std::string>;

// Preprocessor callbacks that add this parse's events to `signature` (which must outlive the
// preprocessor), and with `macro_names` this configuration's macro names, with `events` each
// event with its place. Missing headers are skipped, as the parse skips them.
std::unique_ptr<clang::PPCallbacks> make_signature_recorder(const clang::Preprocessor& preprocessor,
                                                            ConfigurationSignature& signature,
                                                            MacroNames* macro_names = nullptr,
                                                            ConfigurationEvents* events = nullptr);

// Preprocesses `file` (its text replaced by `text`) with `argv` from device_parse_command() and
// returns its signature, without parsing: a few times cheaper than a parse, since most of a
// parse goes to declarations. With `preambles` (the server), the file's precompiled preamble
// for this command is used when one fits, so that only the text after the #include region is
// lexed (milliseconds); none is built here, since the arch may be parsed next (whose parse
// would wait for it): see warm_preamble. Checks `cancel` while lexing; an error when clang
// cannot start or the work was cancelled. Without a preamble, `toolkit_pchs` gives the toolkit
// headers' macros precompiled, as to a parse (toolkit_pch.h). With `macro_names`, adds the
// configuration's macro names to it; with `events`, sets it to the signature's events.
Result<ConfigurationSignature> preprocess_signature(const std::vector<std::string>& argv,
                                                    const std::filesystem::path& file, std::string_view text,
                                                    const CancellationToken* cancel = nullptr,
                                                    PreambleCache* preambles = nullptr,
                                                    ToolkitPchStore* toolkit_pchs = nullptr,
                                                    MacroNames* macro_names = nullptr,
                                                    ConfigurationEvents* events = nullptr);

// Builds, in the background, the preamble preprocess_signature would use for `argv` next time,
// unless one fits already: for an arch whose configuration another parse serves. `watched_macros`
// is what the build observes (device_parser.h); with `toolkit_pchs` the build starts from the
// toolkit PCH (toolkit_pch.h), as a parse's does.
void warm_preamble(const std::vector<std::string>& argv, const std::filesystem::path& file, std::string_view text,
                   PreambleCache& preambles, const std::vector<std::string>& watched_macros,
                   ToolkitPchStore* toolkit_pchs = nullptr);

}  // namespace kl::analyzers
