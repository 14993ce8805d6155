#include <torch/library.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include <cuda_runtime_api.h>

#include "kl_check.h"
#include "registration.h"
#include "torch_binding.h"
#include "../adaln_cuda/adaln.h"

namespace {

int dtype_code(const at::Tensor& t) {
  switch (t.scalar_type()) {
    case at::ScalarType::Float: return KL_ADALN_F32;
    case at::ScalarType::Half: return KL_ADALN_F16;
    case at::ScalarType::BFloat16: return KL_ADALN_BF16;
    default: kl::fail("adaln: unsupported dtype %s (float32, float16, bfloat16)", kl::dtype(t));
  }
  return -1;
}

// Batch and token strides of t broadcast against x [B, S, D] (x given as
// 3-D). t may be [D], [S, D], [B|1, S|1, D].
KlAdaLNTensor view_of(const at::Tensor& t, const at::Tensor& x, const char* name) {
  KL_CHECK(t.device() == x.device(), "adaln: %s is on cuda:%lld, x on cuda:%lld", name, kl::ll(t.get_device()), kl::ll(x.get_device()));
  KL_CHECK(t.scalar_type() == x.scalar_type(), "adaln: %s has dtype %s, x has %s", name, kl::dtype(t), kl::dtype(x));
  KL_CHECK(t.dim() >= 1 && t.dim() <= 3 && t.size(-1) == x.size(2), "adaln: %s must be [D], [S, D] or [B|1, S|1, D] with D = %lld, got %s", name, kl::ll(x.size(2)), kl::shape(t).s);
  KL_CHECK(t.size(-1) <= 1 || t.stride(-1) == 1, "adaln: %s needs a contiguous last dimension", name);
  KlAdaLNTensor v{t.data_ptr(), 0, 0};
  if (t.dim() >= 2) {
    const int64_t s = t.size(-2);
    KL_CHECK(s == 1 || s == x.size(1), "adaln: %s token dimension must be 1 or %lld, got %lld", name, kl::ll(x.size(1)), kl::ll(s));
    v.ss = s == 1 ? 0 : t.stride(-2);
  }
  if (t.dim() == 3) {
    const int64_t b = t.size(0);
    KL_CHECK(b == 1 || b == x.size(0), "adaln: %s batch must be 1 or %lld, got %lld", name, kl::ll(x.size(0)), kl::ll(b));
    v.sb = b == 1 ? 0 : t.stride(0);
  }
  return v;
}

KlAdaLNTensor optional_view(const std::optional<at::Tensor>& t, const at::Tensor& x,
                            const char* name) {
  if (!t.has_value() || !t->defined()) return KlAdaLNTensor{nullptr, 0, 0};
  return view_of(*t, x, name);
}

at::Tensor as3d(const at::Tensor& t) { return t.dim() == 2 ? t.unsqueeze(0) : t; }

void run(KlAdaLNParams& p, const at::Tensor& x) {
  const c10::cuda::CUDAGuard guard(x.device());
  const int err = kl_adaln(&p, c10::cuda::getCurrentCUDAStream(x.get_device()));
  if (err == 0) return;
  KL_CHECK(err > 0, "adaln: invalid arguments (code %d)", err);
  kl::fail("adaln: CUDA error: %s", cudaGetErrorString(static_cast<cudaError_t>(err)));
}

KlAdaLNParams base_params(const at::Tensor& out3, const at::Tensor& x3,
                          const std::optional<at::Tensor>& scale,
                          const std::optional<at::Tensor>& shift, double eps, bool layernorm) {
  KL_CHECK(x3.is_cuda(), "adaln: x must be a CUDA tensor");
  KL_CHECK(x3.dim() == 3, "adaln: x must be [B, S, D] or [S, D]");
  KL_CHECK(out3.sizes() == x3.sizes(), "adaln: out has shape %s, x has %s", kl::shape(out3).s, kl::shape(x3).s);
  KlAdaLNParams p{};
  p.out = view_of(out3, x3, "out");
  p.x = view_of(x3, x3, "x");
  p.scale = optional_view(scale, x3, "scale");
  p.shift = optional_view(shift, x3, "shift");
  p.batch = x3.size(0);
  p.seq = x3.size(1);
  p.dim = x3.size(2);
  p.eps = static_cast<float>(eps);
  p.layernorm = layernorm ? 1 : 0;
  p.dtype = dtype_code(x3);
  // view_of gives size-1 dims stride 0, which is what the kernel needs.
  return p;
}

}  // namespace

void adaln(at::Tensor& out, const at::Tensor& x, const std::optional<at::Tensor>& scale,
           const std::optional<at::Tensor>& shift, double eps, bool layernorm) {
  KL_CHECK(x.dim() == 2 || x.dim() == 3, "adaln: x must be [B, S, D] or [S, D], got %s", kl::shape(x).s);
  const at::Tensor x3 = as3d(x);
  const at::Tensor out3 = as3d(out);
  KlAdaLNParams p = base_params(out3, x3, scale, shift, eps, layernorm);
  if (x.numel() == 0) return;
  run(p, x3);
}

void adaln_gated(at::Tensor& out, at::Tensor& h_out, const at::Tensor& h,
                 const at::Tensor& branch, const std::optional<at::Tensor>& gate,
                 const std::optional<at::Tensor>& scale, const std::optional<at::Tensor>& shift,
                 double eps, bool layernorm) {
  KL_CHECK(h.dim() == 2 || h.dim() == 3, "adaln: h must be [B, S, D] or [S, D], got %s", kl::shape(h).s);
  const at::Tensor h3 = as3d(h);
  const at::Tensor out3 = as3d(out);
  const at::Tensor ho3 = as3d(h_out);
  const at::Tensor br3 = as3d(branch);
  KlAdaLNParams p = base_params(out3, h3, scale, shift, eps, layernorm);
  KL_CHECK(ho3.sizes() == h3.sizes() && br3.sizes() == h3.sizes(), "adaln: h_out and branch must have the shape of h %s", kl::shape(h3).s);
  p.x_out = view_of(ho3, h3, "h_out");
  p.branch = view_of(br3, h3, "branch");
  p.gate = optional_view(gate, h3, "gate");
  if (h.numel() == 0) return;
  run(p, h3);
}

void set_variant(int64_t variant) { kl_adaln_set_variant(static_cast<int>(variant)); }

TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) {
  ops.def(
      "adaln(Tensor! out, Tensor x, Tensor? scale, Tensor? shift, float eps, bool layernorm) "
      "-> ()");
  ops.impl("adaln", c10::kCUDA, &adaln);
  ops.def(
      "adaln_gated(Tensor! out, Tensor! h_out, Tensor h, Tensor branch, Tensor? gate, "
      "Tensor? scale, Tensor? shift, float eps, bool layernorm) -> ()");
  ops.impl("adaln_gated", c10::kCUDA, &adaln_gated);
  // Benchmark-only launch-shape override (no tensor arguments: a catch-all kernel).
  ops.def("set_variant(int variant) -> ()", &set_variant);
}

REGISTER_EXTENSION(TORCH_EXTENSION_NAME)
