#include "analyzers/model/ptx_text.h"

#include <cctype>
#include <cstdlib>

#include "support/text.h"

namespace kl::analyzers {

std::vector<PtxInstruction> split_ptx_instructions(std::string_view text) {
  std::vector<PtxInstruction> out;
  size_t i = 0;
  auto skip_space = [&] {
    while (i < text.size() && (std::isspace(static_cast<unsigned char>(text[i])) || text[i] == '{' || text[i] == '}'))
      ++i;
  };
  while (i < text.size()) {
    skip_space();
    if (i >= text.size()) break;
    if (text.compare(i, 2, "//") == 0) {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (text.compare(i, 2, "/*") == 0) {
      size_t end = text.find("*/", i + 2);
      i = end == std::string_view::npos ? text.size() : end + 2;
      continue;
    }
    // Predicate guard: @p or @!p
    if (text[i] == '@') {
      while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      skip_space();
    }
    size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])) && text[i] != ';' &&
           text[i] != '{' && text[i] != '}')
      ++i;
    std::string token(text.substr(start, i - start));
    bool is_label = !token.empty() && token.back() == ':';
    bool is_directive = !token.empty() && token.front() == '.';
    bool is_operand_ref = !token.empty() && (token.front() == '%' || token.front() == '$');
    bool is_instruction = !token.empty() && !is_label && !is_directive && !is_operand_ref &&
                          std::isalpha(static_cast<unsigned char>(token.front()));
    // Rest of the statement. Braces inside it group a vector operand (`{%0, %1}`); a closing
    // brace with none open ends a `{ ... }` scope.
    size_t operands_start = i;
    if (!is_label) {
      int vector_depth = 0;
      for (; i < text.size() && text[i] != ';' && text[i] != '\n'; ++i) {
        if (text[i] == '{') ++vector_depth;
        else if (text[i] == '}' && vector_depth-- == 0) break;
      }
    }
    if (is_instruction) out.push_back({start, token, std::string(text.substr(operands_start, i - operands_start))});
    if (i < text.size() && (text[i] == ';' || text[i] == '\n')) ++i;
  }
  return out;
}

namespace {

std::vector<std::string> split_dots(const std::string& mnemonic) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= mnemonic.size()) {
    size_t dot = mnemonic.find('.', start);
    if (dot == std::string::npos) dot = mnemonic.size();
    parts.push_back(mnemonic.substr(start, dot - start));
    start = dot + 1;
  }
  return parts;
}

// Bytes of one element of a PTX type modifier (.u32, .bf16x2, .b128); 0 for anything else.
uint32_t type_bytes(const std::string& t) {
  if (t == "b8" || t == "u8" || t == "s8") return 1;
  if (t == "b16" || t == "u16" || t == "s16" || t == "f16" || t == "bf16") return 2;
  if (t == "b32" || t == "u32" || t == "s32" || t == "f32" || t == "f16x2" || t == "bf16x2") return 4;
  if (t == "b64" || t == "u64" || t == "s64" || t == "f64") return 8;
  if (t == "b128") return 16;
  return 0;
}

// The `[...]` address operands of an instruction's operand text, in order. A `[` right after
// `%` opens a named operand (`%[src]`), which may also sit inside an address: `[%[src]+8]`.
std::vector<std::string> bracketed(const std::string& operands) {
  std::vector<std::string> out;
  size_t at = 0;
  while ((at = operands.find('[', at)) != std::string::npos) {
    if (at > 0 && operands[at - 1] == '%') {
      at = operands.find(']', at);
      if (at == std::string::npos) break;
      continue;
    }
    int depth = 0;
    size_t i = at;
    for (; i < operands.size(); ++i) {
      if (operands[i] == '[') ++depth;
      else if (operands[i] == ']' && --depth == 0) break;
    }
    if (i >= operands.size()) break;
    out.push_back(operands.substr(at + 1, i - at - 1));
    at = i + 1;
  }
  return out;
}

// Operands separated by commas at the top level (outside braces and brackets).
std::vector<std::string> top_level_operands(const std::string& operands) {
  std::vector<std::string> out(1);
  int depth = 0;
  for (char c : operands) {
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') --depth;
    if (c == ',' && depth == 0) out.emplace_back();
    else out.back() += c;
  }
  return out;
}

std::string trimmed(std::string_view s) { return std::string(kl::trim(s, " \t\r\n")); }

// "%4", "%4+16", "%[src] + 8", "%%rd1" (a PTX register: no operand) into the access.
void read_address(const std::string& inside, PtxMemoryAccess& access) {
  std::string a = trimmed(inside);
  size_t i = 0;
  if (a.compare(0, 2, "%[") == 0) {
    size_t close = a.find(']');
    if (close == std::string::npos) return;
    access.operand_name = a.substr(2, close - 2);
    i = close + 1;
  } else if (a.size() >= 2 && a[0] == '%' && std::isdigit(static_cast<unsigned char>(a[1]))) {
    i = 1;
    int n = 0;
    while (i < a.size() && std::isdigit(static_cast<unsigned char>(a[i]))) n = n * 10 + (a[i++] - '0');
    access.operand = n;
  } else {
    return;
  }
  std::string rest = trimmed(a.substr(i));
  if (rest.size() > 1 && (rest[0] == '+' || rest[0] == '-')) {
    std::string digits = trimmed(rest.substr(1));
    char* end = nullptr;
    long long value = std::strtoll(digits.c_str(), &end, 0);
    if (end && *end == '\0') access.offset = rest[0] == '-' ? -value : value;
  }
}

MemorySpace space_of(const std::vector<std::string>& parts) {
  for (const auto& p : parts) {
    if (p == "global") return MemorySpace::Global;
    if (p.rfind("shared", 0) == 0) return MemorySpace::Shared;
    if (p == "local") return MemorySpace::Local;
    if (p == "const" || p == "param") return MemorySpace::Constant;
  }
  return MemorySpace::Unknown;
}

}  // namespace

std::vector<PtxMemoryAccess> ptx_memory_accesses(std::string_view text) {
  std::vector<PtxMemoryAccess> out;
  for (const PtxInstruction& instruction : split_ptx_instructions(text)) {
    std::vector<std::string> parts = split_dots(instruction.mnemonic);
    const std::string& op = parts[0];
    PtxMemoryAccess access;
    access.mnemonic = instruction.mnemonic;
    access.text_offset = instruction.offset;
    std::vector<std::string> addresses = bracketed(instruction.operands);
    if (addresses.empty()) continue;
    if (op == "cp" && parts.size() > 1 && parts[1] == "async") {
      // cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size: the global side is read.
      bool bulk = false;
      for (const auto& p : parts) bulk = bulk || p == "bulk" || p == "tensor";
      if (bulk || addresses.size() < 2) continue;
      access.kind = PtxMemoryAccess::Kind::Load;
      access.space = MemorySpace::Global;
      read_address(addresses[1], access);
      std::vector<std::string> operands = top_level_operands(instruction.operands);
      if (operands.size() >= 3) {
        std::string size = trimmed(operands[2]);
        if (size.size() >= 2 && size[0] == '%' && std::isdigit(static_cast<unsigned char>(size[1])))
          access.width_operand = std::atoi(size.c_str() + 1);
        else if (!size.empty() && std::isdigit(static_cast<unsigned char>(size[0])))
          access.width = static_cast<uint32_t>(std::strtoul(size.c_str(), nullptr, 0));
      }
      out.push_back(std::move(access));
      continue;
    }
    if (op == "ld" || op == "ldu") access.kind = PtxMemoryAccess::Kind::Load;
    else if (op == "st") access.kind = PtxMemoryAccess::Kind::Store;
    else if (op == "red" || op == "atom") access.kind = PtxMemoryAccess::Kind::Atomic;
    else continue;
    bool distributed = false;  // st.async, ld ... shared::cluster: another block's shared memory
    for (const auto& p : parts) distributed = distributed || p == "async" || p == "shared::cluster";
    if (distributed) continue;
    access.space = space_of(parts);
    uint32_t count = 1, bytes = 0;
    for (const auto& p : parts) {
      if (p == "v2") count = 2;
      else if (p == "v4") count = 4;
      else if (p == "v8") count = 8;
      else if (uint32_t b = type_bytes(p)) bytes = b;
    }
    access.width = count * bytes;
    read_address(addresses[0], access);
    out.push_back(std::move(access));
  }
  return out;
}

}  // namespace kl::analyzers
