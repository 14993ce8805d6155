// Framing: Content-Length messages are read exactly, whatever the chunking, and bad frames are
// reported without losing the stream. Also the transport's read loop over a real pipe.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <thread>
#include <vector>

#include "lsp/transport/fd_stream.h"
#include "lsp/transport/frame_reader.h"
#include "lsp/transport/transport.h"

using kl::lsp::encode_frame;
using kl::lsp::FrameEvent;
using kl::lsp::FrameReader;

namespace {

std::vector<FrameEvent> drain(FrameReader& reader) {
  std::vector<FrameEvent> events;
  while (auto event = reader.next()) events.push_back(*event);
  return events;
}

std::vector<FrameEvent> feed_all(FrameReader& reader, const std::string& bytes, size_t chunk) {
  std::vector<FrameEvent> events;
  for (size_t i = 0; i < bytes.size(); i += chunk) {
    reader.feed(std::string_view(bytes).substr(i, chunk));
    for (auto& e : drain(reader)) events.push_back(e);
  }
  return events;
}

}  // namespace

TEST_CASE("a frame is read exactly, however the bytes arrive", "[framing]") {
  std::string stream = encode_frame(R"({"a":1})") + encode_frame(R"({"b":2})");
  for (size_t chunk : {size_t{1}, size_t{3}, size_t{7}, stream.size()}) {
    FrameReader reader;
    auto events = feed_all(reader, stream, chunk);
    REQUIRE(events.size() == 2);
    CHECK(events[0].kind == FrameEvent::Kind::Message);
    CHECK(events[0].payload == R"({"a":1})");
    CHECK(events[1].payload == R"({"b":2})");
    CHECK(reader.buffered_bytes() == 0);
  }
}

TEST_CASE("the reader never takes bytes past the body", "[framing]") {
  FrameReader reader;
  reader.feed("Content-Length: 3\r\n\r\nabcContent-Length: 2\r\n");
  auto events = drain(reader);
  REQUIRE(events.size() == 1);
  CHECK(events[0].payload == "abc");
  reader.feed("\r\nxy");
  events = drain(reader);
  REQUIRE(events.size() == 1);
  CHECK(events[0].payload == "xy");
}

TEST_CASE("other headers are ignored and names are case-insensitive", "[framing]") {
  FrameReader reader;
  reader.feed(
      "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length:  2 \r\nX: y\r\n\r\n{}");
  auto events = drain(reader);
  REQUIRE(events.size() == 1);
  CHECK(events[0].payload == "{}");
}

TEST_CASE("bare newlines are accepted for hand-written input", "[framing]") {
  FrameReader reader;
  reader.feed("Content-Length: 2\n\n{}");
  auto events = drain(reader);
  REQUIRE(events.size() == 1);
  CHECK(events[0].payload == "{}");
}

TEST_CASE("a header block without Content-Length is reported and the next frame still parses", "[framing]") {
  FrameReader reader;
  reader.feed("Content-Type: x\r\n\r\n" + encode_frame("{}"));
  auto events = drain(reader);
  REQUIRE(events.size() == 2);
  CHECK(events[0].kind == FrameEvent::Kind::Error);
  CHECK(events[1].kind == FrameEvent::Kind::Message);
  CHECK(events[1].payload == "{}");
}

TEST_CASE("a header block without Content-Length loses only itself and its body", "[framing]") {
  // A misspelt header: the body that follows has no known length. The reader must find the
  // next frame's header after it, even though that header starts mid-line (right after "{}").
  std::string stream = "Content-Lenght: 2\r\n\r\n{}" + encode_frame(R"({"a":1})") + encode_frame("{}");
  for (size_t chunk : {size_t{1}, size_t{2}, size_t{5}, size_t{13}, stream.size()}) {
    FrameReader reader;
    auto events = feed_all(reader, stream, chunk);
    REQUIRE(events.size() == 3);
    CHECK(events[0].kind == FrameEvent::Kind::Error);
    CHECK(events[1].kind == FrameEvent::Kind::Message);
    CHECK(events[1].payload == R"({"a":1})");
    CHECK(events[2].payload == "{}");
    CHECK(reader.buffered_bytes() == 0);
  }
}

TEST_CASE("resynchronising waits for the next header when it comes in a later read", "[framing]") {
  FrameReader reader;
  reader.feed("X-Junk: 1\r\n\r\nsome body");
  auto events = drain(reader);
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == FrameEvent::Kind::Error);
  reader.feed("more body Content-Le");  // the header's first bytes must be kept
  CHECK(drain(reader).empty());
  CHECK(reader.buffered_bytes() <= 13);  // nothing of the dropped body is held back
  reader.feed("ngth: 2\r\n\r\nok");
  events = drain(reader);
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == FrameEvent::Kind::Message);
  CHECK(events[0].payload == "ok");
}

TEST_CASE("a Content-Length inside a dropped body does not start a header block", "[framing]") {
  FrameReader reader;
  reader.feed("X: y\r\n\r\n{\"text\":\"Content-Length: 5\"}" + encode_frame("ok"));
  auto events = drain(reader);
  REQUIRE(events.size() == 2);
  CHECK(events[0].kind == FrameEvent::Kind::Error);
  CHECK(events[1].payload == "ok");
}

TEST_CASE("a length that is not a number is an error", "[framing]") {
  FrameReader reader;
  reader.feed("Content-Length: -5\r\n\r\n" + encode_frame("[]"));
  auto events = drain(reader);
  REQUIRE(events.size() == 2);
  CHECK(events[0].kind == FrameEvent::Kind::Error);
  CHECK(events[1].payload == "[]");
}

TEST_CASE("an oversized message is skipped without being buffered", "[framing]") {
  std::string big(1000, 'x');
  std::string stream = encode_frame(big) + encode_frame("ok");
  for (size_t chunk : {size_t{1}, size_t{10}, size_t{100}, stream.size()}) {
    FrameReader reader(/*max_body_bytes=*/16);
    auto events = feed_all(reader, stream, chunk);
    REQUIRE(events.size() == 2);
    CHECK(events[0].kind == FrameEvent::Kind::Oversized);
    CHECK(events[0].body_bytes == 1000);
    CHECK(events[1].kind == FrameEvent::Kind::Message);
    CHECK(events[1].payload == "ok");
  }
}

TEST_CASE("an oversized message keeps only its first bytes, for its id", "[framing]") {
  std::string head = R"({"jsonrpc":"2.0","id":7,"method":"x","params":")";
  std::string body = head + std::string(3 * FrameReader::kOversizedPrefixBytes, 'p') + "\"}";
  std::string stream = encode_frame(body) + encode_frame("ok");
  for (size_t chunk : {size_t{1}, size_t{7}, size_t{1000}, stream.size()}) {
    FrameReader reader(/*max_body_bytes=*/64);
    std::vector<FrameEvent> events;
    size_t most_buffered = 0;
    for (size_t i = 0; i < stream.size(); i += chunk) {
      reader.feed(std::string_view(stream).substr(i, chunk));
      for (auto& e : drain(reader)) events.push_back(e);
      most_buffered = std::max(most_buffered, reader.buffered_bytes());
    }
    REQUIRE(events.size() == 2);
    CHECK(events[0].kind == FrameEvent::Kind::Oversized);
    CHECK(events[0].body_bytes == body.size());
    CHECK(events[0].payload == body.substr(0, FrameReader::kOversizedPrefixBytes));
    CHECK(events[1].payload == "ok");
    CHECK(most_buffered < 32);  // the body streamed past; only the prefix was copied
  }
}

TEST_CASE("the oversized event comes as soon as its prefix is in", "[framing]") {
  FrameReader reader(/*max_body_bytes=*/16);
  reader.feed("Content-Length: 100000\r\n\r\n" + std::string(FrameReader::kOversizedPrefixBytes - 1, 'a'));
  CHECK(drain(reader).empty());
  reader.feed("bc");
  auto events = drain(reader);
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == FrameEvent::Kind::Oversized);
  CHECK(events[0].payload.size() == FrameReader::kOversizedPrefixBytes);
  CHECK(events[0].payload.back() == 'b');
}

TEST_CASE("an endless header is dropped at the limit", "[framing]") {
  FrameReader reader;
  std::string junk(FrameReader::kMaxHeaderBytes + 10, 'h');
  reader.feed(junk);
  auto events = drain(reader);
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == FrameEvent::Kind::Error);
  reader.feed("\r\n\r\n" + encode_frame("{}"));
  events = drain(reader);
  REQUIRE(events.size() == 1);  // the rest of the endless block is dropped without more errors
  CHECK(events[0].payload == "{}");
}

TEST_CASE("an empty body is a message", "[framing]") {
  FrameReader reader;
  reader.feed("Content-Length: 0\r\n\r\n");
  auto events = drain(reader);
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == FrameEvent::Kind::Message);
  CHECK(events[0].payload.empty());
}

namespace {

class Recorder final : public kl::lsp::IncomingSink {
 public:
  void on_message(std::string body) override { messages.push_back(std::move(body)); }
  void on_framing_error(const std::string& d) override { errors.push_back(d); }
  void on_oversized_message(size_t body_bytes, size_t limit, const std::string& prefix) override {
    oversized.push_back(std::to_string(body_bytes) + "/" + std::to_string(limit) + ":" + prefix);
  }
  bool should_stop() const override { return stop_after && messages.size() >= stop_after; }
  std::vector<std::string> messages, errors, oversized;
  size_t stop_after = 0;
};

}  // namespace

TEST_CASE("the transport reads frames from a pipe and writes whole frames", "[transport]") {
  int in[2], out[2];
  REQUIRE(pipe(in) == 0);
  REQUIRE(pipe(out) == 0);
  kl::lsp::Transport transport(std::make_unique<kl::lsp::FdStream>(in[0], out[1], true));
  std::string input = encode_frame("one") + "garbage\r\n\r\n" + encode_frame("two");
  std::thread writer([&] {
    for (char c : input) REQUIRE(write(in[1], &c, 1) == 1);  // byte by byte: worst case
    close(in[1]);
  });
  Recorder recorder;
  auto reason = transport.run(recorder);
  writer.join();
  CHECK(reason == kl::lsp::Transport::EndReason::EndOfStream);
  CHECK(recorder.messages == std::vector<std::string>{"one", "two"});
  CHECK(recorder.errors.size() == 1);

  REQUIRE(transport.send("{\"x\":1}"));
  char buffer[64] = {};
  ssize_t n = read(out[0], buffer, sizeof buffer);
  CHECK(std::string(buffer, n) == encode_frame("{\"x\":1}"));
  close(out[0]);
}

TEST_CASE("the transport hands an oversized message's size, limit and first bytes to the sink",
          "[transport]") {
  int in[2], out[2];
  REQUIRE(pipe(in) == 0);
  REQUIRE(pipe(out) == 0);
  kl::lsp::Transport transport(std::make_unique<kl::lsp::FdStream>(in[0], out[1], true),
                               /*max_body_bytes=*/8);
  std::string input = encode_frame(R"({"id":12})") + encode_frame("ok");
  std::thread writer([&] {
    REQUIRE(write(in[1], input.data(), input.size()) == static_cast<ssize_t>(input.size()));
    close(in[1]);
  });
  Recorder recorder;
  transport.run(recorder);
  writer.join();
  CHECK(recorder.oversized == std::vector<std::string>{R"(9/8:{"id":12})"});
  CHECK(recorder.messages == std::vector<std::string>{"ok"});
  CHECK(recorder.errors.empty());
  close(out[0]);
}

TEST_CASE("close() wakes a blocked read", "[transport]") {
  int in[2], out[2];
  REQUIRE(pipe(in) == 0);
  REQUIRE(pipe(out) == 0);
  kl::lsp::Transport transport(std::make_unique<kl::lsp::FdStream>(in[0], out[1], true));
  Recorder recorder;
  std::thread closer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    transport.close();
  });
  auto reason = transport.run(recorder);
  closer.join();
  CHECK(reason == kl::lsp::Transport::EndReason::EndOfStream);
  close(in[1]);
  close(out[0]);
}

TEST_CASE("concurrent senders never interleave frames", "[transport]") {
  int in[2], out[2];
  REQUIRE(pipe(in) == 0);
  REQUIRE(pipe(out) == 0);
  auto transport =
      std::make_unique<kl::lsp::Transport>(std::make_unique<kl::lsp::FdStream>(in[0], out[1], true));
  std::string received;
  std::thread reader([&] {
    char buffer[4096];
    ssize_t n;
    while ((n = read(out[0], buffer, sizeof buffer)) > 0) received.append(buffer, n);
  });
  std::vector<std::thread> senders;
  for (int t = 0; t < 4; ++t)
    senders.emplace_back([&, t] {
      std::string body(5000 + t, static_cast<char>('a' + t));
      for (int i = 0; i < 50; ++i) transport->send(body);
    });
  for (auto& s : senders) s.join();
  transport.reset();  // closes the write end: the reader sees the end of the stream
  reader.join();
  FrameReader parser;
  parser.feed(received);
  int count = 0;
  while (auto event = parser.next()) {
    REQUIRE(event->kind == FrameEvent::Kind::Message);
    CHECK(event->payload.find_first_not_of(event->payload[0]) == std::string::npos);
    ++count;
  }
  CHECK(count == 200);
  close(in[1]);
  close(out[0]);
}
