#include "lsp/transport/frame_reader.h"

#include <algorithm>
#include <cctype>

#include "support/text.h"

namespace kl::lsp {
namespace {

constexpr std::string_view kLengthHeader = "content-length";  // lower case, for the comparisons

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool equals_ignore_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && kl::starts_with_ignoring_case(a, b);
}

// A header's name or value without the blanks before it, and without the blanks and the line's
// closing \r after it.
std::string_view trim(std::string_view s) {
  s.remove_prefix(std::min(s.find_first_not_of(" \t"), s.size()));
  return s.substr(0, s.find_last_not_of(" \t\r") + 1);
}

// Digits only, no sign, no overflow; anything else is not a length.
std::optional<size_t> parse_length(std::string_view text) {
  if (text.empty() || text.size() > 19) return std::nullopt;
  size_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<size_t>(c - '0');
  }
  return value;
}

// Where `name` (lower case) next occurs in `text`, in any case.
size_t find_ignore_case(std::string_view text, std::string_view name, size_t from) {
  auto it = std::search(text.begin() + static_cast<std::ptrdiff_t>(from), text.end(), name.begin(),
                        name.end(), [](char t, char n) { return lower(t) == n; });
  return it == text.end() ? std::string_view::npos : static_cast<size_t>(it - text.begin());
}

// How many bytes at the end of `text` could begin `name`: kept for the next read, so that a
// header split across reads is still found.
size_t partial_match_at_end(std::string_view text, std::string_view name) {
  for (size_t keep = std::min(text.size(), name.size() - 1); keep > 0; --keep)
    if (equals_ignore_case(text.substr(text.size() - keep), name.substr(0, keep))) return keep;
  return 0;
}

enum class LengthLine { Valid, Invalid, Incomplete };

// Whether `text`, which starts with "Content-Length" in some case, is a whole
// `Content-Length: <digits>` line. Resynchronising only at such a line keeps a "Content-Length"
// that appears inside a dropped body (a JSON string, say) from starting a bogus header block.
LengthLine classify_length_line(std::string_view text) {
  // Name, padding, 19 digits and the line end fit easily; longer is not a header we wrote.
  constexpr size_t kLongestLine = 64;
  size_t i = kLengthHeader.size();
  auto blanks = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  };
  auto ran_out = [&] { return text.size() < kLongestLine ? LengthLine::Incomplete : LengthLine::Invalid; };
  blanks();
  if (i == text.size()) return ran_out();
  if (text[i++] != ':') return LengthLine::Invalid;
  blanks();
  size_t digits_start = i;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
  if (i == text.size()) return ran_out();
  if (i == digits_start || i - digits_start > 19) return LengthLine::Invalid;
  blanks();
  if (i < text.size() && text[i] == '\r') ++i;
  if (i == text.size()) return ran_out();
  return text[i] == '\n' ? LengthLine::Valid : LengthLine::Invalid;
}

}  // namespace

FrameReader::FrameReader(size_t max_body_bytes) : max_body_bytes_(max_body_bytes) {}

void FrameReader::feed(std::string_view bytes) {
  // Discard straight from the input only when nothing older is still buffered; otherwise the
  // skipped region would not be contiguous.
  if (state_ == State::Skipping && consumed_ == buffer_.size()) bytes.remove_prefix(skip(bytes));
  buffer_.append(bytes);
}

std::optional<FrameEvent> FrameReader::next() {
  for (;;) {
    switch (state_) {
      case State::Resync:
        if (!resync()) {
          compact();
          return std::nullopt;
        }
        state_ = State::Headers;
        scan_from_ = 0;
        continue;
      case State::Skipping: {
        // The oversized body may already be (partly) buffered.
        consumed_ += skip(std::string_view(buffer_).substr(consumed_));
        if (oversized_ &&
            oversized_->payload.size() == std::min(kOversizedPrefixBytes, oversized_->body_bytes)) {
          FrameEvent event = std::move(*oversized_);
          oversized_.reset();
          compact();
          return event;
        }
        if (skip_bytes_ > 0) {
          compact();
          return std::nullopt;
        }
        state_ = State::Headers;
        scan_from_ = 0;
        continue;
      }
      case State::Headers: {
        std::optional<FrameEvent> event = parse_headers();
        if (event) return event;
        if (state_ == State::Headers) {  // no complete header block yet
          compact();
          return std::nullopt;
        }
        continue;
      }
      case State::Body: {
        if (buffer_.size() - consumed_ < body_bytes_) {
          compact();
          return std::nullopt;
        }
        FrameEvent event{FrameEvent::Kind::Message, buffer_.substr(consumed_, body_bytes_)};
        consumed_ += body_bytes_;
        state_ = State::Headers;
        scan_from_ = 0;
        compact();
        return event;
      }
    }
  }
}

std::optional<FrameEvent> FrameReader::parse_headers() {
  std::string_view pending(buffer_.data() + consumed_, buffer_.size() - consumed_);
  // Find the end of the header block: an empty line.
  size_t block_end = std::string_view::npos;  // offset just past the empty line
  size_t pos = scan_from_;
  while (pos < pending.size()) {
    size_t newline = pending.find('\n', pos);
    if (newline == std::string_view::npos) break;
    std::string_view line = pending.substr(pos, newline - pos);
    if (line.empty() || line == "\r") {
      block_end = newline + 1;
      break;
    }
    pos = newline + 1;
  }
  if (block_end == std::string_view::npos) {
    scan_from_ = pos;
    if (pending.size() > kMaxHeaderBytes) {
      // Step past the first byte only: a real header may start anywhere after it.
      return drop_header_block(
          1, "header block longer than " + std::to_string(kMaxHeaderBytes) +
                 " bytes without an empty line; dropped up to the next Content-Length header");
    }
    return std::nullopt;
  }

  std::optional<size_t> length;
  bool bad_length = false;
  std::string_view headers = pending.substr(0, block_end);
  size_t line_start = 0;
  while (line_start < headers.size()) {
    size_t newline = headers.find('\n', line_start);
    std::string_view line = headers.substr(line_start, newline - line_start);
    line_start = newline + 1;
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;  // not a header; ignore
    if (!equals_ignore_case(trim(line.substr(0, colon)), kLengthHeader)) continue;
    length = parse_length(trim(line.substr(colon + 1)));
    bad_length = !length.has_value();
  }
  if (bad_length || !length) {
    return drop_header_block(block_end, bad_length ? "Content-Length is not a number; header dropped up to "
                                                     "the next Content-Length header"
                                                   : "header block without Content-Length; dropped up to "
                                                     "the next Content-Length header");
  }
  consumed_ += block_end;
  scan_from_ = 0;
  if (*length > max_body_bytes_) {
    state_ = State::Skipping;
    skip_bytes_ = *length;
    oversized_ = FrameEvent{FrameEvent::Kind::Oversized, std::string(), *length};
    oversized_->payload.reserve(std::min(kOversizedPrefixBytes, *length));
    return std::nullopt;
  }
  state_ = State::Body;
  body_bytes_ = *length;
  return std::nullopt;
}

FrameEvent FrameReader::drop_header_block(size_t block_bytes, std::string description) {
  // A body may follow, but its length is unknown: what comes next is not a header block until
  // resync() finds one.
  consumed_ += block_bytes;
  scan_from_ = 0;
  state_ = State::Resync;
  return FrameEvent{FrameEvent::Kind::Error, std::move(description)};
}

bool FrameReader::resync() {
  std::string_view pending(buffer_.data() + consumed_, buffer_.size() - consumed_);
  size_t from = 0;
  for (;;) {
    size_t hit = find_ignore_case(pending, kLengthHeader, from);
    if (hit == std::string_view::npos) {
      consumed_ += pending.size() - partial_match_at_end(pending, kLengthHeader);
      return false;
    }
    switch (classify_length_line(pending.substr(hit))) {
      case LengthLine::Valid:
        consumed_ += hit;
        return true;
      case LengthLine::Incomplete:  // decide when the rest of the line has arrived
        consumed_ += hit;
        return false;
      case LengthLine::Invalid:
        from = hit + 1;
        break;
    }
  }
}

size_t FrameReader::skip(std::string_view bytes) {
  size_t n = std::min(skip_bytes_, bytes.size());
  if (oversized_) {
    size_t wanted = std::min(kOversizedPrefixBytes, oversized_->body_bytes) - oversized_->payload.size();
    oversized_->payload.append(bytes.substr(0, std::min(wanted, n)));
  }
  skip_bytes_ -= n;
  return n;
}

void FrameReader::compact() {
  // Amortised: move the unparsed tail to the front only when the parsed prefix dominates.
  if (consumed_ == buffer_.size()) {
    buffer_.clear();
    consumed_ = 0;
  } else if (consumed_ > 4096 && consumed_ * 2 > buffer_.size()) {
    buffer_.erase(0, consumed_);
    consumed_ = 0;
  }
}

std::string encode_frame(std::string_view body) {
  std::string frame = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  frame.append(body);
  return frame;
}

}  // namespace kl::lsp
