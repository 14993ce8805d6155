#include "lsp/server/text_sync.h"

#include <limits>
#include <tuple>

#include "lsp/protocol/params.h"

namespace kl::lsp {
namespace {

struct RawPosition {
  uint32_t line = 0;
  uint32_t character = 0;
};

// One coordinate of a range end as the client sent it, before any clamping. LSP's `uinteger`:
// a negative or fractional value is a client bug, not something to round.
uint32_t coordinate(const json& position, const char* end_name, const char* field) {
  const json& value = required_field(position, field);
  std::string what = std::string("the range's ") + end_name + " " + field;
  if (value.is_number_integer()) {  // signed or unsigned in nlohmann's terms
    if (!value.is_number_unsigned() && value.get<int64_t>() < 0)
      throw_invalid_params(what + " is negative (" + value.dump() + ")");
    if (value.get<uint64_t>() <= std::numeric_limits<uint32_t>::max())
      return static_cast<uint32_t>(value.get<uint64_t>());
  }
  throw_invalid_params(what + " is not a uinteger (" + value.dump() + ")");
}

RawPosition raw_position(const json& range, const char* end_name) {
  const json& position = required_field(range, end_name);
  return {coordinate(position, end_name, "line"), coordinate(position, end_name, "character")};
}

std::string describe(RawPosition p) { return std::to_string(p.line) + ":" + std::to_string(p.character); }

bool replaces_whole_text(const json& change) {
  return change.is_object() && !optional_field(change, "range");
}

}  // namespace

void apply_content_change(std::string& text, const json& change, PositionEncoding encoding) {
  std::string new_text = string_field(change, "text");
  const json* range = optional_field(change, "range");
  if (!range) {
    text = std::move(new_text);
    return;
  }
  // Compared as sent: clamping first could turn an inverted range into an empty one and the
  // edit into an insertion the editor never made.
  RawPosition start = raw_position(*range, "start");
  RawPosition end = raw_position(*range, "end");
  if (std::tie(end.line, end.character) < std::tie(start.line, start.character))
    throw_invalid_params("the range ends (" + describe(end) + ") before it starts (" + describe(start) + ")");
  size_t begin_offset, end_offset;
  {
    PositionConverter converter(text, encoding);
    analyzers::Range r = converter.range_from_lsp(*range);
    begin_offset = converter.offset_of(r.start);
    end_offset = converter.offset_of(r.end);
  }
  text.replace(begin_offset, end_offset - begin_offset, new_text);
}

void apply_content_changes(std::string& text, const json& changes, PositionEncoding encoding) {
  if (!changes.is_array()) throw_invalid_params("contentChanges must be an array");
  for (const auto& change : changes) apply_content_change(text, change, encoding);
}

SyncOutcome TextSync::apply(const std::filesystem::path& file, std::string_view text, const json& changes,
                            PositionEncoding encoding) {
  bool was_in_sync = in_sync(file);
  auto refuse = [&](std::string problem) {
    set_in_sync(file, false);
    return SyncOutcome{
        was_in_sync ? SyncOutcome::Kind::Lost : SyncOutcome::Kind::StillLost, {}, std::move(problem)};
  };
  if (!changes.is_array()) return refuse("contentChanges is not an array");
  // Whatever came before the last whole-text change is replaced by it, so it cannot matter.
  size_t first = 0;
  bool whole_text = false;
  for (size_t i = 0; i < changes.size(); ++i)
    if (replaces_whole_text(changes[i])) {
      first = i;
      whole_text = true;
    }
  if (!was_in_sync && !whole_text) return SyncOutcome{SyncOutcome::Kind::StillLost, {}, {}};

  std::string result(whole_text ? std::string_view() : text);
  for (size_t i = first; i < changes.size(); ++i) {
    try {
      apply_content_change(result, changes[i], encoding);
    } catch (const std::exception& e) {  // RpcException, or a JSON type error
      std::string which = changes.size() > 1 ? "change " + std::to_string(i + 1) + " of " +
                                                   std::to_string(changes.size()) + ": "
                                             : std::string();
      return refuse(which + e.what());
    }
  }
  set_in_sync(file, true);
  return SyncOutcome{SyncOutcome::Kind::Applied, std::move(result), {}};
}

void TextSync::reset(const std::filesystem::path& file) { set_in_sync(file, true); }

bool TextSync::in_sync(const std::filesystem::path& file) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return out_of_sync_.count(file) == 0;
}

void TextSync::set_in_sync(const std::filesystem::path& file, bool in_sync) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (in_sync)
    out_of_sync_.erase(file);
  else
    out_of_sync_.insert(file);
}

}  // namespace kl::lsp
