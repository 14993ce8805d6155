#!/usr/bin/env python3
"""Writes a CUDA kernel file whose device code differs by compute capability, for the
`build-toml-5-archs` scenario of lsp_bench.py.

Usage: make_arch_kernel.py OUT.cu [--variant N] [--lines 600]

make_kernel.py's kernels (one `#if __CUDA_ARCH__ >= 800` cp.async path per group, one unguarded
sm_80 intrinsic) interleaved with kernels that take a different branch on each capability of
the scenario's build.toml (7.5, 8.0, 8.9, 9.0, 10.0): `#if __CUDA_ARCH__ >= 1000 / >= 900 /
>= 890 / >= 800`, so every one of kernel-lsp's configurations preprocesses to different code.
"""
import argparse

import make_kernel

TIERED = """
// ---- arch tiers {k} ----
__global__ void __launch_bounds__(256) tiered_scale_{v}_{k}(float* __restrict__ out, const float* __restrict__ in,
                                                           int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
#if __CUDA_ARCH__ >= 1000
  x = x * 5.0f + {k}.0f;
#elif __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  x = x * 4.0f + {k}.0f;
#elif __CUDA_ARCH__ >= 890
  x = x * 3.0f + {k}.0f;
#elif __CUDA_ARCH__ >= 800
  unsigned active = __activemask();
  x += static_cast<float>(__reduce_add_sync(active, 1));
#else
  x = x * 2.0f + {k}.0f;
#endif
  out[i] = x;
}}

__global__ void tiered_sum_{v}_{k}(float* __restrict__ out, const float* __restrict__ in, int n) {{
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
#if __CUDA_ARCH__ >= 900
  v = block_sum<float, 256>(v);
  if (threadIdx.x == 0) atomicAdd(out, v);
#elif __CUDA_ARCH__ >= 800
  v = warp_sum(v);
  if ((threadIdx.x & 31) == 0) atomicAdd(out + 1, v);
#else
  atomicAdd(out + 2, v);
#endif
}}
"""


def kernel_text(variant, lines):
    text = make_kernel.HEADER.format(v=variant)
    footer = make_kernel.FOOTER.format(v=variant)
    k = 0
    while text.count("\n") + footer.count("\n") < lines:
        text += make_kernel.BLOCK.format(v=variant, k=k)
        text += TIERED.format(v=variant, k=k)
        k += 1
    return text + footer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--variant", type=int, default=0)
    parser.add_argument("--lines", type=int, default=600)
    args = parser.parse_args()
    with open(args.out, "w") as f:
        f.write(kernel_text(args.variant, args.lines))


if __name__ == "__main__":
    main()
