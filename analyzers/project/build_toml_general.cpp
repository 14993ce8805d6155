// [general] and its sub-tables: the identity of the kernel (name, version, license), the edition
// that decides how the rest is read, the backends, and the dependencies.
#include <algorithm>
#include <cctype>
#include <climits>

#include "analyzers/project/build_toml_editions.h"
#include "analyzers/project/build_toml_git_url.h"
#include "analyzers/project/build_toml_schema.h"
#include "analyzers/project/build_toml_sections.h"
#include "analyzers/project/build_toml_spelling.h"

namespace kl::analyzers {
namespace {

bool is_name_character(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

bool is_valid_name(std::string_view name) {  // ^[a-z][-a-z0-9]*[a-z0-9]$
  if (name.size() < 2) return false;
  if (!(name.front() >= 'a' && name.front() <= 'z')) return false;
  if (name.back() == '-') return false;
  return std::all_of(name.begin(), name.end(), is_name_character);
}

// The backend whose python-depends list has `package`, when it is not `backend`.
const BackendPythonDependency* other_backend_package(std::string_view package, std::string_view backend) {
  for (const BackendPythonDependency& entry : BuildTomlSchema::builtin().backend_python_depends())
    if (entry.package == package && entry.backend != backend) return &entry;
  return nullptr;
}

std::string python_name(std::string name) {
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

void check_name(const TomlSection& general, const std::string& name) {
  if (is_valid_name(name)) return;
  const toml::node& value = *general.find("name");
  std::string fixed = name;
  for (char& c : fixed) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (c == '_' || c == ' ') c = '-';
  }
  std::string message;
  if (name.find('_') != std::string::npos && is_valid_name(fixed)) {
    message =
        "`name` may not contain `_`: kernel names use `-`, and kernel-builder derives the "
        "Python package name by turning `-` into `_` (name = \"" +
        fixed + "\" is imported as `" + python_name(fixed) + "`)";
  } else if (std::any_of(name.begin(), name.end(), [](char c) { return c >= 'A' && c <= 'Z'; }) &&
             is_valid_name(fixed)) {
    message = "`name` must be lowercase: write \"" + fixed + "\"";
  } else {
    message = "`name` \"" + name +
              "\" is not a valid kernel name: it must match "
              "^[a-z][-a-z0-9]*[a-z0-9]$ (start with a lowercase letter; only lowercase letters, "
              "digits and `-`; end with a letter or digit; at least 2 characters), e.g. "
              "\"my-kernel\"";
  }
  std::vector<Fix> fixes;
  if (is_valid_name(fixed) && fixed != name)
    fixes.push_back(general.problems().replacement("Rename to \"" + fixed + "\"",
                                                   general.range_of(value), "\"" + fixed + "\""));
  general.problems().error(general.range_of(value), std::move(message), std::move(fixes));
}

void read_edition(const TomlSection& general, GeneralSection& out) {
  auto edition = general.integer("edition");
  if (!edition) return;
  out.edition = static_cast<int>(std::clamp<int64_t>(*edition, INT_MIN, INT_MAX));
  if (*edition == kCurrentEdition) return;
  const Range where = general.range_of(*general.find("edition"));
  std::string message =
      *edition > kCurrentEdition
          ? "edition " + std::to_string(*edition) +
                " is newer than the editions kernel-lsp "
                "knows; the current build.toml edition is 5"
          : "edition " + std::to_string(*edition) +
                " is not an edition kernel-builder reads: "
                "write `edition = 5` (and run `kernel-builder update-build` if the file is older)";
  general.problems().error(where, std::move(message),
                           {general.problems().replacement("Use edition 5", where, "5")});
}

void warn_legacy_v4(const TomlSection& general) {
  std::vector<Fix> fixes;
  if (!general.table().is_inline()) {
    // Insert right after the [general] header line (after any comment on it).
    Position end = general.context().ranges.end_of_line(general.header().end.line);
    fixes.push_back(
        general.problems().replacement("Add `edition = 5`", Range{end, end}, "\nedition = 5"));
  }
  general.problems().warning(
      general.header(),
      "legacy format (build.toml v4): [general] has no `edition`; add `edition = 5` "
      "(kernel-builder upgrades v4 files in memory; `kernel-builder update-build` rewrites "
      "the file)",
      std::move(fixes));
}

// [general] upstream and source: git URLs. The model keeps the text either way.
std::optional<std::string> read_git_url(const TomlSection& general, std::string_view key) {
  auto text = general.string(key);
  if (!text) return text;
  if (auto problem = git_url_problem(*text, BuildTomlSchema::builtin().git_url_schemes()))
    general.problems().error(general.range_of(*general.find(key)),
                             "`" + std::string(key) + "` in [general] " + *problem);
  return text;
}

void read_backends(const TomlSection& general, GeneralSection& out) {
  auto items = general.string_items("backends");
  if (!items) return;
  const std::span<const std::string_view> backends = BuildTomlSchema::builtin().general_backends();
  for (const StringItem& item : *items) {
    if (std::find(backends.begin(), backends.end(), item.text) != backends.end()) {
      out.backends.push_back(item.text);
      continue;
    }
    std::string message = "unknown backend `" + item.text + "` in [general] backends";
    std::vector<Fix> fixes;
    if (auto suggestion = closest_match(item.text, backends)) {
      message += "; did you mean `" + std::string(*suggestion) + "`?";
      fixes.push_back(
          general.problems().replacement("Replace with \"" + std::string(*suggestion) + "\"",
                                         item.range, "\"" + std::string(*suggestion) + "\""));
    } else {
      message += " (known backends: " + joined_list(backends) + ")";
    }
    general.problems().error(item.range, std::move(message), std::move(fixes));
  }
}

// kernel-builder resolves every package of [general.<backend>] python-depends against its list
// for that backend and fails the build on any other.
std::string unknown_backend_package(const std::string& package, std::string_view backend) {
  const BuildTomlSchema& schema = BuildTomlSchema::builtin();
  const std::vector<std::string_view> known = schema.python_depends_of(backend);
  std::string message = "`" + package + "` is not a " + std::string(backend) +
                        " Python dependency kernel-builder knows";
  if (const BackendPythonDependency* other = other_backend_package(package, backend))
    return message + ": it belongs in [general." + std::string(other->backend) + "] python-depends";
  if (known.empty()) return message + " (it provides none for " + std::string(backend) + ")";
  if (auto suggestion = closest_match(package, known))
    return message + "; did you mean `" + std::string(*suggestion) + "`?";
  return message + " (known: " + joined_list(known) + ")";
}

// `backend` is empty for [general] python-depends.
std::vector<std::string> read_python_depends(const TomlSection& section, std::string_view backend) {
  std::vector<std::string> out;
  auto items = section.string_items("python-depends");
  if (!items) return out;
  const BuildTomlSchema& schema = BuildTomlSchema::builtin();
  const std::span<const std::string_view> general_packages = schema.general_python_depends();
  for (const StringItem& item : *items) {
    out.push_back(item.text);
    const bool general_package =
        std::find(general_packages.begin(), general_packages.end(), item.text) !=
        general_packages.end();
    const BackendPythonDependency* backend_package = nullptr;
    for (const auto& entry : schema.backend_python_depends())
      if (entry.package == item.text) backend_package = &entry;

    if (backend.empty()) {
      if (general_package) continue;
      if (backend_package) {
        section.problems().error(
            item.range, "`" + item.text + "` is a " + std::string(backend_package->backend) +
                            " dependency: move it to [general." +
                            std::string(backend_package->backend) + "] python-depends");
        continue;
      }
      std::string message =
          "unknown Python dependency `" + item.text + "` in [general] python-depends";
      if (auto suggestion = closest_match(item.text, general_packages))
        message += "; did you mean `" + std::string(*suggestion) + "`?";
      else
        message += ": kernel-builder provides only " + joined_list(general_packages) +
                   " (other packages belong in the kernel's own Python requirements)";
      section.problems().error(item.range, std::move(message));
      continue;
    }
    if (backend_package && backend_package->backend == backend) continue;
    if (general_package) {
      section.problems().error(item.range, "`" + item.text + "` is not specific to " +
                                               std::string(backend) +
                                               ": move it to [general] python-depends");
      continue;
    }
    section.problems().error(item.range, unknown_backend_package(item.text, backend));
  }
  return out;
}

std::vector<KernelDependency> read_kernel_depends(const TomlSection& section) {
  std::vector<KernelDependency> out;
  const toml::node* node = section.find("kernel-depends");
  if (!node) return out;
  const toml::array* array = node->as_array();
  if (!array) {
    section.wrong_type(*node, "`kernel-depends`",
                       "an array of tables like { repo-id = \"org/name\", version = 1 }");
    return out;
  }
  for (const toml::node& entry : *array) {
    const toml::table* table = entry.as_table();
    if (!table) {
      section.wrong_type(entry, "entries of `kernel-depends`",
                         "tables like { repo-id = \"org/name\", version = 1 }");
      continue;
    }
    TomlSection dependency(*table, "kernel-depends", "a `kernel-depends` entry",
                           section.range_of(entry), section.context());
    dependency.check_keys(BuildTomlSchema::builtin().keys("kernel-depends"));
    KernelDependency result;
    result.range = dependency.header();
    if (dependency.require("repo-id", "repo-id = \"kernels-community/activation\""))
      result.repo_id = dependency.string("repo-id").value_or("");
    if (auto version = dependency.integer("version")) {
      if (*version < 0)
        section.problems().error(dependency.range_of(*dependency.find("version")),
                                 "`version` of a kernel dependency must be 0 or more");
      else
        result.version = static_cast<int>(std::min<int64_t>(*version, INT_MAX));
    }
    result.revision = dependency.string("revision");
    const bool has_version = dependency.find("version") != nullptr;
    const bool has_revision = dependency.find("revision") != nullptr;
    if (has_version && has_revision)
      section.problems().error(dependency.key_range("revision"),
                               "`version` and `revision` are mutually exclusive in a "
                               "`kernel-depends` entry: keep one");
    else if (!has_version && !has_revision)
      section.problems().error(dependency.header(),
                               "a `kernel-depends` entry needs `version = <major>` or "
                               "`revision = \"<git revision>\"`");
    out.push_back(std::move(result));
  }
  return out;
}

void read_cuda(const TomlSection& general, GeneralSection& out) {
  auto cuda = general.subsection("cuda", "general.cuda");
  if (!cuda) return;
  cuda->check_keys(BuildTomlSchema::builtin().keys(cuda->path()));
  out.cuda_minver = cuda->version("minver");
  out.cuda_maxver = cuda->version("maxver");
  out.cuda_python_depends = read_python_depends(*cuda, "cuda");
  read_kernel_depends(*cuda);
}

void read_hub(const TomlSection& general, GeneralSection& out) {
  auto hub = general.subsection("hub", "general.hub");
  if (!hub) return;
  hub->check_keys(BuildTomlSchema::builtin().keys(hub->path()));
  out.hub_repo_id = hub->string("repo-id");
  out.hub_branch = hub->string("branch");
}

// [general.xpu], [general.neuron], [general.tpu]: checked, not kept in the model (nothing in
// kernel-lsp uses them yet).
void read_other_backend(const TomlSection& general, std::string_view backend) {
  auto section = general.subsection(backend, "general." + std::string(backend));
  if (!section) return;
  const std::span<const std::string_view> keys = BuildTomlSchema::builtin().keys(section->path());
  section->check_keys(keys);
  read_python_depends(*section, backend);
  if (std::find(keys.begin(), keys.end(), "kernel-depends") != keys.end())
    read_kernel_depends(*section);
}

}  // namespace

Range read_general_section(const toml::table& root, BuildTomlContext& context,
                           GeneralSection& out) {
  auto it = root.find("general");
  if (it == root.end()) {
    context.problems.error(Range{},
                           "build.toml has no [general] section: it needs `name`, "
                           "`version`, `edition = 5`, `license` and `backends`");
    return Range{};
  }
  const toml::table* table = it->second.as_table();
  if (!table) {
    context.problems.error(context.ranges.range(it->second.source()),
                           "`general` must be a [general] section (a table), not " +
                               std::string(toml_type_name(it->second)));
    return context.ranges.range(it->first.source());
  }
  TomlSection general(*table, "general", "[general]",
                      table_header_range(*table, it->first, context.ranges), context);
  general.check_keys(BuildTomlSchema::builtin().keys("general"));

  if (general.require("name", "name = \"my-kernel\""))
    if (auto name = general.string("name")) {
      out.name = *name;
      check_name(general, *name);
    }
  // v3 and older had no `version`; `kernel-builder update-build` adds one.
  if (context.format_version >= 4) general.require("version", "version = 1");
  if (auto version = general.integer("version")) {
    if (*version < 0)
      context.problems.error(general.range_of(*general.find("version")),
                             "`version` must be 0 or more (it names the hub branch v<version>)");
    else
      out.version = static_cast<int>(std::min<int64_t>(*version, INT_MAX));
  }
  read_edition(general, out);
  if (context.format_version == 4) warn_legacy_v4(general);
  if (general.require("license", "license = \"apache-2.0\""))
    out.license = general.string("license");
  if (general.require("backends", "backends = [\"cuda\"]")) read_backends(general, out);
  out.upstream = read_git_url(general, "upstream");
  out.source = read_git_url(general, "source");
  out.python_depends = read_python_depends(general, "");
  out.kernel_depends = read_kernel_depends(general);
  read_cuda(general, out);
  read_hub(general, out);
  for (std::string_view backend : {"xpu", "neuron", "tpu"}) read_other_backend(general, backend);

  // Pre-v4 keys whose values still mean something for the model.
  if (auto minver = general.find("cuda-minver"); minver && minver->is_string() && !out.cuda_minver)
    out.cuda_minver = minver->as_string()->get();
  if (auto maxver = general.find("cuda-maxver"); maxver && maxver->is_string() && !out.cuda_maxver)
    out.cuda_maxver = maxver->as_string()->get();
  return general.header();
}

}  // namespace kl::analyzers
