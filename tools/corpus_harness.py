#!/usr/bin/env python3
"""Robustness harness: run `kernel-lsp lint` over a corpus of public CUDA code, one process per file.

The corpus is a folder whose top-level folders are projects (plain source trees, e.g. one
`git archive` of a public repository each). An optional MANIFEST.json in it,
[{"project": "vllm", "repo": "vllm-project/vllm", "commit": "...", ...}, ...], supplies each
project's repository and commit for the report. The harness fetches nothing itself.

For every .cu and .cuh file under each project it runs

    BINARY lint --format json /absolute/path/to/FILE

in its own process group, with a per-file time limit (the whole group is killed on time-out),
and classifies the result:

    ok              exit 0 or 1 and stdout is the JSON report
    crash           killed by a signal, an exit code other than 0/1/2, or a sanitizer report on
                    stderr ("ERROR: AddressSanitizer", "runtime error:", LeakSanitizer, ...),
                    whatever the exit code (ASan exits 1 by default, like "findings found")
    internal_error  exit 2 (the CLI's own "could not do it"); the first stderr line is kept
    hang            still running after --timeout seconds
    bad_output      exit 0/1 but stdout is not a JSON report (or it wrote more than
                    --max-output-mb and was stopped by SIGXFSZ)

From each report it counts findings per rule id, and, separately, `frontend` findings whose
message starts with "analysis of this file failed" (the CLI's isolated crash of one file's
analysis): those are left out of the per-rule counts and reported as `analysis_failed`.
A source's build.toml is linted along with it, so build.toml findings count once per source.

Results (JSON, --out): per project {files, ok, crash, hang, internal_error, bad_output,
analysis_failed, seconds total/median/p95/max, peak RSS, findings per rule}, totals, every
crashing / hanging / failing file with its signal or exit code and first stderr or sanitizer
line, crash signatures grouped, per-file records, the command line, the machine (nproc,
uname -a, memory), the binary (path, --version, sha256), the corpus manifest, and dates. A Markdown
summary is printed to stdout and, with --markdown FILE, written there too. The JSON is rewritten
every --checkpoint seconds while running and on Ctrl-C / SIGTERM (marked "complete": false), so
an interrupted run still leaves what it had.

Examples:

    # everything, one process per core, results and summary
    tools/corpus_harness.py --out corpus-results.json --markdown corpus-results.md

    # a quick look: 150 files spread round-robin over all projects, one at a time
    tools/corpus_harness.py -j1 --limit 150 --out /tmp/small.json

    # a sanitized build, two projects, longer time limit, stderr of failures kept
    tools/corpus_harness.py --binary build-asan/kernel-lsp --projects cutlass,flashinfer \\
        --timeout 600 --env ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \\
        --env UBSAN_OPTIONS=print_stacktrace=1 --label asan --logs /tmp/asan-logs --out asan.json

    # re-run only the files that were not ok in an earlier run
    tools/corpus_harness.py --files-from corpus-results.json --out rerun.json

Exit status: 0 when every file was ok, 1 when any was not, 2 for a usage problem, 130 when
interrupted. Python 3.8+ standard library only; Linux (process groups, wait4, /proc/meminfo).
"""

import argparse
import datetime
import hashlib
import json
import os
import platform
import queue
import random
import re
import resource
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

STATUSES = ("ok", "crash", "hang", "internal_error", "bad_output")
ANALYSIS_FAILED_PREFIX = "analysis of this file failed"
FRONTEND_RULE = "frontend"
# Lines that mark a sanitizer report on stderr, and the name of the sanitizer.
SANITIZER_MARKERS = (
    ("ERROR: AddressSanitizer", "AddressSanitizer"),
    ("AddressSanitizer:DEADLYSIGNAL", "AddressSanitizer"),
    ("ERROR: LeakSanitizer", "LeakSanitizer"),
    ("ERROR: MemorySanitizer", "MemorySanitizer"),
    ("WARNING: ThreadSanitizer", "ThreadSanitizer"),
    ("ERROR: ThreadSanitizer", "ThreadSanitizer"),
    ("runtime error:", "UndefinedBehaviorSanitizer"),
    ("ERROR: UndefinedBehaviorSanitizer", "UndefinedBehaviorSanitizer"),
)
STDERR_KEEP = 4000          # characters of stderr kept in the JSON for a file that is not ok
STDERR_READ = 4 * 1024 * 1024  # bytes of stderr read back for analysis
FRAME_RE = re.compile(r"^\s*#(\d+) 0x[0-9a-fA-F]+ in (.*)$")
RUNTIME_FRAME_RE = re.compile(r"(__asan|__ubsan|__sanitizer|__interceptor|compiler-rt|libclang_rt|"
                              r"sanitizer_common|asan_|ubsan_|__lsan|__tsan|libc\.so|libstdc\+\+|"
                              r"__libc_|abort|raise|__GI_|__pthread_kill)")


def display(path):
    """A printable, JSON-safe form of a path that may hold undecodable bytes."""
    try:
        raw = os.fsencode(path)
    except Exception:  # noqa: BLE001 - keep going whatever the name is
        return repr(path)
    return raw.decode("utf-8", "backslashreplace")


def md_cell(text):
    """Text safe inside a Markdown table cell."""
    text = str(text).replace("\r", " ").replace("\n", " ").replace("|", "\\|").replace("`", "'")
    return text if len(text) <= 160 else text[:157] + "..."


def first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:500]
    return ""


def signal_name(number):
    try:
        return signal.Signals(number).name
    except (ValueError, AttributeError):
        return "signal %d" % number


def percentile(sorted_values, fraction):
    """Nearest-rank percentile of an already sorted list."""
    if not sorted_values:
        return 0.0
    rank = max(1, int(-(-fraction * len(sorted_values) // 1)))  # ceil
    return sorted_values[min(rank, len(sorted_values)) - 1]


# --------------------------------------------------------------------------------------------
# The corpus


def load_manifest(corpus):
    path = os.path.join(corpus, "MANIFEST.json")
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    out = {}
    if isinstance(data, list):
        for entry in data:
            if isinstance(entry, dict) and "project" in entry:
                out[str(entry["project"])] = entry
    return out


def list_projects(corpus):
    names = []
    with os.scandir(corpus) as it:
        for entry in it:
            if entry.name.startswith("."):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    names.append(entry.name)
            except OSError:
                continue
    return sorted(names, key=lambda n: (n.lower(), n))


def cuda_files(project_dir):
    """Every regular .cu/.cuh file under project_dir (symbolic links are not followed)."""
    found = []

    def onerror(error):
        sys.stderr.write("corpus_harness: cannot read %s: %s\n" % (display(error.filename), error.strerror))

    for root, dirs, files in os.walk(project_dir, onerror=onerror, followlinks=False):
        dirs.sort()
        for name in files:
            if not (name.endswith(".cu") or name.endswith(".cuh")):
                continue
            path = os.path.join(root, name)
            try:
                if os.path.isfile(path) and not os.path.islink(path):
                    found.append(path)
            except (OSError, ValueError):
                continue
    found.sort(key=os.fsencode)
    return found


def read_files_from(path, corpus):
    """Paths from a list (one a line, relative to the corpus or absolute) or from an earlier
    results JSON (its files that were not ok)."""
    with open(path, "rb") as f:
        raw = f.read()
    try:
        doc = json.loads(raw.decode("utf-8"))
    except ValueError:
        doc = None
    if isinstance(doc, dict) and isinstance(doc.get("file_results"), list):
        names = [r["path"] for r in doc["file_results"] if r.get("status") != "ok" or r.get("analysis_failed")]
    else:
        names = [os.fsdecode(line) for line in raw.split(b"\n") if line.strip()]
    out = []
    for name in names:
        full = name if os.path.isabs(name) else os.path.join(corpus, name)
        out.append(full)
    return out


def project_of(path, corpus):
    rel = os.path.relpath(path, corpus)
    head = rel.split(os.sep, 1)[0]
    return "(outside corpus)" if head == ".." else head


def select_files(args, corpus, projects):
    per_project = {}
    if args.files_from:
        wanted = set(projects)
        for path in read_files_from(args.files_from, corpus):
            proj = project_of(path, corpus)
            if args.projects and proj not in wanted:
                continue
            per_project.setdefault(proj, []).append(path)
    else:
        for proj in projects:
            per_project[proj] = cuda_files(os.path.join(corpus, proj))
    if args.seed is not None:
        rng = random.Random(args.seed)
        for files in per_project.values():
            rng.shuffle(files)
    # Round-robin over projects, so that --limit N samples all of them.
    order = []
    lists = [list(per_project[p]) for p in sorted(per_project, key=lambda n: (n.lower(), n))]
    index = 0
    while any(index < len(l) for l in lists):
        for l in lists:
            if index < len(l):
                order.append(l[index])
        index += 1
    if args.limit is not None:
        order = order[: args.limit]
    return order


# --------------------------------------------------------------------------------------------
# Running one file


class Runner:
    def __init__(self, binary, env, timeout, logs_dir):
        self.binary = binary
        self.env = env
        self.timeout = timeout
        self.logs_dir = logs_dir
        self.lint_args = []  # extra `kernel-lsp lint` arguments (--lint-arg)
        self.lock = threading.Lock()
        self.running = {}  # pid -> Popen
        self.stopping = threading.Event()

    def kill_all(self):
        with self.lock:
            pids = list(self.running)
        for pid in pids:
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError, OSError):
                pass

    def run(self, path, corpus):
        rel = os.path.relpath(path, corpus)
        record = {"path": display(rel), "project": project_of(path, corpus)}
        with tempfile.TemporaryFile(prefix="kl-out-") as out_f, tempfile.TemporaryFile(prefix="kl-err-") as err_f:
            command = [self.binary, "lint", "--no-cache", "--format", "json", *self.lint_args, os.path.abspath(path)]
            started = time.monotonic()
            try:
                proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out_f, stderr=err_f,
                                        env=self.env, start_new_session=True, close_fds=True)
            except OSError as e:
                record.update(status="internal_error", exit_code=None, signal=None, seconds=0.0,
                              stderr_first_line="harness could not start the binary: %s" % e)
                return record
            with self.lock:
                self.running[proc.pid] = proc
            timed_out = False
            status, usage = None, None
            delay = 0.001
            try:
                while True:
                    pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
                    if pid:
                        break
                    if time.monotonic() - started > self.timeout or self.stopping.is_set():
                        timed_out = not self.stopping.is_set()
                        try:
                            os.killpg(proc.pid, signal.SIGKILL)
                        except (ProcessLookupError, PermissionError, OSError):
                            pass
                        _, status, usage = os.wait4(proc.pid, 0)
                        break
                    time.sleep(delay)
                    delay = min(delay * 2, 0.05)
            finally:
                proc.returncode = 0 if status is None else status  # Popen must not reap it again
                with self.lock:
                    self.running.pop(proc.pid, None)
            seconds = time.monotonic() - started
            # Children it left behind in its group go too.
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError, OSError):
                pass
            out_f.seek(0)
            stdout = out_f.read()
            err_f.seek(0)
            stderr = err_f.read(STDERR_READ).decode("utf-8", "replace")

        record["seconds"] = round(seconds, 4)
        if usage is not None:
            record["max_rss_mb"] = round(usage.ru_maxrss / 1024.0, 1)
            record["cpu_seconds"] = round(usage.ru_utime + usage.ru_stime, 3)
        if os.WIFSIGNALED(status):
            record["signal"] = signal_name(os.WTERMSIG(status))
            record["exit_code"] = None
        else:
            record["signal"] = None
            record["exit_code"] = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
        if self.stopping.is_set() and not timed_out and record["signal"] == "SIGKILL":
            record["status"] = "interrupted"
            return record
        classify(record, timed_out, stdout, stderr)
        if record["status"] != "ok" or record.get("analysis_failed"):
            record["stderr_head"] = stderr[:STDERR_KEEP]
            if self.logs_dir:
                self.save_log(record, command, stdout, stderr)
        return record

    def save_log(self, record, command, stdout, stderr):
        safe = re.sub(r"[^A-Za-z0-9._-]+", "_", record["path"])[-150:]
        name = "%s.%s.log" % (safe, hashlib.sha1(record["path"].encode("utf-8", "replace")).hexdigest()[:8])
        try:
            with open(os.path.join(self.logs_dir, name), "w", encoding="utf-8", errors="replace") as f:
                f.write("command: %s\n" % " ".join(shlex.quote(display(c)) for c in command))
                f.write("status: %s exit_code: %s signal: %s seconds: %s\n" % (
                    record["status"], record.get("exit_code"), record.get("signal"), record.get("seconds")))
                f.write("---- stderr ----\n%s\n---- stdout (first 64 KB) ----\n%s\n" % (
                    stderr, stdout[:65536].decode("utf-8", "replace")))
            record["log"] = name
        except OSError as e:
            sys.stderr.write("corpus_harness: cannot write log %s: %s\n" % (name, e))


def sanitizer_report(stderr):
    """(sanitizer, its first report line, top non-runtime frames) or None."""
    lines = stderr.splitlines()
    for i, line in enumerate(lines):
        for marker, name in SANITIZER_MARKERS:
            if marker in line:
                frames = []
                for follow in lines[i + 1:i + 80]:
                    m = FRAME_RE.match(follow)
                    if m and not RUNTIME_FRAME_RE.search(m.group(2)):
                        frames.append(m.group(2).strip()[:300])
                        if len(frames) == 3:
                            break
                return name, line.strip()[:500], frames
    return None


def crash_signature(record):
    """A short key that groups crashes with the same cause."""
    head = record.get("sanitizer_line") or record.get("stderr_first_line") or ""
    head = re.sub(r"0x[0-9a-fA-F]+", "0x?", head)
    head = re.sub(r"\b(pc|bp|sp|T)\s*\d+\b", r"\1 ?", head)
    head = re.sub(r"==\d+==", "", head).strip()
    frame = ""
    if record.get("top_frames"):
        frame = re.sub(r"\s+/\S+$", "", record["top_frames"][0])  # the function, without file:line
        frame = re.sub(r"\s\S+:\d+(:\d+)?$", "", frame)
    why = record.get("signal") or ("exit %s" % record.get("exit_code"))
    if record.get("exit_signal_guess"):
        why += " (%s?)" % record["exit_signal_guess"]
    return " | ".join(x for x in (record.get("sanitizer") or why, head[:200], frame[:200]) if x)


def frontend_kind(message):
    """A `frontend` message with its particulars (names, numbers, details) taken out, so that
    "`a.h` was not found; ..." and "`b.h` was not found; ..." count as one kind."""
    text = first_line(message)
    text = re.sub(r"`[^`]*`", "`...`", text)
    text = re.sub(r"'[^']*'", "'...'", text)
    text = re.sub(r"\(.*", "", text)
    text = text.split(";")[0]
    text = re.sub(r"\d+", "N", text)
    return text.strip()[:120]


def classify(record, timed_out, stdout, stderr):
    record["stderr_first_line"] = first_line(stderr)
    report = sanitizer_report(stderr)
    if report:
        record["sanitizer"], record["sanitizer_line"], record["top_frames"] = report
    sig, code = record["signal"], record["exit_code"]
    if timed_out:
        record["status"] = "hang"
        return
    if sig is None and code is not None and 128 < code < 128 + 65:
        record["exit_signal_guess"] = signal_name(code - 128)  # a wrapper script's "killed by signal"
    if sig == "SIGXFSZ" or record.get("exit_signal_guess") == "SIGXFSZ":
        record["status"] = "bad_output"
        record["bad_output_reason"] = "output larger than --max-output-mb (stopped by SIGXFSZ)"
        return
    if sig is not None or report or code not in (0, 1, 2):
        record["status"] = "crash"
        record["signature"] = crash_signature(record)
        return
    if code == 2:
        record["status"] = "internal_error"
        return
    try:
        doc = json.loads(stdout.decode("utf-8", "replace"))
    except (ValueError, RecursionError) as e:
        record["status"] = "bad_output"
        record["bad_output_reason"] = "stdout is not JSON (%s bytes): %s" % (len(stdout), str(e)[:200])
        record["stdout_head"] = stdout[:300].decode("utf-8", "replace")
        return
    if not isinstance(doc, dict) or not isinstance(doc.get("findings"), list):
        record["status"] = "bad_output"
        record["bad_output_reason"] = "JSON without a findings list"
        record["stdout_head"] = stdout[:300].decode("utf-8", "replace")
        return
    rules, severities, failed, kinds = {}, {}, [], {}
    for item in doc["findings"]:
        if not isinstance(item, dict):
            continue
        rule = str(item.get("rule", "?"))
        message = str(item.get("message", ""))
        if rule == FRONTEND_RULE and message.startswith(ANALYSIS_FAILED_PREFIX):
            failed.append(first_line(message))
            continue
        rules[rule] = rules.get(rule, 0) + 1
        if rule == FRONTEND_RULE:
            kind = frontend_kind(message)
            kinds[kind] = kinds.get(kind, 0) + 1
        sev = str(item.get("severity", "?"))
        severities[sev] = severities.get(sev, 0) + 1
    record["status"] = "ok"
    summary = doc.get("summary") if isinstance(doc.get("summary"), dict) else {}
    coverage = {k: summary[k] for k in COVERAGE_KEYS if isinstance(summary.get(k), int)}
    if coverage:
        record["coverage"] = coverage
    record["findings"] = sum(rules.values())
    record["rules"] = rules
    record["severities"] = severities
    if kinds:
        record["frontend_kinds"] = kinds
    if failed:
        record["analysis_failed"] = True
        record["analysis_failed_message"] = failed[0]


# --------------------------------------------------------------------------------------------
# Results


# What the access model saw, from each report's summary, summed per project.
COVERAGE_KEYS = ("kernels", "kernels_without_code", "kernels_with_global_accesses", "global_accesses",
                 "accesses_unjudged")


def summarize(records):
    out = {s: 0 for s in STATUSES}
    out["coverage"] = {k: sum(r.get("coverage", {}).get(k, 0) for r in records) for k in COVERAGE_KEYS}
    out["files"] = len(records)
    out["analysis_failed"] = 0
    rules, severities, kinds = {}, {}, {}
    secs, rss = [], []
    for r in records:
        out[r["status"]] = out.get(r["status"], 0) + 1
        if r.get("analysis_failed"):
            out["analysis_failed"] += 1
        for k, v in r.get("rules", {}).items():
            rules[k] = rules.get(k, 0) + v
        for k, v in r.get("severities", {}).items():
            severities[k] = severities.get(k, 0) + v
        for k, v in r.get("frontend_kinds", {}).items():
            kinds[k] = kinds.get(k, 0) + v
        secs.append(r.get("seconds", 0.0))
        if "max_rss_mb" in r:
            rss.append(r["max_rss_mb"])
    secs.sort()
    rss.sort()
    out["seconds"] = {
        "total": round(sum(secs), 2),
        "median": round(statistics.median(secs), 3) if secs else 0.0,
        "p95": round(percentile(secs, 0.95), 3),
        "max": round(secs[-1], 3) if secs else 0.0,
    }
    out["max_rss_mb"] = {"median": round(statistics.median(rss), 1) if rss else 0.0,
                         "p95": round(percentile(rss, 0.95), 1), "max": rss[-1] if rss else 0.0}
    out["findings"] = sum(rules.values())
    out["findings_per_rule"] = dict(sorted(rules.items(), key=lambda kv: (-kv[1], kv[0])))
    out["findings_per_severity"] = dict(sorted(severities.items()))
    out["frontend_kinds"] = dict(sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))
    out["files_with_frontend_findings"] = sum(1 for r in records if r.get("frontend_kinds"))
    return out


def machine_info():
    info = {"nproc": os.cpu_count()}
    try:
        info["cpus_usable"] = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        pass
    try:
        info["uname"] = subprocess.run(["uname", "-a"], capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        info["uname"] = " ".join(platform.uname())
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("MemTotal", "MemAvailable", "SwapTotal"):
                    info[key] = value.strip()
    except OSError:
        pass
    try:
        info["loadavg"] = os.getloadavg()
    except OSError:
        pass
    info["python"] = sys.version.split()[0]
    return info


def binary_info(binary, env):
    info = {"path": display(binary), "realpath": display(os.path.realpath(binary))}
    try:
        st = os.stat(binary)
        info["size"] = st.st_size
        info["mtime"] = datetime.datetime.fromtimestamp(st.st_mtime, datetime.timezone.utc).isoformat(timespec="seconds")
        h = hashlib.sha256()
        with open(binary, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        info["sha256"] = h.hexdigest()
    except OSError as e:
        info["stat_error"] = str(e)
    try:
        p = subprocess.run([binary, "--version"], capture_output=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
        info["version"] = (p.stdout or p.stderr).decode("utf-8", "replace").strip()[:500]
        info["version_exit_code"] = p.returncode
    except (OSError, subprocess.SubprocessError) as e:
        info["version"] = None
        info["version_error"] = str(e)
    return info


def build_results(state, final):
    records = sorted(state["records"], key=lambda r: (r["project"], r["path"]))
    done = [r for r in records if r["status"] != "interrupted"]
    projects = {}
    for proj in state["projects"]:
        mine = [r for r in done if r["project"] == proj]
        entry = {}
        man = state["manifest"].get(proj)
        if man:
            entry["repo"] = man.get("repo")
            entry["commit"] = man.get("commit")
        entry.update(summarize(mine))
        projects[proj] = entry
    for proj in sorted({r["project"] for r in done} - set(projects)):
        projects[proj] = summarize([r for r in done if r["project"] == proj])
    problems = [r for r in done if r["status"] != "ok"]
    failing = [dict(path=r["path"], project=r["project"], message=r.get("analysis_failed_message"))
               for r in done if r.get("analysis_failed")]
    signatures = {}
    for r in problems:
        if r["status"] == "crash":
            s = signatures.setdefault(r.get("signature", "?"), {"count": 0, "example": r["path"]})
            s["count"] += 1
    problem_keys = ("path", "project", "status", "exit_code", "exit_signal_guess", "signal", "seconds", "sanitizer", "sanitizer_line",
                    "top_frames", "stderr_first_line", "bad_output_reason", "stdout_head", "signature", "log",
                    "stderr_head")
    now = datetime.datetime.now(datetime.timezone.utc)
    return {
        "tool": "corpus_harness",
        "label": state["label"],
        "complete": final and not state["interrupted"],
        "interrupted": state["interrupted"],
        "started": state["started"],
        "finished": now.isoformat(timespec="seconds") if final else None,
        "wall_seconds": round(time.monotonic() - state["t0"], 1),
        "command_line": state["command_line"],
        "options": state["options"],
        "lint_command": [display(state["binary"]), "lint", "--no-cache", "--format", "json", *state["lint_args"], "FILE"],
        "env": state["env_overrides"],
        "machine": state["machine"],
        "binary": state["binary_info"],
        "corpus": {"path": display(state["corpus"]), "manifest": list(state["manifest"].values())},
        "files_planned": state["planned"],
        "files_done": len(done),
        "totals": summarize(done),
        "projects": projects,
        "problems": [{k: r[k] for k in problem_keys if r.get(k) is not None} for r in problems],
        "crash_signatures": dict(sorted(signatures.items(), key=lambda kv: -kv[1]["count"])),
        "analysis_failed_files": failing,
        "interrupted_files": [r["path"] for r in records if r["status"] == "interrupted"],
        "file_results": [{k: v for k, v in r.items() if k not in ("stderr_head", "stdout_head")} for r in records
                         if r["status"] != "interrupted"],
    }


def write_json_atomic(path, doc):
    tmp = "%s.tmp%d" % (path, os.getpid())
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")
    os.replace(tmp, path)


def markdown(results, max_problems=40, max_rules=25):
    lines = []
    title = "kernel-lsp corpus run"
    if results.get("label"):
        title += ": " + results["label"]
    lines.append("## " + md_cell(title))
    lines.append("")
    b = results["binary"]
    m = results["machine"]
    state = "complete" if results["complete"] else ("INTERRUPTED" if results["interrupted"] else "in progress")
    lines.append("%s; %d of %d files; %s; %s; %s CPUs, %s; %s s wall; timeout %s s, -j %s." % (
        results["started"], results["files_done"], results["files_planned"], state,
        md_cell(b.get("version") or "version unknown"), m.get("nproc"), m.get("MemTotal", "? memory"),
        results["wall_seconds"], results["options"]["timeout"], results["options"]["jobs"]))
    lines.append("")
    lines.append("| project | files | ok | crash | hang | internal error | bad output | analysis failed | "
                 "median s | p95 s | max s | peak RSS MB | findings |")
    lines.append("|---|" + "---:|" * 12)

    def row(name, s):
        return "| %s | %d | %d | %d | %d | %d | %d | %d | %.2f | %.2f | %.2f | %.0f | %d |" % (
            md_cell(name), s["files"], s["ok"], s["crash"], s["hang"], s["internal_error"], s["bad_output"],
            s["analysis_failed"], s["seconds"]["median"], s["seconds"]["p95"], s["seconds"]["max"],
            s["max_rss_mb"]["max"], s["findings"])

    for name, s in results["projects"].items():
        lines.append(row(name, s))
    lines.append(row("**total**", results["totals"]))
    lines.append("")
    c = results["totals"].get("coverage", {})
    if c.get("kernels"):
        with_code = c["kernels"] - c.get("kernels_without_code", 0)
        lines.append("Access model: %d kernels, %d with code in the configuration analysed, of which %d (%.1f %%) "
                     "have global accesses modelled; %d global accesses, %d (%.1f %%) unjudged." % (
                         c["kernels"], with_code, c["kernels_with_global_accesses"],
                         100.0 * c["kernels_with_global_accesses"] / max(with_code, 1), c["global_accesses"],
                         c["accesses_unjudged"], 100.0 * c["accesses_unjudged"] / max(c["global_accesses"], 1)))
        lines.append("")
    rules = results["totals"]["findings_per_rule"]
    if rules:
        lines.append("Findings per rule: " + ", ".join("`%s` %d" % (md_cell(k), v) for k, v in list(rules.items())[:max_rules])
                     + (" (and %d more rules)" % (len(rules) - max_rules) if len(rules) > max_rules else ""))
        lines.append("")
    kinds = results["totals"].get("frontend_kinds", {})
    if kinds:
        lines.append("`frontend` findings (%d files) by kind: " % results["totals"]["files_with_frontend_findings"]
                     + "; ".join("%s: %d" % (md_cell(k), v) for k, v in list(kinds.items())[:8]))
        lines.append("")
    sigs = results["crash_signatures"]
    if sigs:
        lines.append("Crash signatures:")
        lines.append("")
        for sig, info in list(sigs.items())[:20]:
            lines.append("- %d x %s (e.g. `%s`)" % (info["count"], md_cell(sig), md_cell(info["example"])))
        lines.append("")
    problems = results["problems"]
    if problems:
        lines.append("| file | status | exit / signal | s | first line |")
        lines.append("|---|---|---|---:|---|")
        for p in problems[:max_problems]:
            how = p.get("signal") or ("exit %s" % p.get("exit_code"))
            text = p.get("sanitizer_line") or p.get("bad_output_reason") or p.get("stderr_first_line") or ""
            lines.append("| `%s` | %s | %s | %.1f | %s |" % (md_cell(p["path"]), p["status"], md_cell(how),
                                                            p.get("seconds", 0.0), md_cell(text)))
        if len(problems) > max_problems:
            lines.append("")
            lines.append("... and %d more in the JSON results." % (len(problems) - max_problems))
        lines.append("")
    failed = results["analysis_failed_files"]
    if failed:
        lines.append("%d file(s) reported \"analysis of this file failed\", e.g. `%s`: %s" % (
            len(failed), md_cell(failed[0]["path"]), md_cell(failed[0]["message"] or "")))
        lines.append("")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                epilog="See the module docstring (head of this file) for details.")
    p.add_argument("--corpus", default="/work/corpus", help="corpus folder; one top-level folder per project")
    p.add_argument("--binary", default="build/cli/kernel-lsp", help="kernel-lsp binary (default build/cli/kernel-lsp, "
                   "relative to the current folder, else to the repository root)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per file before it counts as a hang (120)")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="files run in parallel (nproc)")
    p.add_argument("--out", help="results JSON file")
    p.add_argument("--markdown", help="also write the Markdown summary to this file")
    p.add_argument("--limit", type=int, help="at most N files, taken round-robin across projects")
    p.add_argument("--projects", help="comma-separated project folders (default: all)")
    p.add_argument("--seed", type=int, help="shuffle each project's files with this seed before --limit")
    p.add_argument("--files-from", help="only these files: a list (one a line, relative to the corpus or "
                   "absolute) or an earlier results JSON (its files that were not ok)")
    p.add_argument("--env", action="append", default=[], metavar="K=V",
                   help="environment for the binary (repeatable), e.g. ASAN_OPTIONS=detect_leaks=0")
    p.add_argument("--label", default="", help="a name for this run, kept in the results")
    p.add_argument("--lint-arg", action="append", default=[], metavar="ARG",
                   help="extra argument for `kernel-lsp lint` (repeatable), e.g. --lint-arg=--arch=8.0,9.0a")
    p.add_argument("--logs", help="folder for the full stderr/stdout of every file that was not ok")
    p.add_argument("--max-output-mb", type=int, default=256,
                   help="stop a process that writes more than this (RLIMIT_FSIZE; 0 = no limit)")
    p.add_argument("--memory-limit-mb", type=int, default=0,
                   help="address-space limit per process (RLIMIT_AS; 0 = none; do not use with ASan)")
    p.add_argument("--checkpoint", type=float, default=60.0, help="rewrite --out every N seconds (60)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    args = p.parse_args(argv)
    if args.jobs < 1:
        p.error("-j must be at least 1")
    if args.timeout <= 0:
        p.error("--timeout must be positive")
    for item in args.env:
        if "=" not in item or item.startswith("="):
            p.error("--env takes K=V, not %r" % item)
    return args


def resolve_binary(name):
    if os.path.sep not in name and not os.path.exists(name):
        return shutil.which(name) or name
    if os.path.isabs(name) or os.path.exists(name):
        return os.path.abspath(name)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    candidate = os.path.join(root, name)
    return candidate if os.path.exists(candidate) else os.path.abspath(name)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    corpus = os.path.abspath(args.corpus)
    if not os.path.isdir(corpus):
        sys.stderr.write("corpus_harness: no corpus folder %s\n" % display(corpus))
        return 2
    binary = resolve_binary(args.binary)
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        sys.stderr.write("corpus_harness: %s is not an executable file\n" % display(binary))
        return 2
    manifest = load_manifest(corpus)
    projects = list_projects(corpus)
    if args.projects:
        wanted = [x.strip() for x in args.projects.split(",") if x.strip()]
        unknown = [x for x in wanted if x not in projects]
        if unknown:
            sys.stderr.write("corpus_harness: no such project(s) in %s: %s (have: %s)\n" % (
                display(corpus), ", ".join(unknown), ", ".join(projects)))
            return 2
        projects = wanted
    if args.logs:
        os.makedirs(args.logs, exist_ok=True)
    if args.max_output_mb > 0:  # inherited by every child; the harness itself writes far less
        limit = args.max_output_mb * 1024 * 1024
        _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))
    if args.memory_limit_mb > 0:
        limit = args.memory_limit_mb * 1024 * 1024
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))

    env = dict(os.environ)
    overrides = {}
    for item in args.env:
        k, v = item.split("=", 1)
        env[k] = v
        overrides[k] = v

    files = select_files(args, corpus, projects)
    if args.files_from:
        projects = sorted({project_of(f, corpus) for f in files} | (set(projects) if args.projects else set()))
    state = {
        "records": [], "projects": projects, "manifest": {p: manifest[p] for p in projects if p in manifest},
        "label": args.label, "interrupted": False, "t0": time.monotonic(),
        "started": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command_line": " ".join(shlex.quote(a) for a in [sys.executable] + sys.argv),
        "options": {"timeout": args.timeout, "jobs": args.jobs, "limit": args.limit, "projects": args.projects,
                    "seed": args.seed, "files_from": args.files_from, "max_output_mb": args.max_output_mb,
                    "memory_limit_mb": args.memory_limit_mb},
        "env_overrides": overrides, "machine": machine_info(), "binary": binary, "lint_args": args.lint_arg,
        "binary_info": binary_info(binary, env), "corpus": corpus, "planned": len(files),
    }
    if not args.quiet:
        sys.stderr.write("corpus_harness: %d files from %d project(s), -j %d, timeout %gs, %s\n" % (
            len(files), len(projects), args.jobs, args.timeout, state["binary_info"].get("version")))

    runner = Runner(binary, env, args.timeout, args.logs)
    runner.lint_args = list(args.lint_arg)
    todo = queue.Queue()
    for f in files:
        todo.put(f)
    results_q = queue.Queue()

    def worker():
        while not runner.stopping.is_set():
            try:
                path = todo.get_nowait()
            except queue.Empty:
                return
            try:
                rec = runner.run(path, corpus)
            except Exception as e:  # noqa: BLE001 - one file's trouble must not end the run
                rec = {"path": display(os.path.relpath(path, corpus)), "project": project_of(path, corpus),
                       "status": "internal_error", "exit_code": None, "signal": None, "seconds": 0.0,
                       "stderr_first_line": "harness error: %r" % e}
            results_q.put(rec)

    def on_term(signum, frame):
        raise KeyboardInterrupt

    old_term = signal.signal(signal.SIGTERM, on_term)
    threads = [threading.Thread(target=worker, daemon=True) for _ in range(min(args.jobs, max(1, len(files))))]
    for t in threads:
        t.start()
    last_checkpoint = time.monotonic()
    done = 0
    try:
        while done < len(files):
            try:
                rec = results_q.get(timeout=0.5)
            except queue.Empty:
                if not any(t.is_alive() for t in threads) and results_q.empty():
                    break
                continue
            state["records"].append(rec)
            done += 1
            if not args.quiet and (rec["status"] != "ok" or rec.get("analysis_failed") or done % 50 == 0
                                   or done == len(files)):
                extra = ""
                if rec["status"] != "ok":
                    extra = " " + (rec.get("signal") or "exit %s" % rec.get("exit_code")) + ": " + \
                        (rec.get("sanitizer_line") or rec.get("bad_output_reason") or rec.get("stderr_first_line") or "")[:200]
                elif rec.get("analysis_failed"):
                    extra = " analysis failed: " + rec.get("analysis_failed_message", "")[:200]
                line = "[%d/%d] %s %s %.1fs%s" % (done, len(files), rec["status"], rec["path"],
                                                  rec.get("seconds", 0.0), extra)
                sys.stderr.write(line.replace("\r", "\\r").replace("\n", "\\n") + "\n")
            if args.out and time.monotonic() - last_checkpoint > args.checkpoint:
                write_json_atomic(args.out, build_results(state, final=False))
                last_checkpoint = time.monotonic()
    except KeyboardInterrupt:
        state["interrupted"] = True
        runner.stopping.set()
        runner.kill_all()
        sys.stderr.write("\ncorpus_harness: interrupted; writing what there is\n")
        for t in threads:
            t.join(timeout=10)
        while True:
            try:
                state["records"].append(results_q.get_nowait())
            except queue.Empty:
                break
    finally:
        signal.signal(signal.SIGTERM, old_term)

    results = build_results(state, final=True)
    if args.out:
        write_json_atomic(args.out, results)
    text = markdown(results)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    if state["interrupted"]:
        return 130
    return 0 if results["totals"]["ok"] == results["totals"]["files"] else 1


if __name__ == "__main__":
    sys.exit(main())
