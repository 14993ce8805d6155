#!/usr/bin/env python3
"""kernel-builder's variant layout as kernels/tools/variant_layout.py writes it, without a GPU or
torch: the variant names kernel-builder gives, and each reference kernel's build/<variant>/
(flat package, _ops.py naming the op namespace, the extension as .abi3.so, metadata.json from
build.toml). The GPU check (tests/kernels_shared/load_with_kernels.py) loads the real builds
through the `kernels` library."""
import ast
import json
import sys
import tempfile
import tomllib
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "kernels" / "tools"))
import variant_layout  # noqa: E402


def reference_kernels():
    return sorted(p.parent for p in (ROOT / "kernels").glob("*/build.toml"))


class VariantNames(unittest.TestCase):
    def test_names_as_kernel_builder_writes_them(self):
        cases = [
            (("2.11.0+cu130", "13.0", "x86_64", "Linux"), "torch211-cxx11-cu130-x86_64-linux"),
            (("2.9.1", "12.9", "aarch64", "linux"), "torch29-cxx11-cu129-aarch64-linux"),
            (("2.10.0a0+git", "12.6", "AMD64", "Windows"), "torch210-cu126-x86_64-windows"),
            (("2.11.0", "12.8", "arm64", "Linux"), "torch211-cxx11-cu128-aarch64-linux"),
        ]
        for args, expected in cases:
            with self.subTest(args=args):
                self.assertEqual(variant_layout.variant_name(*args), expected)

    def test_unreadable_versions_and_processors_are_refused(self):
        with self.assertRaises(ValueError):
            variant_layout.variant_name("nightly", "13.0", "x86_64", "linux")
        with self.assertRaises(ValueError):
            variant_layout.variant_name("2.11.0", "13.0", "riscv64", "linux")


class ReferenceKernelVariants(unittest.TestCase):
    def test_each_reference_kernel_gets_a_flat_variant(self):
        kernels = reference_kernels()
        self.assertGreaterEqual(len(kernels), 4)
        for project in kernels:
            with self.subTest(kernel=project.name), tempfile.TemporaryDirectory() as scratch:
                config = tomllib.loads((project / "build.toml").read_text())
                general = config["general"]
                pyname = general["name"].replace("-", "_")
                caps = sorted({c for k in config["kernel"].values() for c in k["cuda-capabilities"]})
                extension = Path(scratch) / "built.so"
                extension.write_bytes(b"\x7fELF stand-in for the compiled extension")
                ops_name = f"_{pyname}_cuda_0123abc"
                folder = variant_layout.write_variant(
                    Path(scratch) / "build" / "torch211-cxx11-cu130-x86_64-linux",
                    project / "torch-ext" / pyname, extension, ops_name, general, caps, "a test")

                names = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
                sources = {p.relative_to(project / "torch-ext" / pyname).as_posix()
                           for p in (project / "torch-ext" / pyname).rglob("*.py") if "__pycache__" not in p.parts}
                self.assertIn("__init__.py", names)  # flat: the package is the variant folder
                self.assertTrue(sources - {"_ops.py"} <= names, sources - names)
                self.assertIn(f"{ops_name}.abi3.so", names)
                self.assertFalse(any("__pycache__" in n for n in names))
                self.assertEqual((folder / f"{ops_name}.abi3.so").read_bytes(), extension.read_bytes())

                ops = (folder / "_ops.py").read_text()
                tree = ast.parse(ops)
                imported = [a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 1
                            for a in n.names]
                self.assertEqual(imported, [ops_name])  # the relative import that loads the .so
                self.assertIn(f"ops = torch.ops.{ops_name}", ops)
                self.assertIn(f'"{ops_name}::"', ops)

                meta = json.loads((folder / "metadata.json").read_text())
                self.assertEqual(meta["version"], general["version"])
                self.assertEqual(meta["license"], general["license"])
                self.assertEqual(meta["python-depends"], general.get("python-depends", []))
                self.assertEqual(meta["backend"], {"type": "cuda", "archs": caps})

    def test_a_rebuild_replaces_the_variant(self):
        project = reference_kernels()[0]
        general = tomllib.loads((project / "build.toml").read_text())["general"]
        pyname = general["name"].replace("-", "_")
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch) / "v"
            extension = Path(scratch) / "x.so"
            extension.write_bytes(b"1")
            variant_layout.write_variant(folder, project / "torch-ext" / pyname, extension, "_old_cuda_1", general,
                                         ["9.0"], "a test")
            variant_layout.write_variant(folder, project / "torch-ext" / pyname, extension, "_new_cuda_2", general,
                                         ["9.0+PTX", "8.0"], "a test")
            self.assertFalse((folder / "_old_cuda_1.abi3.so").exists())
            self.assertEqual(json.loads((folder / "metadata.json").read_text())["backend"]["archs"], ["8.0", "9.0"])


if __name__ == "__main__":
    unittest.main()
