#!/bin/sh
# opencl-trixie.sh - Debian 13 (trixie)'s OpenCL drivers that ingest SPIR-V, for the tests:
# rusticl (mesa-opencl-icd 25.0.7, on llvmpipe) and PoCL 6.0 (pocl-opencl-icd), with trixie's
# ICD loader (ocl-icd-libopencl1), fetched into the build tree by debian-tree.sh (beside this
# script) and run without installing anything.  On Debian 13 itself they are the system's own
# packages (.ci/install-deps.sh installs them there): nothing is fetched and the programs run
# as they are, with the system's ICD loader (see "On Debian 13" below).
#
#   opencl-trixie.sh fetch <dir>
#       debian-tree.sh fetch <dir> trixie <the packages below>: once, cached; never fails the
#       build (an unreachable mirror leaves the reason in <dir>/unavailable).  On Debian 13:
#       writes <dir>/system (the installed packages' versions), or <dir>/unavailable naming
#       the packages that are not installed.
#   opencl-trixie.sh run <dir> rusticl|pocl <program> [args...]
#       Run <program> (a dynamically linked ELF executable built on this machine) with the tree's
#       ICD loader and only that driver's ICD (OCL_ICD_VENDORS names one .icd file), or exit 77
#       with "SKIP: <reason>" when the tree is missing or (pocl) this is not root.
#       SPVBC_EXPECT_CL_PLATFORM and SPVBC_EXPECT_CL_DRIVER are exported (a substring of the
#       platform's name and of CL_DRIVER_VERSION) so that the program can check at run time
#       that it really talks to that driver and not to the host's.
#
# How each driver runs (both verified with clinfo and the tests):
# - rusticl: as root, in the chroot like PoCL (below), so that it reads nothing of the host's
#   /usr: it opens libclc's /usr/lib/clc/spirv64-mesa3d-.spv by absolute path (strace), which
#   must be the tree's libclc-19, not bookworm's libclc-15.  Not as root: the program runs under
#   the tree's own dynamic loader, `<root>/lib64/ld-linux-x86-64.so.2 --library-path <the tree's
#   libraries>` (no privilege needed: the program's libc and every library come from the tree),
#   and that one file comes from the host when it has one (the suite passes that way too, with
#   bookworm's libclc-15 installed).
# - pocl: PoCL runs /usr/bin/llvm-spirv-18 and the linker by absolute path (the tree's), so it
#   needs the tree as its root: a chroot, in a private mount namespace (unshare -m, so nothing
#   stays mounted when the command ends, even when it is killed), with /dev, /proc and /sys
#   bound in and a fresh /tmp.  That needs root (CI runs as root); otherwise SKIP with the
#   reason.
# In a chroot the host-built program must find its libraries inside the tree: it is run where
# it was built (the directories named in SPVBC_CHROOT_BINDS, colon-separated, and the
# program's own directory are bound at the same paths, so its arguments stay valid), its
# libraries resolve in the tree (the test programs link only libc, libm, libstdc++, libgcc_s and
# libOpenCL, all of which trixie has, newer and backward compatible), and any library it needs
# that the tree lacks (ldd on the host) is copied into <dir>/host-lib and put on
# LD_LIBRARY_PATH after the tree's own.  Static linking is no option: the ICD loader dlopen()s
# the drivers, which a static glibc program cannot do.
#
# SPDX-License-Identifier: Apache-2.0
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SUITE=trixie
# The chroot runner (tree_chroot_exec, tree_copy_host_libs) the patched Mesa's tests use too.
DEBIAN_TREE_LIB=1 . "$HERE/debian-tree.sh"
# dash: /bin/sh in the chroot (popen and PoCL's tools); clinfo: to look at the drivers by hand.
PACKAGES="mesa-opencl-icd pocl-opencl-icd ocl-icd-libopencl1 clinfo dash"
RUSTICL_VERSION=25.0.7
POCL_VERSION=6.0

usage() {
    echo "usage: $0 fetch <dir> | run <dir> rusticl|pocl <program> [args...]" >&2
    exit 2
}

# True on Debian 13, whose own packages are the drivers.
on_trixie() {
    [ "$( (. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}") )" = $SUITE ]
}

# Debian 13: records the installed packages in <dir>/system, or why not in <dir>/unavailable.
fetch_system() {
    mkdir -p "$1" || exit 1
    dir=$(cd "$1" && pwd)
    # A tree fetched before (a build tree first configured elsewhere) is not used here.
    [ -f "$dir/ready" ] && rm -rf "$dir/root" "$dir/ready"
    have="" missing=""
    for p in mesa-opencl-icd pocl-opencl-icd ocl-icd-libopencl1; do
        v=$(dpkg-query -W -f='${db:Status-Abbrev} ${Version}' "$p" 2>/dev/null)
        if [ "${v%% *}" = ii ]; then
            have="$have${have:+, }$p ${v##* }"
        else
            missing="$missing $p"
        fi
    done
    # Each file replaced in one step: two fixtures (test/opencl, layer/opencl) may run this
    # while the other's tests read it.
    if [ -n "$missing" ]; then
        echo "Debian 13's own OpenCL drivers are not installed:$missing (.ci/install-deps.sh installs them)" >"$dir/unavailable.tmp.$$"
        mv "$dir/unavailable.tmp.$$" "$dir/unavailable" && rm -f "$dir/system"
        cat "$dir/unavailable"
    else
        echo "Debian 13's own: $have" >"$dir/system.tmp.$$"
        mv "$dir/system.tmp.$$" "$dir/system" && rm -f "$dir/unavailable"
        cat "$dir/system"
    fi
}

# The upstream version of installed package $1 (25.0.7 of 25.0.7-2+deb13u1, 6.0 of 6.0-6).
upstream_version() {
    dpkg-query -W -f='${Version}' "$1" 2>/dev/null | sed -e 's/^[0-9]*://' -e 's/-[^-]*$//'
}

# Debian 13: run_system <dir> <driver> <program> [args...] on the system's driver (after
# fetch_system).
run_system() {
    dir=$1 driver=$2
    shift 2
    if [ ! -f "$dir/system" ]; then
        reason="not set up (the opencl.trixie.fetch test records the installed drivers)"
        [ -f "$dir/unavailable" ] && reason=$(cat "$dir/unavailable")
        skip "$reason"
    fi
    case $driver in
    rusticl) pkg=mesa-opencl-icd ;;
    pocl) pkg=pocl-opencl-icd ;;
    esac
    [ -f "/etc/OpenCL/vendors/$icd" ] || skip "/etc/OpenCL/vendors/$icd not found (Debian package $pkg)"
    SPVBC_EXPECT_CL_DRIVER=$(upstream_version $pkg)
    OCL_ICD_VENDORS=/etc/OpenCL/vendors/$icd
    export SPVBC_EXPECT_CL_DRIVER OCL_ICD_VENDORS
    prog=$1
    shift
    exec "$prog" "$@"
}

skip() {
    echo "SKIP: $*"
    exit 77
}

run() {
    dir=$(cd "$1" 2>/dev/null && pwd) || skip "the OpenCL tree $1 does not exist (the opencl.trixie.fetch test makes it)"
    driver=$2
    shift 2
    [ $# -ge 1 ] || usage
    if ! on_trixie; then
        sh "$HERE/debian-tree.sh" check "$dir" >/dev/null || skip "trixie's OpenCL drivers are not available: $(sh "$HERE/debian-tree.sh" check "$dir" | sed 's/^SKIP: //')"
    fi
    root=$dir/root
    case $driver in
    rusticl)
        icd=rusticl.icd
        SPVBC_EXPECT_CL_PLATFORM=rusticl
        SPVBC_EXPECT_CL_DRIVER=$RUSTICL_VERSION
        # fp16 and fp64 are implemented on llvmpipe but not advertised by default (not yet
        # conformant there): on, every pair of the suite runs.
        RUSTICL_ENABLE=llvmpipe
        RUSTICL_FEATURES=${RUSTICL_FEATURES:-fp16,fp64}
        export RUSTICL_ENABLE RUSTICL_FEATURES
        ;;
    pocl)
        icd=pocl.icd
        SPVBC_EXPECT_CL_PLATFORM="Portable Computing Language"
        SPVBC_EXPECT_CL_DRIVER=$POCL_VERSION
        # (The tree's PoCL runs in a chroot of it; the system's, on Debian 13, does not.)
        on_trixie || [ "$(id -u)" = 0 ] || skip "PoCL $POCL_VERSION runs in a chroot of the trixie tree, which needs root (this is uid $(id -u))"
        ;;
    *) usage ;;
    esac
    # No disk caches: every build in a test is a real one, whatever ran before.
    MESA_SHADER_CACHE_DISABLE=true
    POCL_KERNEL_CACHE=0
    export SPVBC_EXPECT_CL_PLATFORM SPVBC_EXPECT_CL_DRIVER MESA_SHADER_CACHE_DISABLE POCL_KERNEL_CACHE
    on_trixie && run_system "$dir" "$driver" "$@"
    [ -f "$root/etc/OpenCL/vendors/$icd" ] || skip "the tree has no /etc/OpenCL/vendors/$icd"
    # A program of the tree itself (clinfo) is named by its name.
    prog=$1
    intree=""
    case $prog in
    /*) ;;
    *)
        if [ -x "$root/usr/bin/$prog" ]; then
            intree=/usr/bin/$prog
        else
            prog=$(command -v "$prog") || skip "no program $1"
        fi
        ;;
    esac
    shift
    OCL_ICD_VENDORS=/etc/OpenCL/vendors/$icd
    libs=/usr/lib/x86_64-linux-gnu:/usr/lib
    if [ "$(id -u)" != 0 ]; then
        # rusticl without root: the tree's dynamic loader.
        OCL_ICD_VENDORS=$root$OCL_ICD_VENDORS
        export OCL_ICD_VENDORS
        [ -n "$intree" ] && prog=$root$intree
        exec "$root/lib64/ld-linux-x86-64.so.2" --library-path "$root/usr/lib/x86_64-linux-gnu:$root/usr/lib" "$prog" "$@"
    fi
    command -v unshare >/dev/null || skip "unshare (util-linux) not found"
    # Root without CAP_SYS_ADMIN (an unprivileged container) cannot mount: say so.
    mkdir -p "$root/tmp"
    if ! err=$(unshare --mount --propagation private mount -t tmpfs tmpfs "$root/tmp" 2>&1); then
        skip "$driver runs in a chroot of the trixie tree with /dev, /proc and /sys bound in, and this root cannot make a private mount namespace (unshare --mount: $err)"
    fi
    if [ -n "$intree" ]; then
        prog=$intree
        binds=${SPVBC_CHROOT_BINDS:-}
    else
        tree_copy_host_libs "$root" "$dir/host-lib" "$prog"
        [ -n "$(ls -A "$dir/host-lib")" ] && libs=$libs:$dir/host-lib
        binds="$(dirname "$prog"):${SPVBC_CHROOT_BINDS:-}:$dir/host-lib"
    fi
    export OCL_ICD_VENDORS
    tree_chroot_exec "$root" "$binds" "$libs" "$prog" "$@"
}

[ $# -ge 2 ] || usage
cmd=$1
shift
case $cmd in
fetch)
    if on_trixie; then
        fetch_system "$1"
        exit 0
    fi
    # shellcheck disable=SC2086 # the package names are words
    exec sh "$HERE/debian-tree.sh" fetch "$1" "$SUITE" $PACKAGES
    ;;
run)
    [ $# -ge 3 ] || usage
    run "$@"
    ;;
*) usage ;;
esac
