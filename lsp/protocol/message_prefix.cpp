#include "lsp/protocol/message_prefix.h"

namespace kl::lsp {
namespace {

// Records the top-level members it cares about. A value becomes known only when the parser
// reads past it (the next event): a prefix that ends inside `"id":12` must not yield 12, and
// the lexer reports the number before it sees that the input ended.
class PrefixScanner final : public nlohmann::json_sax<json> {
 public:
  explicit PrefixScanner(MessagePrefix& out) : out_(out) {}

  bool null() override { return value(json(nullptr)); }
  bool boolean(bool v) override { return value(json(v)); }
  bool number_integer(number_integer_t v) override { return value(json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return value(json(v)); }
  bool number_float(number_float_t v, const string_t&) override { return value(json(v)); }
  bool string(string_t& v) override { return value(json(v)); }
  bool binary(binary_t&) override { return value(json(nullptr)); }
  bool start_object(std::size_t) override {
    commit();
    ++depth_;
    return true;
  }
  bool end_object() override {
    commit();
    --depth_;
    return true;
  }
  bool start_array(std::size_t) override {
    commit();
    ++depth_;
    return depth_ > 1;  // a batch (top-level array) is not a message we can answer
  }
  bool end_array() override {
    commit();
    --depth_;
    return true;
  }
  bool key(string_t& k) override {
    commit();
    if (depth_ == 1) {
      key_ = k;
      if (k == "result" || k == "error") out_.is_response = true;
    }
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;  // the prefix ended (or was not JSON): keep what was committed
  }

 private:
  bool value(json v) {
    commit();
    if (depth_ == 1 && (key_ == "id" || key_ == "method")) {
      pending_key_ = key_;
      pending_ = std::move(v);
    }
    key_.clear();
    return true;
  }
  void commit() {
    if (!pending_) return;
    if (pending_key_ == "id" && (pending_->is_number_integer() || pending_->is_string())) out_.id = *pending_;
    if (pending_key_ == "method" && pending_->is_string()) out_.method = pending_->get<std::string>();
    pending_.reset();
  }

  MessagePrefix& out_;
  int depth_ = 0;
  std::string key_;  // the top-level key whose value comes next
  std::string pending_key_;
  std::optional<json> pending_;
};

}  // namespace

MessagePrefix scan_message_prefix(std::string_view prefix) {
  MessagePrefix out;
  PrefixScanner scanner(out);
  json::sax_parse(prefix.begin(), prefix.end(), &scanner);  // false where the prefix ends early
  return out;
}

}  // namespace kl::lsp
