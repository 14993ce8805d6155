#include "lsp/transport/frame_reader.h"

#include <algorithm>
#include <cctype>

namespace kl::lsp {
namespace {

bool equals_ignore_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
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

}  // namespace

FrameReader::FrameReader(size_t max_body_bytes) : max_body_bytes_(max_body_bytes) {}

void FrameReader::feed(std::string_view bytes) {
  // Discard straight from the input only when nothing older is still buffered; otherwise the
  // skipped region would not be contiguous.
  if (state_ == State::Skipping && consumed_ == buffer_.size()) {
    size_t n = std::min(skip_bytes_, bytes.size());
    skip_bytes_ -= n;
    bytes.remove_prefix(n);
    if (skip_bytes_ == 0) state_ = State::Headers;
  }
  buffer_.append(bytes);
}

std::optional<FrameEvent> FrameReader::next() {
  for (;;) {
    if (state_ == State::Skipping) {
      // The oversized body may already be (partly) buffered.
      size_t n = std::min(skip_bytes_, buffer_.size() - consumed_);
      consumed_ += n;
      skip_bytes_ -= n;
      if (skip_bytes_ > 0) {
        compact();
        return std::nullopt;
      }
      state_ = State::Headers;
    }
    if (state_ == State::Headers) {
      std::optional<FrameEvent> event = parse_headers();
      if (event) return event;
      if (state_ == State::Headers) {  // no complete header block yet
        compact();
        return std::nullopt;
      }
      continue;
    }
    // State::Body
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
      consumed_ = buffer_.size();
      scan_from_ = 0;
      return FrameEvent{FrameEvent::Kind::Error, "header block longer than " +
                                                     std::to_string(kMaxHeaderBytes) +
                                                     " bytes without an empty line; dropped"};
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
    if (!equals_ignore_case(trim(line.substr(0, colon)), "Content-Length")) continue;
    length = parse_length(trim(line.substr(colon + 1)));
    bad_length = !length.has_value();
  }
  consumed_ += block_end;
  scan_from_ = 0;
  if (bad_length || !length) {
    return FrameEvent{FrameEvent::Kind::Error, bad_length ? "Content-Length is not a number; header dropped"
                                                          : "header block without Content-Length; dropped"};
  }
  if (*length > max_body_bytes_) {
    state_ = State::Skipping;
    skip_bytes_ = *length;
    return FrameEvent{FrameEvent::Kind::Error, "message of " + std::to_string(*length) +
                                                   " bytes exceeds the limit of " +
                                                   std::to_string(max_body_bytes_) + " bytes; skipped"};
  }
  state_ = State::Body;
  body_bytes_ = *length;
  return std::nullopt;
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
