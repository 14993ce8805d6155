#!/usr/bin/env python3
"""The agent integrations start the real server exactly as their configuration says.

  agent_config_test.py claude-code REPO BIN_DIR   integrations/claude-code (plugin + marketplace)
  agent_config_test.py opencode REPO BIN_DIR      integrations/opencode/opencode.json

Each run reads the configuration files, checks their shape against the agent's documented format
(Claude Code: plugin.json, .lsp.json, marketplace.json; OpenCode: the `lsp` section of
opencode.json), starts the server with exactly the command, arguments, environment and
initialization options they give (`kernel-lsp` found on PATH, BIN_DIR first), opens the example
project's row_sum.cu with the language id the agent would send, and requires the pushed
arch-mismatch diagnostic. The OpenCode run talks as OpenCode's client does
(packages/opencode/src/lsp/client.ts: its capabilities, `initialization` as both
initializationOptions and didChangeConfiguration settings, workspace/configuration answered from
it, a didChangeWatchedFiles before each didOpen, version 0, and its extension → language id table,
which has no entry for .cu or .toml, hence "plaintext").
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from checks import check, exit_code, server_session  # noqa: E402
from links import link_problem  # noqa: E402
from lsp_client import LspClient, file_uri, resolve_command  # noqa: E402





def load_json(path):
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise SystemExit(f"FAIL: {path}: {e}")


def example_project(tmp):
    """A copy of the example kernel project (deliberate bugs: an arch-mismatch in row_sum.cu,
    an unknown capability and a misspelt key in build.toml)."""
    target = Path(tmp) / "row-ops"
    shutil.copytree(REPO / "examples" / "kernels" / "row-ops", target)
    (target / "pyproject.toml").write_text('[project]\nname = "row-ops"\n')  # a .toml that is no build.toml
    return target


def server_env(extra):
    env = dict(os.environ)
    env["PATH"] = str(BIN_DIR) + os.pathsep + env.get("PATH", "")
    env.update(extra or {})
    return env


def kernel_lsp_version():
    out = subprocess.run([str(BIN_DIR / "kernel-lsp"), "--version"], capture_output=True, text=True).stdout
    return out.split()[-1] if out.strip() else None


def check_diagnostic_links(diagnostics, where):
    for d in diagnostics:
        href = d.get("codeDescription", {}).get("href")
        if check(href is not None, f"{where}: diagnostic `{d.get('code')}` has no codeDescription"):
            problem = link_problem(href, d.get("code"), REPO / "skills" / "cuda-kernels")
            check(problem is None, f"{where}: {problem}")


def has_code(code):
    return lambda diagnostics: any(d.get("code") == code for d in diagnostics)


# ---- Claude Code -----------------------------------------------------------------------------

PLUGIN_KEYS = {"$schema", "name", "version", "description", "author", "homepage", "repository", "license",
               "keywords", "commands", "agents", "skills", "hooks", "mcpServers", "outputStyles", "lspServers"}
LSP_SERVER_KEYS = {"command", "args", "extensionToLanguage", "transport", "env", "initializationOptions",
                   "settings", "workspaceFolder", "startupTimeout", "shutdownTimeout", "restartOnCrash",
                   "maxRestarts", "loggingConfig"}


def check_plugin_manifest(plugin):
    manifest = load_json(plugin / ".claude-plugin" / "plugin.json")
    check(isinstance(manifest.get("name"), str) and re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", manifest["name"]),
          "plugin.json: `name` (required) must be kebab-case")
    check(set(manifest) <= PLUGIN_KEYS, f"plugin.json: keys Claude Code does not know: {set(manifest) - PLUGIN_KEYS}")
    check(manifest.get("version") == kernel_lsp_version(),
          f"plugin.json: version {manifest.get('version')} is not kernel-lsp's ({kernel_lsp_version()})")
    author = manifest.get("author")
    check(author is None or (isinstance(author, dict) and isinstance(author.get("name"), str)),
          "plugin.json: `author` must be an object with a `name`")
    return manifest


def plugin_lsp_servers(plugin, manifest):
    servers = manifest.get("lspServers", "./.lsp.json")
    if isinstance(servers, str):
        check(servers.startswith("./"), "plugin.json: lspServers must be a path starting with ./")
        servers = load_json(plugin / servers)
    check(isinstance(servers, dict) and servers, ".lsp.json: an object of servers by name")
    for name, server in servers.items():
        where = f".lsp.json: {name}"
        check(set(server) <= LSP_SERVER_KEYS, f"{where}: keys Claude Code does not know: {set(server) - LSP_SERVER_KEYS}")
        check(isinstance(server.get("command"), str) and server["command"], f"{where}: `command` (required) is a string")
        mapping = server.get("extensionToLanguage")
        check(isinstance(mapping, dict) and mapping, f"{where}: `extensionToLanguage` (required) is an object")
        for extension, language in (mapping or {}).items():
            check(re.fullmatch(r"\.[a-z0-9]+", extension) and isinstance(language, str) and language,
                  f"{where}: extensionToLanguage {extension!r} → {language!r}")
        check(all(isinstance(a, str) for a in server.get("args", [])), f"{where}: `args` are strings")
        check(all(isinstance(v, str) for v in server.get("env", {}).values()), f"{where}: `env` values are strings")
        check(server.get("transport", "stdio") in ("stdio", "socket"), f"{where}: transport")
        for key in ("startupTimeout", "shutdownTimeout", "maxRestarts"):
            check(isinstance(server.get(key, 0), int), f"{where}: `{key}` is an integer")
        check(isinstance(server.get("restartOnCrash", False), bool), f"{where}: `restartOnCrash` is true or false")
    return servers


def check_plugin_skills(plugin):
    skills = plugin / "skills"
    names = sorted(p.parent.name for p in skills.glob("*/SKILL.md"))
    check("cuda-kernels" in names, f"the plugin's skills/ has no cuda-kernels skill ({names})")
    # One copy in git: skills/ is a link to the repository's skills folder, not a second copy.
    check(skills.is_symlink() and skills.resolve() == (REPO / "skills").resolve(),
          "the plugin's skills/ should be a symlink to the repository's skills/")
    with tempfile.TemporaryDirectory() as tmp:
        # Claude Code copies a plugin into its cache following symlinks (plugins reference,
        # "Plugin caching and file resolution"): the copy must be complete on its own.
        copy = Path(tmp) / "kernel-lsp"
        shutil.copytree(plugin, copy, symlinks=False)
        check(not any(p.is_symlink() for p in copy.rglob("*")), "the installed copy still holds symlinks")
        for name in names:
            proc = subprocess.run([str(BIN_DIR / "kernel-lsp"), "skills", "validate", str(copy / "skills" / name)],
                                  capture_output=True, text=True)
            check(proc.returncode == 0, f"skill {name} of the installed copy is not valid:\n{proc.stdout}{proc.stderr}")


def check_marketplace(marketplace_root, plugin_name):
    marketplace = load_json(marketplace_root / ".claude-plugin" / "marketplace.json")
    check(isinstance(marketplace.get("name"), str), "marketplace.json: `name` is required")
    check(isinstance(marketplace.get("owner", {}).get("name"), str), "marketplace.json: `owner.name` is required")
    entries = [p for p in marketplace.get("plugins", []) if p.get("name") == plugin_name]
    if check(len(entries) == 1, f"marketplace.json lists the plugin `{plugin_name}` once"):
        source = entries[0].get("source", "")
        check(isinstance(source, str) and source.startswith("./"), "marketplace.json: a relative source starts with ./")
        check((marketplace_root / source / ".claude-plugin" / "plugin.json").is_file(),
              f"marketplace.json: {source} is not a plugin folder")


def run_claude_code(tmp):
    root = REPO / "integrations" / "claude-code"
    plugin = root / "kernel-lsp"
    manifest = check_plugin_manifest(plugin)
    check_marketplace(root, manifest["name"])
    check_plugin_skills(plugin)
    servers = plugin_lsp_servers(plugin, manifest)
    server = servers.get("kernel-lsp") or next(iter(servers.values()))
    language = server["extensionToLanguage"]
    for extension in (".cu", ".cuh", ".toml"):
        check(extension in language, f".lsp.json: {extension} is not routed to kernel-lsp")

    def expand(text):  # Claude Code's substitution in plugin configuration
        return text.replace("${CLAUDE_PLUGIN_ROOT}", str(plugin))

    env = server_env({k: expand(v) for k, v in server.get("env", {}).items()})
    argv = [resolve_command(expand(server["command"]), env)] + [expand(a) for a in server.get("args", [])]
    project = example_project(tmp)
    client = LspClient(argv, env=env, cwd=project)
    with server_session(client):
        params = {"processId": os.getpid(), "rootUri": file_uri(project),
                  "workspaceFolders": [{"uri": file_uri(project), "name": project.name}],
                  "capabilities": {"textDocument": {"publishDiagnostics": {"relatedInformation": True,
                                                                           "codeDescriptionSupport": True}},
                                   "workspace": {"configuration": False}}}
        if "initializationOptions" in server:
            params["initializationOptions"] = server["initializationOptions"]
        client.request("initialize", params, timeout=server.get("startupTimeout", 30000) / 1000)
        client.notify("initialized", {})
        if "settings" in server:
            client.notify("workspace/didChangeConfiguration", {"settings": server["settings"]})
        source = project / "row_ops_cuda" / "row_sum.cu"
        started = time.monotonic()
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": file_uri(source), "languageId": language[".cu"], "version": 1, "text": source.read_text()}})
        published = client.diagnostics(file_uri(source), 240, has_code("arch-mismatch"))
        print(f"claude-code: arch-mismatch pushed {time.monotonic() - started:.1f} s after didOpen "
              f"(languageId {language['.cu']!r}), {len(published['diagnostics'])} diagnostics")
        check_diagnostic_links(published["diagnostics"], "row_sum.cu")

        toml = project / "build.toml"
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": file_uri(toml), "languageId": language[".toml"], "version": 1, "text": toml.read_text()}})
        published = client.diagnostics(file_uri(toml), 120, has_code("build-toml"))
        codes = sorted({d["code"] for d in published["diagnostics"]})
        print(f"claude-code: build.toml diagnostics {codes}")
        check("arch-unsupported" in codes, "build.toml: the unknown capability 9.5 is not reported")
        check_diagnostic_links(published["diagnostics"], "build.toml")

        # .toml goes to kernel-lsp for build.toml's sake; any other .toml must cost nothing.
        other = project / "pyproject.toml"
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": file_uri(other), "languageId": language[".toml"], "version": 1, "text": other.read_text()}})
        symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": file_uri(other)}}, 60)
        check(not symbols, f"pyproject.toml: no symbols expected, got {symbols}")
        noisy = [p for p in client.published() if p["uri"] == file_uri(other) and p["diagnostics"]]
        check(not noisy, f"pyproject.toml got diagnostics: {noisy}")
        check(client.shutdown() == 0, "the server did not exit with 0 after shutdown and exit")


# ---- OpenCode --------------------------------------------------------------------------------

OPENCODE_LSP_KEYS = {"command", "extensions", "disabled", "env", "initialization"}
# OpenCode's extension → language id table (packages/opencode/src/lsp/language.ts) for the
# extensions that matter here: none of them is in it, so OpenCode sends "plaintext".
OPENCODE_LANGUAGE_IDS = {".cpp": "cpp", ".c": "c", ".md": "markdown", ".py": "python"}


def opencode_configuration_value(settings, section):
    """OpenCode's answer to workspace/configuration: the section looked up in `initialization`."""
    if not section:
        return settings
    value = settings
    for key in section.split("."):
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


def run_opencode(tmp):
    config = load_json(REPO / "integrations" / "opencode" / "opencode.json")
    check(config.get("$schema") == "https://opencode.ai/config.json", "opencode.json: $schema")
    lsp = config.get("lsp")
    check(isinstance(lsp, dict) and lsp, "opencode.json: `lsp` is an object of servers by name")
    name, server = next(iter(lsp.items()))
    where = f"opencode.json: lsp.{name}"
    check(set(server) <= OPENCODE_LSP_KEYS, f"{where}: keys OpenCode does not know: {set(server) - OPENCODE_LSP_KEYS}")
    command = server.get("command")
    check(isinstance(command, list) and command and all(isinstance(c, str) for c in command),
          f"{where}: `command` (required) is a non-empty list of strings")
    extensions = server.get("extensions", [])
    check(all(isinstance(e, str) and e.startswith(".") for e in extensions), f"{where}: extensions start with a dot")
    for extension in (".cu", ".cuh", ".toml"):
        check(extension in extensions, f"{where}: {extension} is not routed to kernel-lsp")
    check(all(isinstance(v, str) for v in server.get("env", {}).values()), f"{where}: `env` values are strings")
    initialization = server.get("initialization")
    check(initialization is None or isinstance(initialization, dict), f"{where}: `initialization` is an object")
    check(server.get("disabled", False) is False, f"{where}: disabled")

    env = server_env(server.get("env"))
    argv = [resolve_command(command[0], env)] + command[1:]
    project = example_project(tmp)
    client = LspClient(argv, env=env, cwd=project, server_requests={
        "workspace/configuration": lambda params: [opencode_configuration_value(initialization, item.get("section"))
                                                   for item in (params or {}).get("items", [])],
        "window/workDoneProgress/create": lambda params: None,
        "client/registerCapability": lambda params: None,
        "workspace/workspaceFolders": lambda params: [{"name": "workspace", "uri": file_uri(project)}],
    })
    with server_session(client):
        client.request("initialize", {
            "rootUri": file_uri(project), "processId": client.proc.pid,
            "workspaceFolders": [{"name": "workspace", "uri": file_uri(project)}],
            "initializationOptions": dict(initialization or {}),
            "capabilities": {
                "window": {"workDoneProgress": True},
                "workspace": {"configuration": True, "didChangeWatchedFiles": {"dynamicRegistration": True},
                              "diagnostics": {"refreshSupport": False}},
                "textDocument": {"synchronization": {"didOpen": True, "didChange": True},
                                 "diagnostic": {"dynamicRegistration": True, "relatedDocumentSupport": True},
                                 "publishDiagnostics": {"versionSupport": False}}}}, timeout=45)
        client.notify("initialized", {})
        if initialization:
            client.notify("workspace/didChangeConfiguration", {"settings": initialization})

        def open_like_opencode(path):
            client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": file_uri(path), "type": 1}]})
            client.notify("textDocument/didOpen", {"textDocument": {
                "uri": file_uri(path), "languageId": OPENCODE_LANGUAGE_IDS.get(path.suffix, "plaintext"),
                "version": 0, "text": path.read_text()}})

        source = project / "row_ops_cuda" / "row_sum.cu"
        started = time.monotonic()
        open_like_opencode(source)
        published = client.diagnostics(file_uri(source), 240, has_code("arch-mismatch"))
        seconds = time.monotonic() - started
        print(f"opencode: arch-mismatch pushed {seconds:.1f} s after didOpen (languageId 'plaintext'); "
              f"OpenCode waits up to 5 s for a file's diagnostics after an edit, 10 s for a full check")
        # OpenCode does not declare codeDescriptionSupport (nor deny it); the server sends the
        # links unless a client says false, and they must resolve like any other.
        check_diagnostic_links(published["diagnostics"], "row_sum.cu")
        toml = project / "build.toml"
        open_like_opencode(toml)
        published = client.diagnostics(file_uri(toml), 120, has_code("build-toml"))
        print(f"opencode: build.toml diagnostics {sorted({d['code'] for d in published['diagnostics']})}")
        check(client.shutdown() == 0, "the server did not exit with 0 after shutdown and exit")


def main():
    global REPO, BIN_DIR
    if len(sys.argv) != 4 or sys.argv[1] not in ("claude-code", "opencode"):
        raise SystemExit(__doc__)
    REPO, BIN_DIR = Path(sys.argv[2]).resolve(), Path(sys.argv[3]).resolve()
    with tempfile.TemporaryDirectory() as tmp:
        (run_claude_code if sys.argv[1] == "claude-code" else run_opencode)(tmp)
    return exit_code()


if __name__ == "__main__":
    sys.exit(main())
