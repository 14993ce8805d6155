#pragma once
// Every file and folder kernel-lsp reads at run time from its resources, by its path under the
// resource root (find_resource in fs_paths.h: share/kernel-lsp/ when installed, the source tree
// when run from a build). The tree is the same in both places: cli/CMakeLists.txt installs each
// of these at its source path, as the `resources` component that the install and the portable
// bundle share, and CTest `cli.resources_installed` checks that every name here is installed and
// that no code looks a resource up by a path written elsewhere.
namespace kl::resources {

// Headers the parse puts in front of CUDA's and PyTorch's (analyzers/frontend).
inline constexpr const char* kCudaShims = "analyzers/frontend/shims";
inline constexpr const char* kTorchStandIn = "analyzers/frontend/torch_standin";
// kernel-builder's defaults, which build_local.py reads on a benchmark machine (kernel-lsp
// itself reads the copy compiled into it).
inline constexpr const char* kBuilderDefaults = "analyzers/data/builder_defaults.toml";
// The bundled agent skills and the snippet catalog (guidance).
inline constexpr const char* kSkills = "skills";
inline constexpr const char* kSnippetConstructs = "snippets/constructs.toml";
// The reference kernels' shared sources and the local builder (runner, clangd configuration).
inline constexpr const char* kKernelsCommon = "kernels/common";
inline constexpr const char* kKernelRegistrationHeader = "kernels/common/registration.h";
inline constexpr const char* kBuildLocal = "kernels/tools/build_local.py";
inline constexpr const char* kVariantLayout = "kernels/tools/variant_layout.py";
// The runner's scripts: benchmarks, the machine probe, remote runs, plots.
inline constexpr const char* kProbeMachine = "runner/scripts/probe_machine.py";
inline constexpr const char* kRunKernelsBenchmarks = "runner/scripts/run_kernels_benchmarks.py";
inline constexpr const char* kBenchOnRunner = "runner/scripts/bench_on_runner.sh";
inline constexpr const char* kPlotBench = "runner/scripts/plot_bench.py";
// The pytest plugin `kernel-lsp test` loads to record the shapes the tests give the operators.
inline constexpr const char* kPytestShapesPlugin = "runner/scripts/kernel_lsp_shapes.py";

}  // namespace kl::resources
