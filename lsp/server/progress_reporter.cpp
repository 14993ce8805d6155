#include "lsp/server/progress_reporter.h"

namespace kl::lsp {

ProgressReporter::ProgressReporter(Dispatcher& dispatcher, bool enabled)
    : dispatcher_(dispatcher), enabled_(enabled) {}

void ProgressReporter::begin(const std::string& key, const std::string& title, const std::string& message) {
  if (!enabled_) return;
  std::string token;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (active_.count(key)) return;
    token = "kernel-lsp/" + std::to_string(next_token_++);
    active_[key] = Entry{token, false, false};
  }
  dispatcher_.call(
      "window/workDoneProgress/create", {{"token", token}},
      [this, key, token, title, message](const json* result, const RpcError*) {
        bool send_begin = false, send_end = false;
        {
          std::lock_guard<std::mutex> lock(mutex_);
          auto it = active_.find(key);
          if (it == active_.end() || it->second.token != token) return;
          if (!result) {
            active_.erase(it);
            return;
          }
          send_begin = true;
          it->second.created = true;
          if (it->second.ended) {
            send_end = true;
            active_.erase(it);
          }
        }
        if (send_begin)
          dispatcher_.notify(
              "$/progress",
              {{"token", token},
               {"value",
                {{"kind", "begin"}, {"title", title}, {"message", message}, {"cancellable", false}}}});
        if (send_end) dispatcher_.notify("$/progress", {{"token", token}, {"value", {{"kind", "end"}}}});
      });
}

void ProgressReporter::report(const std::string& key, const std::string& message, int percentage) {
  if (!enabled_) return;
  std::string token;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = active_.find(key);
    if (it == active_.end() || !it->second.created) return;
    token = it->second.token;
  }
  dispatcher_.notify("$/progress", {{"token", token},
                                    {"value", {{"kind", "report"}, {"message", message}, {"percentage", percentage}}}});
}

void ProgressReporter::end(const std::string& key, const std::string& message) {
  if (!enabled_) return;
  std::string token;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = active_.find(key);
    if (it == active_.end()) return;
    if (!it->second.created) {
      it->second.ended = true;  // the create response will close it
      return;
    }
    token = it->second.token;
    active_.erase(it);
  }
  dispatcher_.notify("$/progress", {{"token", token}, {"value", {{"kind", "end"}, {"message", message}}}});
}

}  // namespace kl::lsp
