#include "lsp/workspace/document_store.h"

namespace kl::lsp {

void DocumentStore::open(Document document) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::filesystem::path key = document.path;
  documents_[key] = std::move(document);
}

bool DocumentStore::update(const std::filesystem::path& path, int64_t version,
                           std::shared_ptr<const std::string> text) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = documents_.find(path);
  if (it == documents_.end()) return false;
  it->second.version = version;
  it->second.text = std::move(text);
  return true;
}

bool DocumentStore::close(const std::filesystem::path& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  return documents_.erase(path) > 0;
}

std::optional<Document> DocumentStore::get(const std::filesystem::path& path) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = documents_.find(path);
  if (it == documents_.end()) return std::nullopt;
  return it->second;
}

std::shared_ptr<const std::string> DocumentStore::text(const std::filesystem::path& path) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = documents_.find(path);
  return it == documents_.end() ? nullptr : it->second.text;
}

std::vector<Document> DocumentStore::all() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Document> out;
  out.reserve(documents_.size());
  for (const auto& [path, document] : documents_) out.push_back(document);
  return out;
}

}  // namespace kl::lsp
