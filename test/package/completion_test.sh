#!/usr/bin/env bash
# completion_test.sh SCRIPT - the bash completion of spirv-bitcast (ctest completion.bash).
#
# Loads bash-completion and SCRIPT, then for each case sets COMP_WORDS/COMP_CWORD/COMP_LINE/
# COMP_POINT as bash does for the command line (COMP_WORDBREAKS splits at '='), calls the
# completion function and compares COMPREPLY (sorted) with the expected words.
# Exit status: 0 pass, 1 a mismatch, 77 bash-completion is not installed (SKIPPED).
# SPDX-License-Identifier: Apache-2.0
set -u
script=${1:?usage: completion_test.sh SCRIPT}
bc=/usr/share/bash-completion/bash_completion
if [ ! -r "$bc" ]; then
    echo "SKIPPED: $bc not found (apt-get install bash-completion)"
    exit 77
fi
# shellcheck disable=SC1090
. "$bc"
# shellcheck disable=SC1090
. "$script"
complete -p spirv-bitcast >/dev/null || { echo "FAIL: $script registers no completion"; exit 1; }
func=$(complete -p spirv-bitcast | sed -n 's/.*-F \([^ ]*\) .*/\1/p')

# compopt only works while bash itself runs a completion; record what it is asked instead.
nospace=0
compopt() { [ "$*" = "-o nospace" ] && nospace=1; return 0; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/dir.d" "$work/kernels"
touch "$work/a.spv" "$work/b.spv" "$work/notes.txt"
cd "$work" || exit 1

failures=0
# check 'LINE' 'EXPECTED words (sorted, space-separated)' [nospace]
check() {
    local line=$1 want=$2 want_nospace=${3:-0}
    local spaced=${line//=/ = }
    read -ra COMP_WORDS <<<"$spaced"
    [[ $line == *" " || $line == *= ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_LINE=$line
    COMP_POINT=${#line}
    COMPREPLY=()
    nospace=0
    "$func" spirv-bitcast "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    local got
    got=$(printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | LC_ALL=C sort | paste -sd' ' -)
    if [ "$got" != "$want" ] || [ "$nospace" != "$want_nospace" ]; then
        printf 'FAIL  %-40s got [%s] nospace=%s, want [%s] nospace=%s\n' "'$line'" "$got" \
            "$nospace" "$want" "$want_nospace"
        failures=$((failures + 1))
    else
        printf 'ok    %-40s [%s]\n' "'$line'" "$got"
    fi
}

check 'spirv-bitcast ' '--help --version -h explain help lower opt validate'
check 'spirv-bitcast l' 'lower'
check 'spirv-bitcast validate --' '--format --generation --help --jobs --json --max-id-bound --no-disassembly --notes --quiet --strict --target-env'
check 'spirv-bitcast validate -' '--format --generation --help --jobs --json --max-id-bound --no-disassembly --notes --quiet --strict --target-env -Werror -h -j -q -r'
check 'spirv-bitcast validate --generation 202' '2023.1 2025.1 2026.4'
check 'spirv-bitcast lower --p' '--pad'
check 'spirv-bitcast lower --j' '--jobs --json'
check 'spirv-bitcast lower --pad ' 'error undef zero'
check 'spirv-bitcast lower --pad z' 'zero'
check 'spirv-bitcast lower --pad=u' 'undef'
check 'spirv-bitcast lower --only ' '3to4 4to3 vec3dst vec3src' 1
check 'spirv-bitcast lower --only 4to3,' '4to3,3to4 4to3,vec3dst 4to3,vec3src' 1
check 'spirv-bitcast lower --only 4to3,vec3src,v' '4to3,vec3src,vec3dst' 1
check 'spirv-bitcast lower --only=3to4,4' '3to4,4to3' 1
check 'spirv-bitcast validate --format ' 'json sarif text'
check 'spirv-bitcast lower --format=s' 'sarif'
check 'spirv-bitcast validate --target-env vulkan1.' 'vulkan1.0 vulkan1.1 vulkan1.2 vulkan1.3'
check 'spirv-bitcast lower --target-env=opencl' 'opencl1.2 opencl2.0 opencl2.1 opencl2.2'
check 'spirv-bitcast validate ' 'a.spv b.spv dir.d kernels'
check 'spirv-bitcast lower --verify a' 'a.spv'
check 'spirv-bitcast lower -r ' 'dir.d kernels'
check 'spirv-bitcast lower -o n' 'notes.txt'
check 'spirv-bitcast explain float' 'float float16 float2 float3 float4 float8'
check 'spirv-bitcast explain float4 uchar1' 'uchar16'
check 'spirv-bitcast explain --s' '--shader'
check 'spirv-bitcast opt --lower' '--lower-astype --lower-astype='
check 'spirv-bitcast opt --lower-astype=' 'error undef zero'
check 'spirv-bitcast opt --lower-astype --val' '--validate-after-all --validate-bitcast'
check 'spirv-bitcast validate --jobs ' ''

if [ "$failures" -ne 0 ]; then
    echo "$failures completion case(s) failed"
    exit 1
fi
echo "all completion cases pass"
