#!/usr/bin/env python3
"""vkbench_modules.py - the modules of spvbc_layer_vkbench's kit (layer/vulkan/test/CMakeLists.txt).

  vkbench_modules.py OUT SRC GLSLANG SPIRV_AS SPIRV_VAL

OUT/compute2k/  the clean 2 KB compute module: SRC/test/real/glsl/pack_uint2x32.comp, compiled
                by glslang.
OUT/real/       real modules, each accepted by spirv-val for some Vulkan target:
                - the SPIR-V that Debian packages carry inside their binaries (vkcube, Mesa's
                  overlay layer and Intel driver, the Khronos validation layer: whichever of
                  them is installed), cut out of the binary: a module begins with the magic
                  number and a plausible header, and ends after its last OpFunctionEnd;
                - the GLSL shaders of the tree's corpora compiled by glslang;
                - the tree's Shader-capability .spvasm files that spirv-val accepts.
OUT/SOURCES.txt says where each module came from.  Exit status 1 when the 2 KB module cannot
be made or OUT/real ends up empty.
SPDX-License-Identifier: Apache-2.0
"""
import glob
import os
import shutil
import struct
import subprocess
import sys

ENVS = ("vulkan1.0", "vulkan1.1", "vulkan1.2", "vulkan1.3")
# Binaries of Debian 12 packages that hold SPIR-V modules (vulkan-tools,
# mesa-vulkan-drivers, vulkan-validationlayers).
BINARIES = ("/usr/bin/vkcube", "libVkLayer_MESA_overlay.so", "libvulkan_intel.so",
            "libVkLayer_khronos_validation.so")
LIBDIRS = ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib")
MAGIC = b"\x03\x02\x23\x07"
OP_FUNCTION_END = 56


def embedded_modules(data):
    """(offset, size) of each SPIR-V module in `data`."""
    found = []
    i = data.find(MAGIC)
    while i != -1:
        if i % 4 == 0 and i + 20 <= len(data):
            version, _, bound, schema = struct.unpack_from("<4I", data, i + 4)
            if version & 0xFF00FFFF == 0 and 0x10000 <= version <= 0x10600 and schema == 0 \
                    and 0 < bound < 4194304:
                p, end = i + 20, None
                while p + 4 <= len(data):
                    word = struct.unpack_from("<I", data, p)[0]
                    count, opcode = word >> 16, word & 0xFFFF
                    if count == 0 or p + 4 * count > len(data) or opcode > 7000:
                        break
                    p += 4 * count
                    if opcode == OP_FUNCTION_END:
                        end = p
                if end is not None:
                    found.append((i, end - i))
                    i = end - 4
        i = data.find(MAGIC, i + 4)
    return found


def tree_spvasm(src):
    """The .spvasm files of the tree's own folders, sorted: never a build directory's (the
    build tree holds Debian trees of hundreds of thousands of files)."""
    found = []
    for top in ("test", "layer", "examples"):
        for root, dirs, files in os.walk(os.path.join(src, top)):
            dirs[:] = [d for d in dirs if not d.startswith(("build", "."))]
            found.extend(os.path.join(root, f) for f in files if f.endswith(".spvasm"))
    return sorted(found)


def valid(spirv_val, path):
    return any(subprocess.run([spirv_val, "--target-env", env, path], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0 for env in ENVS)


def main():
    if len(sys.argv) != 6:
        sys.exit("usage: vkbench_modules.py OUT SRC GLSLANG SPIRV_AS SPIRV_VAL")
    out, src, glslang, spirv_as, spirv_val = sys.argv[1:]
    shutil.rmtree(out, ignore_errors=True)
    real = os.path.join(out, "real")
    os.makedirs(real)
    os.makedirs(os.path.join(out, "compute2k"))
    sources = []

    def keep(path, origin):
        if valid(spirv_val, path):
            sources.append("%s: %s (%d bytes)" % (os.path.relpath(path, out), origin,
                                                  os.path.getsize(path)))
        else:
            os.remove(path)

    two_k = os.path.join(out, "compute2k", "pack_uint2x32.spv")
    comp = os.path.join(src, "test/real/glsl/pack_uint2x32.comp")
    if subprocess.run([glslang, "-V", "--target-env", "vulkan1.1", "-o", two_k, comp],
                      stdout=subprocess.DEVNULL).returncode != 0 or not valid(spirv_val, two_k):
        sys.exit("vkbench_modules.py: cannot make the 2 KB compute module from " + comp)
    sources.append("compute2k/pack_uint2x32.spv: glslang -V of test/real/glsl/pack_uint2x32.comp"
                   " (%d bytes)" % os.path.getsize(two_k))

    for name in BINARIES:
        paths = [name] if name.startswith("/") else [os.path.join(d, name) for d in LIBDIRS]
        path = next((p for p in paths if os.path.isfile(p)), None)
        if path is None:
            continue
        with open(path, "rb") as f:
            data = f.read()
        stem = os.path.basename(path).split(".")[0]
        for k, (offset, size) in enumerate(embedded_modules(data)):
            dest = os.path.join(real, "%s-%d.spv" % (stem, k))
            with open(dest, "wb") as f:
                f.write(data[offset:offset + size])
            keep(dest, "embedded in %s at byte %d" % (path, offset))

    for comp in sorted(glob.glob(os.path.join(src, "test/*/glsl/*.comp"))):
        dest = os.path.join(real, "glsl-" + os.path.basename(comp)[:-5] + ".spv")
        if subprocess.run([glslang, "-V", "--target-env", "vulkan1.1", "-o", dest, comp],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
            keep(dest, "glslang -V of " + os.path.relpath(comp, src))

    for asm in tree_spvasm(src):
        with open(asm, encoding="utf-8", errors="replace") as f:
            if "OpCapability Shader" not in f.read():
                continue
        dest = os.path.join(real, "asm-" + os.path.basename(asm)[:-7] + ".spv")
        for env in ENVS:
            if subprocess.run([spirv_as, "--target-env", env, "-o", dest, asm],
                              stderr=subprocess.DEVNULL).returncode == 0 and valid(spirv_val, dest):
                sources.append("%s: spirv-as of %s (%d bytes)" % (
                    os.path.relpath(dest, out), os.path.relpath(asm, src), os.path.getsize(dest)))
                break
        else:
            if os.path.exists(dest):
                os.remove(dest)

    if not glob.glob(os.path.join(real, "*.spv")):
        sys.exit("vkbench_modules.py: no real module found")
    with open(os.path.join(out, "SOURCES.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(sources) + "\n")
    print("vkbench_modules.py: %d modules in %s" % (len(sources), out))


if __name__ == "__main__":
    main()
