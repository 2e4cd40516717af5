#!/usr/bin/env bash
# Installs every build and test dependency from the packages of Debian 12 (bookworm) or Debian 13
# (trixie): the LLVM-based tools at the release's own version (.ci/llvm-version.sh: 15 or 19).
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
LLVM=$(sh "$(dirname "$0")/llvm-version.sh")
PKGS=(
  cmake ninja-build pkg-config python3 gcc g++
  spirv-headers spirv-tools glslang-dev glslang-tools
  "llvm-$LLVM-tools" "clang-$LLVM" "llvm-spirv-$LLVM" "libclc-$LLVM"
  libcmocka-dev libvulkan-dev mesa-vulkan-drivers pocl-opencl-icd ocl-icd-opencl-dev
  valgrind
  build-essential debhelper dpkg-dev lintian scdoc bash-completion groff-base man-db
  vulkan-validationlayers vulkan-tools xvfb xauth ffmpeg
  # Cross builds (test/cross, ctest -L cross): s390x and armhf under qemu-user, Windows under
  # Wine; the Meson build (test/meson); the Debian 13 root (.ci/trixie-root.sh).
  gcc-s390x-linux-gnu g++-s390x-linux-gnu gcc-arm-linux-gnueabihf g++-arm-linux-gnueabihf
  gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 qemu-user wine64 meson debootstrap
)
# Debian 13: its own rusticl (Mesa 25) beside PoCL 6 for the OpenCL driver tests
# (cmake/opencl-trixie.sh; on Debian 12 they run on trixie's, fetched into the build tree).
# And Vulkan-Utility-Libraries, through which the Vulkan layer reads its settings the Khronos way
# (cmake/vulkan-utility-libraries.cmake; Debian 12 has none, and its binary package from Debian
# 13 needs a newer glibc: there the build fetches its source when the mirror has it).
if [ "$( (. /etc/os-release && echo "${VERSION_CODENAME:-}") )" = trixie ]; then
  PKGS+=(mesa-opencl-icd vulkan-utility-libraries-dev)
fi
# npm for the SARIF Multitool (test/sarif), unless a node.js with its own npm is installed.
command -v npm >/dev/null || PKGS+=(npm)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
