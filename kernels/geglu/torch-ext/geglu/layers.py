"""Drop-in forwards for gated-GELU modules, after the `kernels` hub's activation layers.

vLLM's ``GeluAndMul`` (``approximate`` "none" or "tanh") and ``GeluTanhAndMul``: the input's last
dimension is [gate | up], the output is ``gelu(gate) * up``. The classes only define ``forward``
and read the replaced module's ``approximate`` when it has one, so ``kernels.kernelize`` can swap
them in.
"""

import torch
from torch import nn

from ._ops import ops


def _gelu_and_mul(x: torch.Tensor, approximate: str) -> torch.Tensor:
    out = torch.empty(x.shape[:-1] + (x.shape[-1] // 2,), dtype=x.dtype, device=x.device)
    ops.geglu(out, x, approximate == "tanh", False)
    return out


class GeluAndMul(nn.Module):
    """gelu(x[..., :d]) * x[..., d:], exact erf unless the module says ``approximate = "tanh"``."""

    has_backward = False

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _gelu_and_mul(x, getattr(self, "approximate", "none"))


class GeluTanhAndMul(nn.Module):
    """gelu_tanh(x[..., :d]) * x[..., d:]."""

    has_backward = False

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _gelu_and_mul(x, "tanh")
