#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/csrc/inductor/aoti_torch/c/shim.h>, for analysis
// only: it is never compiled into anything. It follows PyTorch's stable ABI (2.9 and later);
// real PyTorch headers win when kernel-lsp finds them (see
// analyzers/frontend/torch_standin/README.md).
//
// The C shim under the stable ABI: opaque handles, the error code every call returns, and the
// calls kernel files make themselves (declared only). As in PyTorch, the CUDA stream accessor
// is there only with USE_CUDA, which is why kernel files often declare it themselves.
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct AtenTensorOpaque;
typedef struct AtenTensorOpaque* AtenTensorHandle;
struct StreamOpaque;
typedef struct StreamOpaque* StreamHandle;

typedef int32_t AOTITorchError;
#define AOTI_TORCH_SUCCESS 0
#define AOTI_TORCH_FAILURE 1

AOTITorchError aoti_torch_delete_tensor_object(AtenTensorHandle tensor);
AOTITorchError aoti_torch_get_data_ptr(AtenTensorHandle tensor, void** ret_data_ptr);
AOTITorchError aoti_torch_get_dim(AtenTensorHandle tensor, int64_t* ret_dim);
AOTITorchError aoti_torch_get_numel(AtenTensorHandle tensor, int64_t* ret_numel);
AOTITorchError aoti_torch_get_sizes(AtenTensorHandle tensor, int64_t** ret_sizes);
AOTITorchError aoti_torch_get_size(AtenTensorHandle tensor, int64_t d, int64_t* ret_size);
AOTITorchError aoti_torch_get_strides(AtenTensorHandle tensor, int64_t** ret_strides);
AOTITorchError aoti_torch_get_stride(AtenTensorHandle tensor, int64_t d, int64_t* ret_stride);
AOTITorchError aoti_torch_get_dtype(AtenTensorHandle tensor, int32_t* ret_dtype);
AOTITorchError aoti_torch_get_device_type(AtenTensorHandle tensor, int32_t* ret_device_type);
AOTITorchError aoti_torch_get_device_index(AtenTensorHandle tensor, int32_t* ret_device_index);
AOTITorchError aoti_torch_get_storage_offset(AtenTensorHandle tensor, int64_t* ret_storage_offset);
AOTITorchError aoti_torch_is_contiguous(AtenTensorHandle tensor, bool* ret_is_contiguous);

#ifdef USE_CUDA
AOTITorchError aoti_torch_get_current_cuda_stream(int32_t device_index, void** ret_stream);
#endif

#ifdef __cplusplus
}  // extern "C"
#endif
