/* kernel-lsp shim, force-included after clang's CUDA wrapper. clang 19 does not know CUDA 13
   and lowers `kernel<<<grid, block, smem, stream>>>` to a call of cudaConfigureCall, which CUDA 12
   removed from its headers; declaring it lets launches parse (and be analysed) again. Never
   used to compile anything. */
#pragma once
extern "C" cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                                         cudaStream_t stream = 0);
