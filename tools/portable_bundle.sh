#!/usr/bin/env bash
# Packs kernel-lsp for a machine that has none of its Debian libraries (a GPU box with another
# distribution, such as a benchmark runner): the objects of build/ linked again against clang's
# and LLVM's static archives (only what kernel-lsp uses comes along), the remaining small shared
# libraries beside it, and the resources it looks up (KERNEL_LSP_RESOURCE_DIR). glibc is the
# target machine's own (it must be 2.36 or newer). Run after tools/build.sh.
#   tools/portable_bundle.sh [OUT.tar.xz]     (default: build/kernel-lsp-portable.tar.xz)
# On the other machine:  tar xJf kernel-lsp-portable.tar.xz && kernel-lsp-portable/kernel-lsp --help
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${KERNEL_LSP_BUILD_DIR:-$root/build}"
out="${1:-$build/kernel-lsp-portable.tar.xz}"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
bundle="$stage/kernel-lsp-portable"
mkdir -p "$bundle/lib"

# The link line CMake made, with the two big shared libraries replaced by static archives.
link="$(cd "$build" && ninja -t commands cli/kernel-lsp | tail -1)"
link="${link#: && }"
link="${link% && :}"
llvm_lib="$(llvm-config-19 --libdir)"
clang_archives="$(ls "$llvm_lib"/libclang[A-Z]*.a | tr '\n' ' ')"
llvm_archives="$(llvm-config-19 --link-static --libs | tr " " "\n" | grep -v Polly | tr "\n" " ")"
# LLVM's system libraries, by their runtime file where Debian ships no development link (-lzstd).
system_libs=""
for flag in $(llvm-config-19 --link-static --system-libs); do
  name="${flag#-l}"
  if [ "$flag" != "$name" ] && ! ls /usr/lib/x86_64-linux-gnu/lib"$name".so >/dev/null 2>&1 \
       && ! ls /usr/lib/x86_64-linux-gnu/lib"$name".a >/dev/null 2>&1; then
    flag="$(ls /usr/lib/x86_64-linux-gnu/lib"$name".so.* | head -1)"
  fi
  system_libs="$system_libs $flag"
done
static="-Wl,--start-group $clang_archives $llvm_archives -Wl,--end-group $system_libs"
link="${link//$llvm_lib\/libclang-cpp.so.19.1/}"
link="${link//$llvm_lib\/libLLVM.so.1/$static}"
link="${link//-o cli\/kernel-lsp/-o $bundle/kernel-lsp.bin}"
link="${link//-Wl,-rpath,$llvm_lib:/}"
(cd "$build" && eval "$link -L$llvm_lib -Wl,--gc-sections -static-libstdc++ -static-libgcc -Wl,-rpath,'\$ORIGIN/lib'")
strip "$bundle/kernel-lsp.bin"

# Every shared library it still needs but glibc's own.
ldd "$bundle/kernel-lsp.bin" | awk '$3 ~ /^\// {print $3}' | while read -r lib; do
  case "$(basename "$lib")" in libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*) ;; *) cp -L "$lib" "$bundle/lib/" ;; esac
done
cat > "$bundle/kernel-lsp" <<'SH'
#!/bin/sh
here="$(cd "$(dirname "$0")" && pwd)"
KERNEL_LSP_RESOURCE_DIR="${KERNEL_LSP_RESOURCE_DIR:-$here/share}" exec "$here/kernel-lsp.bin" "$@"
SH
chmod +x "$bundle/kernel-lsp"
# The resources, as `cmake --install` lays them out (cli/CMakeLists.txt lists them once).
cmake --install "$build" --prefix "$stage/installed" --component resources >/dev/null
mv "$stage/installed/share/kernel-lsp" "$bundle/share"
tar -C "$stage" -cf - kernel-lsp-portable | xz -T0 -6 > "$out"
echo "kernel-lsp: portable bundle $out ($(du -h "$out" | cut -f1))"
