#!/usr/bin/env python3
"""The language server over public CUDA code: one `kernel-lsp serve --stdio` session opens files
of a corpus (see tools/corpus_harness.py) a few at a time, as an editor would, and checks that
every document gets its diagnostics, the server never dies, and it still answers at the end.

usage: corpus_server_check.py [--corpus /work/corpus] [--server build/cli/kernel-lsp]
                              [--files N] [--seed S] [--open-at-once K] [--timeout SECONDS]
                              [--default-archs 8.0,9.0a] [--out RESULT.json]

For each file: didOpen, wait for its publishDiagnostics (at most --timeout s), record the time
and the diagnostic codes, didClose once K more are open. At the end: a documentSymbol request
must be answered and shutdown + exit must end the server with code 0. Exit status 0 when all of
that held, 1 otherwise. Fetches nothing; needs only the Python standard library and
bench/lsp/lsp_bench.py's client.

--edits also edits each file once after its diagnostics (two spaces before the first word of its
middle code line, as a keystroke would), waits for the edited version's final diagnostics, and
compares them with what a second server, which never saw the file before, publishes for the
edited text: an incremental analysis (preambles, configurations reused across the edit) must
publish what a fresh one does. A difference is a problem.
"""
import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench" / "lsp"))
import lsp_bench  # noqa: E402  (the benchmark's small LSP client)


def corpus_files(corpus):
    found = []
    for project in sorted(p for p in Path(corpus).iterdir() if p.is_dir()):
        for path in sorted(project.rglob("*")):
            if path.suffix in (".cu", ".cuh") and path.is_file():
                found.append(path)
    return found


def edited(text):
    """`text` with two spaces before the first word of its middle line that is code (not blank,
    not a directive, not a comment); None when it has none."""
    lines = text.split("\n")
    middle = len(lines) // 2
    for offset in range(len(lines)):
        for index in (middle + offset, middle - offset):
            if 0 <= index < len(lines):
                stripped = lines[index].lstrip()
                if stripped and stripped[0].isalpha():
                    lines[index] = lines[index][: len(lines[index]) - len(stripped)] + "  " + stripped
                    return "\n".join(lines)
    return None


def final_diagnostics(lsp, path, version, timeout, quiet=2.0):
    """The last publishDiagnostics for `path` at `version` (or later) once none has come for
    `quiet` seconds: a file of several configurations publishes its first one early."""
    first = lsp.wait(lsp_bench.diagnostics_for(str(path), version), timeout=timeout)
    last = first
    while True:
        try:
            message = lsp.next_message(time.monotonic() + quiet)
        except TimeoutError:
            return last
        if message is None:
            return last
        if lsp_bench.diagnostics_for(str(path), version)(message):
            last = message


def comparable(message):
    return sorted((d.get("code"), d["range"]["start"]["line"], d["range"]["start"]["character"],
                   d["range"]["end"]["line"], d["range"]["end"]["character"], d["message"])
                  for d in message["params"]["diagnostics"])


def compare_edit(lsp, fresh, path, text, args, problems):
    """Edits `path` in `lsp`, opens the edited text in `fresh`, and compares their final diagnostics."""
    new_text = edited(text)
    if new_text is None:
        return None
    lsp.notify("textDocument/didChange", {"textDocument": {"uri": lsp_bench.uri(str(path)), "version": 2},
                                          "contentChanges": [{"text": new_text}]})
    incremental = final_diagnostics(lsp, path, 2, args.timeout)
    fresh.notify("textDocument/didOpen", {"textDocument": {"uri": lsp_bench.uri(str(path)), "languageId": "cuda-cpp",
                                                           "version": 2, "text": new_text}})
    reference = final_diagnostics(fresh, path, 2, args.timeout)
    fresh.notify("textDocument/didClose", {"textDocument": {"uri": lsp_bench.uri(str(path))}})
    ours, theirs = comparable(incremental), comparable(reference)
    if ours != theirs:
        only_ours = [d for d in ours if d not in theirs]
        only_theirs = [d for d in theirs if d not in ours]
        problems.append(f"{path}: after an edit the server published {only_ours[:2]} where a fresh server "
                        f"published {only_theirs[:2]}")
    return ours == theirs


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default="/work/corpus")
    parser.add_argument("--server", default=str(REPO / "build" / "cli" / "kernel-lsp"))
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--open-at-once", type=int, default=4)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--default-archs", default="")
    parser.add_argument("--edits", action="store_true",
                        help="edit each file once and compare with a fresh server's diagnostics")
    parser.add_argument("--out")
    args = parser.parse_args()
    args.server = os.path.abspath(args.server)  # the server runs in the corpus folder
    args.corpus = os.path.abspath(args.corpus)  # document URIs are made from these paths

    files = corpus_files(args.corpus)
    random.Random(args.seed).shuffle(files)
    files = files[: args.files]
    options = {"debounceMs": 0}
    if args.default_archs:
        options["defaultArchs"] = args.default_archs.split(",")
    lsp = lsp_bench.Lsp([args.server, "serve", "--stdio"], env=dict(os.environ, KERNEL_LSP_LOG="warn"),
                        cwd=args.corpus)
    lsp_bench.initialize(lsp, args.corpus, options)
    fresh = None
    if args.edits:
        fresh = lsp_bench.Lsp([args.server, "serve", "--stdio"], env=dict(os.environ, KERNEL_LSP_LOG="warn"),
                              cwd=args.corpus)
        lsp_bench.initialize(fresh, args.corpus, options)
    results, open_now, problems = [], [], []
    started = time.monotonic()
    for index, path in enumerate(files):
        text = path.read_bytes().decode("utf-8", errors="replace")
        began = time.monotonic()
        lsp.notify("textDocument/didOpen", {"textDocument": {"uri": lsp_bench.uri(str(path)), "languageId": "cuda-cpp",
                                                             "version": 1, "text": text}})
        try:
            message = lsp.wait(lsp_bench.diagnostics_for(str(path)), timeout=args.timeout)
            codes = [d.get("code") for d in message["params"]["diagnostics"]]
            failed = [d["message"] for d in message["params"]["diagnostics"]
                      if d.get("message", "").startswith("analysis of this file failed")]
            results.append({"file": str(path.relative_to(args.corpus)), "ms": round((time.monotonic() - began) * 1000),
                            "diagnostics": len(codes), "analysis_failed": failed})
            if fresh is not None:
                results[-1]["edit_same_as_fresh"] = compare_edit(lsp, fresh, path, text, args, problems)
            if failed:
                problems.append(f"{path}: {failed[0]}")
        except Exception as e:  # a time-out or a dead server
            problems.append(f"{path}: no diagnostics ({e})")
            results.append({"file": str(path.relative_to(args.corpus)), "ms": None, "error": str(e)})
            if lsp.proc.poll() is not None:
                problems.append(f"the server exited with {lsp.proc.returncode}")
                break
        open_now.append(path)
        if len(open_now) > args.open_at_once:
            closed = open_now.pop(0)
            lsp.notify("textDocument/didClose", {"textDocument": {"uri": lsp_bench.uri(str(closed))}})
        if (index + 1) % 25 == 0:
            print(f"[{index + 1}/{len(files)}] {time.monotonic() - started:.0f} s", file=sys.stderr)
    if fresh is not None:
        fresh.close()
    alive = lsp.proc.poll() is None
    answered = False
    if alive and open_now:
        try:
            lsp.request("textDocument/documentSymbol", {"textDocument": {"uri": lsp_bench.uri(str(open_now[-1]))}},
                        timeout=120)
            answered = True
        except Exception as e:
            problems.append(f"documentSymbol at the end: {e}")
    exit_code = None
    if alive:
        lsp.close()
        exit_code = lsp.proc.returncode
    times = sorted(r["ms"] for r in results if r.get("ms") is not None)
    summary = {
        "server": args.server, "files": len(files), "diagnosed": len(times),
        "analysis_failed": sum(1 for r in results if r.get("analysis_failed")),
        "edits_compared": sum(1 for r in results if r.get("edit_same_as_fresh") is not None),
        "edits_differing": sum(1 for r in results if r.get("edit_same_as_fresh") is False),
        "median_ms": times[len(times) // 2] if times else None,
        "p95_ms": times[int(0.95 * (len(times) - 1))] if times else None, "max_ms": times[-1] if times else None,
        "alive_at_end": alive, "answered_at_end": answered, "exit_code": exit_code, "problems": problems,
        "options": options, "open_at_once": args.open_at_once, "seed": args.seed, "machine": lsp_bench.machine(),
        "wall_seconds": round(time.monotonic() - started, 1),
    }
    print(json.dumps({k: v for k, v in summary.items() if k != "machine"}, indent=2))
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"summary": summary, "files": results}, f, indent=2)
    ok = alive and answered and exit_code == 0 and not problems and len(times) == len(files)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
