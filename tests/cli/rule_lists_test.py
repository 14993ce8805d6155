#!/usr/bin/env python3
"""The rule ids written by hand outside the binary are the catalog's (analyzers/rules/
rule_catalog.cpp), as `kernel-lsp lint --format sarif` lists it: the findings table of the
bundled skill's SKILL.md, the rule table of the README, and the rule list in the VS Code
extension's `disabledRules` setting.
A rule added to the catalog and not to these (or a name left there after a rule is renamed)
fails here. Every rule's guidance page exists.

usage: rule_lists_test.py KERNEL_LSP SOURCE_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

BINARY = None
SOURCE = None


def catalog():
    """(id, helpUri) of every rule, from SARIF's rule list of a lint of one small file."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "k.cu"
        source.write_text("__global__ void k(float* p) { p[threadIdx.x] = 0.0f; }\n")
        env = dict(os.environ, KERNEL_LSP_RESOURCE_DIR=str(SOURCE))
        ran = subprocess.run([BINARY, "lint", "--format", "sarif", "--no-cache", str(source)],
                             capture_output=True, text=True, env=env, timeout=300)
    rules = json.loads(ran.stdout)["runs"][0]["tool"]["driver"]["rules"]
    return {r["id"]: r.get("helpUri", "") for r in rules}


def skill_table_ids():
    text = (SOURCE / "skills" / "cuda-kernels" / "SKILL.md").read_text()
    section = text.split("## kernel-lsp findings", 1)[1].split("\n## ", 1)[0]
    ids = set()
    for line in section.splitlines():
        if line.startswith("| `"):
            ids.update(re.findall(r"`([a-z][a-z0-9-]*)`", line.split("|")[1]))
    return ids


def readme_table_ids():
    """The ids of the README's rule table: the rows under its `| id | default | meaning |` header."""
    lines = (SOURCE / "README.md").read_text().splitlines()
    start = lines.index("| id | default | meaning |")
    ids = set()
    for line in lines[start + 2:]:
        if not line.startswith("| `"):
            break
        ids.update(re.findall(r"`([a-z][a-z0-9-]*)`", line.split("|")[1]))
    return ids


def vscode_setting_ids():
    package = json.loads((SOURCE / "vscode-client" / "package.json").read_text())
    setting = package["contributes"]["configuration"]["properties"]["kernelLsp.disabledRules"]
    listed = re.search(r"\(([^)]*)\)", setting["description"]).group(1)
    return {rule.strip() for rule in listed.split(",")}


class RuleLists(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.catalog = catalog()

    def test_the_catalog_has_the_pseudo_rules(self):
        for rule in ("frontend", "nvcc", "ptxas", "compute-sanitizer", "skill"):
            self.assertIn(rule, self.catalog)

    def test_skill_md_lists_every_rule(self):
        self.assertEqual(skill_table_ids(), set(self.catalog))

    def test_the_readme_lists_every_rule(self):
        self.assertEqual(readme_table_ids(), set(self.catalog))

    def test_the_vscode_setting_lists_every_rule(self):
        self.assertEqual(vscode_setting_ids(), set(self.catalog))

    def test_every_rule_has_its_page(self):
        for rule, uri in self.catalog.items():
            self.assertTrue(uri.startswith("file://"), rule)
            self.assertTrue(Path(uri[len("file://"):]).is_file(), f"{rule}: {uri}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    BINARY = sys.argv[1]
    SOURCE = Path(sys.argv[2]).resolve()
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:], verbosity=2)
