#!/usr/bin/env python3
"""Language-server benchmark: kernel-lsp against clangd on the same CUDA file and flags.

Measures, each in fresh server processes:
  1. first diagnostics: didOpen of a ~1,000-line kernel file → its first publishDiagnostics
     (kernel-lsp and clangd-19, same file, same clang flags, one target arch);
  2. re-lint after a one-character edit: didChange → publishDiagnostics for that version,
     median over N edits (kernel-lsp with debounceMs 0; clangd with its own debounce);
  3. resident memory (VmRSS, VmHWM) with 50 different 1,000-line files open and analysed.

Usage: lsp_bench.py --server build/cli/kernel-lsp [--clangd clangd-19] [--runs 5] [--edits 20]
                    [--files 50] [--json results.json]
Standard library only. Prints a Markdown table; --json writes the raw numbers.

--load N runs N busy processes beside the servers for the whole measurement (cpu_load.py);
--shipped-defaults starts kernel-lsp with no debounceMs (its adaptive debounce, as an editor
gets it) and clangd with its default preamble storage. Both are recorded in the JSON.

Scenario mode (--scenarios all, or a comma-separated list of generated, llmc-attention-backward,
llmc-default-capabilities, build-toml-5-archs): the same measurements on several files, each
with the time to the first and to the final publishDiagnostics of a version (scenario_bench.py,
scenarios.py, README.md).
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import cpu_load  # noqa: E402
import make_kernel  # noqa: E402
import scenario_bench  # noqa: E402
import scenario_report  # noqa: E402
import scenarios  # noqa: E402
from lsp_client import Lsp, diagnostics_for, initialize, open_file, uri  # noqa: E402


class Servers:
    def __init__(self, args, project):
        self.args = args
        self.project = project

    def kernel_lsp_in_process(self):
        # The same server analysing in its own process (no isolation), for the cost of isolation.
        env = dict(os.environ, KERNEL_LSP_LOG=os.environ.get("LSP_BENCH_LOG_LEVEL", "warn"), KERNEL_LSP_NO_ISOLATION="1")
        lsp = Lsp([self.args.server, "serve", "--stdio"], env=env, cwd=self.project)
        initialize(lsp, self.project, scenario_bench.kernel_lsp_options(self.args))
        return lsp, "cuda-cpp"

    def kernel_lsp(self):
        env = dict(os.environ, KERNEL_LSP_LOG=os.environ.get("LSP_BENCH_LOG_LEVEL", "warn"))
        lsp = Lsp([self.args.server, "serve", "--stdio"], env=env, cwd=self.project)
        initialize(lsp, self.project, scenario_bench.kernel_lsp_options(self.args))
        return lsp, "cuda-cpp"

    def clangd(self):
        lsp = Lsp(scenario_bench.clangd_argv(self.args, self.project), cwd=self.project)
        initialize(lsp, self.project)
        return lsp, "cuda"


def write_project(root, files, arch):
    names = []
    for variant in range(files):
        name = f"kernel_{variant:02d}.cu"
        make_kernel_args = ["make_kernel.py", os.path.join(root, name), "--variant", str(variant)]
        sys.argv = make_kernel_args
        make_kernel.main()
        names.append(name)
    with open(os.path.join(root, "build.toml"), "w") as f:
        f.write('[general]\nname = "bench"\nversion = 1\nedition = 5\nlicense = "apache-2.0"\n'
                'backends = ["cuda"]\n\n[torch]\nsrc = ["torch-ext/torch_binding.cpp"]\n\n'
                '[kernel.bench]\nbackend = "cuda"\ndepends = ["torch"]\n'
                f'src = {json.dumps(names)}\ncuda-capabilities = ["{arch}"]\n')
    return names


def clang_flags(cuda_path, arch):
    """The device-side command kernel-lsp parses with (analyzers/frontend/clang_command.cpp)."""
    sm = "sm_" + arch.replace(".", "")
    return ["clang++", "-x", "cuda", "--cuda-device-only", f"--cuda-gpu-arch={sm}", "-nocudalib",
            "-std=c++17", "-ferror-limit=0", "-Wno-unknown-cuda-version", "-Wno-unknown-attributes",
            "-Wno-ignored-attributes", "-resource-dir=/usr/lib/llvm-19/lib/clang/19",
            f"--cuda-path={cuda_path}", "-isystem", os.path.join(REPO, "analyzers/frontend/shims"),
            "-include", "kernel_lsp_launch_shim.h"]


def write_compile_commands(root, names, cuda_path, arch):
    entries = [{"directory": root, "file": os.path.join(root, n),
                "arguments": clang_flags(cuda_path, arch) + ["-c", os.path.join(root, n)]} for n in names]
    with open(os.path.join(root, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)


def first_diagnostics(start, path, runs):
    times, cpu, counts = [], [], []
    for _ in range(runs):
        lsp, language = start()
        began, cpu_before = time.monotonic(), lsp.cpu_ms()
        open_file(lsp, path, language)
        message = lsp.wait(diagnostics_for(path))
        times.append((time.monotonic() - began) * 1000)
        cpu.append(lsp.cpu_ms() - cpu_before)
        counts.append(len(message["params"]["diagnostics"]))
        lsp.close()
    return times, cpu, counts


def edit_latency(start, path, edits):
    lsp, language = start()
    text = open_file(lsp, path, language)
    lsp.wait(diagnostics_for(path))
    # A one-character change inside code: "+ 0.0f" ↔ "+ 1.0f" in the first staged_copy kernel.
    anchor = text.index("tile[threadIdx.x] + 0.0f")
    before = text[:anchor]
    line = before.count("\n")
    column = anchor - (before.rfind("\n") + 1) + len("tile[threadIdx.x] + ")
    times, cpu = [], []
    for i in range(edits):
        version = i + 2
        char = "1" if i % 2 == 0 else "0"
        began, cpu_before = time.monotonic(), lsp.cpu_ms()
        lsp.notify("textDocument/didChange", {
            "textDocument": {"uri": uri(path), "version": version},
            "contentChanges": [{"range": {"start": {"line": line, "character": column},
                                          "end": {"line": line, "character": column + 1}}, "text": char}]})
        lsp.wait(diagnostics_for(path, version))
        times.append((time.monotonic() - began) * 1000)
        cpu.append(lsp.cpu_ms() - cpu_before)
    lsp.close()
    return times, cpu


def memory_with_files_open(start, paths):
    lsp, language = start()
    for path in paths:
        open_file(lsp, path, language)
    pending = {uri(p) for p in paths}
    began = time.monotonic()
    while pending:
        message = lsp.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        pending.discard(message["params"]["uri"])
    elapsed = time.monotonic() - began
    memory = lsp.memory_kib()
    lsp.close()
    return memory, elapsed


def machine():
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    with open("/proc/meminfo") as f:
        mem_gib = int(f.readline().split()[1]) / (1 << 20)
    return {"cpu": cpu, "cores": os.cpu_count(), "memory_gib": round(mem_gib, 1),
            "os": platform.platform(), "load_average_at_start": os.getloadavg()}


def median(values):
    return statistics.median(values) if values else float("nan")


def scenario_list(text):
    names = scenarios.NAMES if text == "all" else [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in scenarios.NAMES]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown scenario(s) {', '.join(unknown)}; known: {', '.join(scenarios.NAMES)}")
    return names


def run_scenarios(args):
    results = {"machine": machine(), "command": " ".join(sys.argv), "mode": "scenarios"}
    with cpu_load.CpuLoad(args.load) as load:
        scenario_bench.run(args, results)
    results["load"] = load.record()
    scenario_report.print_report(results, args)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", default=os.path.join(REPO, "build", "cli", "kernel-lsp"))
    parser.add_argument("--clangd", default=shutil.which("clangd-19") or "clangd")
    parser.add_argument("--cuda-path", default=os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    parser.add_argument("--arch", default="7.5")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--warm-ups", type=int, default=0, metavar="N",
                        help="scenario mode: untimed opens of each file per server before the timed ones, so that "
                             "caches kept on disk across sessions (kernel-lsp's precompiled toolkit headers; "
                             "clangd keeps none) are as on a machine where the file was opened before")
    parser.add_argument("--files", type=int, default=50)
    parser.add_argument("--skip-clangd", action="store_true")
    parser.add_argument("--in-process", action="store_true",
                        help="also time kernel-lsp with KERNEL_LSP_NO_ISOLATION=1 (the cost of worker processes)")
    parser.add_argument("--json")
    parser.add_argument("--load", type=int, default=0, metavar="N",
                        help="run N busy processes (CPU spin loops) for the whole measurement, as other work on "
                             "a user's machine would; the JSON records N and the load averages")
    parser.add_argument("--shipped-defaults", action="store_true",
                        help="kernel-lsp with its shipped settings (adaptive debounce, no debounceMs override) and "
                             "clangd with its default preamble storage: what an editor's user gets")
    parser.add_argument("--scenarios", type=scenario_list,
                        help="comma-separated, or 'all': " + ", ".join(scenarios.NAMES) +
                        " (scenario mode: first and final publication, README.md says what each measures)")
    parser.add_argument("--llmc", default="/work/corpus/llm.c", help="llm.c checkout (llmc-attention-backward)")
    parser.add_argument("--quiet-ms", type=float, default=1000,
                        help="scenario mode: a version is final once the server is idle this long")
    parser.add_argument("--timeout", type=float, default=180,
                        help="scenario mode: seconds to wait for a publication before reporting a failure")
    parser.add_argument("--workdir", help="scenario mode: folder for the temporary projects (default: the system's)")
    parser.add_argument("--keep", action="store_true", help="scenario mode: keep the projects and server logs")
    args = parser.parse_args()
    args.server = os.path.abspath(args.server)
    if args.scenarios:
        run_scenarios(args)
        return

    root = tempfile.mkdtemp(prefix="kl-lsp-bench-")
    names = write_project(root, max(1, args.files), args.arch)
    write_compile_commands(root, names, os.path.realpath(args.cuda_path), args.arch)
    servers = Servers(args, root)
    first = os.path.join(root, names[0])
    results = {"machine": machine(), "file_lines": sum(1 for _ in open(first)), "arch": args.arch,
               "command": " ".join(sys.argv), "shipped_defaults": args.shipped_defaults}

    contenders = [("kernel-lsp", servers.kernel_lsp)]
    if args.in_process:
        contenders.append(("kernel-lsp in process", servers.kernel_lsp_in_process))
    if not args.skip_clangd:
        contenders.append(("clangd-19", servers.clangd))
    with cpu_load.CpuLoad(args.load) as load:
        for name, start in contenders:
            entry = {}
            times, cpu, counts = first_diagnostics(start, first, args.runs)
            entry["first_diagnostics_ms"] = times
            entry["first_diagnostics_cpu_ms"] = cpu
            entry["first_diagnostics_count"] = counts
            entry["edit_ms"], entry["edit_cpu_ms"] = edit_latency(start, first, args.edits)
            memory, seconds = memory_with_files_open(start, [os.path.join(root, n) for n in names])
            entry["memory_kib"] = memory
            entry["all_files_seconds"] = seconds
            results[name] = entry
            print(f"{name}: first {median(times):.0f} ms, edit {median(entry['edit_ms']):.0f} ms, "
                  f"RSS {memory.get('VmRSS', 0) / 1024:.0f} MiB ({len(names)} files)", file=sys.stderr)
    results["load"] = load.record()
    print(f"\n| server | first diagnostics, wall (median of {args.runs}) | its CPU time "
          f"| re-lint after 1-char edit, wall (median of {args.edits}) | its CPU time "
          f"| RSS with {len(names)} files open (peak) |")
    print("|---|---|---|---|---|---|")
    for name, _ in contenders:
        e = results[name]
        print(f"| {name} | {median(e['first_diagnostics_ms']):.0f} ms "
              f"(min {min(e['first_diagnostics_ms']):.0f}, max {max(e['first_diagnostics_ms']):.0f}) "
              f"| {median(e['first_diagnostics_cpu_ms']):.0f} ms "
              f"| {median(e['edit_ms']):.0f} ms (p90 {sorted(e['edit_ms'])[int(0.9 * (len(e['edit_ms']) - 1))]:.0f}) "
              f"| {median(e['edit_cpu_ms']):.0f} ms "
              f"| {e['memory_kib'].get('VmRSS', 0) / 1024:.0f} MiB ({e['memory_kib'].get('VmHWM', 0) / 1024:.0f} MiB) |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
