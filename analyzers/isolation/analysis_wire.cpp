#include "analyzers/isolation/analysis_wire.h"

#include <stdexcept>

namespace kl::analyzers {
namespace {
using json = nlohmann::json;

// ---- plain data of finding.h --------------------------------------------------------------

json to_json_value(const Position& p) { return json::array({p.line, p.column}); }
Position position_from(const json& j) { return Position{j.at(0).get<uint32_t>(), j.at(1).get<uint32_t>()}; }

json to_json_value(const Range& r) { return json::array({to_json_value(r.start), to_json_value(r.end)}); }
Range range_from(const json& j) { return Range{position_from(j.at(0)), position_from(j.at(1))}; }

json to_json_value(const Location& l) { return {{"file", l.file}, {"range", to_json_value(l.range)}}; }
Location location_from(const json& j) {
  return Location{j.at("file").get<std::string>(), range_from(j.at("range"))};
}

std::optional<uint32_t> optional_u32(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return it->get<uint32_t>();
}
std::optional<uint64_t> optional_u64(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return it->get<uint64_t>();
}
template <class T>
json optional_value(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

Severity severity_from(const json& j) {
  Severity s = Severity::Warning;
  if (!parse_severity(j.get<std::string>(), s)) throw std::runtime_error("unknown severity " + j.dump());
  return s;
}

json to_json_value(const Finding& f) {
  json notes = json::array();
  for (const auto& n : f.notes)
    notes.push_back({{"location", to_json_value(n.location)}, {"message", n.message}});
  json fixes = json::array();
  for (const auto& fix : f.fixes) {
    json edits = json::array();
    for (const auto& e : fix.edits)
      edits.push_back({{"file", e.file}, {"range", to_json_value(e.range)}, {"new_text", e.new_text}});
    fixes.push_back({{"title", fix.title}, {"edits", std::move(edits)}});
  }
  return {{"rule", f.rule_id},
          {"severity", severity_name(f.severity)},
          {"location", to_json_value(f.location)},
          {"message", f.message},
          {"notes", std::move(notes)},
          {"fixes", std::move(fixes)}};
}

Finding finding_from(const json& j) {
  Finding f;
  f.rule_id = j.at("rule").get<std::string>();
  f.severity = severity_from(j.at("severity"));
  f.location = location_from(j.at("location"));
  f.message = j.at("message").get<std::string>();
  for (const auto& n : j.at("notes"))
    f.notes.push_back({location_from(n.at("location")), n.at("message").get<std::string>()});
  for (const auto& fj : j.at("fixes")) {
    Fix fix;
    fix.title = fj.at("title").get<std::string>();
    for (const auto& e : fj.at("edits"))
      fix.edits.push_back(
          {e.at("file").get<std::string>(), range_from(e.at("range")), e.at("new_text").get<std::string>()});
    f.fixes.push_back(std::move(fix));
  }
  return f;
}

Capability capability_from(const json& j) {
  auto c = parse_capability(j.get<std::string>());
  if (!c) throw std::runtime_error("not a capability: " + j.dump());
  return *c;
}

json capabilities_to_json(const std::vector<Capability>& list) {
  json out = json::array();
  for (const auto& c : list) out.push_back(c.text());
  return out;
}
std::vector<Capability> capabilities_from(const json& j) {
  std::vector<Capability> out;
  for (const auto& c : j) out.push_back(capability_from(c));
  return out;
}

// ---- facts the server reads ---------------------------------------------------------------

json to_json_value(const KernelInfo& k) {
  json shared = json::array();
  for (const auto& s : k.shared_variables)
    shared.push_back({{"name", s.name},
                      {"location", to_json_value(s.location)},
                      {"bytes", s.bytes},
                      {"dynamic", s.is_dynamic},
                      {"alignment", s.declared_alignment}});
  return {{"name", k.name},
          {"qualified_name", k.qualified_name},
          {"location", to_json_value(k.location)},
          {"body", to_json_value(k.body_range)},
          {"max_threads", optional_value(k.max_threads_per_block)},
          {"min_blocks", optional_value(k.min_blocks_per_sm)},
          {"shared", std::move(shared)},
          {"static_shared_bytes", k.static_shared_bytes},
          {"has_code", k.has_code}};
}

KernelInfo kernel_from(const json& j) {
  KernelInfo k;
  k.name = j.at("name").get<std::string>();
  k.qualified_name = j.at("qualified_name").get<std::string>();
  k.location = location_from(j.at("location"));
  k.body_range = range_from(j.at("body"));
  k.max_threads_per_block = optional_u32(j, "max_threads");
  k.min_blocks_per_sm = optional_u32(j, "min_blocks");
  for (const auto& s : j.at("shared")) {
    SharedVariable v;
    v.name = s.at("name").get<std::string>();
    v.location = location_from(s.at("location"));
    v.bytes = s.at("bytes").get<uint64_t>();
    v.is_dynamic = s.at("dynamic").get<bool>();
    v.declared_alignment = s.at("alignment").get<uint64_t>();
    k.shared_variables.push_back(std::move(v));
  }
  k.static_shared_bytes = j.at("static_shared_bytes").get<uint64_t>();
  k.has_code = j.at("has_code").get<bool>();
  return k;
}

json to_json_value(const LaunchSite& l) {
  return {{"kernel", l.kernel_name},
          {"location", to_json_value(l.location)},
          {"dynamic_shared_bytes", optional_value(l.dynamic_shared_bytes)},
          {"dynamic_shared_range", to_json_value(l.dynamic_shared_range)},
          {"block",
           json::array({optional_value(l.block_x), optional_value(l.block_y), optional_value(l.block_z)})}};
}

LaunchSite launch_from(const json& j) {
  LaunchSite l;
  l.kernel_name = j.at("kernel").get<std::string>();
  l.location = location_from(j.at("location"));
  l.dynamic_shared_bytes = optional_u64(j, "dynamic_shared_bytes");
  l.dynamic_shared_range = range_from(j.at("dynamic_shared_range"));
  const json& block = j.at("block");
  auto dim = [&](size_t i) -> std::optional<uint32_t> {
    if (block.at(i).is_null()) return std::nullopt;
    return block.at(i).get<uint32_t>();
  };
  l.block_x = dim(0);
  l.block_y = dim(1);
  l.block_z = dim(2);
  return l;
}

json facts_to_json(const UnitFacts& facts) {
  json uses = json::array(), kernels = json::array(), launches = json::array(), opt_ins = json::array();
  for (const auto& u : facts.feature_uses)
    uses.push_back({{"feature", u.feature_id},
                    {"spelling", u.spelling},
                    {"location", to_json_value(u.location)},
                    {"function", u.function}});
  for (const auto& k : facts.kernels) kernels.push_back(to_json_value(k));
  for (const auto& l : facts.launches) launches.push_back(to_json_value(l));
  for (const auto& o : facts.shared_opt_ins)
    opt_ins.push_back({{"kernel", o.kernel_name},
                       {"location", to_json_value(o.location)},
                       {"bytes", optional_value(o.bytes)}});
  return {{"feature_uses", std::move(uses)},
          {"kernels", std::move(kernels)},
          {"launches", std::move(launches)},
          {"opt_ins", std::move(opt_ins)},
          {"arch_dependent", facts.arch_dependent}};
}

UnitFacts facts_from(const json& j) {
  UnitFacts facts;
  for (const auto& u : j.at("feature_uses"))
    facts.feature_uses.push_back({u.at("feature").get<std::string>(), u.at("spelling").get<std::string>(),
                                  location_from(u.at("location")), u.at("function").get<std::string>()});
  for (const auto& k : j.at("kernels")) facts.kernels.push_back(kernel_from(k));
  for (const auto& l : j.at("launches")) facts.launches.push_back(launch_from(l));
  for (const auto& o : j.at("opt_ins"))
    facts.shared_opt_ins.push_back(
        {o.at("kernel").get<std::string>(), location_from(o.at("location")), optional_u64(o, "bytes")});
  facts.arch_dependent = j.at("arch_dependent").get<bool>();
  return facts;
}

// ---- coverage, made in the worker from the access records that stay there ----------------

json to_json_value(const KernelCoverage& c) {
  return {{"name", c.name},
          {"location", to_json_value(c.location)},
          {"loads", c.global_loads},
          {"stores", c.global_stores},
          {"unjudged", c.unjudged},
          {"shared", c.shared_accesses},
          {"shared_unjudged", c.shared_unjudged},
          {"has_code", c.has_code}};
}

KernelCoverage kernel_coverage_from(const json& j) {
  KernelCoverage c;
  c.name = j.at("name").get<std::string>();
  c.location = location_from(j.at("location"));
  c.global_loads = j.at("loads").get<uint32_t>();
  c.global_stores = j.at("stores").get<uint32_t>();
  c.unjudged = j.at("unjudged").get<uint32_t>();
  c.shared_accesses = j.value("shared", uint32_t{0});
  c.shared_unjudged = j.value("shared_unjudged", uint32_t{0});
  c.has_code = j.at("has_code").get<bool>();
  return c;
}

const char* operation_name(WorkerOperation op) {
  switch (op) {
    case WorkerOperation::Source:
      return "source";
    case WorkerOperation::BuildToml:
      return "build_toml";
    case WorkerOperation::Forget:
      return "forget";
    case WorkerOperation::ForgetAll:
      return "forget_all";
    case WorkerOperation::Cancel:
      return "cancel";
  }
  return "source";
}

WorkerOperation operation_from(const std::string& name) {
  for (auto op : {WorkerOperation::Source, WorkerOperation::BuildToml, WorkerOperation::Forget,
                  WorkerOperation::ForgetAll, WorkerOperation::Cancel})
    if (name == operation_name(op)) return op;
  throw std::runtime_error("unknown worker operation `" + name + "`");
}

}  // namespace

json paths_to_json(const std::vector<std::filesystem::path>& paths) {
  json out = json::array();
  for (const auto& path : paths) out.push_back(path.string());
  return out;
}

json settings_to_json(const AnalysisSettings& s) {
  json severities = json::object();
  for (const auto& [rule, severity] : s.severity_overrides) severities[rule] = severity_name(severity);
  return {{"cuda_path", s.cuda_path ? json(s.cuda_path->string()) : json(nullptr)},
          {"extra_flags", s.extra_flags},
          {"torch_include_path", paths_to_json(s.torch_include_path)},
          {"cutlass_path", paths_to_json(s.cutlass_path)},
          {"arch_override", capabilities_to_json(s.arch_override)},
          {"default_archs", capabilities_to_json(s.default_archs)},
          {"severities", std::move(severities)},
          {"disabled_rules", s.disabled_rules},
          {"assumed_pointer_alignment", s.assumed_pointer_alignment},
          {"use_compile_commands", s.use_compile_commands},
          {"cache_parses", s.cache_parses},
          {"configuration_threads", s.configuration_threads},
          {"shared_pch", s.shared_pch},
          {"pch_dir", s.pch_dir.string()}};
}

AnalysisSettings settings_from_json(const json& j) {
  AnalysisSettings s;
  if (!j.at("cuda_path").is_null()) s.cuda_path = std::filesystem::path(j.at("cuda_path").get<std::string>());
  s.extra_flags = j.at("extra_flags").get<std::vector<std::string>>();
  for (const auto& dir : j.at("torch_include_path").get<std::vector<std::string>>())
    s.torch_include_path.emplace_back(dir);
  for (const auto& dir : j.at("cutlass_path").get<std::vector<std::string>>()) s.cutlass_path.emplace_back(dir);
  s.arch_override = capabilities_from(j.at("arch_override"));
  s.default_archs = capabilities_from(j.at("default_archs"));
  for (const auto& [rule, severity] : j.at("severities").items())
    s.severity_overrides[rule] = severity_from(severity);
  s.disabled_rules = j.at("disabled_rules").get<std::set<std::string>>();
  s.assumed_pointer_alignment = j.at("assumed_pointer_alignment").get<uint32_t>();
  s.use_compile_commands = j.at("use_compile_commands").get<bool>();
  s.cache_parses = j.at("cache_parses").get<bool>();
  s.configuration_threads = j.value("configuration_threads", 1u);
  s.shared_pch = j.value("shared_pch", true);
  s.pch_dir = j.value("pch_dir", std::string());
  return s;
}

ChannelMessage encode_request(const WorkerRequest& r) {
  ChannelMessage m;
  m.header = {{"id", r.id}, {"op", operation_name(r.operation)}};
  if (r.operation == WorkerOperation::Source || r.operation == WorkerOperation::BuildToml ||
      r.operation == WorkerOperation::Forget)
    m.header["file"] = r.file.string();
  if (r.operation == WorkerOperation::Source || r.operation == WorkerOperation::BuildToml)
    m.blobs.push_back(r.text);
  if (r.project) {
    m.header["build_toml"] = r.project->build_toml.string();
    m.blobs.push_back(r.project->text);
  }
  return m;
}

WorkerRequest decode_request(const ChannelMessage& m) {
  WorkerRequest r;
  r.id = m.header.at("id").get<uint64_t>();
  r.operation = operation_from(m.header.at("op").get<std::string>());
  if (auto it = m.header.find("file"); it != m.header.end()) r.file = it->get<std::string>();
  size_t blob = 0;
  if (r.operation == WorkerOperation::Source || r.operation == WorkerOperation::BuildToml) {
    if (m.blobs.size() <= blob) throw std::runtime_error("request without its text");
    r.text = m.blobs[blob++];
  }
  if (auto it = m.header.find("build_toml"); it != m.header.end()) {
    if (m.blobs.size() <= blob) throw std::runtime_error("request without its build.toml text");
    r.project = ProjectText{it->get<std::string>(), m.blobs[blob++]};
  }
  return r;
}

json analysis_to_json(const FileAnalysis& a) {
  json findings = json::array(), timings = json::array(), coverage = json::array();
  for (const auto& f : a.findings) findings.push_back(to_json_value(f));
  for (const auto& c : a.coverage) coverage.push_back(to_json_value(c));
  for (const auto& t : a.timings) timings.push_back({{"stage", t.stage}, {"ms", t.milliseconds}});
  json archs = {
      {"archs", capabilities_to_json(a.archs.archs)},
      {"origin", a.archs.origin},
      {"origin_location", a.archs.origin_location ? to_json_value(*a.archs.origin_location) : json(nullptr)},
      {"assumed", a.archs.assumed}};
  return {{"findings", std::move(findings)},
          {"timings", std::move(timings)},
          {"archs", std::move(archs)},
          {"build_toml", a.build_toml ? json(a.build_toml->string()) : json(nullptr)},
          {"missing_headers", a.missing_headers},
          {"inputs", a.inputs},
          {"facts", facts_to_json(a.facts)},
          {"coverage", std::move(coverage)},
          {"cancelled", a.cancelled},
          {"partial", a.partial},
          {"archs_pending", capabilities_to_json(a.archs_pending)}};
}

FileAnalysis analysis_from_json(const json& j) {
  FileAnalysis a;
  for (const auto& f : j.at("findings")) a.findings.push_back(finding_from(f));
  for (const auto& t : j.at("timings"))
    a.timings.push_back({t.at("stage").get<std::string>(), t.at("ms").get<double>()});
  const json& archs = j.at("archs");
  a.archs.archs = capabilities_from(archs.at("archs"));
  a.archs.origin = archs.at("origin").get<std::string>();
  if (!archs.at("origin_location").is_null())
    a.archs.origin_location = location_from(archs.at("origin_location"));
  a.archs.assumed = archs.value("assumed", false);
  if (!j.at("build_toml").is_null())
    a.build_toml = std::filesystem::path(j.at("build_toml").get<std::string>());
  a.missing_headers = j.at("missing_headers").get<std::vector<std::string>>();
  if (auto inputs = j.find("inputs"); inputs != j.end()) a.inputs = inputs->get<std::vector<std::string>>();
  a.facts = facts_from(j.at("facts"));
  for (const auto& c : j.at("coverage")) a.coverage.push_back(kernel_coverage_from(c));
  a.cancelled = j.at("cancelled").get<bool>();
  a.partial = j.value("partial", false);
  if (auto pending = j.find("archs_pending"); pending != j.end()) a.archs_pending = capabilities_from(*pending);
  return a;
}

ChannelMessage encode_reply(const WorkerReply& r) {
  ChannelMessage m;
  m.header = {{"id", r.id}};
  if (r.partial) m.header["partial"] = true;
  if (r.analysis)
    m.header["analysis"] = analysis_to_json(*r.analysis);
  else
    m.header["error"] = r.error;
  return m;
}

WorkerReply decode_reply(const ChannelMessage& m) {
  WorkerReply r;
  r.id = m.header.at("id").get<uint64_t>();
  r.partial = m.header.value("partial", false);
  if (auto it = m.header.find("analysis"); it != m.header.end())
    r.analysis = analysis_from_json(*it);
  else
    r.error = m.header.value("error", std::string("no analysis in the reply"));
  return r;
}

}  // namespace kl::analyzers
