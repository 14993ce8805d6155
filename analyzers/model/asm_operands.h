#pragma once
// The C++ expressions behind the operands of an inline-asm statement that ptx_text.h reads:
// GCC numbers the outputs first, then the inputs, and `%[name]` names one of them. Shared by the
// interpreter (access_instructions.cpp) and the library summaries (library_accesses.cpp).
#include "analyzers/model/ptx_text.h"

namespace clang {
class Expr;
class GCCAsmStmt;
}  // namespace clang

namespace kl::analyzers {

// Operand `n` (%n) of `statement`, or null when it has none.
const clang::Expr* asm_operand(const clang::GCCAsmStmt& statement, int n);
// The number of the operand that holds `access`'s address (-1: none, e.g. a PTX register).
int address_operand_number(const clang::GCCAsmStmt& statement, const PtxMemoryAccess& access);

// The pointer an address operand was made from, under casts between pointers and integers and
// CUDA's address-space conversion: `"l"(reinterpret_cast<uint64_t>(p))`,
// `"l"(__cvta_generic_to_global(p))` are `p`.
const clang::Expr* pointer_under_casts(const clang::Expr* e);

}  // namespace kl::analyzers
