#include "runner/resource_usage.h"

#include <regex>
#include <sstream>

namespace kl::runner {

std::vector<KernelResources> parse_ptxas_report(const std::string& text) {
  static const std::regex entry(R"(Compiling entry function '([^']+)' for '(sm_\w+)')");
  static const std::regex frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(Used (\d+) registers)");
  static const std::regex barriers(R"(used (\d+) barriers)");
  static const std::regex smem(R"((\d+) bytes smem)");
  std::vector<KernelResources> out;
  std::istringstream lines(text);
  std::string line;
  std::smatch m;
  while (std::getline(lines, line)) {
    if (std::regex_search(line, m, entry)) {
      KernelResources k;
      k.mangled_name = m[1];
      k.name = m[1];
      k.target = m[2];
      out.push_back(k);
      continue;
    }
    if (out.empty()) continue;
    KernelResources& k = out.back();
    if (std::regex_search(line, m, frame)) {
      k.stack_frame_bytes = static_cast<uint32_t>(std::stoul(m[1]));
      k.spill_store_bytes = static_cast<uint32_t>(std::stoul(m[2]));
      k.spill_load_bytes = static_cast<uint32_t>(std::stoul(m[3]));
    }
    if (std::regex_search(line, m, used)) {
      k.registers = static_cast<uint32_t>(std::stoul(m[1]));
      if (std::regex_search(line, m, barriers)) k.barriers = static_cast<uint32_t>(std::stoul(m[1]));
      if (std::regex_search(line, m, smem)) k.shared_bytes = static_cast<uint32_t>(std::stoul(m[1]));
    }
  }
  return out;
}

namespace {

// The offset of the '(' that opens the parameter list: the last top-level '(' (return types
// and template arguments may hold parentheses of their own, e.g. function pointer types).
size_t parameter_list_start(std::string_view name) {
  int angle = 0, paren = 0;
  size_t last = std::string_view::npos;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '<') ++angle;
    else if (c == '>' && angle > 0) --angle;
    else if (c == '(') {
      if (angle == 0 && paren == 0) last = i;
      ++paren;
    } else if (c == ')' && paren > 0) --paren;
  }
  return last;
}

}  // namespace

std::string kernel_base_name(std::string_view demangled) {
  std::string_view name = demangled;
  if (size_t paren = parameter_list_start(name); paren != std::string_view::npos) name = name.substr(0, paren);
  // Template arguments of the kernel itself: the trailing <...> at depth 0.
  while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
  if (!name.empty() && name.back() == '>') {
    int depth = 0;
    for (size_t i = name.size(); i-- > 0;) {
      if (name[i] == '>') ++depth;
      else if (name[i] == '<' && --depth == 0) {
        name = name.substr(0, i);
        break;
      }
    }
  }
  // The last component after a return type ("void ") and scopes ("ns::", "(anonymous namespace)::").
  size_t start = 0;
  for (size_t i = 0; i < name.size(); ++i)
    if (name[i] == ' ' || (name[i] == ':' && i + 1 < name.size() && name[i + 1] == ':')) start = i + (name[i] == ' ' ? 1 : 2);
  return std::string(name.substr(start));
}

}  // namespace kl::runner
