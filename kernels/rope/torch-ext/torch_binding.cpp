#include <torch/library.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include <cuda_runtime_api.h>

#include "kl_check.h"
#include "registration.h"
#include "row_layout.h"
#include "torch_binding.h"
#include "../rope_cuda/rope.h"

namespace {

int dtype_code(const at::Tensor& t) {
  switch (t.scalar_type()) {
    case at::ScalarType::Float: return KL_ROPE_F32;
    case at::ScalarType::Half: return KL_ROPE_F16;
    case at::ScalarType::BFloat16: return KL_ROPE_BF16;
    default: kl::fail("rope: unsupported dtype %s (float32, float16, bfloat16)", kl::dtype(t));
  }
  return -1;
}

void check_result(int err) {
  if (err == 0) return;
  if (err == KL_ROPE_EDTYPE) kl::fail("rope: unsupported dtype combination");
  if (err == KL_ROPE_ESIZE) kl::fail("rope: tensor too large");
  if (err < 0) kl::fail("rope: invalid arguments");
  kl::fail("rope: CUDA error: %s", cudaGetErrorString(static_cast<cudaError_t>(err)));
}

// Token dims of a [..., H, D] tensor collapse to one stride.
int64_t token_stride(const at::Tensor& t, const char* name) {
  int64_t st = 0;
  KL_CHECK(kl::collapse_dims(t, 0, t.dim() - 2, &st), "rope: the token dimensions of %s cannot be addressed with one stride", name);
  return st;
}

// (batch, token) strides of a [B, S, X] or [S, X] tensor.
void bs_strides(const at::Tensor& t, int64_t* sb, int64_t* ss) {
  if (t.dim() == 2) {
    *sb = 0;
    *ss = t.stride(0);
  } else {
    *sb = t.size(0) == 1 ? 0 : t.stride(0);
    *ss = t.stride(1);
  }
}

void check_bsd(const at::Tensor& t, const at::Tensor& ref, const char* name) {
  KL_CHECK(t.is_cuda() && t.device() == ref.device(), "rope: %s must be on cuda:%lld", name, kl::ll(ref.get_device()));
  KL_CHECK(t.scalar_type() == ref.scalar_type(), "rope: %s has dtype %s, q has %s", name, kl::dtype(t), kl::dtype(ref));
  KL_CHECK(t.sizes() == ref.sizes(), "rope: %s has shape %s, q has %s", name, kl::shape(t).s, kl::shape(ref).s);
  KL_CHECK(kl::last_dim_contiguous(t), "rope: %s needs a contiguous last dimension", name);
}

// Shared setup of the two interleaved variants.
KlRopeInterleavedParams inter_params(at::Tensor& out_q, at::Tensor& out_k, const at::Tensor& q,
                                     const at::Tensor& k) {
  KL_CHECK(q.is_cuda(), "rope: q must be a CUDA tensor");
  KL_CHECK(q.dim() == 3 || q.dim() == 2, "rope: q must be [B, S, D] or [S, D], got %s", kl::shape(q).s);
  KL_CHECK(q.size(-1) % 2 == 0, "rope: the width must be even, got %lld", kl::ll(q.size(-1)));
  check_bsd(q, q, "q");
  check_bsd(out_q, q, "out_q");
  const bool has_k = k.numel() > 0;
  KL_CHECK(has_k == (out_k.numel() > 0), "rope: pass k and out_k together");
  if (has_k) {
    check_bsd(k, q, "k");
    check_bsd(out_k, q, "out_k");
  }
  KlRopeInterleavedParams p{};
  p.q = q.data_ptr();
  p.out_q = out_q.data_ptr();
  p.k = has_k ? k.data_ptr() : nullptr;
  p.out_k = has_k ? out_k.data_ptr() : nullptr;
  p.dim = q.size(-1);
  p.inner = q.dim() == 3 ? q.size(1) : q.size(0);
  p.rows = q.numel() / (p.dim > 0 ? p.dim : 1);
  bs_strides(q, &p.q_so, &p.q_si);
  bs_strides(out_q, &p.oq_so, &p.oq_si);
  if (has_k) {
    bs_strides(k, &p.k_so, &p.k_si);
    bs_strides(out_k, &p.ok_so, &p.ok_si);
  }
  p.dtype = dtype_code(q);
  return p;
}

void check_aux(const at::Tensor& t, const at::Tensor& q, int64_t width, const char* name) {
  KL_CHECK(t.is_cuda() && t.device() == q.device(), "rope: %s must be on cuda:%lld", name, kl::ll(q.get_device()));
  KL_CHECK(t.scalar_type() == at::ScalarType::Float, "rope: %s must be float32", name);
  KL_CHECK(t.dim() == q.dim(), "rope: %s must have %lld dimensions", name, kl::ll(q.dim()));
  KL_CHECK(t.size(-1) == width && t.size(-2) == q.size(-2), "rope: %s has shape %s, expected [.., %lld, %lld]", name, kl::shape(t).s, kl::ll(q.size(-2)), kl::ll(width));
  if (q.dim() == 3)
    KL_CHECK(t.size(0) == q.size(0) || t.size(0) == 1, "rope: %s batch must be 1 or %lld", name, kl::ll(q.size(0)));
  KL_CHECK(kl::last_dim_contiguous(t), "rope: %s needs a contiguous last dimension", name);
}

// Checks q [..., Hq, D] and k [..., Hk, D] (empty: q only) and fills the q/k
// part of the NeoX parameters; returns the number of tokens.
int64_t neox_qk(const at::Tensor& q, const at::Tensor& k, KlRopeNeoxParams* p) {
  KL_CHECK(q.is_cuda(), "rope: q must be a CUDA tensor");
  KL_CHECK(q.dim() >= 3, "rope: q must be [..., heads, head_dim], got %s", kl::shape(q).s);
  KL_CHECK(kl::last_dim_contiguous(q), "rope: q needs a contiguous last dimension");
  const bool has_k = k.numel() > 0;
  const int64_t tokens = q.numel() / (q.size(-1) * q.size(-2) > 0 ? q.size(-1) * q.size(-2) : 1);
  if (has_k) {
    KL_CHECK(k.device() == q.device() && k.scalar_type() == q.scalar_type(), "rope: k must match q in device and dtype");
    KL_CHECK(k.dim() == q.dim() && k.size(-1) == q.size(-1), "rope: k must be [..., Hk, %lld], got %s", kl::ll(q.size(-1)), kl::shape(k).s);
    for (int64_t d = 0; d < q.dim() - 2; ++d)
      KL_CHECK(k.size(d) == q.size(d), "rope: q and k differ in token dimensions");
    KL_CHECK(kl::last_dim_contiguous(k), "rope: k needs a contiguous last dimension");
  }
  p->q = q.data_ptr();
  p->k = has_k ? k.data_ptr() : nullptr;
  p->tokens = tokens;
  p->hq = static_cast<int>(q.size(-2));
  p->hk = has_k ? static_cast<int>(k.size(-2)) : 0;
  p->head_dim = static_cast<int>(q.size(-1));
  p->q_st = token_stride(q, "q");
  p->q_sh = q.stride(-2);
  if (has_k) {
    p->k_st = token_stride(k, "k");
    p->k_sh = k.stride(-2);
  }
  p->dtype = dtype_code(q);
  return tokens;
}

void check_rot(int64_t rot, const at::Tensor& q) {
  KL_CHECK(rot % 2 == 0 && rot > 0 && rot <= q.size(-1), "rope: rot_dim %lld must be even and at most head_dim %lld", kl::ll(rot), kl::ll(q.size(-1)));
}

}  // namespace

void rope_neox(at::Tensor& q, at::Tensor& k, const at::Tensor& positions,
               const at::Tensor& cos_sin_cache) {
  KlRopeNeoxParams p{};
  const int64_t tokens = neox_qk(q, k, &p);
  KL_CHECK(positions.device() == q.device(), "rope: positions must be on cuda:%lld", kl::ll(q.get_device()));
  KL_CHECK(positions.scalar_type() == at::ScalarType::Long ||
                  positions.scalar_type() == at::ScalarType::Int, "rope: positions must be int64 or int32");
  KL_CHECK(positions.numel() == tokens, "rope: positions has %lld entries for %lld tokens", kl::ll(positions.numel()), kl::ll(tokens));
  KL_CHECK(cos_sin_cache.device() == q.device() && cos_sin_cache.dim() == 2, "rope: cos_sin_cache must be [max_pos, rot_dim] on cuda:%lld", kl::ll(q.get_device()));
  KL_CHECK(kl::last_dim_contiguous(cos_sin_cache), "rope: cos_sin_cache needs a contiguous last dimension");
  const int64_t rot = cos_sin_cache.size(1);
  check_rot(rot, q);
  KL_CHECK(cos_sin_cache.scalar_type() == at::ScalarType::Float ||
                  cos_sin_cache.scalar_type() == q.scalar_type(), "rope: cos_sin_cache must be float32 or %s", kl::dtype(q));
  if (tokens == 0) return;
  const at::Tensor pos = positions.is_contiguous() ? positions : positions.contiguous();

  p.positions = pos.data_ptr();
  p.positions_int32 = pos.scalar_type() == at::ScalarType::Int ? 1 : 0;
  p.cache = cos_sin_cache.data_ptr();
  p.cache_dtype = dtype_code(cos_sin_cache);
  p.cache_stride = cos_sin_cache.stride(0);
  p.rot_dim = static_cast<int>(rot);
  const c10::cuda::CUDAGuard guard(q.device());
  check_result(kl_rope_neox(&p, c10::cuda::getCurrentCUDAStream(q.get_device())));
}

void rope_neox_cos_sin(at::Tensor& q, at::Tensor& k, const at::Tensor& cos,
                       const at::Tensor& sin) {
  KlRopeNeoxParams p{};
  const int64_t tokens = neox_qk(q, k, &p);
  const int64_t lead = q.dim() - 2;  // token dimensions of q; the last is the sequence
  const int64_t seq = q.size(lead - 1);
  KL_CHECK(cos.device() == q.device() && sin.device() == q.device(), "rope: cos and sin must be on cuda:%lld", kl::ll(q.get_device()));
  KL_CHECK(cos.sizes() == sin.sizes() && cos.strides() == sin.strides() && cos.scalar_type() == sin.scalar_type(), "rope: cos and sin must have the same shape, strides and dtype");
  KL_CHECK(cos.scalar_type() == at::ScalarType::Float || cos.scalar_type() == q.scalar_type(), "rope: cos/sin must be float32 or %s", kl::dtype(q));
  KL_CHECK(cos.dim() >= 2 && cos.dim() <= lead + 1, "rope: cos must be [..., S, rot_dim] with at most the token dimensions of q, got %s", kl::shape(cos).s);
  KL_CHECK(kl::last_dim_contiguous(cos), "rope: cos/sin need a contiguous last dimension");
  check_rot(cos.size(-1), q);
  KL_CHECK(cos.size(-2) == seq, "rope: cos has %lld rows per sequence, q has %lld tokens", kl::ll(cos.size(-2)), kl::ll(seq));
  // Batch dimensions of cos, aligned right with q's: each 1 (shared) or q's size.
  const int64_t cb = cos.dim() - 2;
  bool shared = true;
  for (int64_t d = 0; d < cb; ++d) {
    const int64_t qd = lead - 1 - cb + d;
    KL_CHECK(cos.size(d) == 1 || cos.size(d) == q.size(qd), "rope: cos batch dimension %lld is %lld, q has %lld", kl::ll(d), kl::ll(cos.size(d)), kl::ll(q.size(qd)));
    if (cos.size(d) != 1) shared = false;
  }
  int64_t batch_stride = 0;
  if (!shared) {
    KL_CHECK(cb == lead - 1, "rope: cos must cover every batch dimension of q or none");
    for (int64_t d = 0; d < cb; ++d)
      KL_CHECK(cos.size(d) == q.size(d), "rope: cos batch dimensions must be 1 everywhere or equal q's");
    KL_CHECK(kl::collapse_dims(cos, 0, cb, &batch_stride), "rope: the batch dimensions of cos cannot be addressed with one stride");
  }
  if (tokens == 0) return;
  p.positions = nullptr;
  p.cos = cos.data_ptr();
  p.sin = sin.data_ptr();
  p.cache_dtype = dtype_code(cos);
  p.seq = seq;
  p.cs_token = cos.stride(-2);
  p.cs_batch = batch_stride;
  p.rot_dim = static_cast<int>(cos.size(-1));
  const c10::cuda::CUDAGuard guard(q.device());
  check_result(kl_rope_neox(&p, c10::cuda::getCurrentCUDAStream(q.get_device())));
}

void rope_interleaved(at::Tensor& out_q, at::Tensor& out_k, const at::Tensor& q,
                      const at::Tensor& k, const at::Tensor& cos, const at::Tensor& sin) {
  KlRopeInterleavedParams p = inter_params(out_q, out_k, q, k);
  check_aux(cos, q, q.size(-1), "cos");
  check_aux(sin, q, q.size(-1), "sin");
  KL_CHECK(cos.strides() == sin.strides() && cos.sizes() == sin.sizes(), "rope: cos and sin must have the same shape and strides");
  p.cos = static_cast<const float*>(cos.data_ptr());
  p.sin = static_cast<const float*>(sin.data_ptr());
  bs_strides(cos, &p.cs_so, &p.cs_si);
  p.mode = 0;
  if (p.rows == 0) return;
  const c10::cuda::CUDAGuard guard(q.device());
  check_result(kl_rope_interleaved(&p, c10::cuda::getCurrentCUDAStream(q.get_device())));
}

void rope_ltx_grid(at::Tensor& out_q, at::Tensor& out_k, const at::Tensor& q,
                   const at::Tensor& k, const at::Tensor& grid, const at::Tensor& freqs) {
  KlRopeInterleavedParams p = inter_params(out_q, out_k, q, k);
  KL_CHECK(grid.is_cuda() && grid.device() == q.device(), "rope: grid must be on cuda:%lld", kl::ll(q.get_device()));
  KL_CHECK(grid.scalar_type() == at::ScalarType::Float, "rope: grid must be float32");
  KL_CHECK(grid.dim() == q.dim() && grid.size(-1) == 3 && grid.size(-2) == q.size(-2), "rope: grid must be [B or 1, S, 3], got %s", kl::shape(grid).s);
  if (q.dim() == 3)
    KL_CHECK(grid.size(0) == q.size(0) || grid.size(0) == 1, "rope: grid batch must be 1 or %lld", kl::ll(q.size(0)));
  KL_CHECK(freqs.is_cuda() && freqs.device() == q.device() &&
                  freqs.scalar_type() == at::ScalarType::Float && freqs.dim() == 1 &&
                  freqs.is_contiguous(), "rope: freqs must be a contiguous float32 vector on cuda:%lld", kl::ll(q.get_device()));
  KL_CHECK(freqs.size(0) == q.size(-1) / 6, "rope: freqs must have D / 6 = %lld entries, got %lld", kl::ll(q.size(-1) / 6), kl::ll(freqs.size(0)));
  p.grid = static_cast<const float*>(grid.data_ptr());
  bs_strides(grid, &p.g_so, &p.g_si);
  p.g_sc = grid.stride(-1);
  p.freqs = static_cast<const float*>(freqs.data_ptr());
  p.nfreq = static_cast<int>(freqs.size(0));
  p.mode = 1;
  if (p.rows == 0) return;
  const c10::cuda::CUDAGuard guard(q.device());
  check_result(kl_rope_interleaved(&p, c10::cuda::getCurrentCUDAStream(q.get_device())));
}

void set_variant(int64_t variant) { kl_rope_set_variant(static_cast<int>(variant)); }

TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) {
  ops.def("rope_neox(Tensor! q, Tensor! k, Tensor positions, Tensor cos_sin_cache) -> ()");
  ops.impl("rope_neox", c10::kCUDA, &rope_neox);
  ops.def("rope_neox_cos_sin(Tensor! q, Tensor! k, Tensor cos, Tensor sin) -> ()");
  ops.impl("rope_neox_cos_sin", c10::kCUDA, &rope_neox_cos_sin);
  ops.def(
      "rope_interleaved(Tensor! out_q, Tensor! out_k, Tensor q, Tensor k, Tensor cos, "
      "Tensor sin) -> ()");
  ops.impl("rope_interleaved", c10::kCUDA, &rope_interleaved);
  ops.def(
      "rope_ltx_grid(Tensor! out_q, Tensor! out_k, Tensor q, Tensor k, Tensor grid, "
      "Tensor freqs) -> ()");
  ops.impl("rope_ltx_grid", c10::kCUDA, &rope_ltx_grid);
  // Benchmark-only launch-shape override (no tensor arguments: a catch-all kernel).
  ops.def("set_variant(int variant) -> ()", &set_variant);
}

REGISTER_EXTENSION(TORCH_EXTENSION_NAME)
