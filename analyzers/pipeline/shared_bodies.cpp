#include "analyzers/pipeline/shared_bodies.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <unordered_map>

namespace kl::analyzers {

namespace {

// A node of the name graph: a definition of the index, or code at namespace scope that only one
// of the two configurations sees.
struct Node {
  const IdentifierSet* names;
  const IdentifierSet* mentions;
  bool kernel = false, device = false, host = false;
  bool feature = false;              // the first parse found an arch feature in it
  bool declaration_differs = false;  // differs outside a function body (see the header)
  bool differs = false;

  bool has_functions() const { return kernel || device || host; }
  // Device-only code: a change inside its body reaches only device code (see the header).
  bool device_only() const { return has_functions() && !host; }
};

struct DifferingCode {
  std::vector<std::pair<size_t, bool>> definitions;  // index into the index's definitions, outside its body
  std::vector<IdentifierSet> namespace_names, namespace_mentions;  // per piece at namespace scope
};

ConfigurationEvents sorted(ConfigurationEvents events) {
  std::sort(events.begin(), events.end());
  return events;
}

// Marks the definitions an event of `range` overlaps; false when it overlaps none.
bool mark_definitions(const DefinitionIndex& index, uint32_t begin, uint32_t end, DifferingCode& code,
                      std::unordered_map<size_t, size_t>& marked) {
  bool placed = false;
  for (size_t d = 0; d < index.definitions.size(); ++d) {
    const Definition& definition = index.definitions[d];
    if (begin >= definition.end || end <= definition.begin) continue;
    placed = true;
    const bool in_body = definition.body_begin && begin > *definition.body_begin && end <= definition.end;
    auto [at, inserted] = marked.try_emplace(d, code.definitions.size());
    if (inserted)
      code.definitions.push_back({d, !in_body});
    else
      code.definitions[at->second].second = code.definitions[at->second].second || !in_body;
  }
  return placed;
}

// The code the two configurations see differently; empty when some of it is not placed in the
// main file's definitions or at its namespace scope (see the header). Skipped branches come
// before macro expansions, so that the expansions in a branch only one configuration has
// (`__device__` of its helper) are placed by the branch.
std::optional<DifferingCode> differing_code(const DefinitionIndex& index, std::string_view text,
                                            const ConfigurationEvents& first,
                                            const ConfigurationEvents& other) {
  const ConfigurationEvents a = sorted(first), b = sorted(other);
  ConfigurationEvents differing;
  std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(differing));
  auto is_expansion = [](const ConfigurationEvent& e) { return e.end == e.begin + 1; };
  std::stable_partition(differing.begin(), differing.end(), [&](const auto& e) { return !is_expansion(e); });
  DifferingCode code;
  std::unordered_map<size_t, size_t> marked;          // definition -> position in code.definitions
  std::vector<std::pair<uint32_t, uint32_t>> pieces;  // the branches placed at namespace scope
  for (const ConfigurationEvent& event : differing) {
    if (!event.in_main_file || event.end <= event.begin || event.end > text.size()) return std::nullopt;
    if (mark_definitions(index, event.begin, event.end, code, marked)) continue;
    if (is_expansion(event)) {
      bool in_piece = std::any_of(pieces.begin(), pieces.end(), [&](const auto& p) {
        return event.begin >= p.first && event.end <= p.second;
      });
      if (in_piece) continue;
      return std::nullopt;
    }
    std::string_view piece = text.substr(event.begin, event.end - event.begin);
    if (has_directive(piece, "include") || !braces_balance(piece)) return std::nullopt;
    pieces.emplace_back(event.begin, event.end);
    code.namespace_names.push_back(top_level_identifiers_in(piece));
    IdentifierSet mentions = identifiers_in(piece);
    add_macro_identifiers(mentions, index.macros);
    code.namespace_mentions.push_back(std::move(mentions));
  }
  return code;
}

// The name graph: which nodes name what a node mentions, and which mention what it is named.
class NameGraph {
 public:
  explicit NameGraph(const std::vector<Node>& nodes) : nodes(nodes) {
    for (size_t n = 0; n < nodes.size(); ++n) {
      for (const std::string& name : *nodes[n].names) named_[name].push_back(n);
      for (const std::string& name : *nodes[n].mentions) mentioning_[name].push_back(n);
    }
  }

  template <class Each>
  void for_each_mentioned(size_t n, const Each& each) const {
    for (const std::string& mention : *nodes[n].mentions)
      if (auto it = named_.find(mention); it != named_.end())
        for (size_t m : it->second) each(m);
  }
  template <class Each>
  void for_each_mentioner(size_t n, const Each& each) const {
    for (const std::string& name : *nodes[n].names)
      if (auto it = mentioning_.find(name); it != mentioning_.end())
        for (size_t m : it->second) each(m);
  }

  const std::vector<Node>& nodes;

 private:
  std::unordered_map<std::string, std::vector<size_t>> named_, mentioning_;
};

// Adds to `set` what `step(n, add)` reaches from its members, and so on; `add(m)` offers m.
template <class Step>
void close(std::vector<bool>& set, const Step& step) {
  std::vector<size_t> pending;
  for (size_t n = 0; n < set.size(); ++n)
    if (set[n]) pending.push_back(n);
  auto add = [&](size_t m) {
    if (set[m]) return;
    set[m] = true;
    pending.push_back(m);
  };
  while (!pending.empty()) {
    size_t n = pending.back();
    pending.pop_back();
    step(n, add);
  }
}

// The changed nodes (see the header), from the differing ones.
std::vector<bool> changed_nodes(const NameGraph& graph) {
  const std::vector<Node>& nodes = graph.nodes;
  std::vector<bool> changed(nodes.size(), false);
  for (size_t n = 0; n < nodes.size(); ++n) changed[n] = nodes[n].differs;
  close(changed, [&](size_t n, const auto& add) {
    const Node& node = nodes[n];
    const bool only_body_reaches = node.device_only() && !node.declaration_differs;
    graph.for_each_mentioner(n, [&](size_t m) {
      if (!only_body_reaches || nodes[m].device || nodes[m].kernel) add(m);
    });
    if (node.host)
      graph.for_each_mentioned(n, [&](size_t m) {
        if (nodes[m].kernel) add(m);
      });
    if (node.device || node.kernel) {
      // Device functions with an arch feature that this one's calls reach.
      std::vector<bool> reached(nodes.size(), false);
      reached[n] = true;
      close(reached, [&](size_t r, const auto& add_reached) {
        graph.for_each_mentioned(r, [&](size_t m) {
          if (nodes[m].device) add_reached(m);
        });
      });
      for (size_t m = 0; m < nodes.size(); ++m)
        if (reached[m] && m != n && nodes[m].feature) add(m);
    }
  });
  return changed;
}

// The nodes whose bodies a parse keeps: the changed ones and what they read (see the header).
std::vector<bool> kept_nodes(const NameGraph& graph, const std::vector<bool>& changed) {
  const std::vector<Node>& nodes = graph.nodes;
  std::vector<bool> kept = changed;
  std::vector<bool> context(nodes.size(), false);  // read for launches and reachability
  for (size_t n = 0; n < nodes.size(); ++n) {
    if (!changed[n]) continue;
    if (nodes[n].kernel) {
      std::vector<bool> launchers(nodes.size(), false);
      launchers[n] = true;
      close(launchers, [&](size_t l, const auto& add) { graph.for_each_mentioner(l, add); });
      for (size_t m = 0; m < nodes.size(); ++m) context[m] = context[m] || launchers[m];
    }
    if (nodes[n].feature && nodes[n].device) {
      std::vector<bool> callers(nodes.size(), false);
      callers[n] = true;
      close(callers, [&](size_t c, const auto& add) {
        graph.for_each_mentioner(c, [&](size_t m) {
          if (nodes[m].device || nodes[m].kernel) add(m);
        });
      });
      for (size_t m = 0; m < nodes.size(); ++m) context[m] = context[m] || callers[m];
    }
  }
  for (size_t m = 0; m < nodes.size(); ++m) kept[m] = kept[m] || context[m];
  // What kept code mentions, not going into kernels: a kept kernel's callees, a launcher's host
  // helpers.
  close(kept, [&](size_t n, const auto& add) {
    graph.for_each_mentioned(n, [&](size_t m) {
      if (!nodes[m].kernel) add(m);
    });
  });
  return kept;
}

bool within(const Position& p, const Range& range) { return range.start <= p && p < range.end; }

template <class Fact, class Anchor>
void carry(const std::vector<Fact>& first, std::vector<Fact>& other, const Anchor& anchored_in_unchanged) {
  std::erase_if(other, anchored_in_unchanged);
  for (const Fact& fact : first)
    if (anchored_in_unchanged(fact)) other.push_back(fact);
}

const Location& kernel_of(const Location& at, const std::vector<Location>& chain) {
  return chain.empty() ? at : chain.front();
}

// Whether every fact of `facts` is anchored in the main file. A fact anchored in a header (a
// kernel a header defines, a feature in a header's helper) is there because of main-file code
// that calls or instantiates it, which the index does not connect to it by name.
bool all_anchored_in(const UnitFacts& facts, const std::string& main_file) {
  auto in_main = [&](const Location& at) { return at.file == main_file; };
  return std::all_of(facts.feature_uses.begin(), facts.feature_uses.end(),
                     [&](const auto& f) { return in_main(f.location); }) &&
         std::all_of(facts.kernels.begin(), facts.kernels.end(),
                     [&](const auto& k) { return in_main(k.location); }) &&
         std::all_of(facts.launches.begin(), facts.launches.end(),
                     [&](const auto& l) { return in_main(l.location); }) &&
         std::all_of(facts.shared_opt_ins.begin(), facts.shared_opt_ins.end(),
                     [&](const auto& o) { return in_main(o.location); }) &&
         std::all_of(facts.accesses.begin(), facts.accesses.end(),
                     [&](const auto& a) { return in_main(kernel_of(a.location, a.call_chain)); }) &&
         std::all_of(facts.barriers.begin(), facts.barriers.end(),
                     [&](const auto& b) { return in_main(kernel_of(b.location, b.call_chain)); }) &&
         std::all_of(facts.shared_hazards.begin(), facts.shared_hazards.end(),
                     [&](const auto& h) { return in_main(kernel_of(h.second, h.call_chain)); });
}

std::vector<Node> nodes_of(const FirstParse& first, const std::string& main_file, DifferingCode& code) {
  std::vector<Node> nodes;
  for (const Definition& definition : first.index.definitions) {
    Node node{&definition.names, &definition.mentions, definition.kernel, definition.device, definition.host};
    node.feature = std::any_of(
        first.facts.feature_uses.begin(), first.facts.feature_uses.end(), [&](const FeatureUse& use) {
          return use.location.file == main_file && within(use.location.range.start, definition.range);
        });
    nodes.push_back(node);
  }
  for (const auto& [d, outside_body] : code.definitions) {
    nodes[d].differs = true;
    nodes[d].declaration_differs = outside_body;
  }
  for (size_t k = 0; k < code.namespace_names.size(); ++k) {
    Node node{&code.namespace_names[k], &code.namespace_mentions[k]};
    node.differs = node.declaration_differs = true;
    nodes.push_back(node);
  }
  return nodes;
}

}  // namespace

bool shared_bodies_disabled() {
  const char* v = std::getenv("KERNEL_LSP_DISABLE_SHARED_BODIES");  // read per file: tests turn it off and on
  return v && *v && std::string(v) != "0";
}

std::optional<SharedBodies> plan_shared_bodies(const FirstParse& first, std::string_view text,
                                               const std::string& main_file, const ConfigurationEvents& other,
                                               std::string* why_not) {
  auto none = [&](const char* why) -> std::optional<SharedBodies> {
    if (why_not) *why_not = why;
    return std::nullopt;
  };
  if (!all_anchored_in(first.facts, main_file)) return none("facts in a header");
  std::optional<DifferingCode> code = differing_code(first.index, text, first.events, other);
  if (!code) return none("a difference outside the main file's definitions");
  const std::vector<Node> nodes = nodes_of(first, main_file, *code);
  const NameGraph graph(nodes);
  const std::vector<bool> changed = changed_nodes(graph);
  const std::vector<bool> kept = kept_nodes(graph, changed);
  SharedBodies shared;
  for (size_t d = 0; d < first.index.definitions.size(); ++d) {
    const Definition& definition = first.index.definitions[d];
    if (definition.bodies.empty()) continue;
    if (!kept[d])
      shared.skipped.insert(shared.skipped.end(), definition.bodies.begin(), definition.bodies.end());
    if (!changed[d]) shared.unchanged.push_back(definition.range);
  }
  if (shared.skipped.empty()) return none("every body reaches a difference");
  std::sort(shared.skipped.begin(), shared.skipped.end());
  shared.skipped.erase(std::unique(shared.skipped.begin(), shared.skipped.end()), shared.skipped.end());
  return shared;
}

void carry_shared_facts(const UnitFacts& first, const SharedBodies& shared, const std::string& main_file,
                        UnitFacts& other) {
  auto in_unchanged = [&](const Location& at) {
    if (at.file != main_file) return false;
    return std::any_of(shared.unchanged.begin(), shared.unchanged.end(),
                       [&](const Range& region) { return within(at.range.start, region); });
  };
  // Records of the access model follow the kernel they were analysed from.
  carry(first.feature_uses, other.feature_uses,
        [&](const FeatureUse& f) { return in_unchanged(f.location); });
  carry(first.kernels, other.kernels, [&](const KernelInfo& k) { return in_unchanged(k.location); });
  carry(first.launches, other.launches, [&](const LaunchSite& l) { return in_unchanged(l.location); });
  carry(first.shared_opt_ins, other.shared_opt_ins,
        [&](const SharedMemoryOptIn& o) { return in_unchanged(o.location); });
  carry(first.accesses, other.accesses,
        [&](const MemoryAccess& a) { return in_unchanged(kernel_of(a.location, a.call_chain)); });
  carry(first.barriers, other.barriers,
        [&](const BarrierRecord& b) { return in_unchanged(kernel_of(b.location, b.call_chain)); });
  carry(first.shared_hazards, other.shared_hazards,
        [&](const SharedHazard& h) { return in_unchanged(kernel_of(h.second, h.call_chain)); });
}

}  // namespace kl::analyzers
