#include "analyzers/frontend/function_bodies.h"

#include <clang/AST/DeclBase.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace kl::analyzers {

bool FunctionBodySkipping::skip(const clang::SourceManager* sources, const clang::Decl* decl) {
  if (!sources || !decl) return false;
  clang::SourceLocation at = sources->getExpansionLoc(decl->getLocation());
  if (!sources->isInSystemHeader(at)) {
    if (!main_file_offsets_ || sources->getFileID(at) != sources->getMainFileID()) return false;
    return std::binary_search(main_file_offsets_->begin(), main_file_offsets_->end(),
                              sources->getFileOffset(at));
  }
  clang::FileID file = sources->getFileID(at);
  auto [entry, inserted] = keep_by_file_.try_emplace(file.getHashValue(), false);
  if (inserted) entry->second = is_cutlass_header(sources->getFilename(at).str());
  return !entry->second;
}

bool FunctionBodySkipping::is_cutlass_header(const std::string& path) {
  for (const char* folder : {"/cutlass/", "/cute/"}) {
    for (size_t at = path.find(folder); at != std::string::npos; at = path.find(folder, at + 1)) {
      std::string parent = path.substr(0, at);
      auto [known, inserted] = cutlass_include_dirs_.try_emplace(parent, false);
      if (inserted) {
        std::error_code ec;
        known->second = std::filesystem::is_regular_file(std::filesystem::path(parent) / "cutlass" / "cutlass.h", ec);
      }
      if (known->second) return true;
    }
  }
  return false;
}

}  // namespace kl::analyzers
