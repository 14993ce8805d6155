#pragma once
// Position converters for every file one reply touches: the analysed document (its analysed
// text) and others (a build.toml a note points at, a header a fix edits), read through
// `lookup` (the editor's copy if open, else disk) at most once. One cache per reply; not
// thread-safe.
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "lsp/server/position_encoding.h"

namespace kl::lsp {

class ConverterCache {
 public:
  using TextLookup = std::function<std::shared_ptr<const std::string>(const std::filesystem::path&)>;

  ConverterCache(PositionEncoding encoding, TextLookup lookup);
  // Pins `file` to `text` (the version the findings were computed on).
  void add(const std::filesystem::path& file, std::shared_ptr<const std::string> text);
  // Null when the file cannot be read.
  const PositionConverter* get(const std::filesystem::path& file);

 private:
  struct Entry {
    std::shared_ptr<const std::string> text;
    std::unique_ptr<PositionConverter> converter;
  };
  PositionEncoding encoding_;
  TextLookup lookup_;
  std::map<std::filesystem::path, Entry> entries_;
};

}  // namespace kl::lsp
