#!/bin/sh
# test/mutation/kit.sh DEST [HEADERS_INCLUDE_DIR [SID_TOOLS_DIR]]
#
# Copies into DEST what run.sh's copies need to configure, build and run the mutation subset
# (test/mutation/run.sh) on an x86-64 machine that has a C/C++ compiler, cmake, ninja and
# python3 but none of the subset's tools, taken from this machine's Debian packages:
#
#   bin/        spirv-as, spirv-val, spirv-dis (spirv-tools); FileCheck, not (llvm-N-tools)
#   lib/        the shared libraries those programs need beyond glibc, libstdc++ and libgcc
#               (FileCheck and not: libz3, libz, libtinfo; found through their RUNPATH
#               $ORIGIN/../lib, so the kit never shadows the machine's own libz or libtinfo)
#   lit/        lit.py and its package (llvm-N-tools; pure Python)
#   usr/        SPIRV-Tools' static library, headers and CMake config (the CLI and the tests
#               link it), cmocka's header, library and CMake config, in Debian's layout, which
#               their config files expect
#   spirv-headers/  the SPIR-V headers the copies are built with: HEADERS_INCLUDE_DIR's
#               spirv/ (an include directory holding spirv/unified1/spirv.h; default: the
#               installed ones); give the build's newer ones, as run.sh -H takes them
#   sid-spirv-tools/  with SID_TOOLS_DIR (a build's sid-spirv-tools: the tree that test/diff's
#               spirv-tools-2026.fetch unpacks, Debian unstable's SPIRV-Tools 2026.4): its
#               spirv-as, spirv-val and spirv-dis with its own loader and C/C++ runtime only,
#               so that the lit fixtures that need them (validate2026) run in the copies
#               instead of being UNSUPPORTED
#   env.sh      sourced by run.sh -k (SPVBC_KIT set to DEST): PATH and LD_LIBRARY_PATH
#   cmake-settings.txt  the -D settings run.sh -k passes to configure, one a line
#               (NAME:TYPE=VALUE; a FILEPATH or PATH value is relative to the kit)
#   VERSIONS    the Debian packages the files came from
#
# spirv-opt and SPIRV-Tools' optimizer library are left out: no test of the subset runs them,
# and cmake-settings.txt turns the CLI's `opt` command off so that the copies are built alike
# wherever they run.  Files are copied, never linked (a link may not travel).  The kit is
# checked before kit.sh ends: every program starts and finds its libraries in the kit.
# Exit 0 when the kit is complete, 2 on a usage error, 77 (SKIPPED) when this machine lacks a
# part.
set -eu

usage() {
    sed -n '2,34p' "$0" >&2
    exit 2
}
if [ $# -lt 1 ] || [ $# -gt 3 ]; then usage; fi
case $1 in -*) usage ;; esac
src=$(cd "$(dirname "$0")/../.." && pwd)
dest=$1
hdr=${2:-/usr/include}
sid=${3:-}
skip() {
    echo "SKIPPED: kit.sh: $*"
    exit 77
}

llvm=${SPVBC_LLVM_VERSION:-$(sh "$src/.ci/llvm-version.sh")}
llvmdir=/usr/lib/llvm-$llvm
ma=$(gcc -print-multiarch 2> /dev/null || true)
[ -n "$ma" ] || ma=x86_64-linux-gnu
libdir=/usr/lib/$ma
for tool in spirv-as spirv-val spirv-dis; do
    command -v $tool > /dev/null 2>&1 || skip "no $tool (Debian: spirv-tools)"
done
for f in "$llvmdir/bin/FileCheck" "$llvmdir/bin/not"; do
    [ -x "$f" ] || skip "no $f (Debian: llvm-$llvm-tools)"
done
[ -f "$llvmdir/build/utils/lit/lit.py" ] || skip "no $llvmdir/build/utils/lit/lit.py (Debian: llvm-$llvm-tools)"
for f in "$libdir/libSPIRV-Tools.a" "$libdir/cmake/SPIRV-Tools/SPIRV-ToolsConfig.cmake" \
    /usr/include/spirv-tools/libspirv.h; do
    [ -f "$f" ] || skip "no $f (Debian: spirv-tools)"
done
for f in /usr/include/cmocka.h "$libdir/libcmocka.so.0" "$libdir/cmake/cmocka/cmocka-config.cmake"; do
    [ -f "$f" ] || skip "no $f (Debian: libcmocka-dev)"
done
[ -f "$hdr/spirv/unified1/spirv.h" ] || { echo "kit.sh: $hdr holds no spirv/unified1/spirv.h" >&2; exit 2; }
if [ -n "$sid" ] && { [ ! -f "$sid/ready" ] || [ ! -x "$sid/root/usr/bin/spirv-val" ]; }; then
    echo "kit.sh: $sid is no unpacked sid-spirv-tools tree (ready, root/usr/bin/spirv-val)" >&2
    exit 2
fi
command -v ldd > /dev/null 2>&1 || skip "no ldd"

# DEST is replaced: only when it is missing, empty or an earlier kit
if [ -d "$dest" ] && [ -n "$(ls -A "$dest")" ] && [ ! -f "$dest/cmake-settings.txt" ]; then
    echo "kit.sh: $dest is neither empty nor a kit: not replaced" >&2
    exit 2
fi
rm -rf "$dest"
mkdir -p "$dest/bin" "$dest/lib" "$dest/lit" "$dest/usr/include/spirv-tools" \
    "$dest/usr/lib/$ma/cmake/SPIRV-Tools" "$dest/usr/lib/$ma/cmake/cmocka" "$dest/spirv-headers"
dest=$(cd "$dest" && pwd)

# Programs, and the shared libraries they need that are not part of every Linux system.
for tool in spirv-as spirv-val spirv-dis; do
    cp "$(command -v $tool)" "$dest/bin/"
done
cp "$llvmdir/bin/FileCheck" "$llvmdir/bin/not" "$dest/bin/"
system_lib='^(linux-vdso|ld-linux[^ ]*|libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s)\.so'
for prog in "$dest"/bin/*; do
    ldd "$prog" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' |
        while read -r name path; do
            echo "$name" | grep -Eq "$system_lib" && continue
            [ -f "$dest/lib/$name" ] || cp -L "$path" "$dest/lib/$name"
        done
done

# lit: the package only (its own tests are not needed).
cp "$llvmdir/build/utils/lit/lit.py" "$dest/lit/"
(cd "$llvmdir/build/utils/lit" && find lit -name __pycache__ -prune -o -type f -print |
    tar -cf - -T -) | tar -xf - -C "$dest/lit"

# SPIRV-Tools' static library, headers and config; cmocka's (its .so and .so.0 as copies).
cp /usr/include/spirv-tools/*.h /usr/include/spirv-tools/*.hpp "$dest/usr/include/spirv-tools/"
cp "$libdir/libSPIRV-Tools.a" "$dest/usr/lib/$ma/"
cp "$libdir"/cmake/SPIRV-Tools/*.cmake "$dest/usr/lib/$ma/cmake/SPIRV-Tools/"
cp /usr/include/cmocka.h "$dest/usr/include/"
[ -f /usr/include/cmocka_pbc.h ] && cp /usr/include/cmocka_pbc.h "$dest/usr/include/"
cp -L "$libdir/libcmocka.so.0" "$dest/usr/lib/$ma/libcmocka.so.0"
cp -L "$libdir/libcmocka.so.0" "$dest/usr/lib/$ma/libcmocka.so"
cp "$libdir"/cmake/cmocka/*.cmake "$dest/usr/lib/$ma/cmake/cmocka/"

# The SPIR-V headers (links followed: the kit holds files only).
cp -RL "$hdr/spirv" "$dest/spirv-headers/"

# Debian unstable's tools with the tree's loader and the libraries it lists for them (copies).
if [ -n "$sid" ]; then
    sd=$dest/sid-spirv-tools/root
    loader=$(ls "$sid"/root/usr/lib/*/ld-linux*.so.2 | head -n 1)
    sidlib=$(dirname "$loader")
    mkdir -p "$sd/usr/bin" "$sd/usr/lib/$(basename "$sidlib")"
    for tool in spirv-as spirv-val spirv-dis; do
        cp -L "$sid/root/usr/bin/$tool" "$sd/usr/bin/"
        "$loader" --library-path "$sidlib" --list "$sid/root/usr/bin/$tool" |
            awk '$2 == "=>" && $1 !~ /^\// { print $1 }'
    done | sort -u | while read -r name; do
        cp -L "$sidlib/$name" "$sd/usr/lib/$(basename "$sidlib")/"
    done
    cp -L "$loader" "$sd/usr/lib/$(basename "$sidlib")/"
    touch "$dest/sid-spirv-tools/ready"
fi

cat > "$dest/env.sh" << 'EOF'
# Sourced (run.sh -k does so with SPVBC_KIT set to this folder; bash finds it alone):
#   SPVBC_KIT=/path/to/kit; . /path/to/kit/env.sh
# PATH: the kit's spirv-as, spirv-val, spirv-dis, FileCheck and not first.  LD_LIBRARY_PATH:
# cmocka's library (the test programs also have its folder in their build RUNPATH).  The
# kit's lib/ is not added: FileCheck and not find it through their RUNPATH ($ORIGIN/../lib),
# and other programs keep the machine's own libz and libtinfo.
if [ -z "${SPVBC_KIT:-}" ] && [ -n "${BASH_SOURCE:-}" ]; then
    SPVBC_KIT=$(cd "$(dirname "$BASH_SOURCE")" && pwd)
fi
if [ -z "${SPVBC_KIT:-}" ] || [ ! -f "$SPVBC_KIT/cmake-settings.txt" ]; then
    echo "env.sh: set SPVBC_KIT to the kit's folder before sourcing it" >&2
    return 2 2> /dev/null || exit 2
fi
EOF
cat >> "$dest/env.sh" << EOF
PATH=\$SPVBC_KIT/bin:\$PATH
LD_LIBRARY_PATH=\$SPVBC_KIT/usr/lib/$ma\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
export SPVBC_KIT PATH LD_LIBRARY_PATH
EOF

cat > "$dest/cmake-settings.txt" << EOF
# The configure settings of run.sh -k: NAME:TYPE=VALUE; a FILEPATH or PATH value is
# relative to the kit's folder.  The opt command is left out of the CLI (no test of the
# subset runs it; SPIRV-Tools' optimizer is not in the kit), wherever the kit is used.
SPVBC_SPIRV_AS:FILEPATH=bin/spirv-as
SPVBC_SPIRV_VAL:FILEPATH=bin/spirv-val
SPVBC_SPIRV_DIS:FILEPATH=bin/spirv-dis
SPVBC_FILECHECK:FILEPATH=bin/FileCheck
SPVBC_NOT:FILEPATH=bin/not
SPVBC_LIT:FILEPATH=lit/lit.py
SPVBC_LLVM_VERSION:STRING=$llvm
SPIRV-Tools_DIR:PATH=usr/lib/$ma/cmake/SPIRV-Tools
cmocka_DIR:PATH=usr/lib/$ma/cmake/cmocka
CMAKE_DISABLE_FIND_PACKAGE_SPIRV-Tools-opt:BOOL=ON
SPVBC_SPIRV_HEADERS_DIR:PATH=spirv-headers
EOF
[ -z "$sid" ] || echo "SPVBC_SID_TOOLS_DIR:PATH=sid-spirv-tools" >> "$dest/cmake-settings.txt"

{
    echo "# The Debian packages (dpkg-query) of this kit's files; the SPIR-V headers from $hdr"
    for p in spirv-tools "llvm-$llvm-tools" libcmocka0 libcmocka-dev; do
        dpkg-query -W -f '${Package} ${Version}\n' "$p" 2> /dev/null || echo "$p ?"
    done
    for l in "$dest"/lib/*; do
        p=$(dpkg-query -S "$(basename "$l")" 2> /dev/null | sed -n '1s/:.*//p')
        [ -z "$p" ] || dpkg-query -W -f '${Package} ${Version}\n' "$p" 2> /dev/null
    done
} | sort -u > "$dest/VERSIONS"

# The check: no link in the kit; every program starts and loads no library from outside the
# kit but the system's.
bad=0
if [ -n "$(find "$dest" -type l)" ]; then
    echo "kit.sh: links in the kit:" >&2
    find "$dest" -type l >&2
    bad=1
fi
for prog in "$dest"/bin/*; do
    out=$(env LD_LIBRARY_PATH="$dest/usr/lib/$ma" ldd "$prog") || { bad=1; continue; }
    echo "$out" | awk '$2 == "=>" { print $1, $3 }' | while read -r name path; do
        echo "$name" | grep -Eq "$system_lib" && continue
        case $path in
        "$dest"/*) ;;
        *) echo "kit.sh: $prog loads $name from $path, outside the kit" >&2; exit 1 ;;
        esac
    done || bad=1
done
for tool in spirv-as spirv-val spirv-dis; do
    "$dest/bin/$tool" --version > /dev/null 2>&1 || { echo "kit.sh: $tool does not start" >&2; bad=1; }
done
"$dest/bin/FileCheck" --version > /dev/null 2>&1 || { echo "kit.sh: FileCheck does not start" >&2; bad=1; }
printf 'x\n' | "$dest/bin/not" false || { echo "kit.sh: not does not start" >&2; bad=1; }
if [ -n "$sid" ]; then
    for tool in spirv-as spirv-val spirv-dis; do
        sh "$src/test/lit/Inputs/sid_tool.sh" "$dest/sid-spirv-tools/root" $tool --version \
            > /dev/null 2>&1 || { echo "kit.sh: unstable's $tool does not start" >&2; bad=1; }
    done
fi
python3 "$dest/lit/lit.py" --version > /dev/null 2>&1 || { echo "kit.sh: lit does not start" >&2; bad=1; }
[ $bad -eq 0 ] || exit 1
echo "kit.sh: $dest: $(du -sk "$dest" | cut -f1) KiB; run.sh -k $dest"
