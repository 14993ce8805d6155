#pragma once
// The documents the editor has open: text, version, kind. The editor's copy is the truth for
// an open file, including an open build.toml (its unsaved text is what dependents are
// analysed against).
//
// Thread-safe (one mutex); the I/O thread writes, workers read texts. Texts are immutable
// shared strings, so a snapshot handed to a worker never changes under it. Cost: lookups are
// O(log open documents); no text is copied.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "lsp/workspace/document_kind.h"

namespace kl::lsp {

struct Document {
  std::filesystem::path path;  // absolute, lexically normal
  std::string language_id;
  int64_t version = 0;
  std::shared_ptr<const std::string> text;
  DocumentKind kind = DocumentKind::Other;
};

class DocumentStore {
 public:
  void open(Document document);
  // False when the document is not open.
  bool update(const std::filesystem::path& path, int64_t version, std::shared_ptr<const std::string> text);
  bool close(const std::filesystem::path& path);
  std::optional<Document> get(const std::filesystem::path& path) const;
  std::shared_ptr<const std::string> text(const std::filesystem::path& path) const;
  std::vector<Document> all() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::filesystem::path, Document> documents_;
};

}  // namespace kl::lsp
