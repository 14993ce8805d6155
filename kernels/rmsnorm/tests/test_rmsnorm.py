"""RMSNorm kernels against a float64 reference (GPU).

Fresh random inputs every case, outputs poisoned with NaN before each call,
every dtype, widths that are not multiples of 8, offset (misaligned) and
row-strided inputs, per-head views of a fused qkv tensor.
"""

import pytest
import torch

import rmsnorm

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")

DTYPES = [torch.bfloat16, torch.float16, torch.float32]
# normwise relative error bound, elementwise (rtol, atol)
NORM_TOL = {torch.bfloat16: 1e-2, torch.float16: 2e-3, torch.float32: 1e-5}
ELEM_TOL = {torch.bfloat16: (1.6e-2, 1.6e-2), torch.float16: (2e-3, 2e-3), torch.float32: (2e-5, 2e-5)}
EPS = 1e-6


def ref_rms(x, w, eps, double_rounding):
    x64 = x.double()
    n = x64 * torch.rsqrt(x64.pow(2).mean(-1, keepdim=True) + eps)
    if double_rounding:
        n = n.to(x.dtype).double()
    if w is not None:
        n = n * w.double()
    return n


def check(out, ref, dtype):
    assert not torch.isnan(out).any(), "unwritten (NaN) outputs"
    err = ((out.double() - ref).norm() / ref.norm().clamp_min(1e-30)).item()
    assert err <= NORM_TOL[dtype], f"normwise relative error {err:.3g}"
    rtol, atol = ELEM_TOL[dtype]
    torch.testing.assert_close(out.double(), ref, rtol=rtol, atol=atol)


def make_weight(width, dtype):
    return (1.0 + 0.25 * torch.randn(width, device="cuda")).to(dtype)


def poison(t):
    return torch.full_like(t, float("nan"))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("width", [64, 128, 200, 1000, 2048, 4096, 4104, 4099, 5000, 16384])
@pytest.mark.parametrize("rows", [1, 37, 300])
@pytest.mark.parametrize("with_weight", [True, False])
@pytest.mark.parametrize("double_rounding", [False, True])
def test_rms_norm(dtype, width, rows, with_weight, double_rounding):
    x = torch.randn(rows, width, device="cuda").to(dtype) * 3
    w = make_weight(width, dtype) if with_weight else None
    out = poison(x)
    rmsnorm.rms_norm(x, w, EPS, double_rounding, out=out)
    check(out, ref_rms(x, w, EPS, double_rounding), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("width", [128, 4096, 1000])
def test_paths(dtype, width):
    x = torch.randn(8, width, device="cuda").to(dtype)
    path, nbytes = rmsnorm.kernel_path(x)
    assert (path, nbytes) == (0, 16)
    # one element past an aligned start: the looped path with element accesses
    flat = torch.randn(8 * width + 1, device="cuda").to(dtype)
    xo = flat[1:].view(8, width)
    path, nbytes = rmsnorm.kernel_path(xo)
    assert path == 1 and nbytes == xo.element_size()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("width", [128, 4096, 1003])
@pytest.mark.parametrize("offset", [1, 2, 3, 8])
def test_offset_input(dtype, width, offset):
    rows = 19
    flat = torch.randn(rows * width + offset, device="cuda").to(dtype)
    x = flat[offset:].view(rows, width)
    w = make_weight(width, dtype)
    out_flat = torch.full((rows * width + 5,), float("nan"), device="cuda", dtype=dtype)
    out = out_flat[3 : 3 + rows * width].view(rows, width)
    rmsnorm.rms_norm(x, w, EPS, True, out=out)
    check(out, ref_rms(x, w, EPS, True), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("width,pad", [(4096, 64), (4096, 3), (128, 8), (768, 1)])
def test_row_strided(dtype, width, pad):
    rows = 65
    big = torch.randn(rows, width + pad, device="cuda").to(dtype)
    x = big[:, :width]
    out = poison(torch.empty(rows, width, device="cuda", dtype=dtype))
    rmsnorm.rms_norm(x, None, EPS, False, out=out)
    check(out, ref_rms(x, None, EPS, False), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("tokens", [1, 5, 513])
def test_qk_norm_views(dtype, tokens):
    # Qwen3: q/k norm over head_dim 128 of views into the fused qkv projection.
    qkv = torch.randn(tokens, (32 + 8 + 8) * 128, device="cuda").to(dtype)
    q = qkv[:, : 32 * 128].view(tokens, 32, 128)
    k = qkv[:, 32 * 128 : 40 * 128].view(tokens, 8, 128)
    wq, wk = make_weight(128, dtype), make_weight(128, dtype)
    qn = rmsnorm.rms_norm(q, wq, EPS, True)
    kn = rmsnorm.rms_norm(k, wk, EPS, True)
    assert qn.is_contiguous() and kn.is_contiguous()
    check(qn, ref_rms(q, wq, EPS, True), dtype)
    check(kn, ref_rms(k, wk, EPS, True), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_in_place_and_3d(dtype):
    x = torch.randn(2, 77, 2048, device="cuda").to(dtype)
    w = make_weight(2048, dtype)
    ref = ref_rms(x, w, EPS, False)
    rmsnorm.rms_norm(x, w, EPS, False, out=x)
    check(x, ref, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("width", [128, 2048, 4096, 4099, 16384])
@pytest.mark.parametrize("inplace", [True, False])
@pytest.mark.parametrize("with_weight", [True, False])
def test_fused_add(dtype, width, inplace, with_weight):
    rows = 45
    x = torch.randn(rows, width, device="cuda").to(dtype)
    r = torch.randn(rows, width, device="cuda").to(dtype) * 2
    w = make_weight(width, dtype) if with_weight else None
    # The residual stream is rounded to the dtype, exactly as eager `x + r` does.
    s_ref = x + r
    ref = ref_rms(s_ref, w, EPS, True)
    out = poison(x)
    r_in = r.clone()
    out, r_out = rmsnorm.fused_add_rms_norm(x, r_in, w, EPS, True, inplace=inplace, out=out)
    assert (r_out is r_in) == inplace
    assert not torch.isnan(r_out).any()
    torch.testing.assert_close(r_out, s_ref, rtol=0, atol=0)
    check(out, ref, dtype)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_fused_add_offset(dtype):
    rows, width = 33, 4096
    fx = torch.randn(rows * width + 1, device="cuda").to(dtype)
    fr = torch.randn(rows * width + 1, device="cuda").to(dtype)
    x, r = fx[1:].view(rows, width), fr[1:].view(rows, width)
    w = make_weight(width, dtype)
    s_ref = x + r
    ref = ref_rms(s_ref, w, EPS, False)
    out, r_out = rmsnorm.fused_add_rms_norm(x, r, w, EPS, False, inplace=False)
    torch.testing.assert_close(r_out, s_ref, rtol=0, atol=0)
    check(out, ref, dtype)


def test_matches_hf_qwen3_bf16():
    # Double rounding reproduces transformers' Qwen3RMSNorm almost bit for bit
    # (differences only where fp32 summation order moves rstd across a rounding edge).
    # Such an edge moves x * rstd by one bf16 ulp (up to 2^-7 relative), and the
    # rounding of w * that can add one more: 2^-6 bounds it (a run of v5
    # saw 1 element in 4M at 0.013).
    x = torch.randn(1024, 4096, device="cuda").to(torch.bfloat16)
    w = make_weight(4096, torch.bfloat16)
    h = x.float()
    hf = w * (h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + EPS)).to(torch.bfloat16)
    ours = rmsnorm.rms_norm(x, w, EPS, True)
    same = (ours == hf).float().mean().item()
    assert same > 0.99, f"only {same:.4f} identical"
    torch.testing.assert_close(ours.float(), hf.float(), rtol=2 ** -6, atol=1e-2)


def test_layers_module():
    from torch import nn

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = nn.Parameter(make_weight(256, torch.bfloat16))
            self.variance_epsilon = EPS

    m = M()
    x = torch.randn(3, 256, device="cuda").to(torch.bfloat16)
    out = rmsnorm.layers.RMSNorm.forward(m, x)
    check(out, ref_rms(x, m.weight.detach(), EPS, True), torch.bfloat16)


@pytest.mark.parametrize("dtype", DTYPES)
def test_functional_ops(dtype):
    # The ops torch.compile sees (rms_norm_fn, fused_add_rms_norm_fn) return new tensors and
    # compute what the out-variants compute.
    x = torch.randn(37, 4096, device="cuda").to(dtype)
    r = torch.randn(37, 4096, device="cuda").to(dtype)
    w = make_weight(4096, dtype)
    out = rmsnorm.ops.rms_norm_fn(x, w, EPS, True)
    check(out, ref_rms(x, w, EPS, True), dtype)
    normed, summed = rmsnorm.ops.fused_add_rms_norm_fn(x, r, w, EPS, False)
    torch.testing.assert_close(summed, x + r, rtol=0, atol=0)
    check(normed, ref_rms(x + r, w, EPS, False), dtype)


class _Block(torch.nn.Module):
    """A decoder layer's shape: a residual add before a wide norm, a per-head norm, and the sum
    used again after the norm."""

    def __init__(self, width, heads, norm_forward):
        super().__init__()
        self.norm = torch.nn.Module()
        self.norm.weight = torch.nn.Parameter(make_weight(width, torch.bfloat16))
        self.norm.variance_epsilon = EPS
        self.head_norm = torch.nn.Module()
        self.head_norm.weight = torch.nn.Parameter(make_weight(width // heads, torch.bfloat16))
        self.head_norm.variance_epsilon = EPS
        self.heads = heads
        self.norm_forward = norm_forward

    def forward(self, x, residual):
        h = residual + x
        y = self.norm_forward(self.norm, h)
        q = self.norm_forward(self.head_norm, y.view(*y.shape[:-1], self.heads, -1))
        return q.transpose(0, 1) * 2, h * 2


def _hf_forward(module, x):
    h = x.float()
    return module.weight * (h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + EPS)).to(x.dtype)


@pytest.mark.parametrize("rows,fused", [(1024, 1), (64, 0)])
def test_compiled_layer(rows, fused):
    # Under torch.compile, with enough rows, the add before the wide norm goes into the fused
    # kernel (compile_fusion.py); the per-head norm, and every norm of fewer rows, is left to
    # Inductor (layers.py). Either way the results match eager transformers' formula.
    import torch._inductor.config

    torch._dynamo.reset()
    stats = rmsnorm.compile_fusion.stats
    before = stats["fused"]
    block = _Block(4096, 32, rmsnorm.layers.RMSNorm.forward)
    x = torch.randn(rows, 4096, device="cuda").to(torch.bfloat16)
    r = torch.randn(rows, 4096, device="cuda").to(torch.bfloat16)
    # A graph from Inductor's cache skips the passes: compile afresh.
    with torch.inference_mode(), torch._inductor.config.patch(force_disable_caches=True):
        compiled = torch.compile(block, dynamic=False, fullgraph=True)(x, r)
        block.norm_forward = _hf_forward
        reference = block(x, r)
    assert stats["fused"] == before + fused
    torch.testing.assert_close(compiled[1], reference[1], rtol=0, atol=0)
    # Two bf16 norms in a row: each may round one ulp (2^-7) differently from eager's order.
    torch.testing.assert_close(compiled[0].float(), reference[0].float(), rtol=2 ** -6, atol=1e-2)


ERROR_CASES = [
    "rmsnorm.rms_norm(x, torch.randn(32, device='cuda'))",
    "rmsnorm.rms_norm(x, torch.randn(64, device='cuda', dtype=torch.float16))",
    "rmsnorm.rms_norm(x.int())",
    "rmsnorm.rms_norm(x.cpu())",
]


@pytest.mark.parametrize("call", ERROR_CASES)
def test_errors(call):
    # Bad arguments must raise RuntimeError. Run in a fresh interpreter so that
    # a crash is reported as this test failing rather than ending the session.
    import subprocess
    import sys

    code = (
        "import torch, rmsnorm\n"
        "x = torch.randn(4, 64, device='cuda')\n"
        "try:\n"
        f"    {call}\n"
        "    print('NO ERROR')\n"
        "except RuntimeError as e:\n"
        "    print('RAISED', str(e).splitlines()[0])\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "RAISED" in r.stdout, (r.returncode, r.stdout, r.stderr[-2000:])


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
@pytest.mark.parametrize("variant", [1, 2, 3, 4, 5, 6, 7, 8, 10, 20, 30, 15, 26])
@pytest.mark.parametrize("width,rows", [(4096, 1), (4096, 7), (4096, 130), (4096, 3001), (128, 1), (128, 301), (128, 70001)])
def test_variants(dtype, variant, width, rows):
    # 3001 x 4096 and 70001 x 128: grids of many waves.
    # Every benchmark-only launch shape / load policy computes the same thing.
    x = torch.randn(rows, width, device="cuda").to(dtype)
    r = torch.randn(rows, width, device="cuda").to(dtype)
    w = make_weight(width, dtype)
    try:
        rmsnorm.ops.set_variant(variant)
        out = poison(x)
        rmsnorm.rms_norm(x, w, EPS, True, out=out)
        check(out, ref_rms(x, w, EPS, True), dtype)
        out = poison(x)
        out, r_out = rmsnorm.fused_add_rms_norm(x, r, w, EPS, False, inplace=False, out=out)
        torch.testing.assert_close(r_out, x + r, rtol=0, atol=0)
        check(out, ref_rms(x + r, w, EPS, False), dtype)
    finally:
        rmsnorm.ops.set_variant(0)


@pytest.mark.parametrize("variant", [0, 1, 2, 3, 4])
def test_variants_qkv_view(variant):
    # Per-head views of a fused qkv tensor need the two-level row index
    # (inner = heads < rows): the path without the per-row division must not
    # be taken there.
    dtype = torch.bfloat16
    qkv = torch.randn(1500, 48 * 128, device="cuda").to(dtype)
    q = qkv[:, : 32 * 128].view(1500, 32, 128)
    w = make_weight(128, dtype)
    try:
        rmsnorm.ops.set_variant(variant)
        out = poison(q.contiguous())
        rmsnorm.rms_norm(q, w, EPS, True, out=out)
        check(out, ref_rms(q, w, EPS, True), dtype)
    finally:
        rmsnorm.ops.set_variant(0)
