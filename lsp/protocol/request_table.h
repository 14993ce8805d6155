#pragma once
// The client's requests that have not been answered yet, by id, so that $/cancelRequest can
// find them. Entries are weak: the Reply handles own the state. Thread-safe.
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "lsp/protocol/json_rpc.h"

namespace kl::lsp {

namespace detail {
struct ReplyState;
}

class RequestTable {
 public:
  void add(const json& id, const std::shared_ptr<detail::ReplyState>& state);
  void remove(const json& id);
  std::shared_ptr<detail::ReplyState> find(const json& id) const;
  std::vector<std::shared_ptr<detail::ReplyState>> all() const;
  size_t size() const;

 private:
  // Ids are integers or strings; 1 and "1" are different ids, which the dump keeps apart.
  static std::string key(const json& id) { return id.dump(); }

  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::weak_ptr<detail::ReplyState>> pending_;
};

}  // namespace kl::lsp
