"""A small LSP client over stdio (Python standard library only) for the integration tests.

It starts the server as a configuration says (command, arguments, environment), frames
messages with Content-Length, answers the server's requests the way the client it stands for
would (a `server_requests` handler per method), and keeps every notification so that a test can
wait for the one it expects. The server's stderr goes to a file that a failing test prints.
"""

import json
import os
import queue
import subprocess
import tempfile
import threading
import time
from pathlib import Path


class LspError(Exception):
    pass


class LspClient:
    def __init__(self, argv, env=None, cwd=None, server_requests=None):
        self.argv = list(argv)
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.stderr, env=env, cwd=cwd)
        self.next_id = 1
        self.responses = {}
        self.notifications = []
        self.requests_seen = []
        self.cond = threading.Condition()
        self.server_requests = server_requests or {}
        self.closed = False
        self.reader = threading.Thread(target=self._read_loop, daemon=True)
        self.reader.start()

    # ---- framing ------------------------------------------------------------------------
    def _send(self, message):
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read_message(self):
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                return None
            line = line.strip()
            if not line:
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value.strip())
        if length is None:
            raise LspError("a message without Content-Length")
        data = b""
        while len(data) < length:
            chunk = self.proc.stdout.read(length - len(data))
            if not chunk:
                return None
            data += chunk
        return json.loads(data)

    def _read_loop(self):
        try:
            while True:
                message = self._read_message()
                if message is None:
                    break
                if "method" in message and "id" in message:
                    self._answer(message)
                    continue
                with self.cond:
                    if "id" in message:
                        self.responses[message["id"]] = message
                    else:
                        self.notifications.append(message)
                    self.cond.notify_all()
        finally:
            with self.cond:
                self.closed = True
                self.cond.notify_all()

    def _answer(self, request):
        method = request["method"]
        with self.cond:
            self.requests_seen.append(request)
        handler = self.server_requests.get(method)
        result = handler(request.get("params")) if handler else None
        self._send({"jsonrpc": "2.0", "id": request["id"], "result": result})

    # ---- API ----------------------------------------------------------------------------
    def request(self, method, params, timeout=60):
        request_id = self.next_id
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        with self.cond:
            while request_id not in self.responses:
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    raise LspError(f"no answer to {method} within {timeout} s" +
                                   (" (the server exited)" if self.closed else ""))
                self.cond.wait(left)
            response = self.responses.pop(request_id)
        if "error" in response:
            raise LspError(f"{method} failed: {response['error']}")
        return response.get("result")

    def notify(self, method, params):
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_for(self, predicate, timeout, what):
        """The first notification (oldest first) that `predicate` accepts; it stays recorded."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for message in self.notifications:
                    if predicate(message):
                        return message
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    raise LspError(f"no {what} within {timeout} s" + (" (the server exited)" if self.closed else ""))
                self.cond.wait(left)

    def diagnostics(self, uri, timeout, accept=lambda diagnostics: True):
        """The first publishDiagnostics of `uri` whose diagnostics `accept` takes."""
        return self.wait_for(
            lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
            and accept(m["params"]["diagnostics"]), timeout, f"diagnostics for {uri}")["params"]

    def published(self):
        with self.cond:
            return [m["params"] for m in self.notifications if m.get("method") == "textDocument/publishDiagnostics"]

    def shutdown(self, timeout=30):
        self.request("shutdown", None, timeout)
        self.notify("exit", None)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise LspError("the server did not exit after shutdown and exit")

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stderr_text(self):
        self.stderr.seek(0)
        return self.stderr.read().decode(errors="replace")


def file_uri(path):
    return Path(path).resolve().as_uri()


def resolve_command(command, env):
    """`command` as the client would start it: a bare name is looked up on env's PATH."""
    if os.sep in command:
        return command
    for folder in env.get("PATH", "").split(os.pathsep):
        candidate = Path(folder) / command
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    raise LspError(f"`{command}` is not on PATH ({env.get('PATH')})")
