#pragma once
// Finds, in the device code of the user's files, every use of something the feature table says
// needs a minimum architecture: calls (by qualified name and first argument type), inline-PTX
// instructions (each instruction of each asm statement, located on its mnemonic), and variable
// types (wmma fragments). Macro uses (`__cluster_dims__`) come from the preprocessor and are
// added by the caller. Branches of `if constexpr` that are discarded are not device code.
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

// Splits an inline-asm template into instructions and returns, for each, the offset of its
// mnemonic in `text` and the mnemonic with modifiers ("cp.async.ca.shared.global").
// Predicates (@p, @!p), labels, braces, directives (.reg ...) and comments are skipped.
struct PtxInstruction {
  size_t offset = 0;
  std::string mnemonic;
};
std::vector<PtxInstruction> split_ptx_instructions(std::string_view text);

}  // namespace kl::analyzers
