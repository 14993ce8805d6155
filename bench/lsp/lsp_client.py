"""A minimal LSP client over stdio, shared by both modes of lsp_bench.py.

Framing, requests, waiting for notifications, and /proc readings (CPU time, memory) of the
server and every process below it (kernel-lsp analyses in worker processes). Standard library
only. Server→client requests are answered at once: `workspace/configuration` with one empty
settings object (so kernel-lsp keeps its defaults), anything else (e.g.
`window/workDoneProgress/create`) with null.
"""
import json
import os
import select
import signal
import subprocess
import time


class ServerExited(RuntimeError):
    """The server closed its stdout (crashed or quit) while the client was waiting."""


class Lsp:
    def __init__(self, argv, env=None, cwd=None, stderr_path=None):
        # LSP_BENCH_STDERR=FILE keeps the servers' logs (e.g. with KERNEL_LSP_LOG=debug);
        # stderr_path keeps this server's log in a file of its own (scenario mode).
        log = stderr_path or os.environ.get("LSP_BENCH_STDERR")
        self.argv = argv
        self.stderr_path = log
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=open(log, "ab") if log else subprocess.DEVNULL, env=env, cwd=cwd)
        self.buffer = b""
        self.next_id = 1

    def send(self, message):
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params, timeout=120):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == rid and "method" not in m, timeout)

    def _read_one(self, deadline):
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end >= 0:
                length = 0
                for line in self.buffer[:end].split(b"\r\n"):
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                if len(self.buffer) >= end + 4 + length:
                    body = self.buffer[end + 4:end + 4 + length]
                    self.buffer = self.buffer[end + 4 + length:]
                    return json.loads(body)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([self.proc.stdout], [], [], remaining)
            if not ready:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 1 << 20)
            if not chunk:
                try:
                    code = self.proc.wait(timeout=2)  # stdout closes a moment before the exit
                except subprocess.TimeoutExpired:
                    code = None
                raise ServerExited("server exited" + (f" with status {code}" if code is not None else ""))
            self.buffer += chunk

    def next_message(self, deadline):
        """The next notification or response before `deadline` (time.monotonic()), else None."""
        while True:
            message = self._read_one(deadline)
            if message is None:
                return None
            if "method" in message and "id" in message:  # a server→client request
                result = [{}] if message["method"] == "workspace/configuration" else None
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": result})
                continue
            return message

    def wait(self, predicate, timeout=300):
        deadline = time.monotonic() + timeout
        while True:
            message = self.next_message(deadline)
            if message is None:
                raise TimeoutError("no matching message")
            if predicate(message):
                return message

    def processes(self):
        """The server and every process below it (kernel-lsp analyses in worker processes)."""
        found, pending = [], [self.proc.pid]
        while pending:
            pid = pending.pop()
            found.append(pid)
            try:
                for task in os.listdir(f"/proc/{pid}/task"):
                    with open(f"/proc/{pid}/task/{task}/children") as f:
                        pending.extend(int(c) for c in f.read().split())
            except OSError:
                pass
        return found

    def cpu_ms(self):
        """User + system CPU time of the server and its live workers so far (all threads)."""
        ticks = 0
        for pid in self.processes():
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            # utime, stime, cutime, cstime (fields 14-17): reaped children count too.
            ticks += int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
        return ticks * 1000.0 / os.sysconf("SC_CLK_TCK")

    def memory_kib(self):
        """VmRSS and VmHWM summed over the server and its workers."""
        fields = {"VmRSS": 0, "VmHWM": 0, "processes": 0}
        for pid in self.processes():
            try:
                with open(f"/proc/{pid}/status") as status:
                    for line in status:
                        name, _, value = line.partition(":")
                        if name in ("VmRSS", "VmHWM"):
                            fields[name] += int(value.split()[0])
            except OSError:
                continue
            fields["processes"] += 1
        return fields

    def stderr_tail(self, lines=15):
        """The last lines the server wrote to its log file, when it has one of its own."""
        if not self.stderr_path:
            return ""
        try:
            with open(self.stderr_path, errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    def kill(self):
        """Ends the server and the workers it started (by their ids), without a shutdown."""
        for pid in reversed(self.processes()):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        self.proc.wait()

    def close(self):
        try:
            self.request("shutdown", None, timeout=30)
            self.notify("exit", None)
            self.proc.wait(timeout=30)
        except Exception:
            self.kill()


def uri(path):
    return "file://" + path


def initialize(lsp, root, options=None, progress=False):
    """initialize + initialized. progress: advertise window.workDoneProgress ($/progress)."""
    capabilities = {"textDocument": {"publishDiagnostics": {"relatedInformation": True}}}
    if progress:
        capabilities["window"] = {"workDoneProgress": True}
    lsp.request("initialize", {"processId": os.getpid(), "rootUri": uri(root), "capabilities": capabilities,
                               "initializationOptions": options or {}})
    lsp.notify("initialized", {})


def diagnostics_for(path, version=None):
    def match(m):
        if m.get("method") != "textDocument/publishDiagnostics" or m["params"]["uri"] != uri(path):
            return False
        return version is None or m["params"].get("version") == version
    return match


def open_file(lsp, path, language):
    with open(path) as f:
        text = f.read()
    lsp.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri(path), "languageId": language, "version": 1, "text": text}})
    return text
