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
//  - every range the preprocessor skipped (an inactive #if branch), by file and offsets;
//  - every expansion of a macro defined outside user files (`__CUDA_ARCH__`, CUDA's and
//    libcu++'s macros, nested expansions included), by place, name and the definition's
//    tokens: `int v = __CUDA_ARCH__;` differs per arch although no branch does. Expansions in
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

// Preprocessor callbacks that add this parse's events to `signature` (which must outlive the
// preprocessor). Missing headers are skipped, as the parse skips them.
std::unique_ptr<clang::PPCallbacks> make_signature_recorder(const clang::Preprocessor& preprocessor,
                                                            ConfigurationSignature& signature);

// Preprocesses `file` (its text replaced by `text`) with `argv` from device_parse_command() and
// returns its signature, without parsing: a few times cheaper than a parse, since most of a
// parse goes to declarations. With `preambles` (the server), the file's precompiled preamble
// for this command is used when one fits, so that only the text after the #include region is
// lexed (milliseconds); none is built here, since the arch may be parsed next (whose parse
// would wait for it): see warm_preamble. Checks `cancel` while lexing; an error when clang
// cannot start or the work was cancelled. Without a preamble, `toolkit_pchs` gives the toolkit
// headers' macros precompiled, as to a parse (toolkit_pch.h).
Result<ConfigurationSignature> preprocess_signature(const std::vector<std::string>& argv,
                                                    const std::filesystem::path& file, std::string_view text,
                                                    const CancellationToken* cancel = nullptr,
                                                    PreambleCache* preambles = nullptr,
                                                    ToolkitPchStore* toolkit_pchs = nullptr);

// Builds, in the background, the preamble preprocess_signature would use for `argv` next time,
// unless one fits already: for an arch whose configuration another parse serves. `watched_macros`
// is what the build observes (device_parser.h).
void warm_preamble(const std::vector<std::string>& argv, const std::filesystem::path& file, std::string_view text,
                   PreambleCache& preambles, const std::vector<std::string>& watched_macros);

}  // namespace kl::analyzers
