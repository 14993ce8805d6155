// Runs llm.c's softmax backward kernels 7 and 8 (dev/cuda/attention_backward.cu) on their own,
// so that compute-sanitizer's racecheck reaches them: the program's own runs stop inside cuBLAS
// under racecheck before these kernels start. The source is llm.c's, included from its checkout
// (tests/accuracy/real_programs/prepare.py puts it in build-real/src), with its main renamed.
//
//   nvcc -O3 -lineinfo -arch=sm_90 -std=c++17 -Xcompiler -fopenmp -lcublas -lcublasLt \
//        -I build-real/src/llm.c/dev/cuda tests/accuracy/sync/drivers/llmc_softmax_backward.cu
//   ./a.out 7   (or 8)
#define main llmc_attention_backward_main
#include "attention_backward.cu"
#undef main

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  int kernel = argc > 1 ? std::atoi(argv[1]) : 7;
  const int B = 2, T = 256, C = 256, NH = 4, block_size = 256;
  size_t n = static_cast<size_t>(B) * NH * T * T;
  std::vector<float> host(n);
  for (size_t i = 0; i < n; ++i) host[i] = static_cast<float>((i * 2654435761u) % 1000) / 1000.0f;
  float *dpreatt = nullptr, *datt = nullptr, *att = nullptr;
  cudaMalloc(&dpreatt, n * sizeof(float));
  cudaMalloc(&datt, n * sizeof(float));
  cudaMalloc(&att, n * sizeof(float));
  cudaMemcpy(datt, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(att, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  if (kernel == 7) launch_softmax_7(dpreatt, datt, att, B, T, C, NH, block_size);
  else launch_softmax_8(dpreatt, datt, att, B, T, C, NH, block_size);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("RAN softmax_autoregressive_backward_kernel%d: %s\n", kernel, cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
