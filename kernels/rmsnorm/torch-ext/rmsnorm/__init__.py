"""RMSNorm and fused add + RMSNorm CUDA kernels (bf16, fp16, fp32).

rounding: ``double_rounding=True`` reproduces Qwen3/Llama's
``w * (x * rstd).to(dtype)`` (two roundings); ``False`` rounds once.
"""

from typing import Optional, Tuple

import torch

from ._ops import ops, add_op_namespace_prefix
from . import compile_fusion, layers

__all__ = ["rms_norm", "fused_add_rms_norm", "kernel_path", "layers"]


# Shape-only implementations so torch.compile can trace through the ops
# (they only write their `out` arguments).
try:
    @torch.library.register_fake(add_op_namespace_prefix("rms_norm"))
    def _rms_norm_fake(out, input, weight, eps, double_rounding):
        return None

    @torch.library.register_fake(add_op_namespace_prefix("fused_add_rms_norm"))
    def _fused_add_rms_norm_fake(out, residual_out, input, residual, weight, eps, double_rounding):
        return None

    @torch.library.register_fake(add_op_namespace_prefix("rms_norm_fn"))
    def _rms_norm_fn_fake(input, weight, eps, double_rounding):
        return torch.empty_like(input)

    @torch.library.register_fake(add_op_namespace_prefix("fused_add_rms_norm_fn"))
    def _fused_add_rms_norm_fn_fake(input, residual, weight, eps, double_rounding):
        return torch.empty_like(input), torch.empty_like(input)
except Exception:  # older torch without register_fake: eager use still works
    pass

# Under torch.compile, a residual add before the norm goes into the fused kernel (compile_fusion.py).
try:
    compile_fusion.install(ops)
except Exception:  # an Inductor whose pass interface changed: the norm still works unfused
    pass


def rms_norm(
    x: torch.Tensor,
    weight: Optional[torch.Tensor] = None,
    eps: float = 1e-6,
    double_rounding: bool = False,
    out: Optional[torch.Tensor] = None,
) -> torch.Tensor:
    """RMSNorm over the last dimension. ``out`` may be ``x`` (in place)."""
    if out is None:
        out = torch.empty_like(x)
    ops.rms_norm(out, x, weight, float(eps), bool(double_rounding))
    return out


def fused_add_rms_norm(
    x: torch.Tensor,
    residual: torch.Tensor,
    weight: Optional[torch.Tensor] = None,
    eps: float = 1e-6,
    double_rounding: bool = False,
    inplace: bool = True,
    out: Optional[torch.Tensor] = None,
) -> Tuple[torch.Tensor, torch.Tensor]:
    """residual' = x + residual; returns (RMSNorm(residual'), residual').

    inplace=True writes residual' into ``residual``; otherwise a new tensor.
    """
    if out is None:
        out = torch.empty_like(x)
    residual_out = residual if inplace else torch.empty_like(residual)
    ops.fused_add_rms_norm(out, residual_out, x, residual, weight, float(eps), bool(double_rounding))
    return out, residual_out


def kernel_path(x: torch.Tensor, weight: Optional[torch.Tensor] = None, out: Optional[torch.Tensor] = None):
    """(path, access bytes) the kernel takes for these tensors: path 0 is the
    register-resident 16-byte path, 1 the looped path."""
    if out is None:
        out = torch.empty_like(x)
    code = int(ops.rms_norm_path(out, x, weight))
    return code // 100, code % 100
