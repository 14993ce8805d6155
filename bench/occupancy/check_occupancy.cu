// Measures what the CUDA driver says about occupancy, for comparison with kernel-lsp's model
// (runner/occupancy.cpp; tests/unit/occupancy_test.cpp reads results/h200.jsonl).
//
//   nvcc -arch=sm_90 -o /tmp/check_occupancy check_occupancy.cu
//   mkdir -p results && /tmp/check_occupancy > results/h200.jsonl
//
// Prints one JSON object per line: first the device's own limits, then, for each kernel below
// and each block size 32..1024 (step 32) and dynamic shared memory size (0, 8 KB, 48 KB, 100 KB),
// cudaOccupancyMaxActiveBlocksPerMultiprocessor with the kernel's registers and static shared
// memory from cudaFuncGetAttributes. Every kernel is first allowed the device's whole opt-in
// dynamic shared memory (cudaFuncAttributeMaxDynamicSharedMemorySize), so that the sizes above
// 48 KB are measured rather than refused. Nothing is launched.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace {

// Register pressure grows with N: N values live across a few rounds of dependent FMAs.
template <int N>
__device__ __forceinline__ void pressure_body(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  float acc[N];
#pragma unroll
  for (int i = 0; i < N; ++i) acc[i] = in[tid + i * n];
#pragma unroll
  for (int round = 0; round < 4; ++round)
#pragma unroll
    for (int i = 0; i < N; ++i) acc[i] = fmaf(acc[i], acc[(i + round + 1) % N], 1.0f);
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < N; ++i) sum = fmaf(acc[i], static_cast<float>(i + 1), sum);
  out[tid] = sum;
}

template <int N>
__global__ void pressure(const float* __restrict__ in, float* __restrict__ out, int n) {
  pressure_body<N>(in, out, n);
}

// The same work under __launch_bounds__: ptxas caps the registers (and maxThreadsPerBlock drops).
template <int N>
__global__ void __launch_bounds__(1024)
    pressure_bounded_1024(const float* __restrict__ in, float* __restrict__ out, int n) {
  pressure_body<N>(in, out, n);
}

template <int N>
__global__ void __launch_bounds__(256, 4)
    pressure_bounded_256x4(const float* __restrict__ in, float* __restrict__ out, int n) {
  pressure_body<N>(in, out, n);
}

template <int N>
__global__ void __launch_bounds__(768)
    pressure_bounded_768(const float* __restrict__ in, float* __restrict__ out, int n) {
  pressure_body<N>(in, out, n);
}

// Static shared memory of `Bytes` (48 KB is the most a kernel may declare statically).
template <int Bytes>
__global__ void static_smem(const float* __restrict__ in, float* __restrict__ out) {
  constexpr int kFloats = Bytes / 4;
  __shared__ float tile[kFloats];
  for (int i = threadIdx.x; i < kFloats; i += blockDim.x) tile[i] = in[blockIdx.x * kFloats + i];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[(threadIdx.x * 7) % kFloats];
}

// Dynamic shared memory only, few registers.
__global__ void dynamic_smem(const float* __restrict__ in, float* __restrict__ out) {
  extern __shared__ float buffer[];
  buffer[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = buffer[blockDim.x - 1 - threadIdx.x];
}

struct Kernel {
  const char* name;
  const void* function;
};

const Kernel kKernels[] = {
    {"pressure<1>", reinterpret_cast<const void*>(&pressure<1>)},
    {"pressure<8>", reinterpret_cast<const void*>(&pressure<8>)},
    {"pressure<24>", reinterpret_cast<const void*>(&pressure<24>)},
    {"pressure<32>", reinterpret_cast<const void*>(&pressure<32>)},
    {"pressure<48>", reinterpret_cast<const void*>(&pressure<48>)},
    {"pressure<96>", reinterpret_cast<const void*>(&pressure<96>)},
    {"pressure<160>", reinterpret_cast<const void*>(&pressure<160>)},
    {"pressure<256>", reinterpret_cast<const void*>(&pressure<256>)},
    {"pressure_bounded_1024<96>", reinterpret_cast<const void*>(&pressure_bounded_1024<96>)},
    {"pressure_bounded_256x4<96>", reinterpret_cast<const void*>(&pressure_bounded_256x4<96>)},
    {"pressure_bounded_768<160>", reinterpret_cast<const void*>(&pressure_bounded_768<160>)},
    {"static_smem<40960>", reinterpret_cast<const void*>(&static_smem<40960>)},
    {"static_smem<49152>", reinterpret_cast<const void*>(&static_smem<49152>)},
    {"dynamic_smem", reinterpret_cast<const void*>(&dynamic_smem)},
};

const size_t kDynamicSizes[] = {0, 8 * 1024, 48 * 1024, 100 * 1024};

void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
  std::exit(1);
}

}  // namespace

int main() {
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  char capability[16];
  std::snprintf(capability, sizeof capability, "%d.%d", prop.major, prop.minor);
  std::printf(
      "{\"device\":\"%s\",\"capability\":\"%s\",\"sm_count\":%d,\"max_blocks_per_sm\":%d,\"regs_per_sm\":%d,"
      "\"regs_per_block\":%d,\"max_threads_per_sm\":%d,\"smem_per_sm\":%zu,\"smem_per_block_optin\":%zu,"
      "\"reserved_smem_per_block\":%zu}\n",
      prop.name, capability, prop.multiProcessorCount, prop.maxBlocksPerMultiProcessor,
      prop.regsPerMultiprocessor, prop.regsPerBlock, prop.maxThreadsPerMultiProcessor,
      prop.sharedMemPerMultiprocessor, prop.sharedMemPerBlockOptin, prop.reservedSharedMemPerBlock);

  for (const Kernel& kernel : kKernels) {
    cudaFuncAttributes attributes{};
    check(cudaFuncGetAttributes(&attributes, kernel.function), kernel.name);
    const int dynamic_limit = static_cast<int>(prop.sharedMemPerBlockOptin - attributes.sharedSizeBytes);
    check(cudaFuncSetAttribute(kernel.function, cudaFuncAttributeMaxDynamicSharedMemorySize, dynamic_limit),
          kernel.name);
    for (size_t dynamic : kDynamicSizes) {
      for (int block = 32; block <= 1024; block += 32) {
        int blocks = 0;
        const cudaError_t status =
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel.function, block, dynamic);
        std::printf(
            "{\"kernel\":\"%s\",\"capability\":\"%s\",\"regs\":%d,\"static_smem\":%zu,\"local_bytes\":%zu,"
            "\"max_threads\":%d,\"block\":%d,\"dynamic_smem\":%zu,\"blocks_per_sm\":%d",
            kernel.name, capability, attributes.numRegs, attributes.sharedSizeBytes,
            attributes.localSizeBytes, attributes.maxThreadsPerBlock, block, dynamic,
            status == cudaSuccess ? blocks : 0);
        if (status != cudaSuccess) {
          std::printf(",\"error\":\"%s\"", cudaGetErrorString(status));
          cudaGetLastError();  // clear it, so the next query starts clean
        }
        std::printf("}\n");
      }
    }
  }
  return 0;
}
