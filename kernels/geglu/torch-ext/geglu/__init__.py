"""GEGLU CUDA kernel: gelu(x[..., :F]) * x[..., F:] (tanh or erf GELU, halves
optionally swapped: diffusers' GEGLU activates the second half with erf GELU)."""

from typing import Optional

import torch

from ._ops import ops
from . import layers

__all__ = ["geglu", "gelu_and_mul", "layers"]


def geglu(
    x: torch.Tensor,
    approximate: str = "tanh",
    swapped: bool = False,
    out: Optional[torch.Tensor] = None,
) -> torch.Tensor:
    if approximate not in ("tanh", "none"):
        raise ValueError(f"approximate must be 'tanh' or 'none', got {approximate!r}")
    if out is None:
        out = torch.empty(x.shape[:-1] + (x.shape[-1] // 2,), dtype=x.dtype, device=x.device)
    ops.geglu(out, x, approximate == "tanh", bool(swapped))
    return out


def gelu_and_mul(x: torch.Tensor, approximate: str = "tanh") -> torch.Tensor:
    """vLLM-style name: gelu of the first half times the second."""
    return geglu(x, approximate=approximate)
