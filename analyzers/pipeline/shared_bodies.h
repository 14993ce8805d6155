#pragma once
// A file parsed for several configurations (`#if __CUDA_ARCH__ >= 900` in a kernel) is mostly the
// same code in each: the other configurations' parses skip the bodies that cannot differ from the
// first parse's and take those bodies' facts from it. On a file whose arch tests sit in a few
// kernels, that is most of what a parse of another configuration costs (a 600-line file: 30 ms
// a parse before, 12 ms after).
//
// Which definitions of the main file (frontend/definition_index.h) can see different code in the
// two configurations, and so get their facts from this configuration's own parse ("changed"):
//  - those the signatures (frontend/configuration_signature.h) differ in: a branch or an arch
//    macro in their text. Code at namespace scope that only one configuration has (a helper in an
//    #if) counts as such a definition, named by its top-level identifiers;
//  - those that mention a changed one, when what changed may change what the mention means: a
//    type, a variable, a declaration, or a function host code can call. A change inside the body
//    of a function only device code can call reaches only the device code that mentions it (a
//    kernel that calls a differing helper: the access model follows calls into bodies), not the
//    host code that launches or names it;
//  - the kernels a changed host function mentions (their launches may be different), and the
//    device functions with an arch feature a changed device function reaches (whether nvcc emits
//    them, and from which kernel, may be different).
// A parse of the configuration keeps the bodies the changed definitions read besides their own:
// what they mention, without going into kernels; for a changed kernel, the code that mentions it
// (its launches and template arguments) and the host functions that code mentions (where buffers
// are allocated); for a changed device function with an arch feature, the device code that
// mentions it, and so on up to the kernels. Every other body is skipped.
// Mentions are by name (definition_index.h), so they over-approximate calls. Anything the
// events cannot place in the main file's definitions (a user header or the preamble that differs,
// an #include in a branch, a macro outside every declaration) leaves the configuration parsed
// whole, and so do facts the first parse anchors in a header (a kernel a header defines, which
// main-file code instantiates without the index knowing).
//
// The facts of the other configuration are then those of its own parse anchored in changed
// definitions or outside every definition, and the first parse's anchored in the others. A fact's anchor is
// where it is written; an access, barrier or hazard is anchored at the kernel it was analysed from (the first
// call of its call chain, or itself when it is in the kernel's body), so that a helper's records follow the
// kernel that reached it.
//
// KERNEL_LSP_DISABLE_SHARED_BODIES=1 parses every configuration whole (for comparing the two).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/finding.h"
#include "analyzers/frontend/configuration_signature.h"
#include "analyzers/frontend/definition_index.h"
#include "analyzers/model/unit_facts.h"

namespace kl::analyzers {

struct SharedBodies {
  std::vector<uint32_t>
      skipped;  // byte offsets of the names of the functions whose bodies are skipped, sorted
  std::vector<Range> unchanged;  // the main file's definitions whose facts are the first parse's
};

// Whether the environment turned skipping off.
bool shared_bodies_disabled();

// The first parse of a file: its index of the main file's definitions, its signature's events and
// its facts.
struct FirstParse {
  const DefinitionIndex& index;
  const ConfigurationEvents& events;
  const UnitFacts& facts;
};

// What a parse of the configuration with `other` events can skip. Empty when nothing can be; then
// with `why_not`, says why in a few words.
std::optional<SharedBodies> plan_shared_bodies(const FirstParse& first, std::string_view text,
                                               const std::string& main_file, const ConfigurationEvents& other,
                                               std::string* why_not = nullptr);

// Replaces the facts of `other` (a parse that skipped `shared`'s bodies) anchored in the unchanged
// definitions of `main_file` with `first`'s anchored there.
void carry_shared_facts(const UnitFacts& first, const SharedBodies& shared, const std::string& main_file,
                        UnitFacts& other);

}  // namespace kl::analyzers
