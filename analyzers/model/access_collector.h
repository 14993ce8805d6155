#pragma once
// The access model's entry point: every load and store through a pointer in the user's device
// code (kernels, the __device__ helpers they call, each template instantiation), with its
// coalescing estimate and alignment verdict. See access_interpreter.h for how values are
// followed, access_warp.h for the sector estimate, alignment_congruence.h for alignment.
//
// Launches in the same file refine what a kernel assumes: a block shape every launch agrees on
// (`dim3(16, 16)`), and what every launch passes (`in + 1`, `hidden` after `if (hidden % 8)`).
#include <vector>

#include "analyzers/model/unit_facts.h"

namespace clang {
class ASTContext;
}

namespace kl::analyzers {

class SourceView;

// Fills facts.accesses, facts.barriers and facts.shared_hazards.
void collect_memory_accesses(clang::ASTContext& context, const SourceView& view, const ModelOptions& options,
                             UnitFacts& facts);

}  // namespace kl::analyzers
