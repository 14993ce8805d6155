#pragma once
// Finds, in the device code of the user's files, every use of something the feature table says
// needs a minimum architecture that nvcc checks for this parse: calls (by qualified name and first
// argument type), inline-PTX instructions (each instruction of each asm statement, located on its
// mnemonic), and variable and parameter types (wmma fragments). Macro uses (`__cluster_dims__`)
// come from the preprocessor and are added by the caller.
//
// Which code counts follows what nvcc does (device_reachability.h):
//  - code in templates counts only through instantiations (nvcc checks nothing in a template
//    nobody instantiates), each instantiation with its own discarded `if constexpr` branches;
//  - PTX instructions count only in functions nvcc emits (kernels and what they reach), since
//    ptxas sees nothing else; a use outside a kernel names the first kernel that reaches it;
//  - calls and types count in every non-template function and instantiation, emitted or not:
//    CUDA's headers declare those features only for the archs that have them, so the front end
//    fails wherever they are written.
// One use per place and feature, however many instantiations repeat it.
#include <vector>

#include "analyzers/model/unit_facts.h"

namespace clang {
class ASTContext;
}

namespace kl::analyzers {

class FeatureTable;
class SourceView;

std::vector<FeatureUse> collect_feature_uses(clang::ASTContext& context, const SourceView& view,
                                             const FeatureTable& features);

}  // namespace kl::analyzers
