#!/usr/bin/env bash
# Installs every build and test dependency from Debian 12 packages.
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
PKGS=(
  cmake ninja-build pkg-config python3 gcc g++
  spirv-headers spirv-tools glslang-dev glslang-tools
  llvm-15-tools clang-15 llvm-spirv-15 libclc-15
  libcmocka-dev libvulkan-dev mesa-vulkan-drivers pocl-opencl-icd ocl-icd-opencl-dev
  valgrind
  debhelper dpkg-dev lintian scdoc bash-completion groff-base man-db
  vulkan-validationlayers vulkan-tools xvfb xauth ffmpeg
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
