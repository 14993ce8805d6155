#include <catch2/catch.hpp>

#include "analyzers/suppression.h"

using kl::analyzers::Finding;

namespace {
Finding at(uint32_t line, const char* rule) {
  Finding f;
  f.rule_id = rule;
  f.location.file = "k.cu";
  f.location.range.start.line = line;
  return f;
}
}  // namespace

TEST_CASE("ignore[...] covers its own line and the next one, for the rules it names") {
  kl::analyzers::Suppressions s(
      "int a;\n"
      "// kernel-lsp: ignore[arch-mismatch]\n"
      "x = __reduce_add_sync(m, v);\n"
      "y = __reduce_add_sync(m, v);\n"
      "z = v; // kernel-lsp: ignore[smem-limit, uncoalesced-access]\n");
  CHECK(s.suppresses(at(1, "arch-mismatch")));
  CHECK(s.suppresses(at(2, "arch-mismatch")));
  CHECK_FALSE(s.suppresses(at(3, "arch-mismatch")));
  CHECK_FALSE(s.suppresses(at(2, "smem-limit")));
  CHECK(s.suppresses(at(4, "uncoalesced-access")));
  CHECK(s.suppresses(at(4, "smem-limit")));
}

TEST_CASE("ignore-file[...] covers the whole file; * covers every rule") {
  kl::analyzers::Suppressions file_wide("// kernel-lsp: ignore-file[misaligned-access]\nint a;\n");
  CHECK(file_wide.suppresses(at(40, "misaligned-access")));
  CHECK_FALSE(file_wide.suppresses(at(40, "arch-mismatch")));
  kl::analyzers::Suppressions all("v = 1; // kernel-lsp: ignore[*]\n");
  CHECK(all.suppresses(at(0, "anything")));
}

TEST_CASE("apply_suppressions leaves findings of other files alone") {
  std::vector<Finding> findings = {at(0, "arch-mismatch")};
  findings[0].location.file = "other.cu";
  kl::analyzers::apply_suppressions("// kernel-lsp: ignore-file[*]\n", "k.cu", findings);
  CHECK(findings.size() == 1);
}

TEST_CASE("every id a comment names is kept with where it is written") {
  kl::analyzers::Suppressions s(
      "int a;\n"
      "z = v; // kernel-lsp: ignore[smem-limit,  uncoalesced]\n"
      "# kernel-lsp: ignore-file[*]\n");
  const auto& ids = s.written_ids();
  REQUIRE(ids.size() == 3);
  CHECK(ids[0].id == "smem-limit");
  CHECK(ids[0].range.start == kl::analyzers::Position{1, 29});
  CHECK(ids[0].range.end == kl::analyzers::Position{1, 39});
  CHECK(ids[1].id == "uncoalesced");
  CHECK(ids[1].range.start == kl::analyzers::Position{1, 42});
  CHECK(ids[2].id == "*");
  CHECK(ids[2].range.start.line == 2);
}
