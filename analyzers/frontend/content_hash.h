#pragma once
// A fingerprint of bytes (file contents, cache keys): 128-bit XXH3, LLVM's implementation, as
// 32 lowercase hex digits. Fast (several GB/s) and not cryptographic: it tells contents apart,
// it does not resist someone crafting a collision. Here so that folders without LLVM (cli/)
// can use it: LLVM's headers stay in analyzers/frontend and analyzers/model.
#include <string>
#include <string_view>

namespace kl::analyzers {

std::string content_hash(std::string_view bytes);

}  // namespace kl::analyzers
