#pragma once
// What a precompiled header (the toolkit PCH, a file's preamble) keeps of two lists that clang's
// Sema makes of every function it sees, and that every parse using the PCH reads back in full
// at its end, deserializing each declaration:
//   - the declarations to check for CUDA's deferred diagnostics (Sema::emitDeferredDiags reads
//     them before it looks whether the parse deferred any diagnostic at all);
//   - the unused file-scoped declarations (for -Wunused-function, never reported in a header).
// For CUDA's headers these are thousands of functions: reading them was most of the parse of a
// small file (its clang phase went from 18.7 to 2.6 ms without them on the project's 2-core
// machine), in every configuration of every parse. A PCH keeps only the entries of the user's own headers, so that the parse of
// a file reports what it did before: system headers' function bodies are skipped
// (function_bodies.h) and cannot reach the user's code, and their warnings are never shown.
#include <memory>

namespace clang {
class ASTConsumer;
class CompilerInstance;
class PPCallbacks;
class Sema;
}  // namespace clang

namespace kl::analyzers {

// Drops the system headers' declarations from both lists of `sema` (those made by this
// compilation; lists read from a PCH below it are not in `sema`).
void drop_system_header_entries(clang::Sema& sema);

// For a PCH build whose consumers this joins, ahead of the PCH writer: drops the entries when
// the translation unit ends, before the writer serializes the lists.
std::unique_ptr<clang::ASTConsumer> make_header_list_trimmer();

// For a preamble build (clang::PrecompiledPreamble, which takes no consumer of ours): drops the
// entries when the preprocessor leaves the preamble's main file, before Sema ends the prefix and
// the writer runs. `compiler` outlives the callbacks.
std::unique_ptr<clang::PPCallbacks> make_preamble_list_trimmer(clang::CompilerInstance& compiler);

}  // namespace kl::analyzers
