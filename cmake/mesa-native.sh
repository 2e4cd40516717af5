#!/bin/sh
# mesa-native.sh - Mesa with spirv-bitcast inside its SPIR-V front end (external/mesa/), for
# the tests of label mesa-native: Debian 13's source package of Mesa, patched, built with only
# what the tests need (llvmpipe, lavapipe, rusticl, Mesa's own SPIR-V and NIR tests) in a Debian
# 13 root that holds Debian's build dependencies of Mesa, and, beside it in the same root,
# Debian's own binary build of the same version (mesa-vulkan-drivers, mesa-opencl-icd): the
# control.  Nothing is installed on the machine itself.
#
#   mesa-native.sh build <dir> <source tree>
#       Make <dir>/root (debootstrap --variant=minbase trixie from the machine's own Debian
#       mirror, `apt-get build-dep mesa` and the control packages in it; kept), fetch Debian's
#       source of Mesa into it with `apt-get source` (kept), apply <source tree>/external/
#       mesa/*.patch in the order of its series file with the library's Meson build as
#       subprojects/spirv-bitcast, and build it there.  Cached: when <dir>/ready names the same
#       patches, library sources and configuration, a second run costs nothing.  Exits 0 when it
#       could not (not root, no debootstrap, mirror unreachable): the reason goes to
#       <dir>/unavailable, and the tests report SKIPPED with it.  A build that fails exits 1.
#   mesa-native.sh run <dir> patched|debian vulkan|opencl <program> [args...]
#       Run <program> (built on this machine) in a chroot of the root, on the patched lavapipe or
#       rusticl, or on Debian's (the control), with VK_DRIVER_FILES / OCL_ICD_VENDORS naming only
#       that driver; exit 77 with "SKIP: <reason>" when the build is not there.
#   mesa-native.sh mesa-test <dir> <suite...>
#       Run Mesa's own `meson test` suites (spirv_tests, nir_tests) of the patched build.
#   mesa-native.sh nir <dir> [--time <rounds>]
#       Translate the modules test/mesa/same_nir.py put in the root with the patched spirv2nir
#       and with the control's (Mesa's spirv2nir built from the unpatched source); with --time,
#       time both over them instead (bench/mesa.sh).
#
# SPDX-License-Identifier: Apache-2.0
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SUITE=trixie
# The private apt helpers, the machine's mirror (sources_line) and the chroot runner.
DEBIAN_TREE_LIB=1 . "$HERE/debian-tree.sh"
# Besides Mesa's build dependencies: the control (Debian's own build of the same Mesa), the
# loaders the test programs link, and the SPIRV-Headers the library's Meson build needs.
PACKAGES="mesa-vulkan-drivers mesa-opencl-icd libvulkan1 ocl-icd-libopencl1 spirv-headers
dpkg-dev dash"
# Debian 13 binaries that carry SPIR-V modules, for the same-NIR test (test/mesa/same_nir.py).
PACKAGES="$PACKAGES vulkan-tools vulkan-validationlayers"
# Only what the tests need.
MESON_OPTIONS="--wrap-mode=nodownload --buildtype=release -Db_ndebug=true -Dplatforms=
-Dgallium-drivers=llvmpipe -Dvulkan-drivers=swrast -Dgallium-rusticl=true -Dllvm=enabled
-Dshared-llvm=enabled -Dopengl=false -Dglx=disabled -Degl=disabled -Dgles1=disabled
-Dgles2=disabled -Dgbm=disabled -Dgallium-va=disabled -Dgallium-vdpau=disabled
-Dgallium-xa=disabled -Dgallium-opencl=disabled -Dvideo-codecs= -Dbuild-tests=true
-Dvalgrind=disabled -Dlibunwind=disabled -Dtools= -Dspirv-bitcast=enabled"
TARGETS="src/gallium/targets/lavapipe/libvulkan_lvp.so
src/gallium/targets/rusticl/libRusticlOpenCL.so.1.0.0 src/compiler/spirv/spirv_tests
src/compiler/nir/nir_tests src/compiler/spirv/spirv2nir"
# The control of the same-NIR test: Mesa's spirv2nir from the unpatched source, configured the
# same way (the series' option aside).
CONTROL_OPTIONS=$(echo "$MESON_OPTIONS" | sed 's/ *-Dspirv-bitcast=enabled//')
CONTROL_TARGETS="src/compiler/spirv/spirv2nir"
# The library's files its Meson build reads, and those of them the build's cache key hashes:
# debian-tree.sh is read only under the option fetch_spirv_headers, which Mesa's build does not
# set, so a change to the fetch engine does not rebuild Mesa.
LIBRARY_FILES="meson.build meson_options.txt LICENSE include source/sources.txt source/*.c
source/*.h cmake/spirv-headers-version.sh cmake/debian-tree.sh"
KEY_FILES="meson.build meson_options.txt LICENSE include/*.h source/sources.txt source/*.c
source/*.h cmake/spirv-headers-version.sh"

usage() {
    echo "usage: $0 build <dir> <source tree> | run <dir> patched|debian vulkan|opencl <program> [args...] | mesa-test <dir> <suite...> | nir <dir> [--time <rounds>]" >&2
    exit 2
}

step() {
    echo "mesa-native: $1 ($(($(date +%s) - t0)) s)"
    t0=$(date +%s)
}

# in_root <command>: runs it in the root (as root, /proc and /dev bound in a private mount
# namespace), with a clean environment.
in_root() {
    unshare --mount --propagation private sh -c '
        root=$1
        shift
        mount -t proc proc "$root/proc" && mount --rbind /dev "$root/dev" || exit 1
        exec chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
            LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive sh -c "$1"
    ' sh "$root" "$1"
}

# make_root: the Debian 13 root with Mesa's build dependencies and the control (kept once made).
make_root() {
    if [ -f "$root/.spvbc-ready" ]; then
        # A root made before a package joined the list gets it.
        # shellcheck disable=SC2086 # the package names are words
        in_root "dpkg-query -W $(echo $PACKAGES)" >/dev/null 2>&1 && return 0
        # shellcheck disable=SC2086
        in_root "apt-get -q update && apt-get -q -y --no-install-recommends install $(echo $PACKAGES)" \
            >"$dir/apt.log" 2>&1 ||
            give_up "apt-get install in the $SUITE root failed: $(apt_error "$dir/apt.log")"
        return 0
    fi
    command -v debootstrap >/dev/null || give_up "debootstrap not found (Debian package debootstrap)"
    command -v unshare >/dev/null || give_up "unshare not found (Debian package util-linux)"
    line=$(sources_line $SUITE 2>&1) || give_up "$line"
    mirror=$(echo "$line" | awk '{ print ($2 ~ /^\[/) ? $3 : $2 }')
    rm -rf "$root"
    mkdir -p "$root"
    if ! debootstrap --variant=minbase $SUITE "$root" "$mirror" >"$dir/debootstrap.log" 2>&1; then
        reason=$(grep -E '^(E|W):' "$dir/debootstrap.log" | tail -n 2 | tr '\n' ' ')
        rm -rf "$root"
        give_up "debootstrap $SUITE from $mirror failed: ${reason:-see $dir/debootstrap.log}"
    fi
    # The release with its updates and security suites, binaries and sources, as on an
    # installed machine (Debian 13's Mesa is a stable update).
    security=$(dirname "$mirror")/debian-security
    for t in deb deb-src; do
        printf '%s %s %s main\n%s %s %s-updates main\n%s %s %s-security main\n' \
            $t "$mirror" $SUITE $t "$mirror" $SUITE $t "$security" $SUITE
    done >"$root/etc/apt/sources.list"
    cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
    # shellcheck disable=SC2086 # the package names are words
    if ! in_root "apt-get -q update && apt-get -q -y --no-install-recommends build-dep mesa &&
            apt-get -q -y --no-install-recommends install $(echo $PACKAGES)" \
        >"$dir/apt.log" 2>&1; then
        rm -rf "$root"
        give_up "apt-get build-dep mesa in the $SUITE root failed: $(apt_error "$dir/apt.log")"
    fi
    touch "$root/.spvbc-ready"
    step "root: debootstrap $SUITE, apt-get build-dep mesa ($(du -sm "$root" | cut -f1) MiB)"
}

# get_source: Debian's source of Mesa in the root's /mesa/src (kept once unpacked).
get_source() {
    if [ ! -f "$root/mesa/src/.spvbc-ready" ]; then
        rm -rf "$root/mesa/src"
        mkdir -p "$root/mesa/src"
        if ! in_root "cd /mesa/src && apt-get -q source mesa" >"$dir/source.log" 2>&1; then
            give_up "apt-get source mesa in the $SUITE root failed: $(apt_error "$dir/source.log")"
        fi
        touch "$root/mesa/src/.spvbc-ready"
        step "source: $(cd "$root/mesa/src" && ls -d mesa-*/)"
    fi
    src_dir=$(cd "$root/mesa/src" && ls -d mesa-*/ | head -n 1)
    src_dir=${src_dir%/}
    [ -n "$src_dir" ] || give_up "apt-get source mesa unpacked nothing"
}

# The patches in their order (external/mesa/series).
patches() {
    sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1/external/mesa/series"
}

build() {
    [ $# -eq 2 ] || usage
    dir=$(abs_dir "$1") || exit 1
    tree=$(cd "$2" && pwd) || exit 1
    root=$dir/root
    t0=$(date +%s)
    start=$t0
    if command -v flock >/dev/null; then
        exec 9>"$dir/.lock"
        flock 9
    fi
    # What the build is made of: when <dir>/ready names the same, it is there already.
    want=$(cd "$tree" && {
        patches "$tree" | while read -r p; do cat "external/mesa/$p"; done
        # shellcheck disable=SC2086 # the globs are meant
        cat $KEY_FILES 2>/dev/null
        echo "$MESON_OPTIONS $TARGETS $PACKAGES $CONTROL_TARGETS"
    } | sha256sum | cut -c1-16)
    if is_ready "$dir" "$want"; then
        echo "mesa-native: cached in $dir ($(sed -n 2p "$dir/ready"))"
        return 0
    fi
    rm -f "$dir/ready" "$dir/unavailable"
    _fetch_name=mesa-native
    [ "$(id -u)" = 0 ] || give_up "needs root (debootstrap, chroot); this is uid $(id -u)"
    make_root
    get_source
    # A fresh copy of the source, patched; the library as its Meson subproject.
    rm -rf "$root/mesa/patched" "$root/mesa/build"
    cp -a "$root/mesa/src/$src_dir" "$root/mesa/patched" || exit 1
    for p in $(patches "$tree"); do
        if ! patch -d "$root/mesa/patched" -p1 --forward --batch <"$tree/external/mesa/$p" \
            >"$dir/patch.log" 2>&1; then
            cat "$dir/patch.log"
            echo "mesa-native: FAIL: $p does not apply to $src_dir"
            exit 1
        fi
    done
    sub=$root/mesa/patched/subprojects/spirv-bitcast
    mkdir -p "$sub"
    # shellcheck disable=SC2086 # the globs are meant
    (cd "$tree" && tar -cf - $LIBRARY_FILES) | tar -xf - -C "$sub" || exit 1
    step "patched $src_dir with $(patches "$tree" | wc -l) patches"
    # shellcheck disable=SC2086 # the options are words
    if ! in_root "meson setup /mesa/build /mesa/patched $(echo $MESON_OPTIONS) &&
            ninja -C /mesa/build $(echo $TARGETS)" >"$dir/build.log" 2>&1; then
        tail -n 40 "$dir/build.log"
        echo "mesa-native: FAIL: the patched $src_dir does not build (log: $dir/build.log)"
        exit 1
    fi
    grep -E 'spirv-bitcast: SPIRV-Headers|Dependency spirv-bitcast found' "$dir/build.log"
    step "meson setup and ninja ($(grep -c '^\[' "$dir/build.log") steps)"
    # shellcheck disable=SC2086 # the options are words
    if ! in_root "rm -rf /mesa/control && meson setup /mesa/control /mesa/src/$src_dir \
            $(echo $CONTROL_OPTIONS) && ninja -C /mesa/control $CONTROL_TARGETS" \
        >"$dir/control.log" 2>&1; then
        tail -n 40 "$dir/control.log"
        echo "mesa-native: FAIL: the unpatched $src_dir does not build (log: $dir/control.log)"
        exit 1
    fi
    step "the control's spirv2nir, unpatched ($(grep -c '^\[' "$dir/control.log") steps)"
    write_manifests
    version=$(in_root "dpkg-query -W -f='\${Version}' mesa-vulkan-drivers")
    printf '%s\n%s patched, Debian %s beside it, built in %s s\n' "$want" "$src_dir" \
        "$version" "$(($(date +%s) - start))" >"$dir/ready"
    echo "mesa-native: $(sed -n 2p "$dir/ready")"
}

skip() {
    echo "SKIP: $*"
    exit 77
}

# The manifests (Vulkan) and ICD files (OpenCL) of the patched build, in the root (made by the
# build, so that tests running at once only read them).
write_manifests() {
    lvp=/mesa/build/src/gallium/targets/lavapipe/libvulkan_lvp.so
    mkdir -p "$root/mesa/icd"
    printf '{ "file_format_version": "1.0.1", "ICD": { "library_path": "%s", "api_version": "1.3.0" } }\n' \
        "$lvp" >"$root/mesa/icd/lvp_patched.json"
    echo /mesa/build/src/gallium/targets/rusticl/libRusticlOpenCL.so.1.0.0 \
        >"$root/mesa/icd/rusticl_patched.icd"
}

run() {
    [ $# -ge 4 ] || usage
    dir=$(cd "$1" 2>/dev/null && pwd) || skip "$1 does not exist (the mesa-native.build test makes it)"
    which=$2 api=$3
    shift 3
    root=$dir/root
    if [ ! -f "$dir/ready" ]; then
        reason="not built (the mesa-native.build test builds it)"
        [ -f "$dir/unavailable" ] && reason=$(cat "$dir/unavailable")
        skip "the patched Mesa is not available: $reason"
    fi
    [ "$(id -u)" = 0 ] || skip "runs in a chroot of the Debian 13 root, which needs root"
    version=$(sed -n 's/^mesa-\([0-9.]*\) .*/\1/p' "$dir/ready")
    case $which/$api in
    patched/vulkan) VK_DRIVER_FILES=/mesa/icd/lvp_patched.json ;;
    debian/vulkan)
        # Debian 13 names it lvp_icd.json; other releases add the architecture.
        VK_DRIVER_FILES=$(cd "$root" && ls usr/share/vulkan/icd.d/lvp_icd*.json 2>/dev/null | head -n 1)
        [ -n "$VK_DRIVER_FILES" ] || skip "Debian's lavapipe is not in the root"
        VK_DRIVER_FILES=/$VK_DRIVER_FILES
        ;;
    patched/opencl) OCL_ICD_VENDORS=/mesa/icd/rusticl_patched.icd ;;
    debian/opencl) OCL_ICD_VENDORS=/etc/OpenCL/vendors/rusticl.icd ;;
    *) usage ;;
    esac
    # The test programs check at run time that they talk to this driver.
    VK_ICD_FILENAMES=${VK_DRIVER_FILES:-}
    SPVBC_EXPECT_DRIVER_INFO="Mesa $version"
    SPVBC_EXPECT_CL_PLATFORM=rusticl
    SPVBC_EXPECT_CL_DRIVER=$version
    # rusticl on llvmpipe, with fp16 and fp64 (implemented, not advertised by default); no disk
    # caches, so that every build is a real one.
    RUSTICL_ENABLE=llvmpipe
    RUSTICL_FEATURES=${RUSTICL_FEATURES:-fp16,fp64}
    MESA_SHADER_CACHE_DISABLE=true
    export VK_DRIVER_FILES VK_ICD_FILENAMES OCL_ICD_VENDORS SPVBC_EXPECT_DRIVER_INFO \
        SPVBC_EXPECT_CL_PLATFORM SPVBC_EXPECT_CL_DRIVER RUSTICL_ENABLE RUSTICL_FEATURES \
        MESA_SHADER_CACHE_DISABLE
    prog=$1
    shift
    case $prog in
    /*) ;;
    */*) prog=$(cd "$(dirname "$prog")" && pwd)/$(basename "$prog") || skip "no program $prog" ;;
    *) prog=$(command -v "$prog") || skip "no program $prog" ;;
    esac
    libs=/usr/lib/x86_64-linux-gnu:/usr/lib
    tree_copy_host_libs "$root" "$dir/host-lib" "$prog"
    [ -n "$(ls -A "$dir/host-lib")" ] && libs=$libs:$dir/host-lib
    tree_chroot_exec "$root" "$(dirname "$prog"):${SPVBC_CHROOT_BINDS:-}:$dir/host-lib" "$libs" \
        "$prog" "$@"
}

mesa_test() {
    [ $# -ge 2 ] || usage
    dir=$(cd "$1" 2>/dev/null && pwd) || skip "$1 does not exist (the mesa-native.build test makes it)"
    shift
    root=$dir/root
    [ -f "$dir/ready" ] || skip "the patched Mesa is not available: $(cat "$dir/unavailable" 2>/dev/null || echo "not built")"
    [ "$(id -u)" = 0 ] || skip "runs in a chroot of the Debian 13 root, which needs root"
    in_root "cd /mesa/build && meson test --no-rebuild --print-errorlogs $*"
}

# nir <dir>: translates each module of <dir>/root/mesa/nir/list (lines of file, stage and entry
# point, tab-separated; the files in /mesa/nir/in, test/mesa/same_nir.py puts them there) with
# the patched spirv2nir and with the control's, and prints a line per entry point: same-nir,
# same-failure (both refuse it, the same words) or differ (both outputs kept in /mesa/nir/diff).
nir() {
    [ $# -eq 1 ] || [ $# -eq 3 ] && [ "${2:---time}" = --time ] || usage
    rounds=${3:-0}
    dir=$(cd "$1" 2>/dev/null && pwd) || skip "$1 does not exist (the mesa-native.build test makes it)"
    root=$dir/root
    [ -f "$dir/ready" ] || skip "the patched Mesa is not available: $(cat "$dir/unavailable" 2>/dev/null || echo "not built")"
    [ "$(id -u)" = 0 ] || skip "runs in a chroot of the Debian 13 root, which needs root"
    [ -f "$root/mesa/nir/list" ] || usage
    cat >"$root/mesa/nir/run.sh" <<'EOF'
cd /mesa/nir || exit 1
rm -rf diff out
mkdir -p diff out
tab=$(printf '\t')
while IFS=$tab read -r file stage entry; do
    for which in control build; do
        /mesa/$which/src/compiler/spirv/spirv2nir -s "$stage" -e "$entry" "in/$file" \
            >"out/$which" 2>&1
        echo "exit status $?" >>"out/$which"
    done
    if ! cmp -s out/control out/build; then
        verdict=differ
        cp out/control "diff/$file.$stage.control"
        cp out/build "diff/$file.$stage.patched"
    elif grep -q '^exit status 0$' out/build &&
        ! grep -q 'SPIRV to NIR compilation failed' out/build; then
        verdict=same-nir
    else
        verdict=same-failure
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$verdict" "$file" "$stage" "$entry" "$(wc -c <out/build)"
done <list
EOF
    cat >"$root/mesa/nir/time.sh" <<'EOF'
# time.sh <rounds>: each round, every entry point of the list ten times through each spirv2nir,
# the two alternating; prints "round <n> control|patched <ms>".
cd /mesa/nir || exit 1
tab=$(printf '\t')
r=1
while [ "$r" -le "$1" ]; do
    for which in control build; do
        start=$(date +%s%N)
        for i in 1 2 3 4 5 6 7 8 9 10; do
            while IFS=$tab read -r file stage entry; do
                /mesa/$which/src/compiler/spirv/spirv2nir -s "$stage" -e "$entry" "in/$file" \
                    >/dev/null 2>&1
            done <list
        done
        echo "round $r $(echo $which | sed s/build/patched/) $((($(date +%s%N) - start) / 1000000)) ms"
    done
    r=$((r + 1))
done
EOF
    if [ "$rounds" -gt 0 ]; then
        in_root "sh /mesa/nir/time.sh $rounds"
    else
        in_root "sh /mesa/nir/run.sh"
    fi
}

[ $# -ge 2 ] || usage
cmd=$1
shift
case $cmd in
build) build "$@" ;;
run) run "$@" ;;
mesa-test) mesa_test "$@" ;;
nir) nir "$@" ;;
*) usage ;;
esac
