#include "lsp/server/converter_cache.h"

namespace kl::lsp {

ConverterCache::ConverterCache(PositionEncoding encoding, TextLookup lookup)
    : encoding_(encoding), lookup_(std::move(lookup)) {}

void ConverterCache::add(const std::filesystem::path& file, std::shared_ptr<const std::string> text) {
  Entry entry;
  entry.converter = std::make_unique<PositionConverter>(*text, encoding_);
  entry.text = std::move(text);
  entries_[file] = std::move(entry);
}

const PositionConverter* ConverterCache::get(const std::filesystem::path& file) {
  auto it = entries_.find(file);
  if (it != entries_.end()) return it->second.converter.get();
  std::shared_ptr<const std::string> text = lookup_ ? lookup_(file) : nullptr;
  if (!text) {
    entries_[file] = Entry{};
    return nullptr;
  }
  add(file, std::move(text));
  return entries_[file].converter.get();
}

}  // namespace kl::lsp
