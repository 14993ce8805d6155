#pragma once
// Lexes system headers as their preprocessor directives alone, for a preprocessing run that
// only needs what the user's files become (configuration_signature.h).
//
// Why: a configuration check preprocesses the whole translation unit, and most of its time
// (97 % of the instructions for llm.c's attention_backward.cu, measured with callgrind) goes to
// expanding the macros in the code of CUDA's and the C++ library's headers, tokens nobody reads
// there. What those headers give the user's files is their macro state and the files they
// include, and both come from directives only: #define/#undef, #if/#ifdef/#elif/#else/#endif,
// #include and its kin, #pragma once and push/pop_macro. clang's dependency-directives scanner
// (the one clang-scan-deps lexes headers with) reduces a file to exactly those, and clang's
// lexer runs from that list when PreprocessorOptions::DependencyDirectivesForFile gives one.
// User files (not in a system header) are lexed whole, so their skipped ranges and macro
// expansions, which the signature records, are what a parse sees.
//
// Not for parses: a parse needs the headers' declarations.
//
// Thread-safety: one instance per preprocessor. Cost: one scan of each system header entered
// (a fast pass over its bytes), kept until the run ends.
#include <clang/Lex/DependencyDirectivesScanner.h>

namespace clang {
class CompilerInstance;
}  // namespace clang

namespace kl::analyzers {

// Installs the directives-only lexing of system headers for the run `compiler` is about to do
// (call after BeginSourceFile, before the main file is entered); uninstall_system_header_directives
// ends it once the run is over.
void install_system_header_directives(clang::CompilerInstance& compiler);
void uninstall_system_header_directives(clang::CompilerInstance& compiler);

}  // namespace kl::analyzers
