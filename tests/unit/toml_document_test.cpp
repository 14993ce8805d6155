// support/toml_document: TOML text with located syntax errors, and the built-in tables (embedded
// text, the override variable, and the loud stop when a built-in table is broken).
#include "support/toml_document.h"

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

constexpr const char* kVariable = "KERNEL_LSP_TOML_DOCUMENT_TEST_TOML";

const kl::BuiltinTable kTable{"answer = 42\n", "test.toml", kVariable, "test table"};

kl::Result<int> parse_answer(std::string_view text, const std::string& name) {
  auto document = kl::parse_toml_document(text, name);
  if (!document) return document.error();
  auto answer = (*document)["answer"].value<int64_t>();
  if (!answer) return kl::make_error(name + ": no answer");
  return static_cast<int>(*answer);
}

// Runs `body` in a child process; its exit status, and what it wrote to stderr.
std::pair<int, std::string> in_child(void (*body)()) {
  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::dup2(pipe_fds[1], STDERR_FILENO);
    std::signal(SIGABRT, SIG_DFL);  // Catch2's handler would report the abort as this test's failure
    body();
    std::_Exit(0);
  }
  ::close(pipe_fds[1]);
  std::string err;
  char buffer[256];
  for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0;) err.append(buffer, n);
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return {status, err};
}

}  // namespace

TEST_CASE("a TOML document parses into its table") {
  auto document = kl::parse_toml_document("[general]\nname = \"x\"\n", "t.toml");
  REQUIRE(document);
  CHECK((*document)["general"]["name"].value<std::string>() == "x");
}

TEST_CASE("a syntax error is toml++'s description at toml++'s position, 0-based") {
  auto broken = kl::parse_toml_document("a = 1\n[[arch]\n", "t.toml");
  REQUIRE_FALSE(broken);
  std::string description;
  try {
    (void)toml::parse(std::string_view("a = 1\n[[arch]\n"), std::string_view("t.toml"));
  } catch (const toml::parse_error& e) {
    description = std::string(e.description());
  }
  CHECK(broken.error().message == description);
  REQUIRE(broken.error().location);
  CHECK(broken.error().location->file == "t.toml");
  CHECK(broken.error().location->line == 1);

  // The column counts code points as toml++ does: `é` is one column (two bytes).
  auto unicode = kl::parse_toml_document("b = \"\xC3\xA9\" x\n", "u.toml");
  REQUIRE_FALSE(unicode);
  REQUIRE(unicode.error().location);
  CHECK(unicode.error().location->line == 0);
  CHECK(unicode.error().location->column == 8);
  CHECK(unicode.error().describe().rfind("u.toml:1:9: ", 0) == 0);
}

TEST_CASE("a built-in table is the embedded text unless the variable names a readable file") {
  ::unsetenv(kVariable);
  kl::BuiltinTableText embedded = kl::builtin_table_text(kTable);
  CHECK(embedded.text == "answer = 42\n");
  CHECK(embedded.name == "test.toml");

  ::setenv(kVariable, "", 1);
  CHECK(kl::builtin_table_text(kTable).name == "test.toml");
  ::setenv(kVariable, "/nonexistent/kernel-lsp/test.toml", 1);  // unreadable: passed over
  CHECK(kl::builtin_table_text(kTable).name == "test.toml");

  const fs::path file = fs::temp_directory_path() / ("kl_toml_document_" + std::to_string(::getpid()) + ".toml");
  std::ofstream(file) << "answer = 7\n";
  ::setenv(kVariable, file.c_str(), 1);
  kl::BuiltinTableText replaced = kl::builtin_table_text(kTable);
  CHECK(replaced.text == "answer = 7\n");
  CHECK(replaced.name == file.string());
  CHECK(kl::load_builtin_table<int>(kTable, parse_answer) == 7);
  ::unsetenv(kVariable);
  fs::remove(file);
  CHECK(kl::load_builtin_table<int>(kTable, parse_answer) == 42);
}

TEST_CASE("a broken built-in table stops the program with a located message") {
  auto [status, err] = in_child([] {
    const kl::BuiltinTable broken{"answer = [\n", "broken.toml", kVariable, "test table"};
    ::unsetenv(kVariable);
    (void)kl::load_builtin_table<int>(broken, parse_answer);
  });
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGABRT);
  CHECK(err.rfind("kernel-lsp: broken test table: broken.toml:", 0) == 0);

  auto [missing_status, missing_err] = in_child([] {
    const kl::BuiltinTable empty{"question = 1\n", "empty.toml", kVariable, "test table"};
    ::unsetenv(kVariable);
    (void)kl::load_builtin_table<int>(empty, parse_answer);
  });
  CHECK(WIFSIGNALED(missing_status));
  CHECK(missing_err == "kernel-lsp: broken test table: empty.toml: no answer\n");
}
