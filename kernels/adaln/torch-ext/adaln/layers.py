"""Drop-in forward for diffusers' ``AdaLayerNormContinuous``: ``linear(silu(c))`` gives a scale
and a shift per sample, applied to the LayerNorm (or RMSNorm) of x in one kernel:
``norm(x) * (1 + scale) + shift``. It reads the replaced module's ``silu``, ``linear`` and
``norm``; a norm with its own weight or bias is done by torch, since the kernel applies none.
``forward`` only, for ``kernels.kernelize``.
"""

import torch
from torch import nn

from ._ops import ops


def _modulated_norm(norm: nn.Module, x: torch.Tensor, scale: torch.Tensor, shift: torch.Tensor) -> torch.Tensor:
    layer = isinstance(norm, nn.LayerNorm)
    if getattr(norm, "weight", None) is not None or getattr(norm, "bias", None) is not None:
        return norm(x) * (1 + scale) + shift
    out = torch.empty_like(x)
    ops.adaln(out, x, scale.to(x.dtype), shift.to(x.dtype), float(getattr(norm, "eps", 1e-6)), layer)
    return out


class AdaLayerNormContinuous(nn.Module):
    """diffusers' AdaLayerNormContinuous: x [B, S, D], conditioning_embedding [B, C]."""

    has_backward = False

    def forward(self, x: torch.Tensor, conditioning_embedding: torch.Tensor) -> torch.Tensor:
        emb = self.linear(self.silu(conditioning_embedding).to(x.dtype))
        scale, shift = torch.chunk(emb, 2, dim=1)
        return _modulated_norm(self.norm, x, scale[:, None, :], shift[:, None, :])
