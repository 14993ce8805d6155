"""AdaLN CUDA kernels for DiT blocks (LTX-Video).

``adaln``:        norm(x) * (1 + scale) + shift
``adaln_gated``:  h = h + branch * gate; then norm(h) * (1 + scale) + shift
norm is RMSNorm (default) or LayerNorm, both without weight; scale / shift /
gate are per sample ``[B, 1, D]`` or per token ``[B, S, D]``.
"""

from typing import Optional, Tuple

import torch

from ._ops import ops
from . import layers

__all__ = ["adaln", "adaln_gated", "layers"]


def adaln(
    x: torch.Tensor,
    scale: Optional[torch.Tensor],
    shift: Optional[torch.Tensor],
    eps: float = 1e-6,
    norm: str = "rms",
    out: Optional[torch.Tensor] = None,
) -> torch.Tensor:
    if norm not in ("rms", "layer"):
        raise ValueError(f"norm must be 'rms' or 'layer', got {norm!r}")
    if out is None:
        out = torch.empty_like(x)
    ops.adaln(out, x, scale, shift, float(eps), norm == "layer")
    return out


def adaln_gated(
    h: torch.Tensor,
    branch: torch.Tensor,
    gate: Optional[torch.Tensor],
    scale: Optional[torch.Tensor],
    shift: Optional[torch.Tensor],
    eps: float = 1e-6,
    norm: str = "rms",
    inplace: bool = True,
    out: Optional[torch.Tensor] = None,
) -> Tuple[torch.Tensor, torch.Tensor]:
    """Returns (out, h_new); h_new is ``h`` itself when inplace."""
    if norm not in ("rms", "layer"):
        raise ValueError(f"norm must be 'rms' or 'layer', got {norm!r}")
    if out is None:
        out = torch.empty_like(h)
    h_out = h if inplace else torch.empty_like(h)
    ops.adaln_gated(out, h_out, h, branch, gate, scale, shift, float(eps), norm == "layer")
    return out, h_out
