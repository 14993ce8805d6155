"""GEGLU kernel against a float64 reference (GPU): tanh and erf GELU, swapped
halves, every dtype, widths not multiple of 8, strided and offset inputs."""

import math

import pytest
import torch

import geglu

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")

DTYPES = [torch.bfloat16, torch.float16, torch.float32]
NORM_TOL = {torch.bfloat16: 1e-2, torch.float16: 2e-3, torch.float32: 1e-5}
ELEM_TOL = {torch.bfloat16: (1.6e-2, 1e-2), torch.float16: (2e-3, 1e-3), torch.float32: (2e-5, 1e-5)}


def gelu64(x, approximate):
    if approximate == "tanh":
        return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))
    return 0.5 * x * (1 + torch.erf(x / math.sqrt(2)))


def ref_geglu(x, approximate, swapped):
    f = x.shape[-1] // 2
    a, b = x.double()[..., :f], x.double()[..., f:]
    if swapped:
        a, b = b, a
    return gelu64(a, approximate) * b


def check(out, ref, dtype):
    assert not torch.isnan(out).any(), "unwritten (NaN) outputs"
    err = ((out.double() - ref).norm() / ref.norm().clamp_min(1e-30)).item()
    assert err <= NORM_TOL[dtype], f"normwise relative error {err:.3g}"
    rtol, atol = ELEM_TOL[dtype]
    torch.testing.assert_close(out.double(), ref, rtol=rtol, atol=atol)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("f", [64, 100, 1024, 4100, 8192])
@pytest.mark.parametrize("rows", [1, 33, 257])
@pytest.mark.parametrize("approximate", ["tanh", "none"])
@pytest.mark.parametrize("swapped", [False, True])
def test_geglu(dtype, f, rows, approximate, swapped):
    x = (torch.randn(rows, 2 * f, device="cuda") * 3).to(dtype)
    out = torch.full((rows, f), float("nan"), device="cuda", dtype=dtype)
    geglu.geglu(x, approximate, swapped, out=out)
    check(out, ref_geglu(x, approximate, swapped), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_extremes(dtype):
    # large |x|: gelu -> x or -0, no inf/nan from exp overflow
    vals = torch.tensor([-1e4, -200.0, -30.0, -10.0, -1e-3, 0.0, 1e-3, 10.0, 30.0, 200.0], device="cuda")
    x = torch.cat([vals, torch.ones_like(vals)]).view(1, -1).to(dtype)
    for approx in ("tanh", "none"):
        out = geglu.geglu(x, approx)
        assert torch.isfinite(out).all()
        torch.testing.assert_close(out.double(), ref_geglu(x, approx, False), rtol=2e-2, atol=1e-5)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("offset", [1, 8])
def test_offset_and_strided(dtype, offset):
    rows, f = 40, 1024
    flat = torch.randn(rows * 2 * f + offset, device="cuda").to(dtype)
    x = flat[offset:].view(rows, 2 * f)
    check(geglu.geglu(x), ref_geglu(x, "tanh", False), dtype)
    big = torch.randn(rows, 2 * f + 24, device="cuda").to(dtype)
    xs = big[:, : 2 * f]
    out = torch.full((3, rows, f), float("nan"), device="cuda", dtype=dtype)[1]
    geglu.geglu(xs, "none", out=out)
    check(out, ref_geglu(xs, "none", False), dtype)


@pytest.mark.parametrize("dtype", [torch.bfloat16])
def test_3d_and_matches_torch(dtype):
    x = torch.randn(2, 129, 2 * 2048, device="cuda").to(dtype)
    out = geglu.geglu(x)
    f = x.shape[-1] // 2
    eager = torch.nn.functional.gelu(x[..., :f], approximate="tanh") * x[..., f:]
    torch.testing.assert_close(out.float(), eager.float(), rtol=2e-2, atol=2e-2)


ERROR_CASES = ['geglu.geglu(x)', 'geglu.geglu(x.int())', "geglu.geglu(torch.randn(4, 64, device='cuda'), approximate='foo')"]


@pytest.mark.parametrize("call", ERROR_CASES)
def test_errors(call):
    # Bad arguments must raise RuntimeError; in a fresh interpreter so that a
    # crash fails this test instead of ending the session.
    import subprocess
    import sys

    code = (
        "import torch, geglu\n"
        "x = torch.randn(4, 63, device='cuda')\n"
        "try:\n"
        f"    {call}\n"
        "    print('NO ERROR')\n"
        "except (RuntimeError, ValueError) as e:\n"
        "    print('RAISED', str(e).splitlines()[0])\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "RAISED" in r.stdout, (r.returncode, r.stdout, r.stderr[-2000:])


@pytest.mark.parametrize("variant", [1, 2, 3, 11, 21, 31, 13])
@pytest.mark.parametrize("rows,f", [(1, 8192), (33, 1024), (300, 64)])
def test_variants(variant, rows, f):
    dtype = torch.bfloat16
    x = torch.randn(rows, 2 * f, device="cuda").to(dtype)
    try:
        geglu.ops.set_variant(variant)
        out = torch.full((rows, f), float("nan"), device="cuda", dtype=dtype)
        geglu.geglu(x, out=out)
        check(out, ref_geglu(x, "tanh", False), dtype)
    finally:
        geglu.ops.set_variant(0)
