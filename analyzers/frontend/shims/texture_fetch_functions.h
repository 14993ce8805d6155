/* kernel-lsp shim: CUDA 13 removed texture_fetch_functions.h, which clang 19's CUDA wrapper
   headers still include. An empty header is enough to parse device code; textures keep working
   through the declarations CUDA 13 still ships. Never used to compile anything. */
#pragma once
