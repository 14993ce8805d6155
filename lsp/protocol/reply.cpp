#include "lsp/protocol/reply.h"

#include <spdlog/spdlog.h>

#include "lsp/protocol/message_sink.h"
#include "lsp/protocol/request_table.h"

namespace kl::lsp {
namespace detail {

ReplyState::ReplyState(json id_value, std::string method_name, MessageSink& out,
                       std::shared_ptr<RequestTable> requests)
    : id(std::move(id_value)), method(std::move(method_name)), sink(out), table(std::move(requests)) {}

ReplyState::~ReplyState() {
  if (answered.load()) return;
  spdlog::error("{} (id {}) was dropped without a reply", method, id.dump());
  answered.store(true);
  table->remove(id);
  sink.send(serialize(make_error_response(
      id, RpcError{ErrorCode::InternalError, "the server dropped this request without a reply"})));
}

bool ReplyState::answer(const json& message) {
  if (answered.exchange(true)) {
    spdlog::debug("{} (id {}) already answered; later reply dropped", method, id.dump());
    return false;
  }
  table->remove(id);
  auto elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started);
  spdlog::debug("--> reply {} (id {}) after {:.1f} ms{}", method, id.dump(), elapsed.count(),
                message.contains("error") ? " [error]" : "");
  sink.send(serialize(message));
  return true;
}

}  // namespace detail

Reply::Reply(std::shared_ptr<detail::ReplyState> state) : state_(std::move(state)) {}

void Reply::result(json value) const { state_->answer(make_response(state_->id, std::move(value))); }

void Reply::error(RpcError error) const { state_->answer(make_error_response(state_->id, error)); }

bool Reply::answered() const { return state_->answered.load(); }
bool Reply::is_cancelled() const { return state_->cancel->is_cancelled(); }
const CancellationHandle& Reply::cancellation() const { return state_->cancel; }
const json& Reply::id() const { return state_->id; }
const std::string& Reply::method() const { return state_->method; }

void RequestTable::add(const json& id, const std::shared_ptr<detail::ReplyState>& state) {
  std::lock_guard<std::mutex> lock(mutex_);
  pending_[key(id)] = state;
}

void RequestTable::remove(const json& id) {
  std::lock_guard<std::mutex> lock(mutex_);
  pending_.erase(key(id));
}

std::shared_ptr<detail::ReplyState> RequestTable::find(const json& id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = pending_.find(key(id));
  return it == pending_.end() ? nullptr : it->second.lock();
}

std::vector<std::shared_ptr<detail::ReplyState>> RequestTable::all() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::shared_ptr<detail::ReplyState>> states;
  for (const auto& [key, weak] : pending_)
    if (auto state = weak.lock()) states.push_back(std::move(state));
  return states;
}

size_t RequestTable::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pending_.size();
}

}  // namespace kl::lsp
