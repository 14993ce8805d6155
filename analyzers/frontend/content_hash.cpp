#include "analyzers/frontend/content_hash.h"

#include <llvm/Support/xxhash.h>

#include <cstdio>

namespace kl::analyzers {

std::string content_hash(std::string_view bytes) {
  llvm::XXH128_hash_t hash = llvm::xxh3_128bits(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
  char hex[33];
  std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(hash.high64),
                static_cast<unsigned long long>(hash.low64));
  return std::string(hex, 32);
}

}  // namespace kl::analyzers
