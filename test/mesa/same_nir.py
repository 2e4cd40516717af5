#!/usr/bin/env python3
"""same_nir.py - real modules give the same NIR with and without external/mesa/.

  same_nir.py MESA_NATIVE_DIR MESA_NATIVE_SH [MODULE_DIR...] [--lowerable SPIRV_AS ASM...]

The modules: the SPIR-V that Debian 13's binaries in the root of cmake/mesa-native.sh carry
(Mesa's Vulkan drivers and overlay layer, vkcube, the Khronos validation layer: cut out as
layer/vulkan/test/vkbench_modules.py cuts them), and the .spv files of each MODULE_DIR (the
Vulkan layer's benchmark kit: Debian 12's binaries, the tree's GLSL compiled by glslang, its
valid Shader .spvasm).  Each entry point of each module is translated by Mesa's spirv2nir
built from the patched source and by the control, spirv2nir built from Debian's unpatched
source with the same configuration (mesa-native.sh nir); the two outputs (NIR, messages and
exit status) must be the same byte for byte wherever the module needed no lowering, and these
modules need none.  The control of the test itself: each --lowerable .spvasm (assembled with
SPIRV_AS) holds a bitcast that needs lowering, so there the control must refuse the module and
the patched spirv2nir translate it.  Exit status 0, 1 when one differs or none was translated,
77 (SKIPPED, with the reason) without the patched build.
SPDX-License-Identifier: Apache-2.0
"""
import glob
import hashlib
import os
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../layer/vulkan/test"))
from vkbench_modules import embedded_modules  # noqa: E402

# Binaries of the root's Debian 13 packages that carry SPIR-V modules.
ROOT_BINARIES = ("usr/bin/vkcube", "usr/lib/x86_64-linux-gnu/libvulkan_*.so",
                 "usr/lib/x86_64-linux-gnu/libVkLayer_*.so")
# spirv2nir's stage names by execution model (those it has).
STAGES = {0: "vs", 1: "tcs", 2: "tes", 3: "gs", 4: "fs", 5: "cs", 6: "cl", 5267: "task",
          5268: "mesh", 5364: "task", 5365: "mesh"}
OP_ENTRY_POINT = 15
# What spirv2nir prints when spirv_to_nir() fails.
FAILED = "SPIRV to NIR compilation failed"


def entry_points(words):
    """(execution model, name) of each OpEntryPoint of the module."""
    found, i = [], 5
    while i < len(words):
        count, opcode = words[i] >> 16, words[i] & 0xFFFF
        if count == 0 or i + count > len(words):
            break
        if opcode == OP_ENTRY_POINT and count >= 4:
            raw = struct.pack("<%dI" % (count - 3), *words[i + 3:i + count])
            found.append((words[i + 1], raw.split(b"\0", 1)[0].decode("utf-8", "replace")))
        i += count
    return found


def collect(root, module_dirs, lowerable):
    """{sha256: (bytes, origin, lowerable)} of every module, the same words once."""
    modules = {}

    def add(data, origin, lowers=False):
        modules.setdefault(hashlib.sha256(data).hexdigest(), (data, origin, lowers))

    for pattern in ROOT_BINARIES:
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            if os.path.islink(path):
                continue
            with open(path, "rb") as f:
                data = f.read()
            for offset, size in embedded_modules(data):
                add(data[offset:offset + size], "Debian 13 /%s at byte %d" % (
                    os.path.relpath(path, root), offset))
    for d in module_dirs:
        for path in sorted(glob.glob(os.path.join(d, "*.spv"))):
            with open(path, "rb") as f:
                add(f.read(), path)
    spirv_as, sources = lowerable
    for path in sources:
        run = subprocess.run([spirv_as, "-o", "-", path], stdout=subprocess.PIPE)
        if run.returncode != 0:
            sys.exit("same_nir: %s does not assemble" % path)
        add(run.stdout, path, True)
    return modules


def translated(path):
    """Whether spirv2nir translated the module: its exit status (mesa-native.sh nir wrote it as
    the output's last line) is 0 and it did not say it failed (it exits 0 when it does)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        out = f.read()
    return out.endswith("exit status 0\n") and FAILED not in out


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: same_nir.py MESA_NATIVE_DIR MESA_NATIVE_SH [MODULE_DIR...]")
    native, script, module_dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
    lowerable = (None, [])
    if "--lowerable" in module_dirs:
        at = module_dirs.index("--lowerable")
        if at + 1 >= len(module_dirs):
            sys.exit("same_nir: --lowerable SPIRV_AS ASM...")
        lowerable = (module_dirs[at + 1], module_dirs[at + 2:])
        module_dirs = module_dirs[:at]
    root = os.path.join(native, "root")
    if not os.path.isfile(os.path.join(native, "ready")):
        reason = "not built (the mesa-native.build test builds it)"
        if os.path.isfile(os.path.join(native, "unavailable")):
            with open(os.path.join(native, "unavailable"), encoding="utf-8") as f:
                reason = f.read().strip()
        print("SKIP: the patched Mesa is not available: " + reason)
        sys.exit(77)
    if os.geteuid() != 0:
        print("SKIP: runs in a chroot of the Debian 13 root, which needs root")
        sys.exit(77)

    work = os.path.join(root, "mesa/nir")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "in"))
    origins, lowers, lines, unsupported = {}, {}, [], 0
    for k, (_, (data, origin, lower)) in enumerate(
            sorted(collect(root, module_dirs, lowerable).items())):
        name = "m%03d.spv" % k
        origins[name], lowers[name] = origin, lower
        with open(os.path.join(work, "in", name), "wb") as f:
            f.write(data)
        words = struct.unpack("<%dI" % (len(data) // 4), data[:len(data) // 4 * 4])
        for model, entry in entry_points(words):
            if model not in STAGES or "\t" in entry or "\n" in entry:
                unsupported += 1
                continue
            lines.append("%s\t%s\t%s\n" % (name, STAGES[model], entry))
    with open(os.path.join(work, "list"), "w", encoding="utf-8") as f:
        f.writelines(lines)

    run = subprocess.run(["sh", script, "nir", native], stdout=subprocess.PIPE,
                         universal_newlines=True)
    if run.returncode != 0:
        print(run.stdout)
        print("same_nir: FAIL: mesa-native.sh nir exited with %d" % run.returncode)
        sys.exit(1)
    counts = {"same-nir": 0, "same-failure": 0, "differ": 0}
    lowered, wrong = 0, 0
    for line in run.stdout.splitlines():
        fields = line.split("\t")
        if len(fields) != 5 or fields[0] not in counts:
            print("same_nir: " + line)
            continue
        verdict, name, stage, entry, size = fields
        diff = "%s/diff/%s.%s" % (work, name, stage)
        if lowers[name]:
            # Refused by the control, translated by the patched spirv2nir.
            ok = verdict == "differ" and not translated(diff + ".control") and \
                translated(diff + ".patched")
            lowered += ok
            wrong += not ok
            print("  %s: %s %s '%s' (%s): %s" % ("lowered" if ok else "FAIL", name, stage, entry,
                                               origins[name], "refused by the control, "
                                               "translated by the patched spirv2nir" if ok
                                               else verdict))
            continue
        counts[verdict] += 1
        if verdict != "same-nir":
            print("  %s: %s %s '%s' (%s; %s bytes of output)" % (verdict, name, stage, entry,
                                                                origins[name], size))
        if verdict == "differ":
            print("    outputs: %s.{control,patched}" % diff)
    print("same_nir: %d modules (%d entry points, %d of stages spirv2nir does not take): "
          "%d translated to the same NIR, %d refused the same way by both, %d differ; "
          "%d of %d lowerable ones lowered" % (
              len(origins), len(lines), unsupported, counts["same-nir"],
              counts["same-failure"], counts["differ"], lowered, lowered + wrong))
    if counts["differ"] or wrong or counts["same-nir"] == 0 or sum(counts.values()) + \
            lowered + wrong != len(lines) or (lowerable[1] and lowered == 0):
        print("same_nir: FAIL")
        sys.exit(1)


if __name__ == "__main__":
    main()
