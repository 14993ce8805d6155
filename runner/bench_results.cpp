#include "runner/bench_results.h"

#include <algorithm>
#include <utility>

namespace kl::runner {
using nlohmann::json;

const PeerTiming* BenchRow::peer(std::string_view impl) const {
  for (const auto& p : peers)
    if (p.impl == impl) return &p;
  return nullptr;
}

std::optional<double> BenchRow::speedup_vs_best() const {
  if (!ours_us || !best_peer) return std::nullopt;
  return peer(*best_peer)->speedup;
}

std::vector<std::string> BenchResults::ops() const {
  std::vector<std::string> out;
  for (const auto& row : rows)
    if (std::find(out.begin(), out.end(), row.op) == out.end()) out.push_back(row.op);
  return out;
}

std::vector<std::string> BenchResults::peers(std::string_view op) const {
  std::vector<std::string> out;
  for (const auto& row : rows) {
    if (!op.empty() && row.op != op) continue;
    auto note = [&](const std::string& impl) {
      if (std::find(out.begin(), out.end(), impl) == out.end()) out.push_back(impl);
    };
    for (const auto& p : row.peers) note(p.impl);
    // A peer that failed everywhere still gets its column (it shows the failures).
    for (const auto& [impl, message] : row.errors)
      if (impl != "ours") note(impl);
  }
  return out;
}

namespace {

bool is_variant_of_ours(const std::string& impl) { return impl != "ours" && impl.rfind("ours", 0) == 0; }

// One raw row of the Recorder, checked.
struct RawRow {
  std::string op, shape, impl;
  std::optional<double> us, us_median, gbs, pct_copy, min_bytes;
  int rounds = 1;
  std::optional<std::string> error;
};

Result<std::optional<double>> optional_number(const json& row, const char* key, const std::string& where,
                                              bool positive) {
  auto it = row.find(key);
  if (it == row.end() || it->is_null()) return std::optional<double>();
  if (!it->is_number()) return make_error(where + ": \"" + key + "\" is not a number (" + it->dump() + ")");
  double value = it->get<double>();
  if (positive && !(value > 0))
    return make_error(where + ": \"" + key + "\" must be a positive time, not " + it->dump());
  return std::optional<double>(value);
}

Result<RawRow> read_row(const json& row, size_t index) {
  std::string where = "rows[" + std::to_string(index) + "]";
  if (!row.is_object()) return make_error(where + " is not an object (" + std::string(row.type_name()) + ")");
  RawRow raw;
  using TextField = std::pair<const char*, std::string*>;
  for (auto [key, field] :
       {TextField{"op", &raw.op}, TextField{"shape", &raw.shape}, TextField{"impl", &raw.impl}}) {
    auto it = row.find(key);
    if (it == row.end() || !it->is_string())
      return make_error(where + ": \"" + key + "\" is missing or not a string");
    *field = it->get<std::string>();
  }
  where += " (" + raw.op + ", " + raw.shape + ", " + raw.impl + ")";
  struct NumberField {
    const char* key;
    std::optional<double>* field;
    bool positive;
  };
  for (auto [key, field, positive] :
       {NumberField{"us", &raw.us, true}, NumberField{"us_median", &raw.us_median, true},
        NumberField{"gbs", &raw.gbs, false}, NumberField{"pct_copy", &raw.pct_copy, false},
        NumberField{"min_bytes", &raw.min_bytes, false}}) {
    auto value = optional_number(row, key, where, positive);
    if (!value) return value.error();
    *field = *value;
  }
  if (auto it = row.find("rounds_us"); it != row.end() && it->is_array() && !it->empty())
    raw.rounds = static_cast<int>(it->size());
  if (auto it = row.find("error"); it != row.end() && !it->is_null())
    raw.error = it->is_string() ? it->get<std::string>() : it->dump();
  return raw;
}

double time_of(const RawRow& raw) { return raw.us_median ? *raw.us_median : *raw.us; }

void set_ours(BenchRow& row, const RawRow& raw, double copy_gbs) {
  if (raw.error) row.errors["ours"] = *raw.error;
  if (!raw.us && !raw.us_median) {
    if (!raw.error) row.errors["ours"] = "no time recorded";
    return;
  }
  double us = time_of(raw);
  row.ours_us = us;
  row.ours_rounds = raw.us_median ? raw.rounds : 1;
  // The Recorder's gbs / pct_copy belong to the single timing; scale them to the time shown.
  double scale = raw.us ? *raw.us / us : 1.0;
  if (raw.gbs)
    row.gbs = *raw.gbs * scale;
  else if (raw.min_bytes)
    row.gbs = *raw.min_bytes / (us * 1e-6) / 1e9;
  if (raw.pct_copy)
    row.pct_copy = *raw.pct_copy * scale;
  else if (row.gbs && copy_gbs > 0)
    row.pct_copy = 100.0 * *row.gbs / copy_gbs;
}

void add_peer(BenchRow& row, const RawRow& raw) {
  if (raw.error) row.errors[raw.impl] = *raw.error;
  if (row.peer(raw.impl)) return;  // measured twice: the first timing counts
  if (!raw.us && !raw.us_median) {
    if (!raw.error) row.errors[raw.impl] = "no time recorded";
    return;
  }
  row.peers.push_back({raw.impl, time_of(raw), 0});
}

// Speedups and the best peer, once ours and every peer of the row are in.
void settle(BenchRow& row) {
  const PeerTiming* best = nullptr;
  for (auto& p : row.peers) {
    p.speedup = row.ours_us ? p.us / *row.ours_us : 0;
    if (!best || p.us < best->us) best = &p;
  }
  if (best) row.best_peer = best->impl;
}

}  // namespace

Result<BenchResults> bench_results_from_json(const json& document) {
  if (!document.is_object())
    return make_error("the benchmark results are not a JSON object (found " +
                      std::string(document.type_name()) + ")");
  BenchResults results;
  if (auto it = document.find("copy_gbs"); it != document.end() && !it->is_null()) {
    if (!it->is_number() || !(it->get<double>() > 0))
      return make_error("\"copy_gbs\" is not a positive number (" + it->dump() + ")");
    results.copy_gbs = it->get<double>();
  }
  if (auto it = document.find("machine"); it != document.end() && !it->is_null()) {
    if (!it->is_object()) return make_error("\"machine\" is not an object (" + it->dump() + ")");
    results.machine = *it;
  }
  if (auto it = document.find("date_utc"); it != document.end() && it->is_string())
    results.date_utc = it->get<std::string>();
  auto rows = document.find("rows");
  if (rows == document.end() || !rows->is_array())
    return make_error("the benchmark results have no \"rows\" array (bench_util.Recorder's format)");

  std::map<std::pair<std::string, std::string>, size_t> index_of;
  for (size_t i = 0; i < rows->size(); ++i) {
    auto raw = read_row((*rows)[i], i);
    if (!raw) return raw.error();
    if (is_variant_of_ours(raw->impl)) continue;
    auto key = std::pair{raw->op, raw->shape};
    auto [it, added] = index_of.try_emplace(key, results.rows.size());
    if (added) results.rows.push_back(BenchRow{raw->op, raw->shape});
    BenchRow& row = results.rows[it->second];
    if (raw->impl != "ours")
      add_peer(row, *raw);
    else if (!row.ours_us && !row.errors.count("ours"))
      set_ours(row, *raw, results.copy_gbs);
  }
  for (auto& row : results.rows) {
    if (!row.ours_us && !row.errors.count("ours")) row.errors["ours"] = "not measured";
    settle(row);
  }
  return results;
}

Result<BenchResults> parse_bench_results(std::string_view json_text) {
  json document;
  try {
    document = json::parse(json_text);
  } catch (const json::parse_error& e) {
    // e.what() says where: "parse error at line 3, column 5: syntax error while parsing ..."
    return make_error(std::string("the benchmark results are not valid JSON: ") + e.what());
  }
  return bench_results_from_json(document);
}

namespace {
json number_or_null(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }
}  // namespace

json to_json(const BenchResults& results) {
  json rows = json::array();
  for (const auto& row : results.rows) {
    json peers_us = json::object(), speedup = json::object();
    for (const auto& p : row.peers) {
      peers_us[p.impl] = p.us;
      if (row.ours_us) speedup[p.impl] = p.speedup;
    }
    rows.push_back({{"op", row.op},
                    {"shape", row.shape},
                    {"time_us", number_or_null(row.ours_us)},
                    {"rounds", row.ours_rounds},
                    {"gbs", number_or_null(row.gbs)},
                    {"pct_copy", number_or_null(row.pct_copy)},
                    {"peers_us", peers_us},
                    {"speedup", speedup},
                    {"best_peer", row.best_peer ? json(*row.best_peer) : json(nullptr)},
                    {"speedup_vs_best", number_or_null(row.speedup_vs_best())},
                    {"errors", row.errors}});
  }
  return {{"copy_gbs", results.copy_gbs > 0 ? json(results.copy_gbs) : json(nullptr)},
          {"machine", results.machine},
          {"date_utc", results.date_utc.empty() ? json(nullptr) : json(results.date_utc)},
          {"peers", results.peers()},
          {"rows", rows}};
}

std::vector<std::optional<double>> ours_time_change_pct(const BenchResults& current,
                                                        const BenchResults& previous) {
  std::map<std::pair<std::string, std::string>, double> before;
  for (const auto& row : previous.rows)
    if (row.ours_us) before.emplace(std::pair{row.op, row.shape}, *row.ours_us);
  std::vector<std::optional<double>> changes;
  for (const auto& row : current.rows) {
    auto it = before.find({row.op, row.shape});
    if (row.ours_us && it != before.end())
      changes.push_back(100.0 * (*row.ours_us - it->second) / it->second);
    else
      changes.emplace_back();
  }
  return changes;
}

}  // namespace kl::runner
