"""Rotary position embedding CUDA kernels.

* ``rope_neox``: NeoX rotate-half RoPE (Qwen3, Llama) on q and k in one
  launch, in place, with a ``[max_pos, rot_dim]`` cos/sin cache indexed by
  positions (``build_cos_sin_cache`` makes one).
* ``rope_neox_cos_sin``: the same with cos/sin given per token as transformers
  passes them (``[B|1, S, rot_dim]``, already indexed by position).
* ``rope_interleaved``: interleaved-pair RoPE over the full width with fp32
  cos/sin ``[B|1, S, D]`` (LTX-Video's ``apply_rotary_emb``), q and k in one launch.
* ``rope_ltx``: the same with cos/sin computed in the kernel from LTX-Video's
  (frame, height, width) grid (``ltx_video_grid``, ``ltx_video_freqs``).
"""

import math
from typing import Optional, Tuple

import torch

from ._ops import ops
from . import layers

__all__ = [
    "rope_neox",
    "rope_neox_cos_sin",
    "rope_interleaved",
    "rope_ltx",
    "build_cos_sin_cache",
    "ltx_video_grid",
    "ltx_video_freqs",
    "layers",
]


def _empty(like: torch.Tensor) -> torch.Tensor:
    return like.new_empty(0)


def build_cos_sin_cache(
    max_pos: int, rot_dim: int, base: float = 1e6, device=None, dtype=torch.float32
) -> torch.Tensor:
    """[max_pos, rot_dim]: cos of the rot_dim/2 frequencies, then their sin,
    computed like transformers' default RoPE (inv_freq = base^(-2i/rot_dim))."""
    inv_freq = 1.0 / (base ** (torch.arange(0, rot_dim, 2, dtype=torch.int64, device=device).float() / rot_dim))
    t = torch.arange(max_pos, device=device, dtype=torch.float32)
    freqs = torch.outer(t, inv_freq)
    return torch.cat([freqs.cos(), freqs.sin()], dim=-1).to(dtype)


def rope_neox(
    q: torch.Tensor,
    k: Optional[torch.Tensor],
    positions: torch.Tensor,
    cos_sin_cache: torch.Tensor,
) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
    """In place on q [..., Hq, D] and k [..., Hk, D]; returns (q, k)."""
    kk = k if k is not None else _empty(q)
    ops.rope_neox(q, kk, positions, cos_sin_cache)
    return q, k


def rope_neox_cos_sin(
    q: torch.Tensor,
    k: Optional[torch.Tensor],
    cos: torch.Tensor,
    sin: torch.Tensor,
) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
    """In place on q [..., S, Hq, D] and k [..., S, Hk, D] with cos/sin
    [..., S, rot_dim] (batch dimensions 1 or q's; only the first rot_dim / 2
    of each row are read: transformers repeats them). For transformers'
    [B, H, S, D] tensors pass ``q.transpose(1, 2)``. Returns (q, k)."""
    kk = k if k is not None else _empty(q)
    ops.rope_neox_cos_sin(q, kk, cos, sin)
    return q, k


def rope_interleaved(
    q: torch.Tensor,
    k: Optional[torch.Tensor],
    cos: torch.Tensor,
    sin: torch.Tensor,
    inplace: bool = False,
) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
    out_q = q if inplace else torch.empty_like(q)
    out_k = None if k is None else (k if inplace else torch.empty_like(k))
    ops.rope_interleaved(
        out_q, out_k if out_k is not None else _empty(q), q, k if k is not None else _empty(q), cos, sin
    )
    return out_q, out_k


def rope_ltx(
    q: torch.Tensor,
    k: Optional[torch.Tensor],
    grid: torch.Tensor,
    freqs: torch.Tensor,
    inplace: bool = False,
) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
    out_q = q if inplace else torch.empty_like(q)
    out_k = None if k is None else (k if inplace else torch.empty_like(k))
    ops.rope_ltx_grid(
        out_q, out_k if out_k is not None else _empty(q), q, k if k is not None else _empty(q), grid, freqs
    )
    return out_q, out_k


def ltx_video_freqs(dim: int, theta: float = 10000.0, device=None) -> torch.Tensor:
    """LTX-Video's frequency table [dim // 6] (fp32), computed as diffusers does."""
    start, end = 1.0, theta
    freqs = theta ** torch.linspace(
        math.log(start, theta), math.log(end, theta), dim // 6, device=device, dtype=torch.float32
    )
    return freqs * math.pi / 2.0


def ltx_video_grid(
    batch_size: int,
    num_frames: int,
    height: int,
    width: int,
    rope_interpolation_scale=None,
    base_num_frames: int = 20,
    base_height: int = 2048,
    base_width: int = 2048,
    patch_size: int = 1,
    patch_size_t: int = 1,
    device=None,
) -> torch.Tensor:
    """[B, F*H*W, 3] fp32 grid coordinates divided by the base sizes, as
    diffusers' LTXVideoRotaryPosEmbed builds them before the frequencies."""
    gf = torch.arange(num_frames, dtype=torch.float32, device=device)
    gh = torch.arange(height, dtype=torch.float32, device=device)
    gw = torch.arange(width, dtype=torch.float32, device=device)
    grid = torch.stack(torch.meshgrid(gf, gh, gw, indexing="ij"), dim=0)
    grid = grid.unsqueeze(0).repeat(batch_size, 1, 1, 1, 1)
    if rope_interpolation_scale is not None:
        grid[:, 0:1] = grid[:, 0:1] * rope_interpolation_scale[0] * patch_size_t / base_num_frames
        grid[:, 1:2] = grid[:, 1:2] * rope_interpolation_scale[1] * patch_size / base_height
        grid[:, 2:3] = grid[:, 2:3] * rope_interpolation_scale[2] * patch_size / base_width
    return grid.flatten(2, 4).transpose(1, 2).contiguous()
