// include_directives, read as a specification of which lines count as includes when a
// project's include graph is read without a preprocessor.
#include "analyzers/project/include_directives.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace {

using namespace kl::analyzers;

std::vector<std::string> names(const std::vector<IncludeDirective>& directives) {
  std::vector<std::string> out;
  for (const IncludeDirective& d : directives) out.push_back((d.angled ? "<" : "\"") + d.name);
  return out;
}

}  // namespace

TEST_CASE("include_directives: quoted and angled includes, in order, however they are spaced") {
  const char* text =
      "#include \"a.cuh\"\n"
      "  #  include <cuda/std/atomic>\n"
      "#include\t\"detail/vec.cuh\"   // trailing comment\n"
      "#include<tight.h>\n"
      "#pragma once\n"
      "int x; // #include \"commented.h\"\n"
      "#include \"last.cuh\"";  // no newline at the end
  CHECK(names(include_directives(text)) == std::vector<std::string>{"\"a.cuh", "<cuda/std/atomic",
                                                                    "\"detail/vec.cuh", "<tight.h",
                                                                    "\"last.cuh"});
}

TEST_CASE("include_directives: #if is not evaluated, comments are") {
  const char* text =
      "#if 0\n"
      "#include \"inactive.cuh\"\n"
      "#endif\n"
      "// #include \"line_comment.h\"\n"
      "/* #include \"block.h\"\n"
      "#include \"still_block.h\" */\n"
      "#include \"after.cuh\"\n";
  CHECK(names(include_directives(text)) == std::vector<std::string>{"\"inactive.cuh", "\"after.cuh"});
}

TEST_CASE("include_directives: what is not an include of a named file") {
  const char* text =
      "#include_next <math.h>\n"
      "#include HEADER_NAME\n"
      "#include \"\"\n"
      "#include \"unterminated\n"
      "#includes \"x.h\"\n"
      "#define include \"y.h\"\n";
  CHECK(include_directives(text).empty());
  CHECK(include_directives("").empty());
}

TEST_CASE("an include written inside a literal or a spliced comment is not one") {
  std::string_view text =
      "const char* help = R\"(\n#include \"in_raw_string.h\"\n)\";\n"
      "// a comment \\\n#include \"spliced_into_the_comment.h\"\n"
      "#include \"real.h\" // \"#include <no.h>\"\n";
  CHECK(names(include_directives(text)) == std::vector<std::string>{"\"real.h"});
}
