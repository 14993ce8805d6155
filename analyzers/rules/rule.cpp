#include "analyzers/rules/rule.h"

namespace kl::analyzers {

Finding Rule::finding(Location location, std::string message) const {
  Finding f;
  f.rule_id = std::string(id);
  f.severity = default_severity;
  f.location = std::move(location);
  f.message = std::move(message);
  return f;
}

}  // namespace kl::analyzers
