// Torch-facing launcher for the RMSNorm kernels in rms_norm_kernels.cuh.
// Registered as an op in torch-ext/torch_binding.cpp through TORCH_LIBRARY_EXPAND.
#include <optional>

#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/all.h>

#include "rms_norm_kernels.cuh"

namespace {

// Elements between consecutive rows when the tensor is viewed as [rows, hidden].
int64_t row_stride(const torch::Tensor& t, const char* what) {
  const int64_t hidden = t.size(-1);
  if (t.is_contiguous()) return hidden;
  TORCH_CHECK(t.dim() == 2 && t.stride(1) == 1, what,
              " must be contiguous, or 2-D with a contiguous last dimension; call .contiguous()");
  return t.stride(0);
}

template <typename T>
void launch(torch::Tensor& out, const torch::Tensor& input, const std::optional<torch::Tensor>& weight,
            double eps, bool round_twice) {
  const int64_t hidden = input.size(-1);
  const int64_t rows = hidden == 0 ? 0 : input.numel() / hidden;
  const T* w = weight.has_value() ? reinterpret_cast<const T*>(weight->data_ptr()) : nullptr;
  const cudaError_t err = rms_norm_ref::launch_rms_norm<T>(
      reinterpret_cast<T*>(out.data_ptr()), reinterpret_cast<const T*>(input.data_ptr()), w, rows,
      static_cast<int>(hidden), row_stride(input, "input"), row_stride(out, "out"),
      static_cast<float>(eps), round_twice, at::cuda::getCurrentCUDAStream());
  TORCH_CHECK(err == cudaSuccess, "rms_norm launch failed: ", cudaGetErrorString(err));
}

}  // namespace

void rms_norm(torch::Tensor& out, const torch::Tensor& input, const std::optional<torch::Tensor>& weight,
              double eps, bool round_twice) {
  TORCH_CHECK(input.is_cuda() && out.is_cuda(), "rms_norm: tensors must be on a CUDA device");
  TORCH_CHECK(out.sizes() == input.sizes(), "rms_norm: out and input shapes differ");
  TORCH_CHECK(out.scalar_type() == input.scalar_type(), "rms_norm: out and input dtypes differ");
  TORCH_CHECK(input.dim() >= 1 && input.size(-1) <= 0x7fffffff, "rms_norm: bad hidden size");
  if (weight.has_value()) {
    TORCH_CHECK(weight->is_cuda() && weight->is_contiguous() && weight->dim() == 1 &&
                    weight->size(0) == input.size(-1) && weight->scalar_type() == input.scalar_type(),
                "rms_norm: weight must be a contiguous [hidden] tensor of the input's dtype");
  }
  const at::cuda::OptionalCUDAGuard device_guard(device_of(input));
  switch (input.scalar_type()) {
    case at::ScalarType::Float: launch<float>(out, input, weight, eps, round_twice); break;
    case at::ScalarType::Half: launch<__half>(out, input, weight, eps, round_twice); break;
    case at::ScalarType::BFloat16: launch<__nv_bfloat16>(out, input, weight, eps, round_twice); break;
    default: TORCH_CHECK(false, "rms_norm: unsupported dtype ", input.scalar_type());
  }
}
