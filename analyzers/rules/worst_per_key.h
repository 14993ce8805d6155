#pragma once
// One finding per place when several records name it. A file is parsed once per target arch
// (and an inlined device function yields a record per calling kernel), so one source access can
// have several records with different verdicts; a rule reports each place once, with its worst
// record. Each rule keeps its own notion of "the same place" (the key) and of "worse".
//
// Contract: per key, the first record offered is kept until a strictly worse one is offered (so
// among equally bad records the first wins); entries() lists the keys in the order they were
// first offered, so findings keep the order of the parses and records that produced them. Holds
// pointers to the records offered: they must outlive the WorstPerKey.
#include <cstddef>
#include <map>
#include <vector>

namespace kl::analyzers {

struct NoExtra {};

// `Extra` is what a rule gathers per key besides the worst record (e.g. every kernel the place
// was seen in); it starts value-initialised.
template <class Key, class Record, class Extra = NoExtra>
class WorstPerKey {
 public:
  struct Entry {
    const Record* worst = nullptr;
    Extra extra{};
  };

  // Offers `record` under `key`; `worse(a, b)` says whether record a is strictly worse than b.
  // Returns the key's entry, for the rule to update its Extra.
  template <class Worse>
  Entry& offer(const Key& key, const Record& record, Worse worse) {
    auto [it, inserted] = index_.try_emplace(key, entries_.size());
    if (inserted) {
      entries_.push_back(Entry{&record, Extra{}});
      return entries_.back();
    }
    Entry& entry = entries_[it->second];
    if (worse(record, *entry.worst)) entry.worst = &record;
    return entry;
  }

  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::map<Key, size_t> index_;  // key -> position in entries_
  std::vector<Entry> entries_;
};

}  // namespace kl::analyzers
