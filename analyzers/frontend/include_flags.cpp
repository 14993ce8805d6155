#include "analyzers/frontend/include_flags.h"

namespace kl::analyzers {

std::vector<std::string> include_dirs_in(const std::vector<std::string>& flags) {
  static const std::vector<std::string> kPrefixes = {"-isystem", "-idirafter", "-iquote", "-I",
                                                     "--include-directory="};
  std::vector<std::string> dirs;
  for (size_t i = 0; i < flags.size(); ++i) {
    for (const auto& prefix : kPrefixes) {
      if (flags[i].rfind(prefix, 0) != 0) continue;
      std::string dir = flags[i].substr(prefix.size());
      if (dir.empty() && i + 1 < flags.size()) dir = flags[i + 1];
      if (!dir.empty()) dirs.push_back(std::move(dir));
      break;
    }
  }
  return dirs;
}

}  // namespace kl::analyzers
