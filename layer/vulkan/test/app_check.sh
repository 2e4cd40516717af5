#!/bin/sh
# app_check.sh - real applications through VK_LAYER_SPVBC_bitcast, headless.
#
#   app_check.sh vulkaninfo <layer dir> <log>   vulkaninfo lists the layer (name, description)
#   app_check.sh vkcube <layer dir> <log>       vkcube --c 60 under Xvfb, with and without the
#                                               layer: both exit 0; the layer sees vkcube's
#                                               modules and changes none (they are valid)
#   app_check.sh ffmpeg <layer dir> <log>       ffmpeg's libplacebo filter (Vulkan compute and
#                                               graphics, shaders made by libplacebo at run
#                                               time) scales 5 frames: the per-frame MD5s of a
#                                               run with the layer equal those of a run without
#                                               it (up to 3 alternating rounds: the renderer is
#                                               not always deterministic); the layer sees every
#                                               module and changes none
# The driver is whatever VK_DRIVER_FILES names (ctest: lavapipe).  Prints the number of
# modules and the layer's own time per module (from its log).  Exit 0 pass, 1 fail, 77 when the
# application (vulkan-tools, xvfb, ffmpeg) is not installed.
#
# SPDX-License-Identifier: Apache-2.0
set -u
what=$1
layer_dir=$2
log=$3
work=${log%.log}.d
rm -rf "$log" "$work"
mkdir -p "$work"

need() {
    for t in "$@"; do
        if ! command -v "$t" >/dev/null 2>&1; then
            echo "SKIP: $t is not installed"
            exit 77
        fi
    done
}

fail() {
    echo "FAIL: $*"
    exit 1
}

# with_layer <command...>: runs it with the layer enabled and logging to $log.
with_layer() {
    VK_ADD_LAYER_PATH=$layer_dir VK_INSTANCE_LAYERS=VK_LAYER_SPVBC_bitcast SPVBC_LAYER_LOG=$log SPVBC_LAYER_LOG_LEVEL=all \
        "$@"
}

# The modules the layer saw: count, how many it changed, its time per module.
summarise() {
    modules=$(grep -c ': in xxh64=' "$log")
    changed=$(grep ': in xxh64=' "$log" | grep -vc ': unchanged (valid')
    times=$(sed -n 's/.* \[\([0-9]*\) us\].*/\1/p' "$log" | sort -n)
    words=$(sed -n 's/.*: in xxh64=[0-9a-f]* \([0-9]*\) words:.*/\1/p' "$log" |
        awk '{ s += $1 } END { print s + 0 }')
    echo "$times" | awk -v m="$modules" -v w="$words" -v app="$1" '
        NF { t[n++] = $1; s += $1 }
        END { if (n == 0) exit; printf "%s: %d modules (%d words in all) through the layer; layer time per module: mean %.1f us, median %d us, max %d us, total %d us\n", app, m, w, s / n, t[int(n / 2)], t[n - 1], s }'
    [ "$modules" -gt 0 ] || fail "the layer saw no module"
    [ "$changed" -eq 0 ] || fail "the layer changed or refused $changed module(s): $(grep -v ': unchanged (valid' "$log")"
}

# The Mesa 25 runs must not pass on another driver.
if [ -n "${SPVBC_EXPECT_DRIVER_INFO:-}" ] && command -v vulkaninfo >/dev/null 2>&1; then
    info=$(vulkaninfo --summary 2>/dev/null | sed -n 's/.*driverInfo *= *//p' | head -n 1)
    case $info in
    *"$SPVBC_EXPECT_DRIVER_INFO"*) ;;
    *) fail "the driver is '$info', not '$SPVBC_EXPECT_DRIVER_INFO'" ;;
    esac
fi

case $what in
vulkaninfo)
    need vulkaninfo
    VK_ADD_LAYER_PATH=$layer_dir vulkaninfo >"$work/out.txt" 2>&1 || fail "vulkaninfo failed"
    grep 'VK_LAYER_SPVBC_bitcast (spirv-bitcast: validates and lowers' "$work/out.txt" ||
        fail "vulkaninfo does not list the layer"
    # With the layer enabled, vulkaninfo still runs and reports the same device.
    with_layer vulkaninfo --summary >"$work/summary.txt" 2>&1 || fail "vulkaninfo --summary failed with the layer"
    grep -E 'deviceName|driverInfo' "$work/summary.txt"
    ;;
vkcube)
    need vkcube xvfb-run
    xvfb-run -a -s "-screen 0 640x480x24" vkcube --c 60 >"$work/without.txt" 2>&1 ||
        fail "vkcube without the layer: $(tail -n 3 "$work/without.txt")"
    with_layer xvfb-run -a -s "-screen 0 640x480x24" vkcube --c 60 >"$work/with.txt" 2>&1 ||
        fail "vkcube with the layer: $(tail -n 3 "$work/with.txt")"
    grep -q 'VK_LAYER_SPVBC_bitcast active' "$log" || fail "the layer was not active"
    summarise vkcube
    ;;
ffmpeg)
    need ffmpeg
    ffmpeg -hide_banner -filters 2>/dev/null | grep -q ' libplacebo ' ||
        { echo "SKIP: this ffmpeg has no libplacebo filter"; exit 77; }
    vf="format=yuv420p,hwupload,libplacebo=w=640:h=480:upscaler=ewa_lanczos:format=yuv420p,hwdownload,format=yuv420p"
    # Debian 13's ffmpeg 7 with libplacebo 7 on lavapipe 25 now and then dies of a signal with
    # no message, without any layer (once in a CI rehearsal's full suite; not in 8 runs of the
    # test alone): a run that dies of a signal is run once more, and a second death without
    # the layer means this application cannot judge the layer here (SKIP).
    ffmpeg_run() { # <out> <err> [with_layer]
        out=$1 err=$2
        shift 2
        for try in 1 2; do
            "$@" ffmpeg -hide_banner -loglevel error -init_hw_device vulkan=vk:0 \
                -filter_hw_device vk -f lavfi -i testsrc2=size=320x240:rate=5 -frames:v 5 \
                -vf "$vf" -f framemd5 - >"$out" 2>"$err"
            st=$?
            [ $st -le 128 ] && return $st
            echo "note: ffmpeg died of signal $((st - 128))${1:+ with the layer}, try $try" >>"$work/signals"
        done
        return $st
    }
    ffmpeg_run "$work/without.md5" "$work/without.err"
    st=$?
    if [ $st -gt 128 ]; then
        echo "SKIP: ffmpeg dies of signal $((st - 128)) twice without the layer: this" \
            "ffmpeg/libplacebo/driver cannot judge it"
        exit 77
    fi
    [ $st -eq 0 ] || fail "ffmpeg without the layer: $(tail -n 3 "$work/without.err")"
    frames=$(grep -c '^0,' "$work/without.md5")
    [ "$frames" -eq 5 ] || fail "ffmpeg wrote $frames frames, not 5"
    # Debian 13's ffmpeg 7 with libplacebo 7 on lavapipe 25 now and then renders a frame
    # differently from one run to the next, without any layer (seen in CI: two runs without the
    # layer alike, the run with it one frame off, its modules all passed unchanged).  So the runs
    # alternate, without and with, up to three rounds: the layer passes as soon as a run with it
    # gives the frames of some run without it; it fails when three runs with it never do.  A
    # layer that changes what is rendered differs in every run; a driver that never repeats
    # itself cannot judge the layer, and says so.
    round=1
    verdict=
    while [ $round -le 3 ]; do
        if [ $round -gt 1 ]; then
            ffmpeg_run "$work/without$round.md5" "$work/without$round.err" ||
                fail "ffmpeg without the layer (round $round): $(tail -n 3 "$work/without$round.err")"
        fi
        ffmpeg_run "$work/with$round.md5" "$work/with$round.err" with_layer ||
            fail "ffmpeg with the layer (round $round): $(tail -n 3 "$work/with$round.err")"
        frames=$(grep -c '^0,' "$work/with$round.md5")
        [ "$frames" -eq 5 ] || fail "ffmpeg wrote $frames frames with the layer, not 5"
        for w in "$work"/with[0-9]*.md5; do
            for o in "$work/without.md5" "$work"/without[0-9]*.md5; do
                [ -f "$o" ] && cmp -s "$w" "$o" && verdict="$w $o"
            done
        done
        [ -n "$verdict" ] && break
        round=$((round + 1))
    done
    [ -f "$work/signals" ] && cat "$work/signals"
    # How many different renderings the runs without the layer gave.
    kinds=$(md5sum "$work"/without*.md5 | cut -d' ' -f1 | sort -u | wc -l)
    if [ -z "$verdict" ]; then
        [ "$kinds" -gt 1 ] ||
            fail "the frames differ with the layer in 3 rounds while the 3 runs without it agree: $(diff "$work/without.md5" "$work/with1.md5")"
        echo "ffmpeg: 5 frames with and without the layer in 3 rounds; frames NOT compared: the 3 runs without the layer gave $kinds renderings (this ffmpeg/libplacebo/driver is not deterministic)"
        summarise ffmpeg-libplacebo
        echo "app: $what: passed"
        exit 0
    fi
    [ $round -eq 1 ] || echo "note: the run with the layer of round $round gave the frames of a run without it; the earlier rounds' did not (renderings without the layer: $kinds distinct in $round runs)"
    echo "ffmpeg: 5 frames, MD5s identical with and without the layer (first: $(grep -m1 '^0,' "$work/with$round.md5" | awk '{ print $NF }'))"
    summarise ffmpeg-libplacebo
    ;;
*)
    echo "usage: $0 vulkaninfo|vkcube|ffmpeg <layer dir> <log>" >&2
    exit 2
    ;;
esac
echo "app: $what: passed"
