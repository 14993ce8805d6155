#!/usr/bin/env python3
"""Every resource support/resources.h names is installed at that path under share/kernel-lsp/
(the `resources` component of cli/CMakeLists.txt, which the install and the portable bundle
share), and the code looks resources up only by those names: a `find_resource("...")` with a
path written in place, or a resource in resources.h that the install leaves out, fails here.

usage: resources_installed_test.py BUILD_DIR SOURCE_DIR
"""
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

BUILD = None
SOURCE = None
CODE_FOLDERS = ["analyzers", "cli", "guidance", "lsp", "runner", "support"]


def named_resources():
    """{constant: path} of every resource support/resources.h names."""
    text = (SOURCE / "support" / "resources.h").read_text()
    return dict(re.findall(r'inline constexpr const char\* (k\w+) = "([^"]+)";', text))


class ResourcesInstalled(unittest.TestCase):
    def test_every_named_resource_is_installed_at_its_path(self):
        resources = named_resources()
        self.assertGreater(len(resources), 10)
        with tempfile.TemporaryDirectory() as prefix:
            subprocess.run(["cmake", "--install", str(BUILD), "--component", "resources", "--prefix", prefix],
                           check=True, capture_output=True, text=True, timeout=300)
            root = Path(prefix) / "share" / "kernel-lsp"
            missing = [f"{name} = {path}" for name, path in resources.items() if not (root / path).exists()]
            self.assertEqual(missing, [], "named in support/resources.h but not installed")

    def test_code_looks_resources_up_by_their_names(self):
        written = []
        for folder in CODE_FOLDERS:
            for source in sorted((SOURCE / folder).rglob("*")):
                if source.suffix not in (".cpp", ".h") or not source.is_file():
                    continue
                for number, line in enumerate(source.read_text(errors="replace").splitlines(), 1):
                    if re.search(r'find_resource\(\s*"', line):
                        written.append(f"{source.relative_to(SOURCE)}:{number}: {line.strip()}")
        self.assertEqual(written, [], "a resource path written in place of its name in support/resources.h")


if __name__ == "__main__":
    BUILD, SOURCE = Path(sys.argv[1]), Path(sys.argv[2])
    unittest.main(argv=sys.argv[:1])
