# -*- Python -*-
# lit configuration for the spirv-bitcast CLI fixtures.  Loaded from the lit.site.cfg.py that
# CMake writes into the build directory, which sets the tool paths used below.
import os
import shutil
import sys

import lit.formats

config.name = "spirv-bitcast"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".spvasm", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "README.md"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.lit_binary_dir, "out")

# Every tool is found through PATH, with the directories of the configured tools in front, so a
# RUN line says `spirv-bitcast`, `spirv-as`, `FileCheck` and `not` exactly as a user would.
tools = {
    "spirv-bitcast": config.spvbc_bin,
    "spirv-as": config.spirv_as,
    "spirv-val": config.spirv_val,
    "spirv-dis": config.spirv_dis,
    "FileCheck": config.filecheck,
    "not": config.not_tool,
}
path = []
for name, exe in tools.items():
    if not exe or exe.endswith("-NOTFOUND") or not os.path.exists(exe):
        lit_config.fatal("tool %s not found (configured as %r)" % (name, exe))
    if os.path.basename(exe) != name:
        lit_config.fatal("tool %s is configured as %r: its file name must be %s"
                         % (name, exe, name))
    d = os.path.dirname(os.path.abspath(exe))
    if d not in path:
        path.append(d)
config.environment["PATH"] = os.pathsep.join(path + [os.environ.get("PATH", "")])
# Under an emulator (the cross builds' wrapper, test/lit/CMakeLists.txt), a test that fails is
# run once more, and lit reports a second-time pass as FLAKYPASS: Wine now and then ends a
# process with status 1 and no output (`spirv-bitcast explain float4`, once in 2026-11-29's
# runs, then 4 of 4 passes).  The native run, the same fixtures, never retries.
if os.path.basename(os.path.dirname(config.spvbc_bin)) == "emulated":
    config.test_retry_attempts = 1
# WINE*/QEMU_*: the cross builds (test/cross) run the CLI under Wine or qemu-user.
for var in ("HOME", "TMPDIR", "LANG", "LC_ALL", "WINEPREFIX", "WINEDEBUG", "WINEPATH",
            "QEMU_LD_PREFIX"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# The interpreter running lit itself: a wrapper such as a pyenv shim costs a second per call.
config.substitutions.append(("%python", '"%s"' % (sys.executable or config.python)))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
# `%expect-exit N cmd args...` runs cmd and fails unless it exits with exactly N (lit's `not`
# only tells zero from non-zero; the CLI's exit codes 1 and 2 mean different things).
sh = shutil.which("sh") or "/bin/sh"
config.substitutions.append(
    ("%expect-exit", '"%s" "%s"' % (sh, os.path.join(config.test_source_root, "Inputs",
                                                     "expect_exit.sh"))))
config.substitutions.append(("%spvbc-version", config.spvbc_version))

# Optional compilers, for fixtures that start from OpenCL C.
if config.clang and os.path.exists(config.clang) and \
        config.llvm_spirv and os.path.exists(config.llvm_spirv):
    config.available_features.add("opencl-compiler")
    config.substitutions.append(("%clang", config.clang))
    config.substitutions.append(("%llvm-spirv", config.llvm_spirv))

# SPIRV-Tools 2026.4 from Debian unstable (the tree test/diff's spirv-tools-2026.fetch unpacks),
# for the fixtures of the types only it knows (bfloat16, float8, long vectors, ...): run under
# the tree's own loader by Inputs/sid_tool.sh.  Without the tree those fixtures are
# UNSUPPORTED (lit names them), never passed without running.
sid_root = os.path.join(getattr(config, "sid_tools", "") or "", "root")
if os.path.exists(os.path.join(os.path.dirname(sid_root), "ready")) and \
        os.path.exists(os.path.join(sid_root, "usr", "bin", "spirv-val")):
    config.available_features.add("spirv-tools-2026")
    for tool in ("spirv-as", "spirv-val", "spirv-dis", "glslangValidator"):
        config.substitutions.append(
            ("%%%s-2026" % tool, '"%s" "%s" "%s" %s' % (
                sh, os.path.join(config.test_source_root, "Inputs", "sid_tool.sh"), sid_root,
                tool)))
