#!/usr/bin/env bash
# package_test.sh - the Debian packages, built and installed for real (ctest package.debian).
#
#   package_test.sh --source DIR --work DIR --version V --python PY --spirv-as PATH
#                   --spirv-val PATH [--layer-test BIN --layer-test-dir DIR]
#                   [--cl-layer-test BIN --cl-layer-icd LIB --cl-layer-examples DIR] [ENV=VALUE...]
#
# 1. copies the tracked (and untracked, not ignored) files of DIR (git ls-files; without git:
#    the tree minus build directories) to WORK/src and runs
#    DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -b -us -uc -j2 there;
# 2. lintian on the result: no error, and every warning explained in debian/README.source;
# 3. installs the five packages with dpkg -i and checks what is installed: the CLI (--version,
#    validate and lower of examples/, output through spirv-val), a find_package consumer and a
#    pkg-config consumer (test/install/install_tests.py), the Vulkan layer found through its
#    system manifest alone (layer/vulkan/test's program, lavapipe; ENV=VALUE pairs select the driver),
#    the OpenCL layer enabled by OPENCL_LAYERS=<its installed path> alone (layer/opencl/test's
#    program on its recording test ICD) and registered nowhere,
#    `man -w spirv-bitcast`, `man -w 7 spirv-bitcast-layers` and the bash completion;
# 4. purges the packages again (also when a check fails) and checks that nothing is left.
# Needs root or passwordless sudo; SKIPPED (77) without, when a build dependency is missing,
# or when any of the packages is already installed (the user's install is left alone).
# SPDX-License-Identifier: Apache-2.0
set -u

src="" work="" version="" python="" spirv_as="" spirv_val="" layer_test="" layer_dir=""
cl_layer_test="" cl_layer_icd="" cl_layer_examples=""
drv_env=()
while [ $# -gt 0 ]; do
    case $1 in
        --source) src=$2; shift ;;
        --work) work=$2; shift ;;
        --version) version=$2; shift ;;
        --python) python=$2; shift ;;
        --spirv-as) spirv_as=$2; shift ;;
        --spirv-val) spirv_val=$2; shift ;;
        --layer-test) layer_test=$2; shift ;;
        --layer-test-dir) layer_dir=$2; shift ;;
        --cl-layer-test) cl_layer_test=$2; shift ;;
        --cl-layer-icd) cl_layer_icd=$2; shift ;;
        --cl-layer-examples) cl_layer_examples=$2; shift ;;
        *=*) drv_env+=("$1") ;;
        *) echo "package_test.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
    shift
done
for v in src work version python spirv_as spirv_val; do
    [ -n "${!v}" ] || { echo "package_test.sh: --${v//_/-} is required" >&2; exit 2; }
done
# While at 0.x the ABI version is MAJOR.MINOR (source/CMakeLists.txt): the SONAME and the runtime
# package (debian/control) are named after it.
abi=${version%.*}
soname=libspirv-bitcast.so.$abi
PKGS=("libspirv-bitcast$abi" libspirv-bitcast-dev spirv-bitcast spirv-bitcast-vulkan-layer
    spirv-bitcast-opencl-layer)
src=$(cd "$src" && pwd)

skip() { echo "SKIPPED: $*"; exit 77; }
failures=0
skipped_parts=()
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok    $*"; }
t0=$(date +%s)
elapsed() { echo "$(($(date +%s) - t0)) s"; }

# --- preconditions ----------------------------------------------------------------------------
if [ "$(id -u)" = 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
else
    skip "installing packages needs root or passwordless sudo (dpkg -i / dpkg --purge)"
fi
for t in dpkg-buildpackage dpkg-checkbuilddeps dh dpkg-deb dpkg-architecture; do
    command -v "$t" >/dev/null 2>&1 || skip "$t not found (apt-get install debhelper dpkg-dev)"
done
for p in "${PKGS[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null)
    case $status in
        "" | un*) ;;
        *) skip "$p is already installed ($status): not touching the system's own install" ;;
    esac
done
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)

# --- 1. a clean copy of the tree, built into .deb files ---------------------------------------
rm -rf "$work"
mkdir -p "$work/src"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$src" && git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
        tar --null -T - -cf -) | tar -xf - -C "$work/src" || { echo "FAIL: copying the tree"; exit 1; }
    echo "copied the git-tracked tree of $src"
else
    tar -C "$src" --exclude='./build*' --exclude='./obj-*' --exclude='./.git' \
        --exclude='./debian/.debhelper' --exclude='./debian/tmp' -cf - . |
        tar -xf - -C "$work/src" || { echo "FAIL: copying the tree"; exit 1; }
    echo "copied $src (no git: build directories left out)"
fi
missing=$(cd "$work/src" && dpkg-checkbuilddeps -P nocheck 2>&1) ||
    skip "build dependencies missing: ${missing#*: } (.ci/install-deps.sh installs them)"
echo "building the packages: DEB_BUILD_OPTIONS='nocheck parallel=2' dpkg-buildpackage -b -us -uc -j2"
if ! (cd "$work/src" && DEB_BUILD_OPTIONS="nocheck parallel=2" \
    dpkg-buildpackage -b -us -uc -j2) >"$work/build.log" 2>&1; then
    tail -n 60 "$work/build.log"
    echo "FAIL: dpkg-buildpackage failed (log: $work/build.log)"
    exit 1
fi
echo "built in $(elapsed)"
debs=()
for p in "${PKGS[@]}"; do
    f=("$work/${p}_"*.deb)
    [ -f "${f[0]}" ] || { echo "FAIL: no ${p}_*.deb was built"; exit 1; }
    debs+=("${f[0]}")
done
ok "built ${debs[*]##*/}"

# --- 2. lintian ----------------------------------------------------------------------------
if command -v lintian >/dev/null 2>&1; then
    lintian -I -E --pedantic "$work"/*.changes >"$work/lintian.log" 2>&1
    grep -E '^[EW]: ' "$work/lintian.log"
    if grep -q '^E: ' "$work/lintian.log"; then
        fail "lintian reports errors"
    fi
    while read -r tag; do
        grep -qw -- "$tag" "$src/debian/README.source" ||
            fail "lintian warning $tag is not explained in debian/README.source"
    done < <(sed -n 's/^W: [^ ]* \([a-z0-9-]*\).*/\1/p' "$work/lintian.log" | sort -u)
    ok "lintian: no error, every warning explained in debian/README.source"
else
    skipped_parts+=("lintian not installed")
fi

# Files the packages would put where unowned files already exist: dpkg would overwrite them and
# the purge would delete them, so stop before touching anything.
for deb in "${debs[@]}"; do
    while read -r path; do
        [ -f "$path" ] || [ -L "$path" ] || continue
        owner=$(dpkg-query -S "$path" 2>/dev/null)
        skip "$path exists already (${owner:-owned by no package}): not overwriting it"
    done < <(dpkg-deb --fsys-tarfile "$deb" | tar -t | sed -n 's|^\./|/|p' | grep -v '/$' |
        grep -v '^/usr/share/doc/')
done

# --- 3. install, check -----------------------------------------------------------------------
cleanup() {
    local left=()
    for p in "${PKGS[@]}"; do
        case $(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null) in
            "" | un*) ;;
            *) left+=("$p") ;;
        esac
    done
    if [ ${#left[@]} -gt 0 ]; then
        echo "purging ${left[*]}"
        "${SUDO[@]}" dpkg --purge "${left[@]}" >"$work/purge.log" 2>&1 || cat "$work/purge.log"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

installed=0
for _ in 1 2 3 4 5 6; do
    # --path-include: slim Debian images path-exclude /usr/share/man in /etc/dpkg/dpkg.cfg.d.
    if "${SUDO[@]}" dpkg --path-include='/usr/share/man/man1/spirv-bitcast.1.gz' \
        -i "${debs[@]}" >"$work/install.log" 2>&1; then
        installed=1
        break
    fi
    grep -q 'lock' "$work/install.log" || break # another dpkg holds the lock: wait for it
    sleep 10
done
if [ $installed = 0 ]; then
    cat "$work/install.log"
    echo "FAIL: dpkg -i failed"
    exit 1
fi
ok "dpkg -i ${debs[*]##*/}"

# The CLI.
cli=$(command -v spirv-bitcast)
[ "$cli" = /usr/bin/spirv-bitcast ] || fail "spirv-bitcast on PATH is '$cli', not /usr/bin/spirv-bitcast"
got=$(/usr/bin/spirv-bitcast --version | head -n 1) # line 2: the SPIRV-Headers used
if [ "$got" = "spirv-bitcast $version (library $version)" ]; then ok "--version: $got"
else fail "--version printed '$got', expected spirv-bitcast $version (library $version)"; fi
ex=$work/examples
mkdir -p "$ex"
for m in astype_invalid astype_valid; do
    "$spirv_as" --target-env spv1.0 "$src/examples/$m.spvasm" -o "$ex/$m.spv" ||
        fail "spirv-as $m.spvasm"
done
/usr/bin/spirv-bitcast validate "$ex/astype_invalid.spv" >"$ex/validate.out" 2>&1
st=$?
if [ $st = 1 ] && grep -q '^error: ' "$ex/validate.out"; then ok "validate astype_invalid.spv: exit 1, $(grep -c '^error: ' "$ex/validate.out") error(s)"
else cat "$ex/validate.out"; fail "validate astype_invalid.spv: exit $st, expected 1 with errors"; fi
if "$spirv_val" "$ex/astype_invalid.spv" >/dev/null 2>&1; then
    fail "spirv-val accepts astype_invalid.spv: the example no longer shows the problem"
fi
if /usr/bin/spirv-bitcast lower --verify "$ex/astype_invalid.spv" -o "$ex/lowered.spv" 2>"$ex/lower.err" &&
    "$spirv_val" "$ex/lowered.spv" && /usr/bin/spirv-bitcast validate "$ex/lowered.spv" >/dev/null 2>&1; then
    ok "lower --verify astype_invalid.spv: spirv-val and validate accept the output"
else
    cat "$ex/lower.err"
    fail "lowering astype_invalid.spv with the installed tool"
fi
if /usr/bin/spirv-bitcast validate "$ex/astype_valid.spv" >/dev/null 2>&1; then ok "validate astype_valid.spv: exit 0"
else fail "validate astype_valid.spv"; fi

# Consumers of the installed library, through find_package and through pkg-config.
itests=$src/test/install/install_tests.py
"$python" "$itests" consumer-cmake --cmake cmake --prefix /usr --source "$src/test/install/consumer" \
    --work "$work/consumer-cmake" --c-compiler cc --c-flags= --version "$version" \
    --spirv-val "$spirv_val" >"$work/consumer-cmake.log" 2>&1 ||
    { cat "$work/consumer-cmake.log"; fail "find_package consumer"; }
if grep -q "SPIRV-Bitcast $version from /usr/lib/$multiarch/cmake/SPIRV-Bitcast" "$work/consumer-cmake.log"; then
    ok "find_package(SPIRV-Bitcast) found /usr/lib/$multiarch/cmake/SPIRV-Bitcast; consumers ran"
else
    fail "find_package did not use the installed package: $(grep 'SPIRV-Bitcast .* from' "$work/consumer-cmake.log")"
fi
# The loader may name it through /lib (merged /usr): compare the files, not the spellings.
loaded=$(ldd "$work/consumer-cmake/build/consumer_shared" | awk -v so="$soname" '$1 == so && $2 == "=>" {print $3}')
if [ -n "$loaded" ] && [ "$(realpath "$loaded")" = "$(realpath "/usr/lib/$multiarch/$soname")" ]; then
    ok "consumer_shared loads $loaded (the installed $soname)"
else
    fail "consumer_shared loads '${loaded:-no $soname}', not the installed library"
fi
if command -v pkg-config >/dev/null 2>&1; then
    "$python" "$itests" consumer-pkgconfig --pkg-config pkg-config --prefix /usr \
        --libdir "lib/$multiarch" --source "$src/test/install/consumer/consumer.c" \
        --work "$work/consumer-pkgconfig" --c-compiler cc --c-flags= --version "$version" \
        --spirv-val "$spirv_val" >"$work/consumer-pkgconfig.log" 2>&1
    if [ $? = 0 ]; then ok "pkg-config consumer: $(tail -n 1 "$work/consumer-pkgconfig.log")"
    else cat "$work/consumer-pkgconfig.log"; fail "pkg-config consumer"; fi
else
    skipped_parts+=("pkg-config not installed: no pkg-config consumer")
fi

# The layer, through its system manifest only: no VK_LAYER_PATH / VK_ADD_LAYER_PATH.
manifest=/usr/share/vulkan/explicit_layer.d/VkLayer_spvbc_bitcast.json
libpath=$(sed -n 's/.*"library_path": *"\([^"]*\)".*/\1/p' "$manifest" 2>/dev/null)
if [ -n "$libpath" ] && [ -f "$libpath" ] && dpkg-query -S "$libpath" >/dev/null 2>&1; then
    ok "$manifest names $libpath (installed by $(dpkg-query -S "$libpath" | cut -d: -f1))"
else
    fail "$manifest missing or its library_path '$libpath' is not an installed file"
fi
if [ -n "$layer_test" ] && [ -x "$layer_test" ]; then
    log=$work/layer.log
    env -u VK_LAYER_PATH -u VK_ADD_LAYER_PATH -u VK_IMPLICIT_LAYER_PATH "${drv_env[@]}" \
        VK_INSTANCE_LAYERS=VK_LAYER_SPVBC_bitcast VK_LOADER_DEBUG=layer \
        SPVBC_LAYER_LOG="$log" SPVBC_LAYER_LOG_LEVEL=all SPVBC_LAYER_MODE=lower SPVBC_LAYER_PAD=undef \
        "$layer_test" lower "$log" "$layer_dir" >"$work/layer.out" 2>&1
    st=$?
    if [ $st = 77 ]; then
        skipped_parts+=("no Vulkan device: the layer was not loaded ($(grep -m1 -i 'skip' "$work/layer.out"))")
    elif [ $st != 0 ]; then
        tail -n 40 "$work/layer.out"
        fail "the layer scenario 'lower' through the system manifest (exit $st)"
    elif ! grep -q "$libpath" "$work/layer.out"; then
        grep -i 'spvbc' "$work/layer.out" | head
        fail "the loader did not report loading $libpath"
    elif ! [ -s "$log" ]; then
        fail "the layer wrote no log to SPVBC_LAYER_LOG"
    else
        ok "VK_INSTANCE_LAYERS=VK_LAYER_SPVBC_bitcast loaded $libpath; layer log: $(head -n 1 "$log")"
    fi
else
    skipped_parts+=("no layer test program (built with Vulkan and the tests): the layer was not loaded")
fi

# The OpenCL layer: enabled by OPENCL_LAYERS alone, and registered nowhere (no implicit layer).
cl_libpath=/usr/lib/$multiarch/spirv-bitcast/libCLLayer_spvbc_bitcast.so
if [ -f "$cl_libpath" ] && dpkg-query -S "$cl_libpath" >/dev/null 2>&1; then
    ok "$cl_libpath installed by $(dpkg-query -S "$cl_libpath" | cut -d: -f1)"
else
    fail "$cl_libpath is not an installed file"
fi
if grep -rqs spvbc /etc/OpenCL/layers; then
    fail "the OpenCL layer is registered in /etc/OpenCL/layers (it must stay explicit)"
fi
if [ -n "$cl_layer_test" ] && [ -x "$cl_layer_test" ] && [ -f "$cl_layer_icd" ]; then
    log=$work/cl_layer.log
    env -u OPENCL_LAYER_PATH OCL_ICD_VENDORS="$cl_layer_icd" OCL_ICD_FILENAMES="$cl_layer_icd" \
        OPENCL_LAYERS="$cl_libpath" SPVBC_LAYER_LOG="$log" SPVBC_LAYER_LOG_LEVEL=all SPVBC_LAYER_MODE=lower \
        "$cl_layer_test" lower "$log" "$cl_layer_examples" "$cl_layer_icd" \
        >"$work/cl_layer.out" 2>&1
    st=$?
    if [ $st != 0 ]; then
        tail -n 40 "$work/cl_layer.out"
        fail "the OpenCL layer scenario 'lower' through the installed layer (exit $st)"
    else
        ok "OPENCL_LAYERS=$cl_libpath: $(tail -n 1 "$work/cl_layer.out"); log: $(head -n 1 "$log")"
    fi
else
    skipped_parts+=("no OpenCL layer test program (built with the OpenCL loader and the tests)")
fi

# Manual page and completion.
if page=$(man -w spirv-bitcast 2>/dev/null) && [ "$page" = /usr/share/man/man1/spirv-bitcast.1.gz ]; then
    ok "man -w spirv-bitcast: $page"
else
    fail "man -w spirv-bitcast gave '${page:-nothing}'"
fi
if page=$(man -w 7 spirv-bitcast-layers 2>/dev/null) &&
    [ "$page" = /usr/share/man/man7/spirv-bitcast-layers.7.gz ]; then
    ok "man -w 7 spirv-bitcast-layers: $page"
else
    fail "man -w 7 spirv-bitcast-layers gave '${page:-nothing}'"
fi
comp=/usr/share/bash-completion/completions/spirv-bitcast
if cmp -s "$comp" "$src/source/tools/completion/spirv-bitcast"; then ok "$comp installed"
else fail "$comp missing or not the source's script"; fi
if [ -r /usr/share/bash-completion/bash_completion ]; then
    spec=$(bash -c '. /usr/share/bash-completion/bash_completion
        __load_completion spirv-bitcast && complete -p spirv-bitcast' 2>&1)
    case $spec in
        *"-F _spirv_bitcast spirv-bitcast"*) ok "bash-completion loads it: $spec" ;;
        *) fail "bash-completion does not load the completion: $spec" ;;
    esac
fi

# --- 4. purge, nothing left ------------------------------------------------------------------
trap - EXIT
cleanup
for p in "${PKGS[@]}"; do
    case $(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null) in
        "" | un*) ;;
        *) fail "$p is still installed after dpkg --purge" ;;
    esac
done
for path in /usr/bin/spirv-bitcast "$manifest" "$libpath" "$cl_libpath" "$comp" /usr/include/spirv_bitcast.h \
    "/usr/lib/$multiarch/$soname"; do
    [ -e "$path" ] && fail "$path is left after the purge"
done
ok "purged; no installed file left"

echo "package test: $failures failure(s) in $(elapsed)"
[ "$failures" = 0 ] || exit 1
if [ ${#skipped_parts[@]} -gt 0 ]; then
    printf 'SKIPPED part: %s\n' "${skipped_parts[@]}"
    exit 77
fi
exit 0
