#include "runner/project_bench.h"

#include "support/fs_paths.h"
#include "support/process.h"

namespace kl::runner {
namespace fs = std::filesystem;

Result<BenchOutcome> run_benchmark(const BenchRequest& request) {
  fs::path script = request.project / "benchmarks" / "benchmark.py";
  if (!fs::exists(script)) return make_error("no benchmarks/benchmark.py in " + request.project.string());
  if (find_on_path(request.python).empty() && !fs::exists(request.python))
    return make_error(request.python + " not found: benchmarks need python3 with torch");

  ProcessRequest probe{request.python,
                       {"-c", "import sys\ntry:\n import torch\nexcept Exception:\n sys.exit(3)\n"
                              "sys.exit(0 if torch.cuda.is_available() else 4)"}};
  probe.timeout = std::chrono::minutes(2);
  auto probed = run_process(probe);
  if (!probed) return probed.error();
  if (probed->exit_code == 3) return make_error("torch is not installed for " + request.python + ": cannot benchmark");
  if (probed->exit_code == 4) return make_error("torch sees no CUDA GPU on this machine: benchmarks need one");
  if (probed->exit_code != 0) return make_error("python3 failed: " + probed->stderr_text);

  auto builder = find_resource("kernels/tools/build_local.py");
  if (!builder) return make_error("the local builder (kernels/tools/build_local.py) is not installed");
  fs::path build_dir = request.build_dir.empty() ? request.project.parent_path() / "build" : request.build_dir;
  BenchOutcome outcome;
  auto forward = [&](std::string_view chunk) {
    outcome.output.append(chunk);
    if (request.on_output) request.on_output(chunk);
  };
  ProcessRequest build{request.python, {builder->string(), request.project.string(), "--out", build_dir.string()}};
  build.timeout = std::chrono::minutes(30);
  build.on_output = forward;
  build.should_stop = [&] { return request.cancel && request.cancel->is_cancelled(); };
  auto built = run_process(build);
  if (!built) return built.error();
  if (built->exit_code != 0) {
    outcome.exit_code = built->exit_code;
    return outcome;
  }
  std::vector<std::string> args = {script.string()};
  if (!request.json_output.empty()) {
    args.push_back("--json");
    args.push_back(request.json_output.string());
  }
  ProcessRequest bench{request.python, args};
  bench.timeout = std::chrono::hours(1);
  bench.on_output = forward;
  bench.should_stop = build.should_stop;
  bench.extra_environment["PYTHONPATH"] = (build_dir / request.project.filename()).string();
  auto ran = run_process(bench);
  if (!ran) return ran.error();
  outcome.exit_code = ran->exit_code;
  return outcome;
}

}  // namespace kl::runner
