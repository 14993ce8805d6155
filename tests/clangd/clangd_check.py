#!/usr/bin/env python3
"""clangd beside kernel-lsp: `kernel-lsp clangd-config` makes the real clangd parse kernel projects.

    clangd_check.py KERNEL_LSP CLANGD PROJECT... [--user-database] [--files GLOB... | --all-listed]

Copies each kernel-builder project to a temporary folder, runs `kernel-lsp clangd-config` there
and `CLANGD --check=FILE --check-locations=false` on every .cu file and torch-ext/*.cpp binding
(or the files --files names, relative to each project, or with --all-listed every file the
written compile_commands.json lists), and fails on any error clangd reports.

clangd --check logs each error diagnostic as `E[time] [code] Line N: message`, counts them and
exits nonzero when there are any (warnings are not printed by clangd 19's --check). Both are
checked: the count of such lines must be zero and the exit status 0.

--user-database first gives each copy a compile_commands.json as kernel-builder's CMake writes it
(nvcc's command lines, which clang rejects): clangd-config must keep it and still make clangd
parse cleanly (through its own database in .cache/kernel-lsp, which .clangd names).

Exit 77 (skipped) when clangd or the CUDA toolkit is missing.
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

DIAGNOSTIC = re.compile(r"^E\[[^\]]*\] \[([^\]]*)\] Line (\d+): (.*)$")


def cuda_toolkit():
    for root in (os.environ.get("CUDA_PATH"), os.environ.get("CUDA_HOME")):
        if root and os.path.exists(os.path.join(root, "include", "cuda_runtime.h")):
            return root
    nvcc = shutil.which("nvcc")
    if nvcc:
        return os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    if os.path.exists("/usr/local/cuda/include/cuda_runtime.h"):
        return "/usr/local/cuda"
    return None


def nvcc_style_database(project):
    """compile_commands.json with nvcc command lines, the way kernel-builder's CMake writes them."""
    entries = []
    for source in sorted(glob.glob(os.path.join(project, "*", "*.cu"))):
        command = ("/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DTORCH_EXTENSION_NAME=_x "
                   "-DUSER_BUILD_DEFINE=1 -O3 -DNDEBUG -std=c++17 \"--generate-code=arch=compute_80,code=[sm_80]\" "
                   "-Xcompiler=-fPIC --expt-relaxed-constexpr --expt-extended-lambda -Xcudafe "
                   "--diag_suppress=cc_clobber_ignored -x cu -c %s -o %s.o" % (source, source))
        entries.append({"directory": project, "file": source, "command": command})
    with open(os.path.join(project, "compile_commands.json"), "w") as out:
        json.dump(entries, out, indent=1)


def listed_files(project):
    """Every file of the compile_commands.json that clangd-config wrote (the .clangd names its folder)."""
    for folder in (os.path.join(project, ".cache", "kernel-lsp"), project):
        database = os.path.join(folder, "compile_commands.json")
        if os.path.exists(database):
            with open(database) as f:
                entries = json.load(f)
            if entries and entries[0]["arguments"][0] == "clang++":
                return [e["file"] for e in entries]
    return []


def files_to_check(project, patterns, all_listed=False):
    if all_listed:
        found = listed_files(project)
    elif patterns:
        found = [f for p in patterns for f in glob.glob(os.path.join(project, p), recursive=True)]
    else:
        found = glob.glob(os.path.join(project, "**", "*.cu"), recursive=True)
        found += glob.glob(os.path.join(project, "torch-ext", "*.cpp"))
    return sorted(os.path.relpath(f, project) for f in set(found) if "/build/" not in f)


def check_file(clangd, project, relative):
    started = time.monotonic()
    run = subprocess.run([clangd, "--check=" + relative, "--check-locations=false"], cwd=project,
                         capture_output=True, text=True, timeout=300)
    seconds = time.monotonic() - started
    errors = [m.groups() for m in map(DIAGNOSTIC.match, run.stderr.splitlines()) if m]
    return run.returncode, errors, seconds, run.stderr


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("kernel_lsp")
    parser.add_argument("clangd")
    parser.add_argument("projects", nargs="+")
    parser.add_argument("--user-database", action="store_true")
    parser.add_argument("--files", nargs="*", default=[])
    parser.add_argument("--all-listed", action="store_true")
    args = parser.parse_args()

    clangd = shutil.which(args.clangd)
    if not clangd:
        print("SKIP: %s not found (apt-get install clangd-19)" % args.clangd)
        return 77
    if not cuda_toolkit():
        print("SKIP: no CUDA toolkit (CUDA_PATH, CUDA_HOME, nvcc on PATH, /usr/local/cuda)")
        return 77

    failures = 0
    checked = 0
    total_seconds = 0.0
    with tempfile.TemporaryDirectory(prefix="kl_clangd_") as scratch:
        for source in args.projects:
            project = os.path.join(scratch, os.path.basename(os.path.normpath(source)))
            shutil.copytree(source, project, ignore=shutil.ignore_patterns("build", "__pycache__", ".cache",
                                                                           ".clangd", "compile_commands.json"))
            if args.user_database:
                nvcc_style_database(project)
                with open(os.path.join(project, "compile_commands.json")) as f:
                    users = f.read()
            config = subprocess.run([args.kernel_lsp, "clangd-config", project], capture_output=True, text=True,
                                    timeout=300)
            print(config.stdout, end="")
            if config.returncode != 0:
                print("FAIL %s: kernel-lsp clangd-config exited %d\n%s" % (source, config.returncode, config.stderr))
                failures += 1
                continue
            if args.user_database:
                with open(os.path.join(project, "compile_commands.json")) as f:
                    if f.read() != users:
                        print("FAIL %s: the user's compile_commands.json was changed" % source)
                        failures += 1
                if not os.path.exists(os.path.join(project, ".cache", "kernel-lsp", "compile_commands.json")):
                    print("FAIL %s: no .cache/kernel-lsp/compile_commands.json beside the user's" % source)
                    failures += 1
            for relative in files_to_check(project, args.files, args.all_listed):
                code, errors, seconds, log = check_file(clangd, project, relative)
                checked += 1
                total_seconds += seconds
                name = os.path.join(os.path.basename(project), relative)
                if code != 0 or errors:
                    failures += 1
                    print("FAIL %-50s exit %d, %d errors (%.1f s)" % (name, code, len(errors), seconds))
                    for diag_code, line, message in errors:
                        print("       line %s [%s] %s" % (line, diag_code, message))
                    if not errors:
                        print(log[-3000:])
                else:
                    print("ok   %-50s 0 errors (%.1f s)" % (name, seconds))
    print("%d files checked by %s in %.1f s, %d failures" % (checked, args.clangd, total_seconds, failures))
    if checked == 0:
        print("FAIL: no file was checked")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
