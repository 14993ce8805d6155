// Instantiates every RMSNorm launcher so that `nvcc -c` compiles all kernels in the header.
// Used by tests/skill_samples to check the header for each capability of the scaffold's build.toml.
#include "rms_norm_kernels.cuh"

template cudaError_t rms_norm_ref::launch_rms_norm<float>(
    float*, const float*, const float*, int64_t, int, int64_t, int64_t, float, bool, cudaStream_t);
template cudaError_t rms_norm_ref::launch_rms_norm<__half>(
    __half*, const __half*, const __half*, int64_t, int, int64_t, int64_t, float, bool, cudaStream_t);
template cudaError_t rms_norm_ref::launch_rms_norm<__nv_bfloat16>(
    __nv_bfloat16*, const __nv_bfloat16*, const __nv_bfloat16*, int64_t, int, int64_t, int64_t, float,
    bool, cudaStream_t);
