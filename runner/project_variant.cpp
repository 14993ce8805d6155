#include "runner/project_variant.h"

#include "support/fs_paths.h"
#include "support/process.h"
#include "support/resources.h"

namespace kl::runner {

namespace {

// The builder ends with "build_local: <name>: variant at <folder>".
std::filesystem::path folder_named_in(const std::string& output) {
  const std::string marker = ": variant at ";
  size_t at = output.rfind(marker);
  if (at == std::string::npos) return {};
  size_t end = output.find('\n', at);
  return output.substr(at + marker.size(), end == std::string::npos ? std::string::npos : end - at - marker.size());
}

std::string joined(const std::vector<std::string>& values) {
  std::string out;
  for (const auto& v : values) out += (out.empty() ? "" : ",") + v;
  return out;
}

}  // namespace

Result<VariantOutcome> build_variant(const VariantRequest& request) {
  auto builder = find_resource(resources::kBuildLocal);
  if (!builder)
    return make_error("the local builder (kernels/tools/build_local.py) is not installed with kernel-lsp");
  ProcessRequest build{request.python, {builder->string(), request.project.string(), "--layout", "variant"}};
  if (!request.capabilities.empty()) build.args.insert(build.args.end(), {"--caps", joined(request.capabilities)});
  build.timeout = std::chrono::minutes(30);
  std::string output;
  build.on_output = [&](std::string_view chunk) {
    output.append(chunk);
    if (request.on_output) request.on_output(chunk);
  };
  build.should_stop = [&] { return request.cancel && request.cancel->is_cancelled(); };
  auto ran = run_process(build);
  if (!ran) return ran.error();
  VariantOutcome outcome;
  outcome.exit_code = ran->exit_code;
  outcome.cancelled = ran->stopped;
  if (ran->exit_code == 0 && !ran->stopped) outcome.folder = folder_named_in(output);
  if (ran->exit_code == 0 && outcome.folder.empty()) outcome.exit_code = 1;  // the builder said nothing of it
  return outcome;
}

}  // namespace kl::runner
