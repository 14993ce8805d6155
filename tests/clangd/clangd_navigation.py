#!/usr/bin/env python3
"""What clangd is beside kernel-lsp for: navigation and completion in a kernel project.

    clangd_navigation.py KERNEL_LSP CLANGD RMSNORM_PROJECT

After `kernel-lsp clangd-config` on a copy of the rmsnorm reference kernel, a real clangd server
(over LSP, stdio) must:
  - go from `using kl::Pack;` in rmsnorm.cu to the definition in vector_pack.cuh (device side);
  - go from the call of kl_rmsnorm_forward in the torch-ext binding (host side) to it (its
    definition in rmsnorm.cu, or its declaration in rmsnorm.h), and find its references;
  - complete `threadIdx.` inside a kernel (x, y, z) and `kl_rmsnorm_f` in the binding
    (clang's completion leaves out reserved names from system headers, so CUDA's own
    __shfl_xor_sync and friends are never offered: a limit of clangd, not of the setup);
  - publish no error diagnostic for either file.
Exit 77 (skipped) when clangd or the CUDA toolkit is missing.
"""

import json
import os
import select
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clangd_check import cuda_toolkit  # noqa: E402


class Client:
    """A minimal LSP client: Content-Length framing over the server's stdio."""

    def __init__(self, argv, cwd):
        self.process = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        self.next_id = 1
        self.diagnostics = {}

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def receive(self, timeout=120):
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        if not ready:
            raise TimeoutError("clangd said nothing for %d s" % timeout)
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            byte = self.process.stdout.read(1)
            if not byte:
                raise EOFError("clangd closed its output")
            header += byte
        length = next(int(line.split(b":")[1]) for line in header.split(b"\r\n")
                      if line.lower().startswith(b"content-length"))
        message = json.loads(self.process.stdout.read(length))
        if message.get("method") == "textDocument/publishDiagnostics":
            self.diagnostics[message["params"]["uri"]] = message["params"]["diagnostics"]
        return message

    def request(self, method, params):
        ident = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == ident and "method" not in message:
                if "error" in message:
                    raise RuntimeError("%s failed: %s" % (method, message["error"]))
                return message["result"]
            if "method" in message and "id" in message:  # a request from the server
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_for_diagnostics(self, uri):
        while uri not in self.diagnostics:
            self.receive()
        return self.diagnostics[uri]

    def close(self):
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.process.wait(timeout=30)
        finally:
            if self.process.poll() is None:
                self.process.kill()


def position_of(text, needle, offset_in_needle=0):
    index = text.index(needle) + offset_in_needle
    line = text.count("\n", 0, index)
    return {"line": line, "character": index - (text.rfind("\n", 0, index) + 1)}


def probe(client, kernel, binding, texts):
    """The navigation and completion questions; the failures, as text."""
    failures = []

    def definition(path, needle, offset):
        result = client.request("textDocument/definition", {
            "textDocument": {"uri": "file://" + path}, "position": position_of(texts[path], needle, offset)})
        return [r.get("uri", r.get("targetUri", "")) for r in (result or [])]

    def completions(path, needle, offset):
        result = client.request("textDocument/completion", {
            "textDocument": {"uri": "file://" + path}, "position": position_of(texts[path], needle, offset)})
        items = result["items"] if isinstance(result, dict) else (result or [])
        return {item.get("filterText", item["label"]).strip() for item in items}

    uris = definition(kernel, "using kl::Pack;", len("using kl::"))
    if not any(u.endswith("/rmsnorm_cuda/vector_pack.cuh") for u in uris):
        failures.append("definition of kl::Pack from rmsnorm.cu: %s, not vector_pack.cuh" % uris)
    uris = definition(binding, "kl_rmsnorm_forward(&p", 0)
    if not any(u.endswith(("/rmsnorm_cuda/rmsnorm.cu", "/rmsnorm_cuda/rmsnorm.h")) for u in uris):
        failures.append("definition of kl_rmsnorm_forward from the binding: %s, not in rmsnorm_cuda/" % uris)
    references = client.request("textDocument/references", {
        "textDocument": {"uri": "file://" + binding},
        "position": position_of(texts[binding], "kl_rmsnorm_forward(&p"),
        "context": {"includeDeclaration": True}})
    if len(references or []) < 2:
        failures.append("references of kl_rmsnorm_forward: %s" % references)
    offered = completions(kernel, "threadIdx.x", len("threadIdx."))
    if not {"x", "y", "z"} <= offered:
        failures.append("completion after threadIdx. in a kernel: %s" % sorted(offered)[:10])
    offered = completions(binding, "kl_rmsnorm_forward(&p", len("kl_rmsnorm_f"))
    if "kl_rmsnorm_forward" not in offered:
        failures.append("completion of kl_rmsnorm_f in the binding: %s" % sorted(offered)[:10])
    return failures


def main():
    kernel_lsp, clangd, source = sys.argv[1:4]
    if not shutil.which(clangd):
        print("SKIP: %s not found (apt-get install clangd-19)" % clangd)
        return 77
    if not cuda_toolkit():
        print("SKIP: no CUDA toolkit")
        return 77
    failures = []
    with tempfile.TemporaryDirectory(prefix="kl_clangd_nav_") as scratch:
        project = os.path.join(scratch, "rmsnorm")
        shutil.copytree(source, project, ignore=shutil.ignore_patterns("build", "__pycache__", ".cache"))
        subprocess.run([kernel_lsp, "clangd-config", project], check=True, capture_output=True, timeout=300)
        kernel = os.path.join(project, "rmsnorm_cuda", "rmsnorm.cu")
        binding = os.path.join(project, "torch-ext", "torch_binding.cpp")
        client = Client([shutil.which(clangd), "--log=error", "--background-index=false"], project)
        try:
            client.request("initialize", {"processId": os.getpid(), "rootUri": "file://" + project,
                                          "capabilities": {}})
            client.notify("initialized", {})
            texts = {}
            for path, language in ((kernel, "cuda"), (binding, "cpp")):
                with open(path) as f:
                    texts[path] = f.read()
                client.notify("textDocument/didOpen", {"textDocument": {
                    "uri": "file://" + path, "languageId": language, "version": 1, "text": texts[path]}})
            for path in (kernel, binding):
                errors = [d for d in client.wait_for_diagnostics("file://" + path) if d.get("severity") == 1]
                if errors:
                    failures.append("%s: %d errors, first: %s" % (path, len(errors), errors[0]["message"]))
            failures += probe(client, kernel, binding, texts)
        finally:
            client.close()
    for failure in failures:
        print("FAIL", failure)
    if not failures:
        print("ok: definitions (device and host side), references and completion through clangd")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
