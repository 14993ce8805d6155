// Generated from kernels/common/row_layout.h by tools/sync_copies.py; edit that file, then run the script.
// Row layouts for kernels that work on rows of the last dimension.
//
// A tensor [..., D] whose last dimension is contiguous is viewed as rows of D
// elements. The leading dimensions are split into an outer and an inner group
// such that, in every tensor passed together, each group is addressable with a
// single stride; row r then starts at
//   (r / inner) * stride_outer + (r % inner) * stride_inner.
// That covers contiguous tensors, row-strided views (a slice of the last
// dimension) and views like q = qkv[..., :4096].view(T, 32, 128) without a copy.
//
// This file is copied into each kernel project's torch-ext folder (each
// project is built on its own); kernels/common/row_layout.h is the original.
#pragma once

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <initializer_list>
#include <vector>

namespace kl {

struct RowStrides {
  int64_t outer = 0;
  int64_t inner = 0;
};

struct RowLayout {
  int64_t rows = 0;
  int64_t inner = 1;
  std::vector<RowStrides> strides;  // one per tensor, in the order given
};

// Dims [a, b) of t collapse to one stride? Size-1 dims are ignored.
inline bool collapse_dims(const at::Tensor& t, int64_t a, int64_t b, int64_t* stride) {
  *stride = 0;
  bool first = true;
  int64_t expect = 0;
  for (int64_t d = b - 1; d >= a; --d) {
    if (t.size(d) == 1) continue;
    if (first) {
      *stride = t.stride(d);
      first = false;
    } else if (t.stride(d) != expect) {
      return false;
    }
    expect = t.stride(d) * t.size(d);
  }
  return true;
}

// All tensors must have the same leading sizes (checked by the caller) and a
// contiguous last dimension. Returns false when no split works for all.
inline bool row_layout(std::initializer_list<const at::Tensor*> ts, RowLayout* out) {
  const at::Tensor& t0 = **ts.begin();
  const int64_t nd = t0.dim() - 1;
  int64_t rows = 1;
  for (int64_t d = 0; d < nd; ++d) rows *= t0.size(d);
  for (int64_t k = 0; k <= nd; ++k) {
    std::vector<RowStrides> st;
    bool ok = true;
    for (const at::Tensor* t : ts) {
      RowStrides s;
      if (!collapse_dims(*t, 0, k, &s.outer) || !collapse_dims(*t, k, nd, &s.inner)) {
        ok = false;
        break;
      }
      st.push_back(s);
    }
    if (!ok) continue;
    int64_t inner = 1;
    for (int64_t d = k; d < nd; ++d) inner *= t0.size(d);
    out->rows = rows;
    out->inner = inner > 0 ? inner : 1;
    out->strides = std::move(st);
    return true;
  }
  return false;
}

inline bool last_dim_contiguous(const at::Tensor& t) {
  return t.dim() >= 1 && (t.size(-1) <= 1 || t.stride(-1) == 1);
}

}  // namespace kl
