#!/usr/bin/env python3
"""Whether skipping shared bodies changes any finding: `kernel-lsp lint` twice over the same files.

A parse of another configuration of a file skips the function bodies it shares with the first
parse and takes their facts from it (analyzers/pipeline/shared_bodies.h). This runs

    BINARY lint --no-cache --format json [LINT ARGS] FILES...

once as shipped (with KERNEL_LSP_LOG_SHARED_BODIES=1, which makes each other configuration's
parse say on stderr how many bodies it skipped, or why none) and once with
KERNEL_LSP_DISABLE_SHARED_BODIES=1 (every configuration parsed whole), then compares the two
reports' findings, in order, field by field, and prints:

  - the wall time of each run;
  - whether the findings are equal, and the first differences when not;
  - how many other-configuration parses skipped bodies, how many bodies in all, and why the
    others skipped none.

Usage: shared_bodies_check.py --binary build/cli/kernel-lsp --files LIST [--out DIR] [-- LINT ARGS]
LIST holds one source path per line. Standard library only. Exit status 1 when findings differ.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import time

LOG_LINE = re.compile(r"^shared bodies: (.*) (sm_\w+): (\d+) of (\d+) skipped(?:: (.*))?$")


def lint(binary, files, lint_args, env_extra, out_prefix):
    env = dict(os.environ, **env_extra)
    started = time.monotonic()
    done = subprocess.run([binary, "lint", "--no-cache", "--format", "json", *lint_args, *files],
                          env=env, capture_output=True, text=True)
    seconds = time.monotonic() - started
    if out_prefix:
        with open(out_prefix + ".json", "w") as f:
            f.write(done.stdout)
        with open(out_prefix + ".err", "w") as f:
            f.write(done.stderr)
    report = json.loads(done.stdout)
    return report.get("findings", []), done.stderr, seconds


def skipping_summary(stderr):
    parses = skipping = bodies = 0
    reasons = collections.Counter()
    for line in stderr.splitlines():
        m = LOG_LINE.match(line)
        if not m:
            continue
        parses += 1
        skipped = int(m.group(3))
        if skipped:
            skipping += 1
            bodies += skipped
        else:
            reasons[m.group(5) or "nothing to skip"] += 1
    return parses, skipping, bodies, reasons


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--files", required=True, help="a file listing one source path per line")
    parser.add_argument("--out", help="folder for the raw reports and stderr of both runs")
    parser.add_argument("--name", default="run", help="prefix of the raw files in --out")
    parser.add_argument("lint_args", nargs="*", help="after --: more `kernel-lsp lint` options")
    args = parser.parse_args()
    with open(args.files) as f:
        files = [line.strip() for line in f if line.strip()]
    prefix = lambda mode: os.path.join(args.out, f"{args.name}.{mode}") if args.out else None
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    shared, log, shared_s = lint(args.binary, files, args.lint_args, {"KERNEL_LSP_LOG_SHARED_BODIES": "1"},
                                 prefix("shared"))
    whole, _, whole_s = lint(args.binary, files, args.lint_args, {"KERNEL_LSP_DISABLE_SHARED_BODIES": "1"},
                             prefix("whole"))
    print(f"files: {len(files)}; lint as shipped {shared_s:.0f} s, every configuration whole {whole_s:.0f} s")
    equal = shared == whole
    print(f"findings: {len(shared)} as shipped, {len(whole)} whole: {'equal' if equal else 'DIFFERENT'}")
    if not equal:
        a = {json.dumps(x, sort_keys=True) for x in shared}
        b = {json.dumps(x, sort_keys=True) for x in whole}
        for text in sorted(a - b)[:5]:
            print("  only as shipped:", text[:400])
        for text in sorted(b - a)[:5]:
            print("  only whole:     ", text[:400])
    parses, skipping, bodies, reasons = skipping_summary(log)
    print(f"other-configuration parses: {parses}; {skipping} skipped bodies ({bodies} in all)")
    for reason, count in reasons.most_common():
        print(f"  none skipped, {reason}: {count}")
    return 0 if equal else 1


if __name__ == "__main__":
    sys.exit(main())
