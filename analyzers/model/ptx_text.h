#pragma once
// Reading the text of inline PTX (`asm("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];" : ...)`): its
// instructions, and which of them read or write memory through an address operand. Pure text
// functions; the callers map operand numbers to the asm statement's expressions.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/model/access_record.h"

namespace kl::analyzers {

// One instruction of an inline-asm template: the offset of its mnemonic in the text, the
// mnemonic with its modifiers ("cp.async.ca.shared.global") and the operand text up to `;`.
// Predicates (@p, @!p), labels, braces, directives (.reg ...) and comments are skipped.
struct PtxInstruction {
  size_t offset = 0;
  std::string mnemonic;
  std::string operands;
};
std::vector<PtxInstruction> split_ptx_instructions(std::string_view text);

// A per-thread memory access of one instruction: `ld`, `ldu`, `st`, `red`, `atom` and the
// non-bulk `cp.async` (its global source). Bulk and tensor copies (TMA) are not listed: one
// thread moves a whole tile through a descriptor, which has no per-lane address pattern.
struct PtxMemoryAccess {
  enum class Kind : uint8_t { Load, Store, Atomic };
  Kind kind = Kind::Load;
  MemorySpace space = MemorySpace::Unknown;  // the state space written (.global ...); Unknown: generic
  int operand = -1;          // asm operand number of the address (`[%4]`); -1: a PTX register or a name
  std::string operand_name;  // `[%[src]]`: the named operand
  int64_t offset = 0;        // `[%4+16]`
  uint32_t width = 0;        // bytes per thread; 0 when not written in the mnemonic
  int width_operand = -1;    // cp.async's copy size given as an operand (`%2`, an "n" constant)
  std::string mnemonic;
  size_t text_offset = 0;    // of the mnemonic in the template
};
std::vector<PtxMemoryAccess> ptx_memory_accesses(std::string_view text);

}  // namespace kl::analyzers
