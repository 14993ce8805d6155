"""The model of the end-to-end benchmarks (e2e_qwen3.py, e2e_qwen3_kernelize.py): a 4-layer
Qwen3 with the 8B geometry (hidden 4096, 32/8 heads, head_dim 128, intermediate 12288), random
weights built from a config (no download), SDPA attention, bf16, on the GPU."""

import torch


def build_model(vocab):
    from transformers import Qwen3Config, Qwen3ForCausalLM

    cfg = Qwen3Config(
        vocab_size=vocab, hidden_size=4096, intermediate_size=12288, num_hidden_layers=4,
        num_attention_heads=32, num_key_value_heads=8, head_dim=128, rms_norm_eps=1e-6,
        rope_theta=1e6, max_position_embeddings=40960, tie_word_embeddings=False,
    )
    cfg._attn_implementation = "sdpa"
    torch.manual_seed(0)
    with torch.device("cuda"):
        model = Qwen3ForCausalLM(cfg)
    return model.to(torch.bfloat16).eval()


def norm_class():
    """transformers' Qwen3RMSNorm."""
    from transformers.models.qwen3.modeling_qwen3 import Qwen3RMSNorm

    return Qwen3RMSNorm


def norms(model):
    """Every Qwen3RMSNorm of `model` (input/post-attention norms, q/k norms, final norm: 17)."""
    return [m for m in model.modules() if isinstance(m, norm_class())]
