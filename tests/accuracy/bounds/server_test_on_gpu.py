#!/usr/bin/env python3
"""The server's test runs on a GPU: `kernel-lsp/test` with compute-sanitizer turns the planted
bugs of the fixtures into published diagnostics at their lines, as `kernel-lsp test` does.

    server_test_on_gpu.py KERNEL_LSP OUT_DIR

Builds tests/fixtures/bounds/tails.cu and tests/fixtures/sync/sync_bugs.cu with line info, starts
`KERNEL_LSP serve`, and for each planted bug sends one `kernel-lsp/test` request (the fixture's
folder, one tool, the fixture's kernel as the command). Writes every answer and every
publishDiagnostics of the run to OUT_DIR/server-test.json; exits 1 when a bug's diagnostic is
missing or elsewhere. Standard library only (the GPU machine has no node packages).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "bench", "lsp"))
from lsp_client import Lsp, initialize, uri  # noqa: E402

# (fixture folder, source, tool, kernel index, 1-based line the tool must name)
PLANTED = [
    ("tests/fixtures/bounds", "tails.cu", "memcheck", 0, 14),       # read past n, grid rounded up
    ("tests/fixtures/sync", "sync_bugs.cu", "racecheck", 4, 69),    # loop-carried race, one barrier
    ("tests/fixtures/sync", "sync_bugs.cu", "synccheck", 10, 153),  # barrier in a divergent branch
]


def build(source, work):
    binary = os.path.join(work, os.path.splitext(os.path.basename(source))[0])
    if not os.path.exists(binary):
        subprocess.run(["nvcc", "-O3", "-lineinfo", "-arch=sm_90", "-o", binary, source], check=True)
    return binary


def main():
    server, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="server-test-")
    lsp = Lsp([server, "serve"], env=dict(os.environ, KERNEL_LSP_LOG="info"), cwd=ROOT,
              stderr_path=os.path.join(out, "server.log"))
    published, record, failures = {}, [], []

    def note(message):
        if message.get("method") == "textDocument/publishDiagnostics":
            published[message["params"]["uri"]] = message["params"]["diagnostics"]

    initialize(lsp, ROOT, options={"debounceMs": 0}, progress=True)
    for folder, source, tool, kernel, line in PLANTED:
        project = os.path.join(ROOT, folder)
        command = f"{build(os.path.join(project, source), work)} {kernel}"
        started = time.monotonic()
        rid = lsp.next_id
        lsp.send({"jsonrpc": "2.0", "id": rid, "method": "kernel-lsp/test",
                  "params": {"project": project, "sanitize": [tool], "command": command}})
        lsp.next_id += 1
        answer = None
        while answer is None:
            message = lsp.next_message(time.monotonic() + 300)
            if message is None:
                break
            note(message)
            if message.get("id") == rid and "method" not in message:
                answer = message
        deadline = time.monotonic() + 5  # the diagnostics follow the answer
        file_uri = uri(os.path.join(project, source))
        while time.monotonic() < deadline and not any(
                d.get("code") == "compute-sanitizer" and d["range"]["start"]["line"] == line - 1
                for d in published.get(file_uri, [])):
            message = lsp.next_message(time.monotonic() + 0.2)
            if message:
                note(message)
        found = [d for d in published.get(file_uri, []) if d.get("code") == "compute-sanitizer"]
        placed = any(d["range"]["start"]["line"] == line - 1 for d in found)
        record.append({"tool": tool, "command": command, "expected": f"{source}:{line}",
                       "seconds": round(time.monotonic() - started, 1), "answer": answer,
                       "published": found, "placed": placed})
        print(f"{'ok' if placed else 'MISSING'} - {tool}: {source}:{line} "
              f"({len(found)} compute-sanitizer diagnostic(s) published)")
        if not placed:
            failures.append(f"{tool} {source}:{line}")
    lsp.close()
    with open(os.path.join(out, "server-test.json"), "w") as f:
        json.dump({"planted": record, "failures": failures}, f, indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
