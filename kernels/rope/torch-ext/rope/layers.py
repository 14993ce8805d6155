"""Drop-in forward for a module that applies rotary embeddings the way transformers'
``apply_rotary_pos_emb`` does (NeoX halves, ``unsqueeze_dim=1``): q [B, Hq, S, D] and
k [B, Hk, S, D] with cos/sin [B, S, D] as transformers' rotary embedding returns them. Returns new
(q, k), leaving the inputs as they were. ``forward`` only, for ``kernels.kernelize``.
"""

import torch
from torch import nn

from ._ops import ops


class ApplyRotaryEmbedding(nn.Module):
    """(q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin)."""

    has_backward = False

    def forward(self, q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor):
        q_out, k_out = q.clone(), k.clone()
        # The op works in place on [..., S, H, D] views: transformers' layout transposed.
        ops.rope_neox_cos_sin(q_out.transpose(1, 2), k_out.transpose(1, 2), cos, sin)
        return q_out, k_out
