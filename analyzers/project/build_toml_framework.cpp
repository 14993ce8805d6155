// The framework section: exactly one of [torch] (C++/CUDA ops bound to PyTorch), [torch-noarch]
// (pure Python or Triton) and [tvm-ffi].
#include <algorithm>
#include <array>

#include "analyzers/project/build_toml_editions.h"
#include "analyzers/project/build_toml_schema.h"
#include "analyzers/project/build_toml_sections.h"

namespace kl::analyzers {
namespace {

struct FrameworkKey {
  std::string_view key;
  FrameworkKind kind;
};
constexpr std::array<FrameworkKey, 3> kFrameworks = {{
    {"torch", FrameworkKind::Torch},
    {"torch-noarch", FrameworkKind::TorchNoarch},
    {"tvm-ffi", FrameworkKind::TvmFfi},
}};

// `stable-abi = "2.10"` for every backend, or `stable-abi = { cuda = "2.10", ... }` per backend.
// The model keeps the table form as "cuda=2.10,xpu=2.10".
std::optional<std::string> read_stable_abi(const TomlSection& torch) {
  const toml::node* node = torch.find("stable-abi");
  if (!node) return std::nullopt;
  if (node->is_string()) return torch.version("stable-abi");
  auto table = torch.subsection("stable-abi", "torch.stable-abi");
  if (!table) return std::nullopt;  // wrong type, reported
  if (const EditionKey* edition = BuildTomlSchema::builtin().find_edition_5_table_value("torch", "stable-abi");
      edition && torch.context().format_version < kCurrentEdition)
    torch.problems().error(table->header(),
                           "a per-backend `" + std::string(edition->key) +
                               "` table needs edition 5, but this build.toml has no `edition` (legacy "
                               "format v4), where it is one version: " +
                               std::string(edition->advice));
  table->check_keys(BuildTomlSchema::builtin().general_backends());
  std::string text;
  for (auto&& [backend, value] : table->table()) {
    auto version = table->version(backend.str());
    if (!version) continue;
    text += (text.empty() ? "" : ",") + std::string(backend.str()) + "=" + *version;
  }
  return text;
}

void read_torch(const TomlSection& torch, FrameworkSection& out) {
  torch.check_keys(BuildTomlSchema::builtin().keys("torch"));
  out.src = torch.strings("src").value_or(std::vector<std::string>{});
  out.include = torch.strings("include").value_or(std::vector<std::string>{});
  out.pyext = torch.strings("pyext").value_or(std::vector<std::string>{"py", "pyi"});
  out.minver = torch.version("minver");
  out.maxver = torch.version("maxver");
  out.cxx_flags = torch.strings("cxx-flags").value_or(std::vector<std::string>{});
  out.stable_abi = read_stable_abi(torch);
  // build.toml v3 and older: `universal = true` meant a pure-Python kernel (reported as removed).
  if (const toml::node* universal = torch.find("universal");
      universal && universal->value_or(false))
    out.kind = FrameworkKind::TorchNoarch;
}

void read_torch_noarch(const TomlSection& noarch, FrameworkSection& out) {
  noarch.check_keys(BuildTomlSchema::builtin().keys("torch-noarch"));
  out.pyext = noarch.strings("pyext").value_or(std::vector<std::string>{"py", "pyi"});
  noarch.strings("cuda_capabilities");
  noarch.strings("rocm_archs");
}

void read_tvm_ffi(const TomlSection& tvm, FrameworkSection& out) {
  tvm.check_keys(BuildTomlSchema::builtin().keys("tvm-ffi"));
  if (tvm.require("src", "src = [\"tvm-ffi/binding.cpp\"]"))
    out.src = tvm.strings("src").value_or(std::vector<std::string>{});
  out.include = tvm.strings("include").value_or(std::vector<std::string>{});
  out.pyext = tvm.strings("pyext").value_or(std::vector<std::string>{"py", "pyi"});
  out.cxx_flags = tvm.strings("cxx-flags").value_or(std::vector<std::string>{});
}

}  // namespace

void read_framework_section(const toml::table& root, BuildTomlContext& context, Range anchor,
                            FrameworkSection& out) {
  struct Present {
    FrameworkKey framework;
    TomlSection section;
  };
  std::vector<Present> present;
  for (const FrameworkKey& framework : kFrameworks) {
    auto it = root.find(framework.key);
    if (it == root.end()) continue;
    const toml::table* table = it->second.as_table();
    if (!table) {
      context.problems.error(context.ranges.range(it->second.source()),
                             "`" + std::string(framework.key) + "` must be a [" +
                                 std::string(framework.key) + "] section (a table), not " +
                                 std::string(toml_type_name(it->second)));
      continue;
    }
    present.push_back(
        {framework,
         TomlSection(*table, std::string(framework.key), "[" + std::string(framework.key) + "]",
                     table_header_range(*table, it->first, context.ranges), context)});
  }
  if (present.empty()) {
    context.problems.error(anchor,
                           "build.toml needs one framework section: [torch] (C++/CUDA "
                           "ops for PyTorch), [torch-noarch] (pure Python or Triton) or "
                           "[tvm-ffi]");
    return;
  }
  std::stable_sort(present.begin(), present.end(), [](const Present& a, const Present& b) {
    return a.section.header().start < b.section.header().start;
  });
  for (size_t i = 0; i < present.size(); ++i) {
    const TomlSection& section = present[i].section;
    FrameworkSection scratch;
    FrameworkSection& target = i == 0 ? out : scratch;  // the model keeps the first one
    target.kind = present[i].framework.kind;
    switch (target.kind) {
      case FrameworkKind::Torch: read_torch(section, target); break;
      case FrameworkKind::TorchNoarch: read_torch_noarch(section, target); break;
      case FrameworkKind::TvmFfi: read_tvm_ffi(section, target); break;
      case FrameworkKind::None: break;
    }
    if (i > 0)
      context.problems.error(section.header(),
                             "only one framework section is allowed, and " +
                                 present[0].section.title() + " (line " +
                                 std::to_string(present[0].section.header().start.line + 1) +
                                 ") already is one: remove " + section.title());
  }
}

}  // namespace kl::analyzers
