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
