#pragma once
// Runs every collector of the model layer over one parse and fills UnitFacts. The single place
// that knows which collectors exist; analysis.cpp calls it from inside the parse.
#include "analyzers/model/unit_facts.h"

namespace clang {
class ASTContext;
}

namespace kl::analyzers {

class FeatureTable;
class SourceView;
struct ParseOutcome;

void build_unit_facts(clang::ASTContext& context, const SourceView& view, const FeatureTable& features,
                      const ModelOptions& options, UnitFacts& facts);

// Feature uses only the preprocessor or clang's errors reveal: watched macros
// (`__cluster_dims__`) and calls to functions the headers do not declare for this arch
// ("use of undeclared identifier '__reduce_add_sync'").
void add_preprocessor_facts(const ParseOutcome& outcome, const FeatureTable& features, UnitFacts& facts);

}  // namespace kl::analyzers
