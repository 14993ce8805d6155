"""A pytest plugin that `kernel-lsp test` loads (PYTEST_PLUGINS=kernel_lsp_shapes): which tensor
shapes the tests pass to the project's own operators.

A kernel whose last block or last vector is partial only at some sizes passes every test written
at sizes that are multiples of its block. kernel-lsp reads what this plugin writes and says so
when every call of an operator used such sizes (runner/test_shapes.h).

PyTorch's profiler records each operator call with its inputs' shapes, without changing how the
call runs (torch.compile and CUDA graphs see nothing of it). Operators of PyTorch's own
namespaces are left out; a kernel-builder project's ops live in their own namespace
(`_rmsnorm_<hash>::rms_norm`). Each test process writes KERNEL_LSP_SHAPES_OUT/shapes-<pid>.json:
{"operator": [[shape of each tensor argument, ...], ...]}, each distinct call once. Without
KERNEL_LSP_SHAPES_OUT, or without torch, the plugin does nothing.
"""
import json
import os

_PYTORCH_NAMESPACES = {
    "aten", "prim", "prims", "profiler", "quantized", "_quantized", "c10d", "_c10d_functional", "c10d_functional",
    "_dtensor", "inductor", "autograd", "cuda", "mkldnn", "onednn", "rngprims", "higher_order", "debugprims",
    "torchvision", "torchaudio", "fbgemm", "_test",
}
_profile = None


def pytest_sessionstart(session):
    global _profile
    if not os.environ.get("KERNEL_LSP_SHAPES_OUT"):
        return
    try:
        import torch

        _profile = torch.autograd.profiler.profile(record_shapes=True)
        _profile.__enter__()
    except Exception:  # no torch, or a profiler already running: record nothing
        _profile = None


def pytest_sessionfinish(session, exitstatus):
    global _profile
    if _profile is None:
        return
    profile, _profile = _profile, None
    try:
        profile.__exit__(None, None, None)
        calls = {}
        for event in profile.function_events:
            namespace, separator, _ = event.name.partition("::")
            if not separator or namespace in _PYTORCH_NAMESPACES:
                continue
            # A scalar argument's shape is []; a tensor's lists its sizes.
            shapes = [list(s) for s in (event.input_shapes or []) if isinstance(s, (list, tuple)) and len(s) > 0]
            if shapes:
                calls.setdefault(event.name, set()).add(json.dumps(shapes))
        folder = os.environ["KERNEL_LSP_SHAPES_OUT"]
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"shapes-{os.getpid()}.json"), "w") as out:
            json.dump({name: [json.loads(s) for s in sorted(seen)] for name, seen in calls.items()}, out)
    except Exception as error:  # the tests' result matters more than this report
        print(f"kernel-lsp: the tensor shapes of the tests could not be recorded: {error}")
