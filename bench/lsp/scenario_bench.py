"""Scenario mode of lsp_bench.py: kernel-lsp beside clangd on several files, same client, same run.

For each scenario (scenarios.py) and each server:
  first    --runs fresh servers: didOpen → the first publishDiagnostics for version 1
           (time-to-first) and the last one before the server settles (time-to-final);
  edits    one server, --edits one-character edits: didChange → the first publishDiagnostics
           for that version, and the last one before the server settles;
  memory   (scenarios with memory_files: `generated`) VmRSS/VmHWM once every file is analysed.

"Settles" (kernel-lsp may publish a version more than once: its first configuration, then the
rest): no publishDiagnostics for the file, no `$/progress` left open, and the server and its
workers using less than BUSY_FRACTION of a core, for --quiet-ms. The server's CPU time is read
every SAMPLE_S, so a server still parsing its other configurations is never taken as settled
however long the gap between two of its publications. A measurement that sees no
publishDiagnostics within --timeout is recorded as an error (with the end of the server's log)
and the server is killed; the run goes on with the next measurement.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import scenarios
from lsp_client import Lsp, ServerExited, initialize, open_file, uri

SAMPLE_S = 0.1
BUSY_FRACTION = 0.15


class NoDiagnostics(RuntimeError):
    """No publishDiagnostics for the awaited version within the timeout, or the server died."""


class Settling:
    """What one wait saw: publications for the file, progress, CPU samples; `settled` says how it ended."""

    def __init__(self, lsp, path, version, began):
        self.lsp, self.uri, self.version, self.began = lsp, uri(path), version, began
        self.publishes = []        # [ms since began, version, number of diagnostics]
        self.first = None          # (ms, CPU ms since began, diagnostics) of the first matching one
        self.last = None           # the same for the last matching one
        self.progress_end_ms = None
        self.open_progress = set()
        self.settled = False

    def take(self, message, now, cpu_before):
        method = message.get("method")
        if method == "$/progress":
            value = message["params"].get("value", {})
            token = str(message["params"].get("token"))
            if value.get("kind") == "begin":
                self.open_progress.add(token)
            elif value.get("kind") == "end":
                self.open_progress.discard(token)
                self.progress_end_ms = (now - self.began) * 1000
            return True
        if method != "textDocument/publishDiagnostics" or message["params"]["uri"] != self.uri:
            return False
        params = message["params"]
        ms = (now - self.began) * 1000
        self.publishes.append([round(ms, 2), params.get("version"), len(params["diagnostics"])])
        if params.get("version") not in (self.version, None):
            return False  # a stale version's late result
        sample = (ms, self.lsp.cpu_ms() - cpu_before, params["diagnostics"])
        self.first = self.first or sample
        self.last = sample
        return True

    def record(self):
        codes = {}
        for d in self.last[2]:
            key = f"{d.get('source', '?')}:{d.get('code', '')}"
            codes[key] = codes.get(key, 0) + 1
        return {"first_ms": self.first[0], "final_ms": self.last[0], "first_cpu_ms": self.first[1],
                "final_cpu_ms": self.last[1], "publishes": self.publishes, "progress_end_ms": self.progress_end_ms,
                "settled": self.settled, "final_codes": codes}


def settle(lsp, path, version, began, cpu_before, args):
    """Reads messages until the server has settled after a publishDiagnostics for `version`."""
    seen = Settling(lsp, path, version, began)
    deadline, quiet = began + args.timeout, args.quiet_ms / 1000
    last_activity = sample_at = time.monotonic()
    cpu_then = lsp.cpu_ms()
    while True:
        now = time.monotonic()
        if seen.first and not seen.open_progress and now - last_activity >= quiet:
            seen.settled = True
            return seen
        if now >= deadline:
            if seen.first:
                return seen  # published, but still busy after --timeout: settled stays false
            raise NoDiagnostics(f"no publishDiagnostics for version {version} within {args.timeout:.0f} s")
        try:
            message = lsp.next_message(min(deadline, now + SAMPLE_S))
        except ServerExited as e:
            raise NoDiagnostics(f"{e} before publishing version {version}") from e
        now = time.monotonic()
        if message is not None and seen.take(message, now, cpu_before):
            last_activity = now
        if now - sample_at >= SAMPLE_S:
            cpu_now = lsp.cpu_ms()
            if cpu_now - cpu_then > BUSY_FRACTION * (now - sample_at) * 1000:
                last_activity = now
            sample_at, cpu_then = now, cpu_now


class ScenarioServers:
    """Starts each contender for one scenario, with its log in a file of its own."""

    def __init__(self, args, scenario, log_dir):
        self.args, self.scenario, self.log_dir = args, scenario, log_dir
        self.started = 0

    def _log(self, name):
        self.started += 1
        return os.path.join(self.log_dir, f"{self.scenario.name}-{name}-{self.started:03d}.log")

    def _kernel_lsp(self, extra_env, name):
        env = dict(os.environ, KERNEL_LSP_LOG=os.environ.get("LSP_BENCH_LOG_LEVEL", "warn"), **extra_env)
        lsp = Lsp([self.args.server, "serve", "--stdio"], env=env, cwd=self.scenario.project,
                  stderr_path=self._log(name))
        return initialized(lsp, self.scenario.project, kernel_lsp_options(self.args)), "cuda-cpp"

    def kernel_lsp(self):
        return self._kernel_lsp({}, "kernel-lsp")

    def kernel_lsp_in_process(self):
        return self._kernel_lsp({"KERNEL_LSP_NO_ISOLATION": "1"}, "kernel-lsp-in-process")

    def clangd(self):
        lsp = Lsp(clangd_argv(self.args, self.scenario.clangd_db), cwd=self.scenario.project,
                  stderr_path=self._log("clangd"))
        return initialized(lsp, self.scenario.project, {}), "cuda"


def kernel_lsp_options(args):
    """kernel-lsp's initializationOptions: none with --shipped-defaults (its adaptive debounce, as
    an editor gets it), else debounceMs 0 (the analysis alone)."""
    return {} if args.shipped_defaults else {"debounceMs": 0}


def clangd_argv(args, compile_commands_dir):
    """clangd's command: its own defaults with --shipped-defaults (preambles on disk), else the
    preambles in memory. The background index stays off in both: it indexes the folder on
    threads of its own, which would only take CPU from clangd's diagnostics here."""
    argv = [args.clangd, "--compile-commands-dir=" + compile_commands_dir, "--background-index=false", "--log=error"]
    return argv if args.shipped_defaults else argv + ["--pch-storage=memory"]


def initialized(lsp, root, options):
    """`lsp` after initialize; a server that does not answer is killed and reported."""
    try:
        initialize(lsp, root, options, progress=True)
        return lsp
    except (TimeoutError, ServerExited, BrokenPipeError) as e:
        raise NoDiagnostics("initialize: " + failure(lsp, e)) from e


def failure(lsp, error):
    """The error in words, with the end of the server's log; the server is killed."""
    if lsp is None:
        return str(error)
    tail = lsp.stderr_tail()
    try:
        lsp.proc.wait(timeout=1)
    except subprocess.TimeoutExpired:
        pass
    alive = lsp.proc.poll() is None
    lsp.kill()
    state = "server was still running (killed)" if alive else f"server had exited with status {lsp.proc.returncode}"
    return f"{error}; {state}" + (f"; its log ({lsp.stderr_path}) ends:\n{tail}" if tail else "")


def first_diagnostics(start, scenario, args, errors):
    samples = []
    for run in range(args.warm_ups + args.runs):
        lsp = None
        try:
            lsp, language = start()
            began, cpu_before = time.monotonic(), lsp.cpu_ms()
            open_file(lsp, scenario.file, language)
            sample = settle(lsp, scenario.file, 1, began, cpu_before, args).record()
            if run >= args.warm_ups:
                samples.append(sample)
            lsp.close()
        except (NoDiagnostics, TimeoutError, ServerExited, BrokenPipeError) as e:
            errors.append("first diagnostics: " + failure(lsp, e))
    return samples


def edit_latency(start, scenario, args, errors):
    samples, lsp = [], None
    try:
        lsp, language = start()
        began, cpu_before = time.monotonic(), lsp.cpu_ms()
        open_file(lsp, scenario.file, language)
        try:
            settle(lsp, scenario.file, 1, began, cpu_before, args)
        except NoDiagnostics as e:
            raise NoDiagnostics(f"before the first edit: {e}") from e
        site = scenario.edit
        for i in range(args.edits):
            began, cpu_before = time.monotonic(), lsp.cpu_ms()
            lsp.notify("textDocument/didChange", {
                "textDocument": {"uri": uri(scenario.file), "version": i + 2},
                "contentChanges": [{"range": {"start": {"line": site.line, "character": site.character},
                                              "end": {"line": site.line, "character": site.character + 1}},
                                    "text": site.text_for(i)}]})
            samples.append(settle(lsp, scenario.file, i + 2, began, cpu_before, args).record())
        lsp.close()
    except (NoDiagnostics, TimeoutError, ServerExited, BrokenPipeError) as e:
        errors.append(f"edits ({len(samples)} of {args.edits} done): " + failure(lsp, e))
    return samples


def memory_with_files_open(start, paths, args, errors):
    lsp = None
    try:
        lsp, language = start()
        began = time.monotonic()
        for path in paths:
            open_file(lsp, path, language)
        pending = {uri(p) for p in paths}
        while pending:
            message = lsp.next_message(began + args.timeout)
            if message is None:
                raise NoDiagnostics(f"{len(pending)} of {len(paths)} files without diagnostics after {args.timeout:.0f} s")
            if message.get("method") == "textDocument/publishDiagnostics":
                pending.discard(message["params"]["uri"])
        elapsed = time.monotonic() - began
        # Whatever the servers still do for these files (kernel-lsp's other configurations, its
        # background preambles) ends first; then memory is read.
        settle_idle(lsp, args)
        memory = lsp.memory_kib()
        lsp.close()
        return {"memory_kib": memory, "all_files_seconds": elapsed}
    except (NoDiagnostics, TimeoutError, ServerExited, BrokenPipeError) as e:
        errors.append("memory: " + failure(lsp, e))
        return {}


def settle_idle(lsp, args):
    """Until no message and less than BUSY_FRACTION of a core for --quiet-ms (or --timeout)."""
    quiet, deadline = args.quiet_ms / 1000, time.monotonic() + args.timeout
    last_activity = sample_at = time.monotonic()
    cpu_then = lsp.cpu_ms()
    while time.monotonic() - last_activity < quiet and time.monotonic() < deadline:
        if lsp.next_message(time.monotonic() + SAMPLE_S) is not None:
            last_activity = time.monotonic()
        now = time.monotonic()
        cpu_now = lsp.cpu_ms()
        if cpu_now - cpu_then > BUSY_FRACTION * (now - sample_at) * 1000:
            last_activity = now
        sample_at, cpu_then = now, cpu_now


def median(values):
    return statistics.median(values) if values else float("nan")


def p90(values):
    return sorted(values)[int(0.9 * (len(values) - 1))] if values else float("nan")


def measure(name, start, scenario, args):
    errors = []
    load_before = os.getloadavg()
    entry = {"first": first_diagnostics(start, scenario, args, errors),
             "edits": edit_latency(start, scenario, args, errors)}
    if scenario.memory_files:
        entry.update(memory_with_files_open(start, scenario.memory_files, args, errors))
    entry["errors"] = errors
    entry["load_average"] = {"before": load_before, "after": os.getloadavg()}
    for key, samples in (("first", entry["first"]), ("edit", entry["edits"])):
        for which in ("first", "final"):
            values = [s[f"{which}_ms"] for s in samples]
            entry[f"{key}_{which}_median_ms"] = median(values)
            entry[f"{key}_{which}_p90_ms"] = p90(values)
            entry[f"{key}_{which}_cpu_median_ms"] = median([s[f"{which}_cpu_ms"] for s in samples])
    for error in errors:
        print(f"FAILED [{scenario.name}] {name}: {error}", flush=True)
    return entry


def contenders(args, servers):
    chosen = [("kernel-lsp", servers.kernel_lsp)]
    if args.in_process:
        chosen.append(("kernel-lsp in process", servers.kernel_lsp_in_process))
    if not args.skip_clangd:
        chosen.append(("clangd-19", servers.clangd))
    return chosen


def describe(scenario):
    with open(scenario.file) as f:
        lines = f.read().count("\n")
    with open(os.path.join(scenario.clangd_db, "compile_commands.json")) as f:
        clangd_command = json.load(f)[0]["arguments"]
    site = scenario.edit
    return {"file_name": os.path.basename(scenario.file), "lines": lines, "project": scenario.project,
            "kernel_lsp_archs": scenario.kernel_lsp_archs, "clangd_arch": scenario.clangd_arch,
            "clangd_command": clangd_command,
            "edit": {"line": site.line + 1, "character": site.character, "toggles": f"{site.original}<->{site.replacement}",
                     "source_line": site.context},
            "memory_files": len(scenario.memory_files), "servers": {}}


def run(args, results):
    """Every scenario in args.scenarios, each server in turn; fills results["scenarios"]."""
    root = tempfile.mkdtemp(prefix="kl-lsp-scenarios-", dir=args.workdir)
    log_dir = os.path.join(root, "logs")
    os.makedirs(log_dir)
    results["settings"] = {"runs": args.runs, "warm_ups": args.warm_ups, "edits": args.edits, "files": args.files, "quiet_ms": args.quiet_ms,
                           "timeout_s": args.timeout, "busy_fraction": BUSY_FRACTION, "sample_s": SAMPLE_S,
                           "server": args.server, "clangd": args.clangd,
                           "shipped_defaults": args.shipped_defaults,
                           "kernel_lsp_initialization_options": kernel_lsp_options(args),
                           "clangd_argv": clangd_argv(args, "<clangd-db>/<scenario>")}
    results["scenarios"] = {}
    failed = False
    for name in args.scenarios:
        try:
            scenario = scenarios.build(name, root, args)
        except scenarios.ScenarioUnavailable as e:
            print(f"SKIPPED [{name}]: {e}", flush=True)
            results["scenarios"][name] = {"skipped": str(e)}
            continue
        entry = describe(scenario)
        results["scenarios"][name] = entry
        servers = ScenarioServers(args, scenario, log_dir)
        for server, start in contenders(args, servers):
            e = entry["servers"][server] = measure(server, start, scenario, args)
            failed = failed or bool(e["errors"])
            print(f"[{name}] {server}: first {e['first_first_median_ms']:.0f}/{e['first_final_median_ms']:.0f} ms, "
                  f"edit {e['edit_first_median_ms']:.0f}/{e['edit_final_median_ms']:.0f} ms (first/final publish)"
                  + (f", RSS {e['memory_kib']['VmRSS'] / 1024:.0f} MiB" if e.get("memory_kib") else "")
                  + (f", {len(e['errors'])} error(s)" if e["errors"] else ""), file=sys.stderr, flush=True)
    if failed or args.keep:
        print(f"files and server logs kept in {root}", file=sys.stderr)
    else:
        shutil.rmtree(root, ignore_errors=True)
