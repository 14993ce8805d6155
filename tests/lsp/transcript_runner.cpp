// Replays a transcript (tests/lsp/transcripts/*.test) against the real server binary over
// stdio: messages in, expected messages out. The format, one directive per line (a JSON value
// may continue on the following lines until the next directive):
//
//   # comment
//   --> {json}              send one framed message (sent as written even when not valid JSON)
//   --> raw <text>          send bytes as written; \r \n \t \\ escapes; no framing added
//   --> huge <n> [<text>]   send a frame announcing n bytes: <text> (escapes as for raw), then
//                           'x' up to n bytes
//   <-- {pattern}           wait for a server message matching the pattern; messages that do
//                           not match stay queued for later expectations
//   !write <path> <text>    write a file under ${ROOT} (escapes as for raw)
//   !timeout <seconds>      per-expectation timeout (default 30)
//   !close                  close the server's stdin
//   !exit <code>            wait for the server to exit with this code
//   !quiet <method>...      fail at the end if an unread message has a method not listed
//
// Patterns are JSON compared exactly, except for these marks:
//   "{{any}}"               any value (the key must be present)
//   "{{absent}}"            the key must be missing
//   "{{regex:RE}}"          a string that RE matches (ECMAScript, search)
//   "{{capture:NAME}}"      any value, remembered; ${NAME} in later lines is its JSON
//   "{{more}}": <any>       as a key: the object may have other keys
//   "{{more}}"              as the last array element: the array may continue
//   "{{unordered}}"         as the first array element: the rest match in any order
//
// Variables: ${ROOT} is a fresh copy of the fixtures folder, ${ROOT_URI} its file:// URI.
// The server's stderr (its log) is printed when the transcript fails.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "lsp/transport/frame_reader.h"

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string unescape(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 == text.size()) {
      out.push_back(text[i]);
      continue;
    }
    char c = text[++i];
    out.push_back(c == 'r' ? '\r' : c == 'n' ? '\n' : c == 't' ? '\t' : c);
  }
  return out;
}

std::string percent_encode_path(const std::string& path) {
  static const char* hex = "0123456789ABCDEF";
  std::string out = "file://";
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

class Server {
 public:
  Server(const std::vector<std::string>& argv, const fs::path& log_path, const fs::path& cwd) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) throw Failure("pipe failed");
    int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      dup2(log, 2);
      close(in[1]);
      close(out[0]);
      if (chdir(cwd.c_str()) != 0) _exit(126);
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    close(log);
    to_server_ = in[1];
    from_server_ = out[0];
    fcntl(to_server_, F_SETFL, O_NONBLOCK);
    fcntl(from_server_, F_SETFL, O_NONBLOCK);
  }
  ~Server() {
    if (pid_ > 0 && !exit_code_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (to_server_ >= 0) close(to_server_);
    close(from_server_);
  }

  // Writes everything while still draining the server's output (no pipe deadlock).
  void send(const std::string& bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
      if (to_server_ < 0) throw Failure("stdin already closed");
      pollfd fds[2] = {{to_server_, POLLOUT, 0}, {from_server_, POLLIN, 0}};
      if (poll(fds, 2, 1000) < 0 && errno != EINTR) throw Failure("poll failed");
      if (fds[1].revents & (POLLIN | POLLHUP)) pump();
      if (fds[0].revents & POLLOUT) {
        ssize_t n = write(to_server_, bytes.data() + done, bytes.size() - done);
        if (n > 0)
          done += static_cast<size_t>(n);
        else if (n < 0 && errno != EAGAIN && errno != EINTR)
          throw Failure("the server closed its stdin");
      } else if (fds[0].revents & (POLLERR | POLLHUP)) {
        throw Failure("the server closed its stdin");
      }
    }
  }
  void close_stdin() {
    if (to_server_ >= 0) close(to_server_);
    to_server_ = -1;
  }

  // Reads what is available (waiting up to `wait`); false at end of stream.
  bool pump(std::chrono::milliseconds wait = std::chrono::milliseconds(0)) {
    if (eof_) return false;
    pollfd fd{from_server_, POLLIN, 0};
    if (poll(&fd, 1, static_cast<int>(wait.count())) <= 0) return true;
    char buffer[65536];
    for (;;) {
      ssize_t n = read(from_server_, buffer, sizeof buffer);
      if (n > 0) {
        reader_.feed(std::string_view(buffer, static_cast<size_t>(n)));
        continue;
      }
      if (n == 0) eof_ = true;
      break;
    }
    while (auto event = reader_.next()) {
      if (event->kind != kl::lsp::FrameEvent::Kind::Message)
        throw Failure("the server wrote a bad frame: " + event->payload);
      json message = json::parse(event->payload, nullptr, false);
      if (message.is_discarded()) throw Failure("the server wrote invalid JSON: " + event->payload);
      queue.push_back(std::move(message));
    }
    return !eof_;
  }

  std::optional<int> wait_exit(std::chrono::milliseconds timeout) {
    auto deadline = Clock::now() + timeout;
    while (Clock::now() < deadline) {
      pump(std::chrono::milliseconds(20));
      int status;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        return exit_code_;
      }
    }
    return std::nullopt;
  }
  bool exited() const { return exit_code_.has_value(); }

  std::deque<json> queue;

 private:
  pid_t pid_ = -1;
  int to_server_ = -1, from_server_ = -1;
  bool eof_ = false;
  std::optional<int> exit_code_;
  kl::lsp::FrameReader reader_;
};

class Matcher {
 public:
  std::map<std::string, json> captures;

  bool match(const json& pattern, const json& actual, std::string& why, const std::string& at = "$") {
    if (pattern.is_string()) {
      const std::string& p = pattern.get_ref<const std::string&>();
      if (p == "{{any}}") return true;
      if (p.rfind("{{capture:", 0) == 0 && p.size() > 12) {
        captures[p.substr(10, p.size() - 12)] = actual;
        return true;
      }
      if (p.rfind("{{regex:", 0) == 0 && p.size() > 10) {
        if (actual.is_string() &&
            std::regex_search(actual.get<std::string>(), std::regex(p.substr(8, p.size() - 10))))
          return true;
        why = at + ": " + actual.dump() + " does not match " + p;
        return false;
      }
    }
    if (pattern.is_object()) {
      if (!actual.is_object()) return fail(why, at, pattern, actual);
      bool more = pattern.contains("{{more}}");
      for (const auto& [key, value] : pattern.items()) {
        if (key == "{{more}}") continue;
        bool absent = value.is_string() && value == "{{absent}}";
        if (!actual.contains(key)) {
          if (absent) continue;
          why = at + "." + key + " is missing";
          return false;
        }
        if (absent) {
          why = at + "." + key + " should be absent but is " + actual[key].dump();
          return false;
        }
        if (!match(value, actual[key], why, at + "." + key)) return false;
      }
      if (!more)
        for (const auto& [key, value] : actual.items())
          if (!pattern.contains(key)) {
            why = at + "." + key + " is not expected (add \"{{more}}\": 0 to allow it): " + value.dump();
            return false;
          }
      return true;
    }
    if (pattern.is_array()) {
      if (!actual.is_array()) return fail(why, at, pattern, actual);
      std::vector<json> items(pattern.begin(), pattern.end());
      bool unordered = !items.empty() && items.front() == "{{unordered}}";
      if (unordered) items.erase(items.begin());
      bool more = !items.empty() && items.back() == "{{more}}";
      if (more) items.pop_back();
      if (more ? actual.size() < items.size() : actual.size() != items.size()) {
        why = at + ": expected " + std::to_string(items.size()) + (more ? "+" : "") + " elements, got " +
              std::to_string(actual.size()) + ": " + actual.dump();
        return false;
      }
      if (!unordered) {
        for (size_t i = 0; i < items.size(); ++i)
          if (!match(items[i], actual[i], why, at + "[" + std::to_string(i) + "]")) return false;
        return true;
      }
      std::vector<bool> used(actual.size(), false);
      for (size_t i = 0; i < items.size(); ++i) {
        bool found = false;
        for (size_t j = 0; j < actual.size() && !found; ++j) {
          std::string ignored;
          if (!used[j] && match(items[i], actual[j], ignored, at)) used[j] = found = true;
        }
        if (!found) {
          why = at + ": no element matches " + items[i].dump();
          return false;
        }
      }
      return true;
    }
    if (pattern == actual) return true;
    return fail(why, at, pattern, actual);
  }

 private:
  static bool fail(std::string& why, const std::string& at, const json& pattern, const json& actual) {
    why = at + ": expected " + pattern.dump() + ", got " + actual.dump();
    return false;
  }
};

struct Directive {
  int line = 0;
  std::string kind;  // "-->", "<--", "!..."
  std::string body;
};

std::vector<Directive> parse_transcript(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw Failure("cannot read " + path.string());
  std::vector<Directive> out;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.rfind("-->", 0) == 0 || line.rfind("<--", 0) == 0) {
      out.push_back({number, line.substr(0, 3), line.substr(3)});
    } else if (line.rfind("!", 0) == 0) {
      size_t space = line.find(' ');
      out.push_back(
          {number, line.substr(0, space), space == std::string::npos ? "" : line.substr(space + 1)});
    } else if (line.empty() || line[0] == '#') {
      continue;
    } else if (!out.empty() && (out.back().kind == "-->" || out.back().kind == "<--")) {
      out.back().body += "\n" + line;  // continuation of a JSON value
    } else {
      throw Failure(path.string() + ":" + std::to_string(number) + ": not a directive: " + line);
    }
  }
  return out;
}

std::string substitute(std::string text, const std::map<std::string, std::string>& variables,
                       const std::map<std::string, json>& captures) {
  for (size_t at = text.find("${"); at != std::string::npos; at = text.find("${", at)) {
    size_t end = text.find('}', at);
    if (end == std::string::npos) break;
    std::string name = text.substr(at + 2, end - at - 2);
    std::string value;
    if (auto v = variables.find(name); v != variables.end())
      value = v->second;
    else if (auto c = captures.find(name); c != captures.end())
      value = c->second.dump();
    else
      throw Failure("unknown variable ${" + name + "}");
    text.replace(at, end - at + 1, value);
    at += value.size();
  }
  return text;
}

std::string describe_queue(const std::deque<json>& queue) {
  std::string out;
  for (const auto& m : queue) out += "    " + m.dump().substr(0, 600) + "\n";
  return out.empty() ? "    (nothing)\n" : out;
}

int run(const std::vector<std::string>& server_argv, const fs::path& fixtures, const fs::path& transcript) {
  fs::path root = fs::temp_directory_path() /
                  ("kl-transcript-" + transcript.stem().string() + "-" + std::to_string(getpid()));
  fs::remove_all(root);
  fs::create_directories(root);
  if (fs::exists(fixtures)) fs::copy(fixtures, root, fs::copy_options::recursive);
  fs::path log = root.string() + ".log";
  std::map<std::string, std::string> variables = {{"ROOT", root.string()},
                                                  {"ROOT_URI", percent_encode_path(root.string())}};
  Matcher matcher;
  std::set<std::string> quiet_methods;
  bool check_unread = false;
  auto timeout = std::chrono::seconds(30);
  int failed_line = 0;
  try {
    std::vector<Directive> directives = parse_transcript(transcript);
    Server server(server_argv, log, root);
    for (const Directive& d : directives) {
      failed_line = d.line;
      std::string body = substitute(d.body, variables, matcher.captures);
      if (d.kind == "-->") {
        std::string_view text = body;
        while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
        if (text.rfind("raw ", 0) == 0) {
          server.send(unescape(text.substr(4)));
        } else if (text.rfind("huge ", 0) == 0) {
          std::string_view rest = text.substr(5);
          size_t space = rest.find(' ');
          size_t n = std::stoull(std::string(rest.substr(0, space)));
          std::string head =
              space == std::string_view::npos ? std::string() : unescape(rest.substr(space + 1));
          if (head.size() > n) throw Failure("huge: the text is longer than the frame");
          server.send("Content-Length: " + std::to_string(n) + "\r\n\r\n" + head);
          std::string chunk(1 << 20, 'x');
          for (size_t sent = head.size(); sent < n; sent += chunk.size())
            server.send(chunk.substr(0, std::min(chunk.size(), n - sent)));
        } else {
          json parsed = json::parse(text, nullptr, false);
          server.send(kl::lsp::encode_frame(parsed.is_discarded() ? std::string(text) : parsed.dump()));
        }
      } else if (d.kind == "<--") {
        json pattern = json::parse(body, nullptr, false);
        if (pattern.is_discarded()) throw Failure("the expectation is not valid JSON");
        auto deadline = Clock::now() + timeout;
        std::string closest;
        bool alive = true;
        for (;;) {
          bool matched = false;
          for (auto it = server.queue.begin(); it != server.queue.end(); ++it) {
            Matcher attempt = matcher;
            std::string why;
            if (attempt.match(pattern, *it, why)) {
              matcher = attempt;
              server.queue.erase(it);
              matched = true;
              break;
            }
            if (closest.empty() || why.size() < closest.size()) closest = why;
          }
          if (matched) break;
          if (!alive || Clock::now() >= deadline) {
            throw Failure("no message matched " + pattern.dump() +
                          "\n  closest mismatch: " + (closest.empty() ? "(no messages)" : closest) +
                          "\n  unread messages:\n" + describe_queue(server.queue));
          }
          alive = server.pump(std::chrono::milliseconds(50));
        }
      } else if (d.kind == "!timeout") {
        timeout = std::chrono::seconds(std::stoi(body));
      } else if (d.kind == "!write") {
        size_t space = body.find(' ');
        fs::path target = root / body.substr(0, space);
        fs::create_directories(target.parent_path());
        std::ofstream(target, std::ios::binary)
            << unescape(space == std::string::npos ? "" : body.substr(space + 1));
      } else if (d.kind == "!close") {
        server.close_stdin();
      } else if (d.kind == "!exit") {
        int expected = std::stoi(body);
        auto code = server.wait_exit(std::chrono::seconds(15));
        if (!code) throw Failure("the server did not exit");
        if (*code != expected)
          throw Failure("the server exited with " + std::to_string(*code) + ", expected " +
                        std::to_string(expected));
      } else if (d.kind == "!quiet") {
        check_unread = true;
        std::istringstream words(body);
        for (std::string w; words >> w;) quiet_methods.insert(w);
      } else {
        throw Failure("unknown directive " + d.kind);
      }
    }
    failed_line = 0;
    if (!server.exited())
      throw Failure("the transcript ended but the server is still running (end with exit)");
    if (check_unread) {
      for (const auto& m : server.queue)
        if (!m.contains("method") || !quiet_methods.count(m["method"].get<std::string>()))
          throw Failure("unread message from the server: " + m.dump().substr(0, 600));
    }
  } catch (const std::exception& e) {
    std::cerr << transcript.string() << (failed_line ? ":" + std::to_string(failed_line) : "")
              << ": FAILED\n  " << e.what() << "\n--- server log (" << log.string() << ") ---\n";
    std::ifstream in(log);
    std::deque<std::string> tail;
    for (std::string line; std::getline(in, line);) {
      tail.push_back(line);
      if (tail.size() > 60) tail.pop_front();
    }
    for (const auto& line : tail) std::cerr << line << "\n";
    return 1;
  }
  fs::remove_all(root);
  fs::remove(log);
  std::cout << transcript.filename().string() << ": passed\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  signal(SIGPIPE, SIG_IGN);
  std::vector<std::string> server;
  fs::path fixtures;
  std::vector<fs::path> transcripts;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--server-arg" && i + 1 < argc)
      server.push_back(argv[++i]);
    else if (arg == "--server" && i + 1 < argc)
      server.insert(server.begin(), argv[++i]);
    else if (arg == "--fixtures" && i + 1 < argc)
      fixtures = argv[++i];
    else
      transcripts.push_back(arg);
  }
  if (server.empty() || transcripts.empty()) {
    std::cerr << "usage: kernel-lsp-transcript --server BINARY [--server-arg ARG]... "
                 "[--fixtures DIR] TRANSCRIPT...\n";
    return 2;
  }
  int failures = 0;
  for (const auto& t : transcripts) failures += run(server, fixtures, t);
  return failures == 0 ? 0 : 1;
}
