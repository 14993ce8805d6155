// misaligned-access: a vector load or store (float2/float4, int4, double2, __half2,
// __nv_bfloat162, or any access through a cast to a more-aligned type) whose address is not
// provably a multiple of its width. The access model computes the address's congruence from
// the base's alignment (kernel pointer parameters: the assumed allocation alignment; __shared__
// arrays: their declared alignment) and the path's facts (`if (n % 8) return;`, template
// constants, static_assert, __builtin_assume):
//  - provably misaligned (a constant offset, one that varies with the thread index, or a
//    condition the kernel's launches in this file break): error, the kernel faults with
//    cudaErrorMisalignedAddress;
//  - aligned only under a condition on runtime values the kernel never checks: information,
//    naming it. Where such sizes come from is host code (a binding's TORCH_CHECK, a launcher
//    that pads the channels or picks the vector kernel only for divisible sizes), usually in
//    another file: judged on public extensions, 26 of 30 such warnings were guaranteed there,
//    so the condition is shown, not claimed;
//  - a base only guaranteed less than the width (a byte buffer in shared memory): information.
#include <tuple>

#include "analyzers/rules/access_place.h"
#include "analyzers/rules/rule.h"
#include "analyzers/rules/rule_input.h"
#include "analyzers/rules/worst_per_key.h"

namespace kl::analyzers {
namespace {
void check_misaligned_access(const SourceInput& input, std::vector<Finding>& out);
}  // namespace

// Error is the provable case; the others lower it (see make()).
extern const Rule kMisalignedAccessRule;  // listed in rule_catalog.cpp
const Rule kMisalignedAccessRule = {
    .id = "misaligned-access",
    .default_severity = Severity::Error,
    .summary = "a vector access through an address not provably aligned to its width",
    .guidance_page = "references/rules/misaligned-access.md",
    .source_check = &check_misaligned_access,
};

namespace {

int rank(AlignmentVerdict v) {
  switch (v) {
    case AlignmentVerdict::Misaligned: return 3;
    case AlignmentVerdict::Conditional: return 2;
    case AlignmentVerdict::BaseUnderaligned: return 1;
    default: return 0;
  }
}

std::string access_words(const MemoryAccess& a) {
  std::string space = a.space == MemorySpace::Shared ? "shared-memory " : "";
  return std::to_string(a.required_alignment) + "-byte " + space + (a.is_store ? "store" : "load") + " (`" +
         a.type_name + "`) through `" + a.base_name + "`";
}

Finding make(const MemoryAccess& a, const std::string& other_kernel) {
  Severity severity = kMisalignedAccessRule.default_severity;
  std::string w = std::to_string(a.required_alignment);
  std::string msg;
  switch (a.alignment) {
    case AlignmentVerdict::Misaligned:
      if (!a.broken_by_launch.empty()) {
        msg = "misaligned " + access_words(a) + ": it is aligned only when `" + a.alignment_condition +
              "`, and the launches in this file pass " + a.broken_by_launch +
              ", so some blocks or threads fault (cudaErrorMisalignedAddress). Take the vector path only when the "
              "condition holds (a scalar fallback otherwise), or pad the rows to a multiple of the vector.";
      } else if (a.misaligned_per_thread) {
        msg = "misaligned " + access_words(a) + ": its byte offset depends on the thread index and is not a multiple of " +
              w + " for every thread, so the kernel faults (cudaErrorMisalignedAddress). Index in units of the vector "
              "(reinterpret the base, then `v[i]`), or load scalars.";
      } else {
        msg = "misaligned " + access_words(a) + ": the address is " + std::to_string(a.misaligned_by) +
              " bytes past a multiple of " + w;
        if (!a.alignment_note.empty()) msg += " (" + a.alignment_note + ")";
        msg += ", so the kernel faults (cudaErrorMisalignedAddress). Start the vector view at an offset that is a "
               "multiple of " + w + " bytes and handle the elements before it with scalar accesses.";
      }
      break;
    case AlignmentVerdict::Conditional:
      severity = Severity::Information;
      msg = access_words(a) + " is aligned only when `" + a.alignment_condition +
            "`, and nothing on this path establishes it; otherwise the kernel faults (cudaErrorMisalignedAddress). "
            "Check it before the vector path (e.g. `if (" + a.alignment_condition.substr(0, a.alignment_condition.find(" == 0")) +
            " != 0) { /* scalar fallback */ return; }`), make the size a template constant, or state it with "
            "`__builtin_assume`.";
      if (!a.alignment_note.empty()) msg += " (" + a.alignment_note + ")";
      break;
    case AlignmentVerdict::BaseUnderaligned:
      // Information, not a warning: nvcc 13 places __shared__ arrays on 16-byte boundaries in
      // practice (measured on an H200: these accesses never faulted), so this is a promise the
      // code relies on without having it, not a fault that happens today.
      severity = Severity::Information;
      msg = access_words(a) + ", whose base is only guaranteed " + std::to_string(a.base_alignment) +
            "-byte alignment";
      if (!a.alignment_note.empty()) msg += " (" + a.alignment_note + ")";
      msg += "; it works only because the compiler happens to place the buffer on a " + w +
             "-byte boundary, which nothing promises. Declare the buffer `__align__(" + w + ")` (or `alignas(" + w +
             ")`), or declare it with the vector type.";
      break;
    default:
      break;
  }
  if (!other_kernel.empty()) msg += " (in " + other_kernel + ")";
  Finding f = kMisalignedAccessRule.finding(a.location, std::move(msg));
  f.severity = severity;
  add_call_chain(a, f);
  return f;
}

// One finding per vector access place (its full range), from its worst record across the target
// archs' parses.
void check_misaligned_access(const SourceInput& input, std::vector<Finding>& out) {
  auto worse = [](const MemoryAccess& a, const MemoryAccess& b) {
    return rank(a.alignment) > rank(b.alignment);
  };
  WorstPerKey<AccessPlace, MemoryAccess> places;
  for (const auto& target : input.targets) {
    if (!target.facts) continue;
    for (const auto& a : target.facts->accesses) {
      if (!a.vector_access || rank(a.alignment) == 0) continue;
      places.offer(place_of(a), a, worse);
    }
  }
  for (const auto& place : places.entries()) {
    const MemoryAccess* a = place.worst;
    out.push_back(make(*a, a->kernel != a->function ? a->kernel : ""));
  }
}

}  // namespace
}  // namespace kl::analyzers
