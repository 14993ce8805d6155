#!/usr/bin/env python3
"""The composite GitHub Action (action.yml) and the example workflow, run here as far as they can be.

  github_action_test.py REPO BIN_DIR

action.yml is parsed (python3-yaml) and checked as GitHub reads it: a composite action whose
inputs are declared and described, whose `run` steps name a shell, whose expressions refer only
to inputs it declares and to steps before them. Then its steps run the way the runner runs them
(`bash --noprofile --norc -eo pipefail`, $GITHUB_OUTPUT, the `${{ }}` of each step's `env`, its
`if:`) over a copy of the example kernel project with the real kernel-lsp; the upload step, which
needs GitHub, is replaced by checking the file it would upload: valid SARIF 2.1.0 whose helpUri
links are pages that exist. Scenarios: the action used from a repository (links to that
repository's pages at the ref), used as `./` from the workflow's own repository, with an explicit
binary and annotations, and with fail-on-findings off.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import yaml
except ImportError:  # Debian: python3-yaml
    print("SKIP: python3-yaml is not installed")
    sys.exit(77)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from checks import check, exit_code  # noqa: E402
from links import link_problem  # noqa: E402
from sarif import sarif_problems  # noqa: E402

EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")




class Context:
    def __init__(self, inputs, github):
        self.inputs, self.github, self.steps = inputs, github, {}

    def value(self, name):
        parts = name.split(".")
        if parts[0] == "inputs":
            return self.inputs[parts[1]]
        if parts[0] == "github":
            return self.github.get(parts[1], "")
        if parts[0] == "steps" and parts[2] == "outputs":
            return self.steps.get(parts[1], {}).get(parts[3], "")
        raise ValueError(f"an expression this test does not evaluate: {name}")

    def expand(self, text):
        return EXPRESSION.sub(lambda m: str(self.value(m.group(1))), str(text))

    def condition(self, text):
        """`a == 'x' && b == 'y'`: the forms action.yml uses."""
        text = EXPRESSION.sub(lambda m: m.group(1), str(text))
        for term in text.split("&&"):
            left, _, right = term.partition("==")
            if self.value(left.strip()) != right.strip().strip("'"):
                return False
        return True


def read_outputs(path):
    outputs = {}
    for line in Path(path).read_text().splitlines():
        if "=" in line:
            key, _, value = line.partition("=")
            outputs[key] = value
    return outputs


def check_action_shape(action):
    check(isinstance(action.get("name"), str) and isinstance(action.get("description"), str),
          "action.yml: name and description are required")
    runs = action.get("runs", {})
    check(runs.get("using") == "composite", "action.yml: runs.using is composite")
    inputs = action.get("inputs", {})
    for name, spec in inputs.items():
        check(isinstance(spec.get("description"), str), f"action.yml: input {name} has no description")
    seen_steps = set()
    for step in runs.get("steps", []):
        label = step.get("name", step.get("id", "?"))
        check(("run" in step) != ("uses" in step), f"step {label}: either run or uses")
        if "run" in step:
            check(step.get("shell") == "bash", f"step {label}: a run step of a composite action names its shell")
            check("${{" not in step["run"], f"step {label}: expressions belong in env, not in the script")
        text = json.dumps(step)
        for reference in re.findall(r"inputs\.([A-Za-z0-9_-]+)", text):
            check(reference in inputs, f"step {label}: inputs.{reference} is not declared")
        for reference in re.findall(r"steps\.([A-Za-z0-9_-]+)\.outputs", text):
            check(reference in seen_steps, f"step {label}: steps.{reference} is not an earlier step")
        if "id" in step:
            seen_steps.add(step["id"])
    uploads = [s for s in runs.get("steps", []) if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif@")]
    check(len(uploads) == 1 and "sarif_file" in uploads[0].get("with", {}),
          "action.yml: one github/codeql-action/upload-sarif step with sarif_file")
    for name, spec in action.get("outputs", {}).items():
        check("value" in spec, f"action.yml: output {name} needs a value (composite actions)")


def run_action(action, repo, bin_dir, scenario, workspace, action_path, with_inputs, github_extra, path_has_binary):
    inputs = {name: str(spec.get("default", "")) for name, spec in action.get("inputs", {}).items()}
    inputs.update(with_inputs)
    github = {"action_path": str(action_path), "action_repository": "", "action_ref": "", **github_extra}
    context = Context(inputs, github)
    env = dict(os.environ)
    env["PATH"] = (str(bin_dir) + os.pathsep if path_has_binary else "") + "/usr/local/bin:/usr/bin:/bin"
    env.update({"GITHUB_WORKSPACE": str(workspace), "GITHUB_SERVER_URL": "https://github.com",
                "GITHUB_REPOSITORY": "octo-org/kernels", "GITHUB_SHA": "0123456789abcdef0123456789abcdef01234567"})
    log = []
    uploaded = None
    for index, step in enumerate(action["runs"]["steps"]):
        if "if" in step and not context.condition(step["if"]):
            continue
        if "uses" in step:
            uploaded = {k: context.expand(v) for k, v in step.get("with", {}).items()}
            continue
        output_file = workspace.parent / f"{scenario}-output-{index}"
        output_file.write_text("")
        script = workspace.parent / f"{scenario}-step-{index}.sh"
        script.write_text(step["run"])
        step_env = dict(env, GITHUB_OUTPUT=str(output_file))
        step_env.update({k: context.expand(v) for k, v in step.get("env", {}).items()})
        proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                              cwd=workspace, env=step_env, capture_output=True, text=True)
        log.append((step.get("name"), proc.returncode, proc.stdout, proc.stderr))
        if "id" in step:
            context.steps[step["id"]] = read_outputs(output_file)
        if proc.returncode != 0:
            return proc.returncode, log, uploaded, context
    return 0, log, uploaded, context


def check_sarif(path, base, repo, scenario):
    doc = json.loads(Path(path).read_text())
    for problem in sarif_problems(doc):
        check(False, f"{scenario}: SARIF: {problem}")
    run = doc["runs"][0]
    check(any(r["ruleId"] == "arch-mismatch" for r in run["results"]), f"{scenario}: no arch-mismatch in the SARIF")
    for rule in run["tool"]["driver"]["rules"]:
        link = rule.get("helpUri")
        if check(link is not None, f"{scenario}: rule {rule['id']} has no helpUri"):
            problem = link_problem(link, rule["id"], repo / "skills" / "cuda-kernels", base)
            check(problem is None, f"{scenario}: {problem}")
    return doc


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    repo, bin_dir = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    action = yaml.safe_load((repo / "action.yml").read_text())
    check_action_shape(action)
    # Without a kernel-lsp the action builds one with the repository's scripts (not run here:
    # that is the whole build); they must be where it calls them.
    setup = next(s for s in action["runs"]["steps"] if s.get("id") == "setup")["run"]
    for script in re.findall(r'"\$ACTION_PATH/(tools/[a-z-]+\.sh)"', setup):
        check(os.access(repo / script, os.X_OK), f"the setup step calls {script}, which is not an executable script")
    check("$ACTION_PATH/build/cli/kernel-lsp" in setup and 'build="${KERNEL_LSP_BUILD_DIR:-$root/build}"'
          in (repo / "tools" / "build.sh").read_text(), "the setup step looks for the binary where tools/build.sh puts it")

    workflow = yaml.safe_load((repo / "docs" / "examples" / "kernel-lsp-lint.yml").read_text())
    steps = workflow["jobs"]["lint"]["steps"]
    check(any(str(s.get("uses", "")).split("@")[0].endswith("/kernel-lsp") for s in steps),
          "the example workflow does not use the kernel-lsp action")
    check(workflow.get("permissions", {}).get("security-events") == "write",
          "the example workflow needs security-events: write for the upload")

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        pages = "/blob/v1/skills/cuda-kernels"
        scenarios = [
            # name, inputs, github context, kernel-lsp on PATH, expected exit, expected base
            ("from-a-repository", {}, {"action_repository": "octo-org/kernel-lsp", "action_ref": "v1"}, True, 1,
             "https://github.com/octo-org/kernel-lsp" + pages),
            ("binary-and-annotations", {"kernel-lsp": str(bin_dir / "kernel-lsp"), "annotations": "true",
                                        "fail-on-findings": "false", "docs-base-url": "https://docs.example.org/kl"},
             {}, False, 0, "https://docs.example.org/kl"),
            ("uses-dot", {"fail-on-findings": "false"}, {}, True, 0,
             "https://github.com/octo-org/kernels/blob/0123456789abcdef0123456789abcdef01234567/tools/kl/skills/cuda-kernels"),
        ]
        for name, inputs, github, on_path, expected_exit, base in scenarios:
            workspace = tmp / name / "repo"
            shutil.copytree(repo / "examples" / "kernels" / "row-ops", workspace / "row-ops")
            action_path = repo
            if name == "uses-dot":  # the action vendored into the workflow's repository
                action_path = workspace / "tools" / "kl"
                action_path.parent.mkdir(parents=True)
                action_path.symlink_to(repo)
            status, log, uploaded, context = run_action(action, repo, bin_dir, name, workspace, action_path,
                                                        inputs, github, on_path)
            output = "\n".join(f"--- {step} (exit {code})\n{out}{err}" for step, code, out, err in log)
            if not check(status == expected_exit, f"{name}: the action ended with {status}, not {expected_exit}"):
                print(output)
                continue
            lint = context.steps.get("lint", {})
            check(lint.get("exit-code") == "1", f"{name}: lint's exit code {lint.get('exit-code')} (findings expected)")
            check(context.steps["docs"].get("docs-base-url") == base,
                  f"{name}: docs base {context.steps['docs'].get('docs-base-url')!r}, not {base!r}")
            if check(uploaded is not None, f"{name}: the SARIF upload step did not run"):
                check(uploaded.get("category") == "kernel-lsp", f"{name}: upload category")
                sarif_path = workspace / uploaded["sarif_file"]
                if check(sarif_path.is_file(), f"{name}: {sarif_path} was not written"):
                    doc = check_sarif(sarif_path, base, repo, name)
                    print(f"{name}: exit {status}, {len(doc['runs'][0]['results'])} results, "
                          f"helpUri e.g. {doc['runs'][0]['tool']['driver']['rules'][0].get('helpUri')}")
            if inputs.get("annotations") == "true":
                annotations = [line for _, _, out, _ in log for line in out.splitlines() if line.startswith("::error file=")]
                check(any("arch-mismatch" in a for a in annotations), f"{name}: no arch-mismatch annotation")
            if expected_exit == 1:
                check("kernel-lsp found errors or warnings" in output, f"{name}: the last step did not say why it failed")

    return exit_code()


if __name__ == "__main__":
    sys.exit(main())
