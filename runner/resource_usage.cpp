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

}  // namespace kl::runner
