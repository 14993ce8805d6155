// [kernel.<name>] sections: what each kernel variant compiles (src), for which backend, with
// which dependencies and, for CUDA, for which compute capabilities.
#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "analyzers/project/build_toml_schema.h"
#include "analyzers/project/build_toml_sections.h"
#include "analyzers/project/build_toml_spelling.h"
#include "analyzers/project/include_directives.h"
#include "support/fs_paths.h"

namespace kl::analyzers {
namespace {

bool is_known_backend(std::string_view backend) {
  const std::span<const std::string_view> backends = BuildTomlSchema::builtin().kernel_backends();
  return std::find(backends.begin(), backends.end(), backend) != backends.end();
}

// The CUTLASS versions `depends` accepts, for messages: "cutlass_2_10, cutlass_3_5, ...".
std::vector<std::string_view> cutlass_names(const BuildTomlSchema& schema) {
  std::vector<std::string_view> names;
  for (std::string_view value : schema.dependencies())
    if (value.substr(0, 8) == "cutlass_") names.push_back(value);
  return names;
}

std::string toml_string(std::string_view text) { return "\"" + std::string(text) + "\""; }

// The backend a kernel without `backend` most likely has, from its backend-specific keys.
std::string inferred_backend(const toml::table& table) {
  for (const BackendKey& key : BuildTomlSchema::builtin().kernel_backend_keys())
    if (table.contains(key.key)) return std::string(key.backend);
  return "";
}

void read_backend(const TomlSection& kernel, KernelSection& out) {
  const toml::node* node = kernel.find("backend");
  if (!node) {
    if (const toml::node* language = kernel.find("language")) {
      // build.toml v3 and older (reported as removed): keep reading the kernel as it was meant.
      std::string_view text = language->value_or(std::string_view());
      out.backend = BuildTomlSchema::builtin().backend_of_language(text).value_or(text);
      return;
    }
    out.backend = inferred_backend(kernel.table());
    std::string example = "backend = " + toml_string(out.backend.empty() ? "cuda" : out.backend);
    std::vector<Fix> fixes;
    if (!out.backend.empty() && !kernel.table().is_inline()) {
      Position end = kernel.context().ranges.end_of_line(kernel.header().end.line);
      fixes.push_back(
          kernel.problems().replacement("Add `" + example + "`", Range{end, end}, "\n" + example));
    }
    kernel.problems().error(kernel.header(),
                            kernel.title() + " is missing the required key `backend`, e.g. `" +
                                example + "` (one of " +
                                joined_list(BuildTomlSchema::builtin().kernel_backends()) + ")",
                            std::move(fixes));
    return;
  }
  auto backend = kernel.string("backend");
  if (!backend) return;
  out.backend = *backend;
  if (is_known_backend(*backend)) return;
  const Range where = kernel.range_of(*node);
  std::string message = "unknown kernel backend `" + *backend + "` in " + kernel.title();
  std::vector<Fix> fixes;
  const std::span<const std::string_view> backends = BuildTomlSchema::builtin().kernel_backends();
  if (auto suggestion = closest_match(*backend, backends)) {
    message += "; did you mean `" + std::string(*suggestion) + "`?";
    fixes.push_back(kernel.problems().replacement("Replace with " + toml_string(*suggestion), where,
                                                  toml_string(*suggestion)));
  } else {
    message += " (kernel backends: " + joined_list(backends) + ")";
  }
  kernel.problems().error(where, std::move(message), std::move(fixes));
}

std::vector<std::string_view> known_keys(const std::string& backend) {
  const BuildTomlSchema& schema = BuildTomlSchema::builtin();
  const std::span<const std::string_view> common = schema.keys("kernel");
  std::vector<std::string_view> keys(common.begin(), common.end());
  const bool any_backend = !is_known_backend(backend);  // unknown: don't pile up errors
  for (const BackendKey& key : schema.kernel_backend_keys())
    if (any_backend || key.backend == backend) keys.push_back(key.key);
  return keys;
}

// Whether the kernel's sources (or the project headers they include) may include PyTorch's
// headers: true when one does, and when a source cannot be read (nothing says it does not).
bool sources_may_include_torch(const std::filesystem::path& project_dir, const std::vector<std::string>& sources) {
  auto torch_header = [](const std::string& name) {
    return name.rfind("torch/", 0) == 0 || name.rfind("ATen/", 0) == 0 || name.rfind("c10/", 0) == 0;
  };
  for (const std::string& source : sources) {
    const std::filesystem::path path = project_dir / source;
    auto text = read_file_text(path);
    if (!text) return true;
    for (const IncludeDirective& include : include_directives(*text)) {
      if (torch_header(include.name)) return true;
      if (include.angled) continue;
      // One level of the project's own headers: a kernel often reaches torch through them.
      if (auto header = read_file_text(path.parent_path() / include.name))
        for (const IncludeDirective& inner : include_directives(*header))
          if (torch_header(inner.name)) return true;
    }
  }
  return false;
}

void read_depends(const TomlSection& kernel, KernelSection& out) {
  if (!kernel.require("depends", "depends = [\"torch\"]")) return;
  auto items = kernel.string_items("depends");
  if (!items) return;
  // Only a PyTorch extension needs torch; a [tvm-ffi] kernel may well depend on nothing, and so
  // may a CUDA kernel whose sources include no PyTorch header (plain CUDA behind a binding).
  if (items->empty() && kernel.context().framework == FrameworkKind::Torch &&
      sources_may_include_torch(kernel.context().project_dir, out.src)) {
    const Range where = kernel.range_of(*kernel.find("depends"));
    kernel.problems().warning(
        where,
        "`depends` is empty: a kernel that includes PyTorch headers (torch/, ATen/, c10/) "
        "needs `depends = [\"torch\"]`, or kernel-builder compiles it without them",
        {kernel.problems().replacement("Depend on torch", where, "[\"torch\"]")});
  }
  const BuildTomlSchema& schema = BuildTomlSchema::builtin();
  for (const StringItem& item : *items) {
    out.depends.push_back(item.text);
    if (schema.is_dependency(item.text)) continue;
    std::string message =
        "unknown dependency `" + item.text + "` in " + kernel.title() + " depends";
    std::vector<Fix> fixes;
    if (auto suggestion = closest_match(item.text, schema.dependencies())) {
      message += "; did you mean `" + std::string(*suggestion) + "`?";
      fixes.push_back(kernel.problems().replacement("Replace with " + toml_string(*suggestion),
                                                    item.range, toml_string(*suggestion)));
    } else if (item.text.rfind("cutlass", 0) == 0) {
      message += ": CUTLASS dependencies name a version, one of " + joined_list(cutlass_names(schema));
    } else {
      message += " (known: " + joined_list(schema.dependencies()) + ")";
    }
    kernel.problems().error(item.range, std::move(message), std::move(fixes));
  }
}

void read_cuda_capabilities(const TomlSection& kernel, KernelSection& out) {
  const toml::node* node = kernel.find("cuda-capabilities");
  if (!node) return;
  const toml::array* array = node->as_array();
  if (!array) {
    kernel.wrong_type(*node, "`cuda-capabilities`", "an array of strings like [\"8.0\", \"9.0a\"]");
    return;
  }
  out.cuda_capabilities_range = kernel.range_of(*node);
  std::vector<CapabilityEntry> entries;
  for (const toml::node& entry : *array) {
    const auto* text = entry.as_string();
    if (!text) {
      kernel.wrong_type(entry, "entries of `cuda-capabilities`", "strings like \"9.0a\"");
      continue;
    }
    // Kept even when it does not parse: arch-unsupported reports it with this range.
    entries.push_back({text->get(), parse_capability(text->get()), kernel.range_of(entry)});
  }
  if (array->empty()) {
    // kernel-builder's template passes the list only when it is non-empty (kernel-component/
    // cuda.cmake), so an empty one means the builder's defaults, as if the key were absent.
    kernel.problems().warning(out.cuda_capabilities_range,
                              "`cuda-capabilities` is empty, which kernel-builder treats as absent: it builds "
                              "this kernel for its default capabilities. List capabilities (e.g. [\"8.0\", "
                              "\"9.0\"]) or remove the key");
    return;
  }
  out.cuda_capabilities = std::move(entries);
}

KernelSection read_kernel(const TomlSection& kernel, std::string name) {
  KernelSection out;
  out.name = std::move(name);
  out.header_range = kernel.header();
  read_backend(kernel, out);

  const std::vector<std::string_view> known = known_keys(out.backend);
  kernel.check_keys(known, [&](std::string_view key, Range where, const toml::node&) {
    for (const BackendKey& entry : BuildTomlSchema::builtin().kernel_backend_keys()) {
      if (entry.key != key) continue;
      kernel.problems().error(where, "`" + std::string(key) + "` only applies to " +
                                         std::string(entry.backend_title) + " kernels, but " +
                                         kernel.title() +
                                         " has backend = " + toml_string(out.backend));
      return true;
    }
    return false;
  });

  if (kernel.require("src", "src = [\"" + out.name + "/" + out.name + ".cu\"]"))
    out.src = kernel.strings("src").value_or(std::vector<std::string>{});
  read_depends(kernel, out);
  out.include = kernel.strings("include").value_or(std::vector<std::string>{});
  out.cxx_flags = kernel.strings("cxx-flags").value_or(std::vector<std::string>{});

  auto has = [&](std::string_view key) {
    return std::find(known.begin(), known.end(), key) != known.end();
  };
  if (has("cuda-capabilities")) read_cuda_capabilities(kernel, out);
  if (has("cuda-flags")) out.cuda_flags = kernel.strings("cuda-flags").value_or(out.cuda_flags);
  if (has("cuda-minver")) out.cuda_minver = kernel.version("cuda-minver");
  if (has("rocm-archs")) out.rocm_archs = kernel.strings("rocm-archs").value_or(out.rocm_archs);
  if (has("hip-flags")) out.hip_flags = kernel.strings("hip-flags").value_or(out.hip_flags);
  if (has("sycl-flags")) out.sycl_flags = kernel.strings("sycl-flags").value_or(out.sycl_flags);
  return out;
}

}  // namespace

void read_kernel_sections(const toml::table& root, BuildTomlContext& context,
                          std::vector<KernelSection>& kernels) {
  auto it = root.find("kernel");
  if (it == root.end()) return;  // a kernel without compiled code (torch-noarch)
  const toml::table* table = it->second.as_table();
  if (!table) {
    context.problems.error(context.ranges.range(it->second.source()),
                           it->second.is_array()
                               ? "kernels are [kernel.<name>] sections, not an array of tables "
                                 "[[kernel]]: give each kernel a name"
                               : "`kernel` must hold [kernel.<name>] sections, not " +
                                     std::string(toml_type_name(it->second)));
    return;
  }
  for (auto&& [name, value] : *table) {
    const toml::table* kernel = value.as_table();
    if (!kernel) {
      context.problems.error(context.ranges.range(value.source()),
                             "`kernel." + std::string(name.str()) + "` must be a [kernel." +
                                 std::string(name.str()) + "] section (a table), not " +
                                 std::string(toml_type_name(value)));
      continue;
    }
    TomlSection section(*kernel, "kernel", "[kernel." + std::string(name.str()) + "]",
                        table_header_range(*kernel, name, context.ranges), context);
    kernels.push_back(read_kernel(section, std::string(name.str())));
  }
  // toml++ keeps keys sorted; the file's order is what people expect to see.
  std::stable_sort(kernels.begin(), kernels.end(),
                   [](const KernelSection& a, const KernelSection& b) {
                     return a.header_range.start < b.header_range.start;
                   });
}

}  // namespace kl::analyzers
