#!/usr/bin/env bash
# Installs the Debian 12 packages kernel-lsp needs to build and test, skipping those already
# present. Run as root (or with sudo). Idempotent; prints what it installs.
set -euo pipefail

packages=(
  build-essential cmake ninja-build git pkg-config python3
  clang-19 libclang-cpp19-dev libclang-19-dev llvm-19-dev libclang-rt-19-dev clangd-19
  clang-format-19 clang-tidy-19
  nlohmann-json3-dev libboost-dev libboost-filesystem-dev libtomlplusplus-dev libspdlog-dev
  libcli11-dev libyaml-cpp-dev libcmark-dev catch2
  neovim
  # PyTorch 1.13's C++ headers (and the pybind11 that <torch/extension.h> includes): the torch
  # stand-in test compares its findings with theirs (tests/unit/torch_standin_test.cpp).
  libtorch-dev pybind11-dev
  # `kernel-lsp bench` draws its report's plot (runner/scripts/plot_bench.py) with Debian's
  # Python and matplotlib; without them the report says the plot was skipped.
  python3-matplotlib
  # PyTorch 1.13 for Python (CPU): the `kernels` benchmark convention's driver
  # (runner/scripts/run_kernels_benchmarks.py) is tested with real tensors on the CPU.
  python3-torch
  # pytest for the same Python: `kernel-lsp test`'s record of the shapes the tests give a project's
  # operators is tested on a CPU operator (tests/cli/test_command_test.py).
  python3-pytest
  # tests/integrations: the YAML of the pre-commit hook and the GitHub Action, and the real
  # pre-commit running the hook.
  python3-yaml pre-commit
  # tests/vscode/e2e: the extension in a real VS Code (code-server from npm) driven in Chromium;
  # code-server's native modules compile against these headers when npm installs it.
  chromium libkrb5-dev libxkbfile-dev libsecret-1-dev libx11-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# Node.js and npm drive the end-to-end LSP client test and the VS Code extension build; any
# Node >= 18 will do, so Debian's is installed only when none is on PATH.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  missing+=(nodejs npm)
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "kernel-lsp: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "kernel-lsp: all Debian packages present"
fi

# The CUDA toolkit is not a Debian 12 main package: kernel-lsp finds one through --cuda-path,
# CUDA_PATH, CUDA_HOME, nvcc on PATH or /usr/local/cuda, and works (with fewer findings)
# without one. Say which it will use.
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "kernel-lsp: CUDA toolkit: $( (command -v nvcc || echo /usr/local/cuda/bin/nvcc) | head -1)"
else
  echo "kernel-lsp: no CUDA toolkit found; nvcc-based tests will be skipped (install CUDA 13 to run them)"
fi
