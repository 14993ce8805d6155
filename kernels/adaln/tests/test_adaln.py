"""AdaLN kernels against a float64 reference (GPU): RMSNorm and LayerNorm,
per-sample and per-token scale/shift, optional gated residual, every dtype,
widths not multiple of 8, offset inputs."""

import pytest
import torch

import adaln

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")

DTYPES = [torch.bfloat16, torch.float16, torch.float32]
NORM_TOL = {torch.bfloat16: 1e-2, torch.float16: 2e-3, torch.float32: 1e-5}
ELEM_TOL = {torch.bfloat16: (1.6e-2, 2e-2), torch.float16: (2e-3, 2e-3), torch.float32: (2e-5, 2e-5)}
EPS = 1e-6


def ref_adaln(x, scale, shift, eps, norm):
    x64 = x.double()
    if norm == "layer":
        mu = x64.mean(-1, keepdim=True)
        var = (x64 - mu).pow(2).mean(-1, keepdim=True)
        n = (x64 - mu) * torch.rsqrt(var + eps)
    else:
        n = x64 * torch.rsqrt(x64.pow(2).mean(-1, keepdim=True) + eps)
    if scale is not None:
        n = n * (1 + scale.double())
    if shift is not None:
        n = n + shift.double()
    return n


def check(out, ref, dtype):
    assert not torch.isnan(out).any(), "unwritten (NaN) outputs"
    err = ((out.double() - ref).norm() / ref.norm().clamp_min(1e-30)).item()
    assert err <= NORM_TOL[dtype], f"normwise relative error {err:.3g}"
    rtol, atol = ELEM_TOL[dtype]
    torch.testing.assert_close(out.double(), ref, rtol=rtol, atol=atol)


def mods(b, s, d, per_token, dtype):
    shape = (b, s, d) if per_token else (b, 1, d)
    scale = (0.5 * torch.randn(shape, device="cuda")).to(dtype)
    shift = (0.5 * torch.randn(shape, device="cuda")).to(dtype)
    return scale, shift


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("d", [2048, 4096, 128, 100, 12])
@pytest.mark.parametrize("b,s", [(1, 1), (2, 37), (1, 300)])
@pytest.mark.parametrize("per_token", [False, True])
@pytest.mark.parametrize("norm", ["rms", "layer"])
def test_adaln(dtype, d, b, s, per_token, norm):
    x = (torch.randn(b, s, d, device="cuda") * 2 + 0.5).to(dtype)
    scale, shift = mods(b, s, d, per_token, dtype)
    out = torch.full_like(x, float("nan"))
    adaln.adaln(x, scale, shift, EPS, norm, out=out)
    check(out, ref_adaln(x, scale, shift, EPS, norm), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_optional_and_broadcast(dtype):
    b, s, d = 2, 19, 512
    x = torch.randn(b, s, d, device="cuda").to(dtype)
    scale, shift = mods(b, s, d, False, dtype)
    check(adaln.adaln(x, None, shift), ref_adaln(x, None, shift, EPS, "rms"), dtype)
    check(adaln.adaln(x, scale, None), ref_adaln(x, scale, None, EPS, "rms"), dtype)
    check(adaln.adaln(x, scale[0, 0], shift[:1]), ref_adaln(x, scale[0, 0], shift[:1], EPS, "rms"), dtype)
    x2 = x[0]
    check(adaln.adaln(x2, scale[0], shift[0]), ref_adaln(x2, scale[0], shift[0], EPS, "rms"), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("d", [2048, 1000])
@pytest.mark.parametrize("gate_kind", ["sample", "token", "none"])
@pytest.mark.parametrize("inplace", [True, False])
@pytest.mark.parametrize("norm", ["rms", "layer"])
def test_adaln_gated(dtype, d, gate_kind, inplace, norm):
    b, s = 2, 45
    h = torch.randn(b, s, d, device="cuda").to(dtype)
    branch = torch.randn(b, s, d, device="cuda").to(dtype)
    gate = None
    if gate_kind != "none":
        gate = torch.randn((b, s if gate_kind == "token" else 1, d), device="cuda").to(dtype)
    scale, shift = mods(b, s, d, True, dtype)
    # residual stream as the eager chain rounds it (h + round(branch * gate)) vs
    # ours (one rounding): compare with the single-rounding float64 value.
    g64 = gate.double() if gate is not None else 1.0
    h_new_ref = (h.double() + branch.double() * g64).to(dtype)
    ref = ref_adaln(h_new_ref, scale, shift, EPS, norm)
    h_in = h.clone()
    out = torch.full_like(h, float("nan"))
    out, h_out = adaln.adaln_gated(h_in, branch, gate, scale, shift, EPS, norm, inplace=inplace, out=out)
    assert (h_out is h_in) == inplace
    rtol = {torch.bfloat16: 2 ** -7, torch.float16: 2 ** -10, torch.float32: 2e-7}[dtype]
    torch.testing.assert_close(h_out.double(), h_new_ref.double(), rtol=rtol, atol=1e-6)
    check(out, ref, dtype)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
def test_offset_inputs(dtype):
    b, s, d = 2, 33, 2048
    fx = torch.randn(b * s * d + 1, device="cuda").to(dtype)
    x = fx[1:].view(b, s, d)
    scale, shift = mods(b, s, d, False, dtype)
    out = adaln.adaln(x, scale, shift, EPS, "layer")
    check(out, ref_adaln(x, scale, shift, EPS, "layer"), dtype)


ERROR_CASES = ['adaln.adaln(x, s, None)', "adaln.adaln(x, torch.randn(3, 1, 64, device='cuda'), None)", 'adaln.adaln(x.half(), s.half()[..., :64], None)']


@pytest.mark.parametrize("call", ERROR_CASES)
def test_errors(call):
    # Bad arguments must raise RuntimeError; in a fresh interpreter so that a
    # crash fails this test instead of ending the session.
    import subprocess
    import sys

    code = (
        "import torch, adaln\n"
        "x = torch.randn(2, 5, 64, device='cuda'); s = torch.randn(2, 1, 32, device='cuda')\n"
        "try:\n"
        f"    {call}\n"
        "    print('NO ERROR')\n"
        "except (RuntimeError, ValueError) as e:\n"
        "    print('RAISED', str(e).splitlines()[0])\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "RAISED" in r.stdout, (r.returncode, r.stdout, r.stderr[-2000:])


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
@pytest.mark.parametrize("variant", [1, 2, 3, 4, 5, 9, 10, 20, 30, 13])
@pytest.mark.parametrize("d,b,s", [(2048, 1, 1), (2048, 2, 37), (4096, 2, 9), (4096, 1, 130), (2048, 3, 2100), (4096, 2, 1500)])
@pytest.mark.parametrize("norm", ["rms", "layer"])
@pytest.mark.parametrize("per_token", [False, True])
def test_variants(dtype, variant, d, b, s, norm, per_token):
    # Every benchmark-only launch shape / load policy computes the same thing.
    # Per-sample and per-token modulation take different default shapes.
    x = torch.randn(b, s, d, device="cuda").to(dtype)
    scale, shift = mods(b, s, d, per_token, dtype)
    branch = torch.randn(b, s, d, device="cuda").to(dtype)
    gate = torch.randn(b, 1, d, device="cuda").to(dtype)
    try:
        adaln.ops.set_variant(variant)
        out = torch.full_like(x, float("nan"))
        adaln.adaln(x, scale, shift, EPS, norm, out=out)
        check(out, ref_adaln(x, scale, shift, EPS, norm), dtype)
        h_new_ref = (x.double() + branch.double() * gate.double()).to(dtype)
        out, h_out = adaln.adaln_gated(x, branch, gate, scale, shift, EPS, norm, inplace=False)
        torch.testing.assert_close(h_out.double(), h_new_ref.double(), rtol=2 ** -7, atol=1e-6)
        check(out, ref_adaln(h_new_ref, scale, shift, EPS, norm), dtype)
    finally:
        adaln.ops.set_variant(0)
