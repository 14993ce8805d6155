#pragma once
// Whether a `__shared__` array's rows can be padded by one element, and where its row size is
// written: the bank-conflict rule's `[32][33]` fix. Padding changes every flat offset past the
// first row, so it is offered only for a static array of two or more dimensions that its function
// reads and writes through full subscripts alone (no `&tile[0][0]`, no `tile[r]` handed on as a
// pointer, no cast to a flat view).
#include <optional>

#include "analyzers/model/access_record.h"

namespace clang {
class ASTContext;
class VarDecl;
}  // namespace clang

namespace kl::analyzers {

class SourceView;

std::optional<SharedRow> shared_row_of(const clang::VarDecl& var, clang::ASTContext& ctx, const SourceView& view);

}  // namespace kl::analyzers
