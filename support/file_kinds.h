#pragma once
// What kind of source a file is, by its name alone: the one list that `kernel-lsp lint`, the
// server's documents, the snippets and `clangd-config` share. Extensions are compared without
// regard to case (`.CU` is CUDA, as editors treat it).
//
//   CUDA         .cu .cuh
//   C++ header   .h .hh .hpp .hxx .inl
//   C++ source   .cpp .cc .cxx
//   C source     .c    (only clangd's compile commands name these)
//
// Whether a C++ file is a kernel source depends on where it is (inside a kernel project), which
// the callers decide.
#include <filesystem>
#include <string>

namespace kl {

enum class SourceKind { None, Cuda, CxxHeader, CxxSource, CSource };

SourceKind source_kind(const std::filesystem::path& file);

// The extension, lower-cased (".cu", ".py"; "" for none).
std::string lowercase_extension(const std::filesystem::path& file);

inline bool is_cuda_file(const std::filesystem::path& file) { return source_kind(file) == SourceKind::Cuda; }
inline bool is_cxx_file(const std::filesystem::path& file) {
  SourceKind kind = source_kind(file);
  return kind == SourceKind::CxxHeader || kind == SourceKind::CxxSource;
}

}  // namespace kl
