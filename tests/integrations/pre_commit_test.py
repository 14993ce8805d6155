#!/usr/bin/env python3
"""The pre-commit hook (.pre-commit-hooks.yaml) runs kernel-lsp on a kernel project's files.

  pre_commit_test.py REPO BIN_DIR

1. The hook file parses (python3-yaml) and has what pre-commit requires of a hook (id, name,
   entry, language); its `files` pattern takes .cu, .cuh and build.toml and nothing else.
2. The hook's entry runs the way pre-commit runs a `language: system` hook: the entry's words,
   then the files of the repository that the pattern selects, from the repository's root. On the
   example project (deliberate bugs) it fails with the arch-mismatch; on a fixed copy it passes.
3. The real pre-commit (Debian's `pre-commit` package), when installed: `pre-commit try-repo REPO
   kernel-lsp-lint --all-files` in a git repository of the example project fails, naming the
   finding, and passes on the fixed copy. Without pre-commit this part is skipped (exit 77 when
   nothing else failed), saying so.
"""

import os
import re
import shlex
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
from checks import FAILURES, check, exit_code  # noqa: E402


def git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True)


def make_repository(folder, example, fixed):
    shutil.copytree(example, folder)
    if fixed:  # no bug left: capabilities the code supports, no misspelt key, no oversized tile
        toml = (folder / "build.toml").read_text()
        toml = toml.replace('["7.5", "8.0", "9.0", "9.5"]', '["8.0", "9.0"]').replace('cuda-flag = ["--use_fast_math"]\n', "")
        toml = toml.replace('src = ["row_ops_cuda/row_sum.cu", "row_ops_cuda/transpose.cu"]', 'src = ["row_ops_cuda/row_sum.cu"]')
        (folder / "build.toml").write_text(toml)
        (folder / "row_ops_cuda" / "transpose.cu").unlink()
    (folder / "README.md").write_text("not linted\n")
    git(folder, "init", "-q")
    git(folder, "add", "-A")
    git(folder, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "example")
    return folder


def emulate_hook(hook, repository, env):
    """What pre-commit does for a `language: system` hook with `pass_filenames` (the default)."""
    files = subprocess.run(["git", "-C", str(repository), "ls-files"], capture_output=True, text=True,
                           check=True).stdout.split()
    include = re.compile(hook.get("files", ""))
    exclude = re.compile(hook["exclude"]) if hook.get("exclude") else None
    chosen = [f for f in files if include.search(f) and not (exclude and exclude.search(f))]
    argv = shlex.split(hook["entry"]) + list(hook.get("args", [])) + chosen
    proc = subprocess.run(argv, cwd=repository, env=env, capture_output=True, text=True)
    return chosen, proc


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    repo, bin_dir = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    hooks = yaml.safe_load((repo / ".pre-commit-hooks.yaml").read_text())
    check(isinstance(hooks, list), ".pre-commit-hooks.yaml is a list of hooks")
    hook = next((h for h in hooks if h.get("id") == "kernel-lsp-lint"), None)
    if not check(hook is not None, "no kernel-lsp-lint hook"):
        return 1
    for key in ("id", "name", "entry", "language"):
        check(isinstance(hook.get(key), str), f"the hook has no `{key}`")
    check(hook["language"] == "system", "language: system (kernel-lsp is not a package pre-commit can install)")
    pattern = re.compile(hook["files"])
    for name, wanted in [("a.cu", True), ("x/y.cuh", True), ("build.toml", True), ("k/build.toml", True),
                         ("pyproject.toml", False), ("prebuild.toml", False), ("a.cpp", False), ("a.cu.orig", False)]:
        check(bool(pattern.search(name)) == wanted, f"files pattern on {name}: expected {wanted}")

    env = dict(os.environ)
    env["PATH"] = str(bin_dir) + os.pathsep + env.get("PATH", "")
    example = repo / "examples" / "kernels" / "row-ops"
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        buggy = make_repository(tmp / "buggy", example, fixed=False)
        fixed = make_repository(tmp / "fixed", example, fixed=True)

        chosen, proc = emulate_hook(hook, buggy, env)
        print(f"hook entry on {chosen}: exit {proc.returncode}")
        check(sorted(chosen) == ["build.toml", "row_ops_cuda/row_sum.cu", "row_ops_cuda/transpose.cu"],
              f"the pattern chose {chosen}")
        check(proc.returncode == 1 and "[arch-mismatch]" in proc.stdout,
              f"the hook should fail with the arch-mismatch:\n{proc.stdout}{proc.stderr}")
        chosen, proc = emulate_hook(hook, fixed, env)
        check(proc.returncode == 0, f"the hook should pass on the fixed project:\n{proc.stdout}{proc.stderr}")

        pre_commit = shutil.which("pre-commit")
        if not pre_commit:
            print("SKIP: the real pre-commit is not installed (Debian: apt-get install pre-commit);"
                  " the hook's entry was run as pre-commit runs it")
            return 1 if FAILURES else 77
        version = subprocess.run([pre_commit, "--version"], capture_output=True, text=True).stdout.strip()
        pc_env = dict(env, PRE_COMMIT_HOME=str(tmp / "pre-commit-home"), PRE_COMMIT_COLOR="never")
        # The hook repository as pre-commit fetches it: a git repository with the hook file
        # committed (try-repo on the working tree would see only files git already tracks).
        hook_repo = tmp / "hook-repo"
        hook_repo.mkdir()
        shutil.copy(repo / ".pre-commit-hooks.yaml", hook_repo)
        git(hook_repo, "init", "-q")
        git(hook_repo, "add", "-A")
        git(hook_repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "hooks")
        for name, repository, expected in [("buggy", buggy, 1), ("fixed", fixed, 0)]:
            proc = subprocess.run([pre_commit, "try-repo", str(hook_repo), "kernel-lsp-lint", "--all-files"],
                                  cwd=repository, env=pc_env, capture_output=True, text=True)
            out = proc.stdout + proc.stderr
            print(f"{version} try-repo on the {name} project: exit {proc.returncode}")
            check(proc.returncode == expected, f"pre-commit on the {name} project: exit {proc.returncode}:\n{out}")
            if expected == 1:
                check("[arch-mismatch]" in out and "Failed" in out, f"pre-commit's output lacks the finding:\n{out}")
            else:
                check("Passed" in out, f"pre-commit did not pass:\n{out}")

    return exit_code()


if __name__ == "__main__":
    sys.exit(main())
