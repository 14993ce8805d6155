#include "lsp/server/settings_json.h"

#include <functional>

#include "guidance/guidance_links.h"

namespace kl::lsp {
namespace {

bool string_list(const json& value, std::vector<std::string>& out) {
  if (!value.is_array()) return false;
  std::vector<std::string> items;
  for (const auto& item : value) {
    if (!item.is_string()) return false;
    items.push_back(item.get<std::string>());
  }
  out = std::move(items);
  return true;
}

// Builds and benchmarks; false when `key` is not one of theirs.
template <typename Bad>
bool merge_build_setting(Settings& settings, const std::string& key, const json& value, const Bad& bad) {
  if (key == "workspaceTrusted") {
    if (!value.is_boolean())
      bad(key, "true or false");
    else
      settings.workspace_trusted = value.get<bool>();
  } else if (key == "benchRunner") {
    if (!value.is_string())
      bad(key, "a command line (string)");
    else
      settings.bench_runner = value.get<std::string>();
  } else if (key == "buildJobs") {
    if (!value.is_number_integer() || value.get<int64_t>() < 1 || value.get<int64_t>() > 256)
      bad(key, "an integer between 1 and 256");
    else
      settings.build_jobs = value.get<uint32_t>();
  } else {
    return false;
  }
  return true;
}

// {rule: level}; a level that is not a string is reported and left out.
void merge_severities(Settings& settings, const std::string& key, const json& value,
                      const std::function<void(const std::string&, const char*)>& bad) {
  if (!value.is_object()) {
    bad(key, "an object {rule: level}");
    return;
  }
  std::map<std::string, std::string> levels;
  for (const auto& [rule, level] : value.items()) {
    if (level.is_string())
      levels[rule] = level.get<std::string>();
    else
      bad(key + "." + rule, "a string");
  }
  settings.severities = std::move(levels);
}

// "" = back to the installed pages; a base that cannot serve is reported and ignored.
void merge_docs_base(Settings& settings, const std::string& key, const json& value,
                     std::vector<std::string>& problems) {
  if (!value.is_string()) {
    problems.push_back(std::string(kSettingsSection) + "." + key + " must be a URL (string)");
    return;
  }
  std::string base = value.get<std::string>();
  std::string problem = base.empty() ? std::string() : guidance::docs_base_problem(base);
  if (problem.empty())
    settings.docs_base_url = std::move(base);
  else
    problems.push_back(std::string(kSettingsSection) + "." + key + ": " + problem);
}

}  // namespace

void merge_settings(Settings& settings, const json& input, std::vector<std::string>& problems) {
  if (!input.is_object()) return;
  const json& object = input.contains(kSettingsSection) && input[kSettingsSection].is_object()
                           ? input[kSettingsSection]
                           : input;
  auto bad = [&](const std::string& key, const char* expected) {
    problems.push_back(std::string(kSettingsSection) + "." + key + " must be " + expected);
  };
  for (const auto& [key, value] : object.items()) {
    if (value.is_null()) continue;
    if (key == "cudaPath") {
      if (!value.is_string())
        bad(key, "a string");
      else if (value.get<std::string>().empty())
        settings.cuda_path.reset();
      else
        settings.cuda_path = value.get<std::string>();
    } else if (key == "extraFlags") {
      if (!string_list(value, settings.extra_flags)) bad(key, "a list of strings");
    } else if (key == "torchIncludePath") {
      if (!string_list(value, settings.torch_include_path)) bad(key, "a list of strings");
    } else if (key == "cutlassPath") {
      if (!string_list(value, settings.cutlass_path)) bad(key, "a list of strings");
    } else if (key == "defaultArchs") {
      if (!string_list(value, settings.default_archs)) bad(key, "a list of strings");
    } else if (key == "disabledRules") {
      std::vector<std::string> rules;
      if (!string_list(value, rules))
        bad(key, "a list of strings");
      else
        settings.disabled_rules = {rules.begin(), rules.end()};
    } else if (key == "severities") {
      merge_severities(settings, key, value, bad);
    } else if (key == "debounceMs") {
      if (!value.is_number_integer() || value.get<int64_t>() < 0 || value.get<int64_t>() > 60000)
        bad(key, "an integer between 0 and 60000");
      else
        settings.debounce_ms = value.get<uint32_t>();
    } else if (key == "sharedPch") {
      if (!value.is_boolean())
        bad(key, "true or false");
      else
        settings.shared_pch = value.get<bool>();
    } else if (key == "pullDiagnostics") {
      if (!value.is_boolean())
        bad(key, "true or false");
      else
        settings.pull_diagnostics = value.get<bool>();
    } else if (key == "workers") {
      if (!value.is_number_integer() || value.get<int64_t>() < 1 || value.get<int64_t>() > 64)
        bad(key, "an integer between 1 and 64");
      else
        settings.workers = value.get<uint32_t>();
    } else if (key == "analysisTimeout") {
      if (!value.is_number_integer() || value.get<int64_t>() < 1 || value.get<int64_t>() > 86400)
        bad(key, "a number of seconds between 1 and 86400");
      else
        settings.analysis_timeout_s = value.get<uint32_t>();
    } else if (key == "docsBaseUrl") {
      merge_docs_base(settings, key, value, problems);
    } else {
      // Builds' settings, else a key of the editor extension's (kernelLsp.path, trace, ...).
      merge_build_setting(settings, key, value, bad);
    }
  }
}

}  // namespace kl::lsp
