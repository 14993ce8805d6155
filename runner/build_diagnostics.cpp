#include "runner/build_diagnostics.h"

#include <algorithm>

#include "runner/compiler_messages.h"

namespace kl::runner {
namespace {

bool inside(const std::filesystem::path& file, const std::filesystem::path& folder) {
  auto [f, d] = std::mismatch(file.begin(), file.end(), folder.begin(), folder.end());
  return d == folder.end();
}

// A message in a file outside the project (a torch or CUDA header) is no use where the user
// cannot see or edit it: like clangd's "in included file", it is shown at the first place in
// the project its context names (the #include of the chain, the line that instantiated the
// template), and its own position becomes the first note.
void move_into_project(analyzers::Finding& finding, const std::filesystem::path& project) {
  std::filesystem::path file = std::filesystem::path(finding.location.file).lexically_normal();
  if (finding.location.file.empty() || inside(file, project)) return;
  auto in_project =
      std::find_if(finding.notes.begin(), finding.notes.end(), [&](const analyzers::RelatedNote& n) {
        return !n.location.file.empty() &&
               inside(std::filesystem::path(n.location.file).lexically_normal(), project);
      });
  if (in_project == finding.notes.end()) return;
  analyzers::RelatedNote original{finding.location,
                                  "the message is about " + file.filename().string() + ", here"};
  finding.location = in_project->location;
  finding.message = "in included file " + file.filename().string() + ": " + finding.message;
  finding.notes.insert(finding.notes.begin(), std::move(original));
}

}  // namespace

std::vector<analyzers::Finding> build_diagnostics(const BuildReport& report,
                                                  const KernelLocator& locate_kernel) {
  std::vector<UnitMessages> units;
  for (const auto& unit : report.units) {
    if (unit.skipped || unit.stopped) continue;  // a stopped compile's output is cut short
    units.push_back(
        {unit.source, unit.capability, parse_compiler_output(unit.compiler_output, report.project)});
  }
  std::vector<analyzers::Finding> findings = compiler_findings(units, locate_kernel);
  std::filesystem::path project = report.project.lexically_normal();
  for (auto& f : findings) move_into_project(f, project);
  return findings;
}

}  // namespace kl::runner
