# Turns a data file into a C++ source defining `std::string_view <symbol>()`, so the binary
# carries its tables (architectures, features) and works wherever it is copied. The files stay
# the single source of truth: edit the data, rebuild, nothing else changes.
# Usage: cmake -DINPUT=file -DOUTPUT=file.cpp -DSYMBOL=name -P EmbedFile.cmake
file(READ "${INPUT}" content HEX)
string(LENGTH "${content}" hex_length)
math(EXPR byte_count "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${content}")
file(WRITE "${OUTPUT}" "// Generated from ${INPUT}; do not edit.\n#include <string_view>\nnamespace kl::data {\nstatic const char k_bytes[] = {${bytes} '\\0'};\nstd::string_view ${SYMBOL}() { return {k_bytes, ${byte_count}}; }\n}\n")
