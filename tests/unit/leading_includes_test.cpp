// The angle-bracket includes a file opens with: what may be compiled ahead of it without
// changing what the parse sees.
#include <catch2/catch.hpp>

#include "analyzers/frontend/leading_includes.h"

using kl::analyzers::leading_angle_includes;
using Names = std::vector<std::string>;

TEST_CASE("the opening angle includes, past comments, blank lines and #pragma once") {
  CHECK(leading_angle_includes("// Copyright\n/* a\n   block */\n#pragma once\n\n#include <cuda_runtime.h>\n"
                               "#  include   <cooperative_groups/reduce.h>  // why\n#include <cstdint> /* c */\n"
                               "__global__ void k() {}\n") ==
        Names{"cuda_runtime.h", "cooperative_groups/reduce.h", "cstdint"});
  CHECK(leading_angle_includes("\xEF\xBB\xBF#include <vector>\r\n#include <cub/cub.cuh>\r\n") ==
        Names{"vector", "cub/cub.cuh"});
}

TEST_CASE("the opening includes end at the first line that could change what follows") {
  // A quoted include, a macro definition, a conditional, code: each ends the run.
  CHECK(leading_angle_includes("#include <cuda.h>\n#include \"local.h\"\n#include <cub/cub.cuh>\n") ==
        Names{"cuda.h"});
  CHECK(leading_angle_includes("#define CUB_IGNORE_DEPRECATED\n#include <cub/cub.cuh>\n").empty());
  CHECK(leading_angle_includes("#include <cuda.h>\n#ifdef X\n#include <cub/cub.cuh>\n#endif\n") == Names{"cuda.h"});
  CHECK(leading_angle_includes("int x;\n#include <cuda.h>\n").empty());
  CHECK(leading_angle_includes("#pragma unroll\n#include <cuda.h>\n").empty());
  // Continued lines and comments that swallow the next line are not read as includes.
  CHECK(leading_angle_includes("#include <cuda.h> \\\n  <other.h>\n").empty());
  CHECK(leading_angle_includes("// note \\\n#include <cuda.h>\n").empty());
  CHECK(leading_angle_includes("#include <cuda.h> int x;\n").empty());
  CHECK(leading_angle_includes("/* never closed\n#include <cuda.h>\n").empty());
  CHECK(leading_angle_includes("#include <>\n").empty());
  CHECK(leading_angle_includes("#include MACRO_HEADER\n").empty());
  CHECK(leading_angle_includes("").empty());
}
