// Which files are which kind of source, by name: the one list behind `kernel-lsp lint`, the
// server's documents, the snippets and clangd-config (support/file_kinds.h).
#include <catch2/catch.hpp>

#include "support/file_kinds.h"

using kl::SourceKind;
using kl::source_kind;

TEST_CASE("source kinds by extension, whatever its case") {
  CHECK(source_kind("k.cu") == SourceKind::Cuda);
  CHECK(source_kind("dir/K.CU") == SourceKind::Cuda);
  CHECK(source_kind("pack.cuh") == SourceKind::Cuda);
  for (const char* header : {"a.h", "a.hh", "a.hpp", "a.hxx", "a.inl", "A.HPP"})
    CHECK(source_kind(header) == SourceKind::CxxHeader);
  for (const char* source : {"b.cpp", "b.cc", "b.cxx", "B.CPP"}) CHECK(source_kind(source) == SourceKind::CxxSource);
  CHECK(source_kind("c.c") == SourceKind::CSource);
  for (const char* other : {"build.toml", "x.py", "x.cu.bak", "README", "x.ptx", "cuda"})
    CHECK(source_kind(other) == SourceKind::None);
  CHECK(kl::is_cxx_file("torch-ext/binding.inl"));
  CHECK_FALSE(kl::is_cxx_file("k.cu"));
  CHECK(kl::lowercase_extension("A/B.Cuh") == ".cuh");
}
