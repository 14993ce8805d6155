"""Drop-in forwards for Hugging Face RMSNorm modules.

Following the `kernels` hub convention, these classes only define
``forward`` and read the attributes of the module they replace
(``weight``, ``variance_epsilon``), so they can be swapped in with
``kernels.kernelize`` or by assigning ``forward``.
"""

import torch
from torch import nn

from ._ops import ops


def _norm(x: torch.Tensor, weight, eps: float, double_rounding: bool) -> torch.Tensor:
    out = torch.empty_like(x)
    if weight is not None and weight.dtype != x.dtype:
        weight = weight.to(x.dtype)
    ops.rms_norm(out, x, weight, float(eps), double_rounding)
    return out


class RMSNorm(nn.Module):
    """Llama/Qwen3 RMSNorm: ``weight * (x * rstd).to(dtype)`` (double rounding)."""

    # For `kernelize`: the ops have shape functions (see __init__.py), so torch.compile traces
    # through them; they have no autograd formula, so no training.
    can_torch_compile = True
    has_backward = False

    def forward(self, hidden_states: torch.Tensor) -> torch.Tensor:
        return _norm(hidden_states, self.weight, self.variance_epsilon, True)


class Qwen3RMSNorm(RMSNorm):
    pass


class SingleRoundingRMSNorm(nn.Module):
    """RMSNorm with one rounding at the end (like torch.nn.functional.rms_norm)."""

    can_torch_compile = True
    has_backward = False

    def forward(self, hidden_states: torch.Tensor) -> torch.Tensor:
        eps = getattr(self, "variance_epsilon", None)
        if eps is None:
            eps = getattr(self, "eps", 1e-6)
        return _norm(hidden_states, getattr(self, "weight", None), eps, False)
