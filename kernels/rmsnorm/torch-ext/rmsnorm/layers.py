"""Drop-in forwards for Hugging Face RMSNorm modules.

Following the `kernels` hub convention, these classes only define
``forward`` and read the attributes of the module they replace
(``weight``, ``variance_epsilon``), so they can be swapped in with
``kernels.kernelize`` or by assigning ``forward``.
"""

import torch
from torch import nn

from ._ops import ops

# Under torch.compile, Inductor writes its own norm kernel and fuses it with its neighbours; ours
# is called from Inductor's wrapper as an opaque op. Measured on an H100 with a 4-layer Qwen3
# (bench/kernels/e2e_qwen3_kernelize.py), the compiled model keeps ours only where it pays:
# - Rows narrower than this are per-head norms (Qwen3's q_norm and k_norm over head_dim 128),
#   which Inductor fuses with the transposes and the rotary embedding that follow; a call of
#   ours split that kernel in two and cost 60 µs more per forward at 2,048 tokens.
NARROWEST_ROW_FOR_KERNEL_UNDER_COMPILE = 1024
# - Below this many rows the forward is bound by the host, and a call through the dispatcher costs
#   more host time than Inductor's own launch: the compiled model was 1.4-5.8 % slower at 128
#   and 512 tokens with our kernel. At 2,048 rows our fused add + norm takes about 20 % less GPU
#   time than Inductor's (compile_fusion.py).
FEWEST_ROWS_FOR_KERNEL_UNDER_COMPILE = 1024


def _compiling() -> bool:
    compiler = getattr(torch, "compiler", None)
    return bool(compiler is not None and hasattr(compiler, "is_compiling") and compiler.is_compiling())


def _formula(x: torch.Tensor, weight, eps: float, double_rounding: bool) -> torch.Tensor:
    """What the kernel computes, in PyTorch ops (fp32 statistics)."""
    h = x.float()
    h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + eps)
    if weight is None:
        return h.to(x.dtype)
    if double_rounding:
        return weight.to(x.dtype) * h.to(x.dtype)
    return (h * weight.float()).to(x.dtype)


def _inductor_does_better(x: torch.Tensor) -> bool:
    width = x.shape[-1]
    if width < NARROWEST_ROW_FOR_KERNEL_UNDER_COMPILE:
        return True
    return x.numel() // width < FEWEST_ROWS_FOR_KERNEL_UNDER_COMPILE


def _norm(x: torch.Tensor, weight, eps: float, double_rounding: bool) -> torch.Tensor:
    if _compiling() and _inductor_does_better(x):
        return _formula(x, weight, float(eps), double_rounding)
    if weight is not None and weight.dtype != x.dtype:
        weight = weight.to(x.dtype)
    return ops.rms_norm_fn(x, weight, float(eps), double_rounding)


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
