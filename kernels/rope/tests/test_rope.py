"""RoPE kernels against float64 references (GPU): NeoX rotate-half on q and k
(Qwen3), LTX-Video interleaved RoPE with given cos/sin and with cos/sin
computed in the kernel from grid coordinates. Fresh random inputs, every
dtype, strided / offset views, head or hidden widths that defeat the vector path."""

import math

import pytest
import torch

import rope

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")

DTYPES = [torch.bfloat16, torch.float16, torch.float32]
NORM_TOL = {torch.bfloat16: 1e-2, torch.float16: 2e-3, torch.float32: 1e-5}
ELEM_TOL = {torch.bfloat16: (1.6e-2, 1.6e-2), torch.float16: (2e-3, 2e-3), torch.float32: (2e-5, 2e-5)}


def check(out, ref, dtype):
    assert not torch.isnan(out).any(), "unwritten (NaN) outputs"
    err = ((out.double() - ref).norm() / ref.norm().clamp_min(1e-30)).item()
    assert err <= NORM_TOL[dtype], f"normwise relative error {err:.3g}"
    rtol, atol = ELEM_TOL[dtype]
    torch.testing.assert_close(out.double(), ref, rtol=rtol, atol=atol)


def ref_neox(x, positions, cache):
    # x [T, H, D]; cache [P, rot]
    rot = cache.shape[1]
    half = rot // 2
    c = cache.double()[positions][:, None, :half]
    s = cache.double()[positions][:, None, half:]
    x64 = x.double().clone()
    x1, x2 = x64[..., :half].clone(), x64[..., half:rot].clone()
    x64[..., :half] = x1 * c - x2 * s
    x64[..., half:rot] = x2 * c + x1 * s
    return x64


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("tokens", [1, 7, 300, 4100])
@pytest.mark.parametrize("cache_fp32", [True, False])
@pytest.mark.parametrize("pos_dtype", [torch.int64, torch.int32])
def test_neox_qwen3(dtype, tokens, cache_fp32, pos_dtype):
    max_pos = 8192
    cache = rope.build_cos_sin_cache(max_pos, 128, 1e6, device="cuda", dtype=torch.float32 if cache_fp32 else dtype)
    # q and k as views of a fused qkv projection (token stride 6144)
    qkv = torch.randn(tokens, (32 + 8 + 8) * 128, device="cuda").to(dtype)
    q = qkv[:, : 32 * 128].view(tokens, 32, 128)
    k = qkv[:, 32 * 128 : 40 * 128].view(tokens, 8, 128)
    positions = torch.randint(0, max_pos, (tokens,), device="cuda", dtype=pos_dtype)
    rq, rk = ref_neox(q, positions.long(), cache), ref_neox(k, positions.long(), cache)
    v_before = qkv[:, 40 * 128 :].clone()
    rope.rope_neox(q, k, positions, cache)
    check(q, rq, dtype)
    check(k, rk, dtype)
    assert torch.equal(qkv[:, 40 * 128 :], v_before), "v was touched"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("head_dim,rot", [(128, 64), (100, 100), (96, 40), (64, 64)])
def test_neox_shapes(dtype, head_dim, rot):
    tokens, hq, hk = 33, 4, 2
    cache = rope.build_cos_sin_cache(512, rot, 1e4, device="cuda")
    q = torch.randn(2, tokens, hq, head_dim, device="cuda").to(dtype)
    k = torch.randn(2, tokens, hk, head_dim, device="cuda").to(dtype)
    positions = torch.randint(0, 512, (2, tokens), device="cuda")
    rq = ref_neox(q.view(-1, hq, head_dim), positions.view(-1), cache).view(q.shape)
    rk = ref_neox(k.view(-1, hk, head_dim), positions.view(-1), cache).view(k.shape)
    rope.rope_neox(q, k, positions, cache)
    check(q, rq, dtype)
    check(k, rk, dtype)


def hf_cos_sin(positions, rot, base, dtype):
    # transformers' rotary embedding output: [..., S, rot], halves repeated
    inv_freq = 1.0 / (base ** (torch.arange(0, rot, 2, device="cuda").double() / rot))
    f = positions.double()[..., None] * inv_freq
    emb = torch.cat([f, f], dim=-1)
    return emb.cos().to(dtype), emb.sin().to(dtype)


def ref_neox_cos_sin(x, cos, sin):
    # x [B, S, H, D]; cos/sin broadcastable to [B, S, rot]
    rot = cos.shape[-1]
    half = rot // 2
    c = cos.double()[..., None, :half]
    s = sin.double()[..., None, :half]
    x64 = x.double().clone()
    x1, x2 = x64[..., :half].clone(), x64[..., half:rot].clone()
    x64[..., :half] = x1 * c - x2 * s
    x64[..., half:rot] = x2 * c + x1 * s
    return x64


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("tokens", [1, 7, 300, 4100])
@pytest.mark.parametrize("batch,cos_batch", [(1, 1), (3, 3), (3, 1), (2, 0)])
@pytest.mark.parametrize("cos_fp32", [False, True])
def test_neox_cos_sin_transformers_layout(dtype, tokens, batch, cos_batch, cos_fp32):
    # q/k as transformers holds them: [B, H, S, D] views of [B, S, H, D]
    # projections; cos/sin [B or 1, S, 128] (cos_batch 0: a 2-D [S, 128]),
    # gathered at random positions per batch element.
    cdt = torch.float32 if cos_fp32 else dtype
    q_bshd = torch.randn(batch, tokens, 32, 128, device="cuda").to(dtype)
    k_bshd = torch.randn(batch, tokens, 8, 128, device="cuda").to(dtype)
    q, k = q_bshd.transpose(1, 2), k_bshd.transpose(1, 2)
    pos = torch.randint(0, 40960, (max(cos_batch, 1), tokens), device="cuda")
    cos, sin = hf_cos_sin(pos, 128, 1e6, cdt)
    if cos_batch == 0:
        cos, sin = cos[0], sin[0]
    rq, rk = ref_neox_cos_sin(q_bshd, cos, sin), ref_neox_cos_sin(k_bshd, cos, sin)
    oq, ok = rope.rope_neox_cos_sin(q.transpose(1, 2), k.transpose(1, 2), cos, sin)
    assert oq.data_ptr() == q_bshd.data_ptr() and ok.data_ptr() == k_bshd.data_ptr()
    check(q_bshd, rq, dtype)
    check(k_bshd, rk, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("head_dim,rot", [(128, 64), (100, 100), (96, 40), (64, 64)])
def test_neox_cos_sin_shapes(dtype, head_dim, rot):
    # partial rotary and widths that defeat the vector path; a strided
    # (sliced) cos/sin table
    tokens, hq, hk = 33, 4, 2
    q = torch.randn(2, tokens, hq, head_dim, device="cuda").to(dtype)
    k = torch.randn(2, tokens, hk, head_dim, device="cuda").to(dtype)
    pos = torch.randint(0, 512, (2, tokens), device="cuda")
    cos_w, sin_w = hf_cos_sin(pos, rot, 1e4, torch.float32)
    pad = torch.zeros(2, tokens, 3, device="cuda")
    cos = torch.cat([cos_w, pad], -1)[..., :rot]
    sin = torch.cat([sin_w, pad], -1)[..., :rot]
    rq, rk = ref_neox_cos_sin(q, cos, sin), ref_neox_cos_sin(k, cos, sin)
    rope.rope_neox_cos_sin(q, k, cos, sin)
    check(q, rq, dtype)
    check(k, rk, dtype)


def test_neox_cos_sin_matches_cache_mode():
    # the two modes compute the same thing from the same table
    tokens = 513
    cache = rope.build_cos_sin_cache(4096, 128, 1e6, device="cuda")
    pos = torch.randint(0, 4096, (tokens,), device="cuda")
    c = cache[pos]
    cos = torch.cat([c[:, :64], c[:, :64]], -1)
    sin = torch.cat([c[:, 64:], c[:, 64:]], -1)
    q = torch.randn(tokens, 32, 128, device="cuda").to(torch.bfloat16)
    q2 = q.clone()
    rope.rope_neox(q, None, pos, cache)
    rope.rope_neox_cos_sin(q2, None, cos, sin)
    assert torch.equal(q, q2)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
def test_neox_offset_q_only(dtype):
    tokens, h, d = 50, 3, 128
    flat = torch.randn(tokens * h * d + 1, device="cuda").to(dtype)
    q = flat[1:].view(tokens, h, d)  # misaligned: element path
    cache = rope.build_cos_sin_cache(100, d, 1e4, device="cuda")
    positions = torch.randint(0, 100, (tokens,), device="cuda")
    rq = ref_neox(q, positions, cache)
    rope.rope_neox(q, None, positions, cache)
    check(q, rq, dtype)


def ref_interleaved(x, cos, sin):
    x64 = x.double()
    rot = torch.stack([-x64[..., 1::2], x64[..., 0::2]], dim=-1).flatten(-2)
    return x64 * cos.double() + rot * sin.double()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dim", [2048, 96, 100, 30])
@pytest.mark.parametrize("batch_cos", [1, 2])
@pytest.mark.parametrize("inplace", [False, True])
def test_interleaved_given(dtype, dim, batch_cos, inplace):
    b, s = 2, 77
    q = torch.randn(b, s, dim, device="cuda").to(dtype)
    k = torch.randn(b, s, dim, device="cuda").to(dtype)
    ang = torch.rand(batch_cos, s, dim // 2, device="cuda") * 100
    cos = ang.cos().repeat_interleave(2, dim=-1)
    sin = ang.sin().repeat_interleave(2, dim=-1)
    rq, rk = ref_interleaved(q, cos, sin), ref_interleaved(k, cos, sin)
    if inplace:
        oq, ok = rope.rope_interleaved(q, k, cos, sin, inplace=True)
        assert oq is q and ok is k
    else:
        oq, ok = rope.rope_interleaved(q, k, cos, sin)
    check(oq, rq, dtype)
    check(ok, rk, dtype)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
def test_interleaved_offset_single(dtype):
    b, s, dim = 1, 40, 256
    flat = torch.randn(b * s * dim + 2, device="cuda").to(dtype)
    q = flat[2:].view(b, s, dim)  # 4-byte offset for bf16, 8 for fp32: element path
    ang = torch.rand(1, s, dim // 2, device="cuda") * 10
    cos = ang.cos().repeat_interleave(2, dim=-1)
    sin = ang.sin().repeat_interleave(2, dim=-1)
    oq, ok = rope.rope_interleaved(q, None, cos, sin)
    assert ok is None
    check(oq, ref_interleaved(q, cos, sin), dtype)


def ltx_cos_sin_fp32_angle(grid, freqs, dim):
    # The angle in fp32 exactly as diffusers computes it, cos/sin in float64.
    ang = freqs * (grid.unsqueeze(-1) * 2 - 1)  # [B, S, 3, F] fp32
    ang = ang.transpose(-1, -2).flatten(2).double()
    cos = ang.cos().repeat_interleave(2, dim=-1)
    sin = ang.sin().repeat_interleave(2, dim=-1)
    pad = dim % 6
    if pad:
        cos = torch.cat([torch.ones_like(cos[..., :pad]), cos], dim=-1)
        sin = torch.cat([torch.zeros_like(sin[..., :pad]), sin], dim=-1)
    return cos, sin


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dim", [2048, 4096, 96, 100])
@pytest.mark.parametrize("fhw", [(3, 8, 11), (1, 1, 5)])
def test_ltx_grid(dtype, dim, fhw):
    f, h, w = fhw
    b = 2
    grid = rope.ltx_video_grid(b, f, h, w, rope_interpolation_scale=(20 / 25.0 * 8, 32, 32), device="cuda")
    # make the far corner reach angles of ~1.6e4 rad like real videos
    grid = grid * torch.tensor([150.0, 60.0, 60.0], device="cuda")
    freqs = rope.ltx_video_freqs(dim, device="cuda")
    s = f * h * w
    q = torch.randn(b, s, dim, device="cuda").to(dtype)
    k = torch.randn(b, s, dim, device="cuda").to(dtype)
    cos, sin = ltx_cos_sin_fp32_angle(grid, freqs, dim)
    rq, rk = ref_interleaved(q, cos, sin), ref_interleaved(k, cos, sin)
    oq, ok = rope.rope_ltx(q, k, grid, freqs)
    check(oq, rq, dtype)
    check(ok, rk, dtype)
    # broadcast grid over the batch
    oq1, _ = rope.rope_ltx(q, None, grid[:1], freqs)
    cos1, sin1 = ltx_cos_sin_fp32_angle(grid[:1], freqs, dim)
    check(oq1, ref_interleaved(q, cos1, sin1), dtype)


def test_ltx_grid_matches_given_cos_sin_bf16():
    # The in-kernel angles give what feeding the fp32 cos/sin tensors gives.
    dim, b, f, h, w = 2048, 1, 5, 16, 16
    grid = rope.ltx_video_grid(b, f, h, w, rope_interpolation_scale=(0.32 * 8, 32, 32), device="cuda") * 40
    freqs = rope.ltx_video_freqs(dim, device="cuda")
    q = torch.randn(b, f * h * w, dim, device="cuda").to(torch.bfloat16)
    cos, sin = ltx_cos_sin_fp32_angle(grid, freqs, dim)
    a, _ = rope.rope_ltx(q, None, grid, freqs)
    g, _ = rope.rope_interleaved(q, None, cos.float(), sin.float())
    torch.testing.assert_close(a.float(), g.float(), rtol=1e-2, atol=1e-2)


ERROR_CASES = ["rope.rope_neox_cos_sin(q, None, torch.ones(2, 128, device='cuda'), torch.ones(2, 128, device='cuda'))", "rope.rope_neox_cos_sin(q, None, torch.ones(3, 128, device='cuda'), torch.ones(3, 64, device='cuda'))", "rope.rope_neox_cos_sin(q, None, torch.ones(3, 130, device='cuda'), torch.ones(3, 130, device='cuda'))", "rope.rope_neox_cos_sin(q[None].expand(2, 3, 4, 128), None, torch.ones(3, 3, 128, device='cuda'), torch.ones(3, 3, 128, device='cuda'))", 'rope.rope_neox(q, None, p[:2], c)', 'rope.rope_neox(q, None, p.float(), c)', "rope.rope_neox(q, None, p, torch.zeros(8, 256, device='cuda'))", "rope.rope_interleaved(q[0][None], None, torch.ones(1, 4, 64, device='cuda'), torch.ones(1, 4, 64, device='cuda'))"]


@pytest.mark.parametrize("call", ERROR_CASES)
def test_errors(call):
    # Bad arguments must raise RuntimeError; in a fresh interpreter so that a
    # crash fails this test instead of ending the session.
    import subprocess
    import sys

    code = (
        "import torch, rope\n"
        "q = torch.randn(3, 4, 128, device='cuda'); c = rope.build_cos_sin_cache(8, 128, device='cuda'); p = torch.zeros(3, dtype=torch.long, device='cuda')\n"
        "try:\n"
        f"    {call}\n"
        "    print('NO ERROR')\n"
        "except (RuntimeError, ValueError) as e:\n"
        "    print('RAISED', str(e).splitlines()[0])\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "RAISED" in r.stdout, (r.returncode, r.stdout, r.stderr[-2000:])


@pytest.mark.parametrize("variant", [1, 2, 3, 11, 21, 31, 13])
@pytest.mark.parametrize("tokens", [1, 33, 1000])
def test_neox_variants(variant, tokens):
    dtype = torch.bfloat16
    cache = rope.build_cos_sin_cache(2048, 128, 1e6, device="cuda")
    q = torch.randn(tokens, 32, 128, device="cuda").to(dtype)
    k = torch.randn(tokens, 8, 128, device="cuda").to(dtype)
    pos = torch.randint(0, 2048, (tokens,), device="cuda")
    rq, rk = ref_neox(q, pos, cache), ref_neox(k, pos, cache)
    try:
        rope.ops.set_variant(variant)
        rope.rope_neox(q, k, pos, cache)
    finally:
        rope.ops.set_variant(0)
    check(q, rq, dtype)
    check(k, rk, dtype)
