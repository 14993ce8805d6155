"""An Inductor graph pass that gives the residual add back to the norm.

A model's residual add (`h = residual + attn_out`) sits in its decoder layer, outside the norm
module `kernels.kernelize` swaps. Without this pass, torch.compile runs the add as a kernel of its
own and then calls our norm, where Inductor would have fused the add into its own norm kernel: the
sum is written and read once more, and one more kernel is launched per layer. The pass finds

    s = aten.add.Tensor(a, b)
    y = rms_norm_fn(s, weight, eps, double_rounding)

in the post-grad graph and calls `fused_add_rms_norm_fn(a, b, weight, eps, double_rounding)`
instead, which returns `(y, s)` from one kernel; every other use of `s` takes the second result.
Both ops round `a + b` to the dtype as `aten.add` does, so the values are the same.

It rewrites only what the fused kernel takes as it is: `a`, `b` and `s` of one shape, one float
dtype and contiguous strides, on a CUDA device, and a weight defined before the add. Anything
else is left as it was.

`install(ops)` appends the pass to `torch._inductor.config.post_grad_custom_post_pass`, keeping a
pass someone set there before. Set RMSNORM_INDUCTOR_FUSION=0 in the environment to leave
Inductor's configuration alone. Only torch is imported here, and Inductor only by `install`, so
`fuse_residual_adds` runs on any torch with torch.fx.
"""

import hashlib
import logging
import operator
import os
from pathlib import Path

import torch

log = logging.getLogger(__name__)

FUSIBLE_DTYPES = (torch.float32, torch.float16, torch.bfloat16)
PROVENANCE = ("stack_trace", "nn_module_stack", "source_fn_stack")

# Graphs this process rewrote, and the adds fused into norms (benchmarks report them).
stats = {"graphs": 0, "fused": 0}


def _value(node):
    val = node.meta.get("val") if isinstance(node, torch.fx.Node) else None
    return val if isinstance(val, torch.Tensor) else None


def _fusible_add(node, like, device_type):
    """The add's two tensor operands, when the fused kernel can take them."""
    if not (isinstance(node, torch.fx.Node) and node.op == "call_function"
            and node.target is torch.ops.aten.add.Tensor and len(node.args) == 2 and not node.kwargs):
        return None
    operands = [_value(arg) for arg in node.args]
    if any(v is None for v in operands) or like is None:
        return None
    for v in operands + [like]:
        if (v.shape != like.shape or v.dtype != like.dtype or v.dtype not in FUSIBLE_DTYPES
                or v.device.type != device_type or not v.is_contiguous()):
            return None
    return node.args


def _defined_before(node, position, limit):
    """Whether `node` (an argument: a node, a constant or None) is there before `limit`; a node
    this pass made has no position, and is taken as not."""
    if not isinstance(node, torch.fx.Node):
        return True
    return node in position and position[node] < position[limit]


def fuse_residual_adds(graph, norm_op, fused_op, device_type="cuda"):
    """Rewrites every `norm_op(add(a, b), ...)` of `graph` on `device_type` into
    `fused_op(a, b, ...)`; returns how many it rewrote."""
    position = {node: i for i, node in enumerate(graph.nodes)}
    fused = 0
    for norm in list(graph.nodes):
        if norm.op != "call_function" or norm.target is not norm_op or norm.kwargs or len(norm.args) != 4:
            continue
        add, weight, eps, double_rounding = norm.args
        operands = _fusible_add(add, _value(add), device_type)
        if operands is None or _value(norm) is None or not _defined_before(weight, position, add):
            continue
        with graph.inserting_after(add):
            call = graph.call_function(fused_op, (operands[0], operands[1], weight, eps, double_rounding))
        with graph.inserting_after(call):
            normed = graph.call_function(operator.getitem, (call, 0))
        with graph.inserting_after(normed):
            summed = graph.call_function(operator.getitem, (call, 1))
        for new in (call, normed, summed):
            # Where the norm came from, for Inductor's logs; nothing about its arguments (such as
            # eager_input_vals), which differ from the fused op's.
            new.meta.update({k: norm.meta[k] for k in PROVENANCE if k in norm.meta})
        call.meta["val"] = (norm.meta["val"], add.meta["val"])
        normed.meta["val"] = norm.meta["val"]
        summed.meta["val"] = add.meta["val"]
        norm.replace_all_uses_with(normed)
        add.replace_all_uses_with(summed)
        graph.erase_node(norm)
        graph.erase_node(add)
        fused += 1
    return fused


def _source_hash():
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()


def install(ops):
    """Adds the pass for `ops` (this package's op namespace) to Inductor's post-grad passes.
    Returns whether it did: not without Inductor's custom-pass interface, not when
    RMSNORM_INDUCTOR_FUSION=0, and only once per namespace."""
    if os.environ.get("RMSNORM_INDUCTOR_FUSION", "1") == "0":
        return False
    try:
        from torch._inductor import config
        from torch._inductor.custom_graph_pass import CustomGraphPass
    except ImportError:
        return False

    norm_op, fused_op = ops.rms_norm_fn.default, ops.fused_add_rms_norm_fn.default

    class ResidualAddFusion(CustomGraphPass):
        def __init__(self, previous):
            self.previous = previous
            self.norm_op = norm_op

        def __call__(self, graph):
            if self.previous is not None:
                self.previous(graph)
            count = fuse_residual_adds(graph, norm_op, fused_op)
            if count:
                stats["graphs"] += 1
                stats["fused"] += count
                log.debug("fused %d residual adds into %s", count, fused_op)

        def uuid(self):
            earlier = self.previous.uuid() if hasattr(self.previous, "uuid") else repr(self.previous)
            return (_source_hash(), str(norm_op), earlier)

    current = config.post_grad_custom_post_pass
    chain = current
    while chain is not None:
        if getattr(chain, "norm_op", None) is norm_op:
            return False
        chain = getattr(chain, "previous", None)
    config.post_grad_custom_post_pass = ResidualAddFusion(current)
    return True
