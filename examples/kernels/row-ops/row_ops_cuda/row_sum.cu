// Row sums with a warp reduction. Deliberate problem: __reduce_add_sync needs sm_80, and
// build.toml also builds for 7.5.
#include <cuda_runtime.h>
#include <torch/all.h>  // absent on a lint machine without PyTorch: analysis goes on

__global__ void row_sum_int(const int* __restrict__ in, int* __restrict__ out, int cols) {
  int row = blockIdx.x;
  int lane = threadIdx.x;  // one warp per row
  int acc = 0;
  for (int c = lane; c < cols; c += 32) acc += in[row * cols + c];
  acc = __reduce_add_sync(0xffffffffu, acc);
  if (lane == 0) out[row] = acc;
}

// The same reduction, guarded: sm_80 uses the instruction, older archs shuffle.
__global__ void row_sum_int_portable(const int* __restrict__ in, int* __restrict__ out, int cols) {
  int row = blockIdx.x;
  int lane = threadIdx.x;
  int acc = 0;
  for (int c = lane; c < cols; c += 32) acc += in[row * cols + c];
#if __CUDA_ARCH__ >= 800
  acc = __reduce_add_sync(0xffffffffu, acc);
#else
  for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, offset);
#endif
  if (lane == 0) out[row] = acc;
}

void launch_row_sum(const int* in, int* out, int rows, int cols, cudaStream_t stream) {
  row_sum_int<<<rows, 32, 0, stream>>>(in, out, cols);
  row_sum_int_portable<<<rows, 32, 0, stream>>>(in, out, cols);
}
