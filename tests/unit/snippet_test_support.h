#pragma once
// The snippet tests' catalog: the repository's own snippets/*.toml (not an installed copy), read
// once per test program; a load error fails the test that asked with the file and line.
#include <catch2/catch.hpp>
#include <filesystem>

#include "guidance/snippet_catalog.h"

namespace kl::guidance::testing {

inline const SnippetCatalog& repository_snippets() {
  static const SnippetCatalog catalog = [] {
    auto loaded = SnippetCatalog::load(std::filesystem::path(KL_SOURCE_DIR) / "snippets");
    if (!loaded) FAIL(loaded.error().describe());
    return *loaded;
  }();
  return catalog;
}

}  // namespace kl::guidance::testing
