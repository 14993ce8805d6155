#pragma once
// How much of a file's kernels the access model covered, one small record per kernel: what
// `kernel-lsp lint --format json` sums in its summary and `kernel-lsp check` lists. Computed in
// the process that holds the facts (the analysis worker), because the access records it is made
// from are too heavy to cross the isolation wire; the records made here cross it instead.
//
// What counts, precisely:
// - A kernel is one kernel as written: one per `KernelInfo` of the facts (a template is one
//   kernel, whatever number of instantiations the model analysed).
// - A global access is one load or store expression in the source, in global memory, that the
//   model recorded while walking the kernel (also inside device functions it calls). The many
//   records of one expression (per instantiation, per call site of a helper, per loop pass)
//   are one access; a load and a store at one place (`a[i] += x`) are two; an atomic counts as
//   a store. An access in a helper called from two kernels counts in each kernel. Accesses the
//   model never traced to global memory (a pointer of unknown origin) are not recorded, so they
//   are not counted either.
// - An access is unjudged when no record of it says how its addresses spread over a warp's
//   lanes: each is LanePattern::Unknown (the model lost track: it could not size the access or
//   simulate the address), or LanePattern::DataDependent without a `gather_index` (the address
//   varies per lane through something the model does not follow: `out[(t * 7) ^ 5]`, an index
//   returned by a function it cannot see into). A gather through an index it names
//   (`in[idx[i]]`: DataDependent with its gather_index) is judged, and so are Estimated,
//   Uniform and SingleLane.
// - Shared accesses are counted the same way, in shared memory. One is unjudged when no record
//   knows its lanes' addresses relative to each other: as for global ones, and also a runtime
//   stride (`s[t * ld]`) or a gather (`s[idx[t]]`), whose banks and races depend on values the
//   model does not have.
#include <cstdint>
#include <string>
#include <vector>

#include "analyzers/finding.h"
#include "analyzers/model/unit_facts.h"

namespace kl::analyzers {

struct KernelCoverage {
  std::string name;            // KernelInfo::qualified_name: `ns::scale`, templates by pattern name
  Location location;           // the kernel's name in its declaration; empty when no KernelInfo matched
  uint32_t global_loads = 0;   // distinct global load expressions
  uint32_t global_stores = 0;  // distinct global store expressions (atomics included)
  uint32_t unjudged = 0;       // of those loads and stores, the ones no record judged
  uint32_t shared_accesses = 0;  // distinct shared load and store expressions
  uint32_t shared_unjudged = 0;  // of those, the ones no record judged
  bool has_code = true;        // KernelInfo::has_code: false when this configuration compiles nothing for it

  uint32_t global_accesses() const { return global_loads + global_stores; }
  friend bool operator==(const KernelCoverage&, const KernelCoverage&) = default;
};

// One record per kernel of `facts.kernels`, in their order, then (rarely) one per kernel name
// that only the access records know, by the name with its template arguments dropped. Records
// are matched to a kernel by name and, when several kernels share it (overloads, namespaces),
// by the kernel body that contains the access or its first call site.
std::vector<KernelCoverage> coverage_of(const UnitFacts& facts);

}  // namespace kl::analyzers
