#include <ATen/Functions.h>
#include <torch/library.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include <cuda_runtime_api.h>

#include "kl_check.h"
#include "registration.h"
#include "row_layout.h"
#include "torch_binding.h"
#include "../rmsnorm_cuda/rmsnorm.h"

namespace {

int dtype_code(const at::Tensor& t) {
  switch (t.scalar_type()) {
    case at::ScalarType::Float: return KL_RMS_F32;
    case at::ScalarType::Half: return KL_RMS_F16;
    case at::ScalarType::BFloat16: return KL_RMS_BF16;
    default: kl::fail("rmsnorm: unsupported dtype %s (float32, float16, bfloat16)", kl::dtype(t));
  }
  return -1;
}

void check_like(const at::Tensor& t, const at::Tensor& ref, const char* name) {
  KL_CHECK(t.device() == ref.device(), "rmsnorm: %s is on another device than input", name);
  KL_CHECK(t.scalar_type() == ref.scalar_type(), "rmsnorm: %s has dtype %s, input has %s", name,
           kl::dtype(t), kl::dtype(ref));
  KL_CHECK(t.sizes() == ref.sizes(), "rmsnorm: %s has shape %s, input has %s", name,
           kl::shape(t).s, kl::shape(ref).s);
  KL_CHECK(kl::last_dim_contiguous(t), "rmsnorm: %s needs a contiguous last dimension (stride 1)",
           name);
}

const void* weight_ptr(const std::optional<at::Tensor>& weight, const at::Tensor& input) {
  if (!weight.has_value() || !weight->defined()) return nullptr;
  const at::Tensor& w = *weight;
  KL_CHECK(w.device() == input.device(), "rmsnorm: weight is on another device than input");
  KL_CHECK(w.scalar_type() == input.scalar_type(), "rmsnorm: weight dtype %s differs from input dtype %s",
           kl::dtype(w), kl::dtype(input));
  KL_CHECK(w.dim() == 1 && w.size(0) == input.size(-1), "rmsnorm: weight must be [%lld], got %s",
           kl::ll(input.size(-1)), kl::shape(w).s);
  KL_CHECK(w.stride(0) == 1 || w.size(0) <= 1, "rmsnorm: weight must be contiguous");
  return w.data_ptr();
}

void check_result(int err) {
  if (err == 0) return;
  if (err == KL_RMS_EDTYPE) kl::fail("rmsnorm: unsupported dtype");
  if (err == KL_RMS_ESIZE) kl::fail("rmsnorm: tensor too large (rows or width over 2^31-1)");
  if (err < 0) kl::fail("rmsnorm: invalid arguments");
  kl::fail("rmsnorm: CUDA error: %s", cudaGetErrorString(static_cast<cudaError_t>(err)));
}

KlRmsNormParams make_params(const at::Tensor& out, const at::Tensor& input,
                            const std::optional<at::Tensor>& weight, double eps,
                            bool double_rounding) {
  KL_CHECK(input.is_cuda(), "rmsnorm: input must be a CUDA tensor");
  KL_CHECK(input.dim() >= 1, "rmsnorm: input must have at least one dimension");
  KL_CHECK(kl::last_dim_contiguous(input), "rmsnorm: input needs a contiguous last dimension");
  check_like(out, input, "out");
  KlRmsNormParams p{};
  p.out = out.data_ptr();
  p.in = input.data_ptr();
  p.weight = weight_ptr(weight, input);
  p.cols = input.size(-1);
  p.eps = static_cast<float>(eps);
  p.double_round = double_rounding ? 1 : 0;
  p.dtype = dtype_code(input);
  return p;
}

}  // namespace

void rms_norm(at::Tensor& out, const at::Tensor& input, const std::optional<at::Tensor>& weight,
              double eps, bool double_rounding) {
  KlRmsNormParams p = make_params(out, input, weight, eps, double_rounding);
  if (input.numel() == 0) return;
  kl::RowLayout lay;
  KL_CHECK(kl::row_layout({&input, &out}, &lay),
           "rmsnorm: input/out leading dimensions cannot be addressed with two strides; "
           "call .contiguous() first");
  p.rows = lay.rows;
  p.inner = lay.inner;
  p.in_so = lay.strides[0].outer;
  p.in_si = lay.strides[0].inner;
  p.out_so = lay.strides[1].outer;
  p.out_si = lay.strides[1].inner;
  const c10::cuda::CUDAGuard guard(input.device());
  check_result(kl_rmsnorm_forward(&p, c10::cuda::getCurrentCUDAStream(input.get_device())));
}

void fused_add_rms_norm(at::Tensor& out, at::Tensor& residual_out, const at::Tensor& input,
                        const at::Tensor& residual, const std::optional<at::Tensor>& weight,
                        double eps, bool double_rounding) {
  KlRmsNormParams p = make_params(out, input, weight, eps, double_rounding);
  check_like(residual, input, "residual");
  check_like(residual_out, input, "residual_out");
  if (input.numel() == 0) return;
  kl::RowLayout lay;
  KL_CHECK(kl::row_layout({&input, &out, &residual, &residual_out}, &lay),
           "rmsnorm: leading dimensions cannot be addressed with two strides; "
           "call .contiguous() first");
  p.residual = residual.data_ptr();
  p.residual_out = residual_out.data_ptr();
  p.rows = lay.rows;
  p.inner = lay.inner;
  p.in_so = lay.strides[0].outer;
  p.in_si = lay.strides[0].inner;
  p.out_so = lay.strides[1].outer;
  p.out_si = lay.strides[1].inner;
  p.res_so = lay.strides[2].outer;
  p.res_si = lay.strides[2].inner;
  p.rout_so = lay.strides[3].outer;
  p.rout_si = lay.strides[3].inner;
  const c10::cuda::CUDAGuard guard(input.device());
  check_result(kl_rmsnorm_forward(&p, c10::cuda::getCurrentCUDAStream(input.get_device())));
}

at::Tensor rms_norm_fn(const at::Tensor& input, const std::optional<at::Tensor>& weight, double eps,
                       bool double_rounding) {
  at::Tensor out = at::empty_like(input);
  rms_norm(out, input, weight, eps, double_rounding);
  return out;
}

std::tuple<at::Tensor, at::Tensor> fused_add_rms_norm_fn(const at::Tensor& input,
                                                         const at::Tensor& residual,
                                                         const std::optional<at::Tensor>& weight,
                                                         double eps, bool double_rounding) {
  at::Tensor out = at::empty_like(input);
  at::Tensor residual_out = at::empty_like(input);
  fused_add_rms_norm(out, residual_out, input, residual, weight, eps, double_rounding);
  return {out, residual_out};
}

int64_t rms_norm_path(const at::Tensor& out, const at::Tensor& input,
                                   const std::optional<at::Tensor>& weight) {
  KlRmsNormParams p = make_params(out, input, weight, 1e-6, false);
  kl::RowLayout lay;
  KL_CHECK(kl::row_layout({&input, &out}, &lay), "rmsnorm: unsupported layout");
  p.rows = lay.rows;
  p.inner = lay.inner;
  p.in_so = lay.strides[0].outer;
  p.in_si = lay.strides[0].inner;
  p.out_so = lay.strides[1].outer;
  p.out_si = lay.strides[1].inner;
  int bytes = 0;
  const int path = kl_rmsnorm_path(&p, &bytes);
  return static_cast<int64_t>(path) * 100 + bytes;
}

void set_variant(int64_t variant) { kl_rmsnorm_set_variant(static_cast<int>(variant)); }

TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) {
  ops.def("rms_norm(Tensor! out, Tensor input, Tensor? weight, float eps, bool double_rounding) -> ()");
  ops.impl("rms_norm", c10::kCUDA, &rms_norm);
  ops.def(
      "fused_add_rms_norm(Tensor! out, Tensor! residual_out, Tensor input, Tensor residual, "
      "Tensor? weight, float eps, bool double_rounding) -> ()");
  ops.impl("fused_add_rms_norm", c10::kCUDA, &fused_add_rms_norm);
  ops.def("rms_norm_fn(Tensor input, Tensor? weight, float eps, bool double_rounding) -> Tensor");
  ops.impl("rms_norm_fn", c10::kCUDA, &rms_norm_fn);
  ops.def(
      "fused_add_rms_norm_fn(Tensor input, Tensor residual, Tensor? weight, float eps, "
      "bool double_rounding) -> (Tensor, Tensor)");
  ops.impl("fused_add_rms_norm_fn", c10::kCUDA, &fused_add_rms_norm_fn);
  ops.def("rms_norm_path(Tensor out, Tensor input, Tensor? weight) -> int");
  ops.impl("rms_norm_path", c10::kCUDA, &rms_norm_path);
  // Benchmark-only launch-shape override (no tensor arguments: a catch-all kernel).
  ops.def("set_variant(int variant) -> ()", &set_variant);
}

REGISTER_EXTENSION(TORCH_EXTENSION_NAME)
