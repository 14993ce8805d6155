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
        # The op works in place on [B, S, H, D] tensors whose token dimensions share one stride:
        # copies in that layout (the new outputs), returned as [B, H, S, D] views.
        q_out, k_out = q.transpose(1, 2).contiguous(), k.transpose(1, 2).contiguous()
        ops.rope_neox_cos_sin(q_out, k_out, cos, sin)
        return q_out.transpose(1, 2), k_out.transpose(1, 2)
