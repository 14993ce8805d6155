#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/ATen.h>, for analysis only: it is never compiled
// into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when kernel-lsp
// finds them (see analyzers/frontend/torch_standin/README.md).
//
// What kernel files get from ATen.h: Tensor and its options, the factories, dispatch, the
// device guard, the narrow float types, exceptions and the glog-style LOG / CHECK macros, and
// at::Generator (PyTorch's ATen.h reaches it through ATen/Context.h).
#include <ATen/DeviceGuard.h>
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/Tensor.h>
#include <ATen/TensorIndexing.h>
#include <ATen/core/Generator.h>
#include <ATen/core/TensorAccessor.h>
#include <c10/core/Device.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>
#include <c10/core/TensorOptions.h>
#include <c10/util/Exception.h>
#include <c10/util/Half.h>
#include <c10/util/Logging.h>
#include <c10/util/irange.h>

#include <functional>
