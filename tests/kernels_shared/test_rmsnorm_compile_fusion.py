#!/usr/bin/env python3
"""The RMSNorm package's Inductor pass (kernels/rmsnorm/torch-ext/rmsnorm/compile_fusion.py) on FX
graphs, with real PyTorch on the CPU (Debian's python3-torch): CPU stand-ins of the two ops under a
test namespace, graphs traced from small functions, each node's value recorded as Inductor
records it (meta["val"]). The rewritten graph must compute what the original computed, and the
pass must leave alone every add the fused kernel cannot take as it is.

usage: test_rmsnorm_compile_fusion.py   (exit 77 when no Python with torch is found: skipped)
"""
import importlib.util
import os
import subprocess
import sys
import unittest
from pathlib import Path

from torch_python import python_with_torch  # beside this file

ROOT = Path(__file__).resolve().parents[2]
PASS_SOURCE = ROOT / "kernels" / "rmsnorm" / "torch-ext" / "rmsnorm" / "compile_fusion.py"
SKIPPED = 77

try:
    import torch
    import torch.fx
except ImportError:
    torch = None


def reexec_with_torch():
    """Runs this file again with a Python that has torch, when the current one has none."""
    python = None if os.environ.get("KL_TEST_REEXEC") else python_with_torch()
    if python is None or python == sys.executable:
        return None
    return subprocess.run([python, __file__] + sys.argv[1:], env=dict(os.environ, KL_TEST_REEXEC="1")).returncode


def load_pass():
    spec = importlib.util.spec_from_file_location("compile_fusion_under_test", PASS_SOURCE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EPS = 1e-6


def formula(x, weight, eps, double_rounding):
    h = x.float()
    h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + eps)
    if weight is None:
        return h.to(x.dtype)
    if double_rounding:
        return weight * h.to(x.dtype)
    return (h * weight.float()).to(x.dtype)


def define_standins():
    lib = torch.library.Library("kl_fusion_test", "DEF")
    lib.define("rms_norm_fn(Tensor input, Tensor? weight, float eps, bool double_rounding) -> Tensor")
    lib.define("fused_add_rms_norm_fn(Tensor input, Tensor residual, Tensor? weight, float eps, "
               "bool double_rounding) -> (Tensor, Tensor)")
    lib.impl("rms_norm_fn", formula, "CPU")

    def fused(x, residual, weight, eps, double_rounding):
        s = x + residual
        return formula(s, weight, eps, double_rounding), s

    lib.impl("fused_add_rms_norm_fn", fused, "CPU")
    return lib, torch.ops.kl_fusion_test


def record_values(gm, *inputs):
    """Each node's value in meta["val"], as Inductor's post-grad graphs carry them."""
    class Recorder(torch.fx.Interpreter):
        def run_node(self, node):
            value = super().run_node(node)
            node.meta["val"] = value
            return value

    Recorder(gm).run(*inputs)


class ResidualAddFusion(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.fusion = load_pass()
        cls.lib, cls.ops = define_standins()
        cls.norm, cls.fused = cls.ops.rms_norm_fn.default, cls.ops.fused_add_rms_norm_fn.default

    def rewrite(self, fn, *inputs):
        """(graph module, original outputs, outputs after the pass, how many adds it fused)."""
        gm = torch.fx.symbolic_trace(fn)
        record_values(gm, *inputs)
        before = gm(*inputs)
        count = self.fusion.fuse_residual_adds(gm.graph, self.norm, self.fused, device_type="cpu")
        gm.graph.lint()
        gm.recompile()
        return gm, before, gm(*inputs), count

    def targets(self, gm):
        return [n.target for n in gm.graph.nodes if n.op == "call_function"]

    def assert_same(self, before, after):
        for b, a in zip(before, after):
            self.assertTrue(torch.equal(b, a))

    def inputs(self):
        dtype = torch.bfloat16
        x = torch.randn(8, 256).to(dtype)
        r = torch.randn(8, 256).to(dtype)
        w = (1 + 0.1 * torch.randn(256)).to(dtype)
        return x, r, w

    def test_add_before_norm_becomes_the_fused_op(self):
        ops = self.ops

        def block(x, residual, w):
            s = torch.ops.aten.add.Tensor(residual, x)
            y = ops.rms_norm_fn.default(s, w, EPS, True)
            return y, s * 2

        gm, before, after, count = self.rewrite(block, *self.inputs())
        self.assertEqual(count, 1)
        self.assertIn(self.fused, self.targets(gm))
        self.assertNotIn(self.norm, self.targets(gm))
        self.assertNotIn(torch.ops.aten.add.Tensor, self.targets(gm))
        self.assert_same(before, after)
        for node in gm.graph.nodes:
            if node.op == "call_function":
                self.assertIn("val", node.meta, f"{node} has no recorded value")

    def test_every_layer_of_a_stack(self):
        ops = self.ops

        def stack(x, residual, w):
            h = residual
            for _ in range(3):
                h = torch.ops.aten.add.Tensor(h, x)
                x = ops.rms_norm_fn.default(h, w, EPS, True)
            return x, h

        gm, before, after, count = self.rewrite(stack, *self.inputs())
        self.assertEqual(count, 3)
        self.assert_same(before, after)

    def test_two_norms_of_one_sum(self):
        ops = self.ops

        def block(x, residual, w):
            s = torch.ops.aten.add.Tensor(residual, x)
            return ops.rms_norm_fn.default(s, w, EPS, True), ops.rms_norm_fn.default(s, None, EPS, False)

        gm, before, after, count = self.rewrite(block, *self.inputs())
        self.assertEqual(count, 1)
        self.assertEqual(self.targets(gm).count(self.norm), 1)
        self.assert_same(before, after)

    def test_left_alone(self):
        ops = self.ops
        x, r, w = self.inputs()
        cases = {
            "a broadcast operand": (lambda x, r, w: ops.rms_norm_fn.default(
                torch.ops.aten.add.Tensor(x, w), w, EPS, True), (x, r, w)),
            "operands of two dtypes": (lambda x, r, w: ops.rms_norm_fn.default(
                torch.ops.aten.add.Tensor(x, r), w, EPS, True), (x, r.float(), w)),
            "an integer dtype": (lambda x, r, w: ops.rms_norm_fn.default(
                torch.ops.aten.add.Tensor(x, r), None, EPS, True),
                (x.to(torch.int32), r.to(torch.int32), w)),
            "a transposed operand": (lambda x, r, w: ops.rms_norm_fn.default(
                torch.ops.aten.add.Tensor(x, r.t()), None, EPS, True),
                (torch.randn(16, 16).bfloat16(), torch.randn(16, 16).bfloat16(), w)),
            "an add with alpha": (lambda x, r, w: ops.rms_norm_fn.default(
                torch.ops.aten.add.Tensor(x, r, alpha=2), w, EPS, True), (x, r, w)),
            "a weight made after the add": (lambda x, r, w: self._weight_after_add(x, r, w), (x, r, w)),
            "no add": (lambda x, r, w: ops.rms_norm_fn.default(
                torch.ops.aten.mul.Tensor(x, r), w, EPS, True), (x, r, w)),
        }
        for name, (fn, inputs) in cases.items():
            with self.subTest(name):
                gm, before, after, count = self.rewrite(fn, *inputs)
                self.assertEqual(count, 0)
                self.assertNotIn(self.fused, self.targets(gm))
                self.assertTrue(torch.equal(before, after))

    def _weight_after_add(self, x, r, w):
        s = torch.ops.aten.add.Tensor(x, r)
        return self.ops.rms_norm_fn.default(s, torch.ops.aten.mul.Tensor(w, 2), EPS, True)

    def test_weight_made_by_the_pass(self):
        # The second norm's weight is the first sum, which the pass replaces by a result of its
        # own: the second add stays as it is (its weight has no place in the original order).
        ops = self.ops

        def block(x, r, w):
            s = torch.ops.aten.add.Tensor(x, r)
            y = ops.rms_norm_fn.default(s, w, EPS, True)
            return ops.rms_norm_fn.default(torch.ops.aten.add.Tensor(y, r), s, EPS, True)

        gm, before, after, count = self.rewrite(block, *self.inputs())
        self.assertEqual(count, 1)
        self.assertTrue(torch.equal(before, after))

    def test_values_missing(self):
        # A graph whose nodes carry no values (not Inductor's) is left alone.
        ops = self.ops

        def block(x, r, w):
            return ops.rms_norm_fn.default(torch.ops.aten.add.Tensor(x, r), w, EPS, True)

        gm = torch.fx.symbolic_trace(block)
        self.assertEqual(self.fusion.fuse_residual_adds(gm.graph, self.norm, self.fused, device_type="cpu"), 0)

    def test_on_cuda_only_by_default(self):
        ops = self.ops

        def block(x, r, w):
            return ops.rms_norm_fn.default(torch.ops.aten.add.Tensor(x, r), w, EPS, True)

        gm = torch.fx.symbolic_trace(block)
        record_values(gm, *self.inputs())
        self.assertEqual(self.fusion.fuse_residual_adds(gm.graph, self.norm, self.fused), 0)


if __name__ == "__main__":
    if torch is None:
        code = reexec_with_torch()
        if code is None:
            print("SKIPPED: no Python with torch (Debian's python3-torch)")
            sys.exit(SKIPPED)
        sys.exit(code)
    unittest.main()
