#include "support/file_kinds.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include "support/text.h"

namespace kl {

std::string lowercase_extension(const std::filesystem::path& file) {
  return ascii_lower(file.extension().string());
}

SourceKind source_kind(const std::filesystem::path& file) {
  static constexpr std::array<std::pair<std::string_view, SourceKind>, 11> kKinds = {{
      {".cu", SourceKind::Cuda},        {".cuh", SourceKind::Cuda},       {".h", SourceKind::CxxHeader},
      {".hh", SourceKind::CxxHeader},   {".hpp", SourceKind::CxxHeader},  {".hxx", SourceKind::CxxHeader},
      {".inl", SourceKind::CxxHeader},  {".cpp", SourceKind::CxxSource},  {".cc", SourceKind::CxxSource},
      {".cxx", SourceKind::CxxSource},  {".c", SourceKind::CSource},
  }};
  const std::string ext = lowercase_extension(file);
  for (const auto& [name, kind] : kKinds)
    if (ext == name) return kind;
  return SourceKind::None;
}

}  // namespace kl
