#!/usr/bin/env python3
"""No link that kernel-lsp prints leads nowhere.

  links_test.py REPO BIN_DIR

1. `kernel-lsp lint --format sarif|json` over the example project: every SARIF helpUri and JSON
   help_uri is a file: URI of a page that exists, in the installed copy of the skill (a resource
   folder given by $KERNEL_LSP_RESOURCE_DIR, so not the source tree); with --docs-base-url it is
   the base + a page that exists; a template gets the rule id; a bad base is refused (exit 2).
2. The server: every diagnostic's codeDescription.href (of a .cu, a build.toml and a SKILL.md)
   resolves; after didChangeConfiguration with docsBaseUrl the republished diagnostics link
   under that base; a bad docsBaseUrl is reported and ignored; the kernel-lsp/guidance answer's
   uri and the links in its Markdown resolve.
3. The documents: every relative link in the repository's Markdown (README, docs, skills,
   integrations) names a file that exists, and the web address that never existed is gone.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from checks import check, exit_code, server_session  # noqa: E402
from links import file_uri_path, link_problem  # noqa: E402
from lsp_client import LspClient, file_uri  # noqa: E402

RETIRED_ADDRESS = "github.com/kernel-lsp/kernel-lsp"




def lint(binary, args, env, cwd):
    return subprocess.run([str(binary), "lint", *args], capture_output=True, text=True, env=env, cwd=cwd)


def report_links(fmt, doc):
    """(rule id, link) of every link in a report."""
    if fmt == "sarif":
        return [(r["id"], r.get("helpUri")) for r in doc["runs"][0]["tool"]["driver"]["rules"]]
    return [(f["rule"], f.get("help_uri")) for f in doc["findings"]]


def check_lint_reports(repo, binary, tmp):
    project = tmp / "project"
    shutil.copytree(repo / "examples" / "kernels", project)
    # An installed copy of the skill, found before the source tree: the links must follow it.
    installed = tmp / "share" / "kernel-lsp"
    shutil.copytree(repo / "skills", installed / "skills")
    env = dict(os.environ, KERNEL_LSP_RESOURCE_DIR=str(installed))
    skill = installed / "skills" / "cuda-kernels"
    for fmt in ("sarif", "json"):
        proc = lint(binary, ["--format", fmt, "."], env, project)
        if not check(proc.returncode == 1, f"lint --format {fmt}: exit {proc.returncode}\n{proc.stderr}"):
            continue
        links = report_links(fmt, json.loads(proc.stdout))
        check(any(rule == "arch-mismatch" for rule, _ in links), f"{fmt}: no arch-mismatch")
        for rule, link in links:
            if not check(link, f"{fmt}: {rule} has no link"):
                continue
            check(link_problem(link, rule, skill) is None, f"{fmt}: {link_problem(link, rule, skill)}")
            check(str(file_uri_path(link)).startswith(str(installed)), f"{fmt}: {link} is not in the installed copy")
        print(f"lint --format {fmt}: {len(links)} links, all to existing pages of {installed}")

        base = "https://docs.example.org/kernel-lsp/skills/cuda-kernels/"
        proc = lint(binary, ["--format", fmt, "--docs-base-url", base, "."], env, project)
        for rule, link in report_links(fmt, json.loads(proc.stdout)):
            check(link_problem(link, rule, repo / "skills" / "cuda-kernels", base) is None,
                  f"{fmt} with a base: {link_problem(link, rule, repo / 'skills' / 'cuda-kernels', base)}")
        template = "https://wiki.example.org/kl/{id}.html"
        proc = lint(binary, ["--format", fmt, "--docs-base-url", template, "."], env, project)
        for rule, link in report_links(fmt, json.loads(proc.stdout)):
            check(link == template.replace("{id}", rule), f"{fmt} with a template: {rule} → {link}")

    proc = lint(binary, ["--format", "sarif", "--docs-base-url", "docs/rules", "."], env, project)
    check(proc.returncode == 2 and "--docs-base-url" in proc.stderr and "absolute URL" in proc.stderr,
          f"a relative --docs-base-url should be refused with exit 2: {proc.returncode} {proc.stderr}")


def check_server(repo, binary, tmp):
    project = tmp / "server" / "row-ops"
    shutil.copytree(repo / "examples" / "kernels" / "row-ops", project)
    skill = tmp / "server" / "skills" / "broken"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: broken\n---\n\nSee [a page](references/missing.md).\n")
    skill_folder = repo / "skills" / "cuda-kernels"
    client = LspClient([str(binary), "serve", "--stdio"], env=dict(os.environ), cwd=project)
    with server_session(client):
        client.request("initialize", {
            "processId": os.getpid(), "rootUri": file_uri(project.parent),
            "capabilities": {"textDocument": {"publishDiagnostics": {"codeDescriptionSupport": True,
                                                                     "relatedInformation": True}}}}, 60)
        client.notify("initialized", {})
        files = [(project / "row_ops_cuda" / "row_sum.cu", "cuda-cpp", "arch-mismatch"),
                 (project / "row_ops_cuda" / "transpose.cu", "cuda-cpp", "smem-limit"),
                 (project / "build.toml", "toml", "arch-unsupported"),
                 (skill / "SKILL.md", "markdown", "skill")]
        for path, language, _ in files:
            client.notify("textDocument/didOpen", {"textDocument": {
                "uri": file_uri(path), "languageId": language, "version": 1, "text": path.read_text()}})
        count = 0
        for path, _, code in files:
            published = client.diagnostics(file_uri(path), 240, lambda ds, c=code: any(d["code"] == c for d in ds))
            for d in published["diagnostics"]:
                href = d.get("codeDescription", {}).get("href")
                if check(href, f"server: {path.name}: `{d['code']}` has no link"):
                    count += 1
                    check(link_problem(href, d["code"], skill_folder) is None,
                          f"server: {path.name}: {link_problem(href, d['code'], skill_folder)}")
        print(f"server: {count} diagnostic links, all resolve")

        # The guidance request: its uri and the links in its Markdown.
        answer = client.request("kernel-lsp/guidance", {"ruleId": "arch-mismatch"}, 30)
        if check(answer and file_uri_path(answer["uri"]) and file_uri_path(answer["uri"]).is_file(),
                 f"kernel-lsp/guidance: uri {answer and answer.get('uri')}"):
            for target in re.findall(r"\]\(([^)\s]+)\)", answer["markdown"]):
                path = file_uri_path(target.split("#")[0])
                check(path is not None and path.exists(), f"kernel-lsp/guidance Markdown links to {target}")

        # A documentation base set while running: the diagnostics come again, linked under it.
        base = "https://docs.example.org/kl/v1"
        client.notify("workspace/didChangeConfiguration", {"settings": {"kernelLsp": {"docsBaseUrl": base}}})
        row_sum = file_uri(files[0][0])
        published = client.diagnostics(row_sum, 240, lambda ds: ds and all(
            d.get("codeDescription", {}).get("href", "").startswith(base) for d in ds))
        for d in published["diagnostics"]:
            check(link_problem(d["codeDescription"]["href"], d["code"], skill_folder, base) is None,
                  f"server with docsBaseUrl: {link_problem(d['codeDescription']['href'], d['code'], skill_folder, base)}")
        print(f"server with docsBaseUrl: e.g. {published['diagnostics'][0]['codeDescription']['href']}")

        client.notify("workspace/didChangeConfiguration", {"settings": {"kernelLsp": {"docsBaseUrl": "rules/"}}})
        message = client.wait_for(lambda m: m.get("method") == "window/showMessage"
                                  and "docsBaseUrl" in m["params"]["message"], 30, "a message about docsBaseUrl")
        print(f"server with a bad docsBaseUrl: {message['params']['message']}")
        check(client.shutdown() == 0, "the server did not exit with 0")


def check_documents(repo):
    listed = subprocess.run(["git", "-C", str(repo), "ls-files", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, text=True, check=True).stdout.split("\n")
    markdown = [f for f in listed if f.endswith(".md") and "node_modules" not in f
                and not f.startswith("tests/fixtures/")]  # fixtures hold broken links on purpose
    link = re.compile(r"\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", re.S)
    checked = 0
    for name in markdown:
        path = repo / name
        if not path.is_file():
            continue
        text = re.sub(r"```.*?```", "", path.read_text(errors="replace"), flags=re.S)
        for match in link.finditer(text):
            target = match.group(1)
            if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("#"):
                continue
            checked += 1
            check((path.parent / target.split("#")[0]).exists(), f"{name}: the link {target} names no file")
    print(f"documents: {checked} relative links in {len(markdown)} Markdown files, all resolve")
    tracked = [f for f in listed if f and not f.startswith("tests/integrations/") and "node_modules" not in f]
    for name in tracked:
        path = repo / name
        if path.is_file() and not path.is_symlink() and path.stat().st_size < 2_000_000:
            check(RETIRED_ADDRESS not in path.read_text(errors="replace"), f"{name} still names {RETIRED_ADDRESS}")


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    repo, bin_dir = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    binary = bin_dir / "kernel-lsp"
    with tempfile.TemporaryDirectory() as tmp:
        check_lint_reports(repo, binary, Path(tmp))
        check_server(repo, binary, Path(tmp))
    check_documents(repo)
    return exit_code()


if __name__ == "__main__":
    sys.exit(main())
