#!/usr/bin/env python3
"""Checks behind the ctest tests of test/install (one subcommand per kind of test).

exports            the shared library exports exactly the SPVBC_API functions of the header
static-namespace   every global symbol of the static archive is spvbc_-prefixed
no-cxx             the libraries need no C++ runtime
install            `cmake --install` into a prefix; the installed files and their properties
consumer-cmake     a consumer project built through find_package(SPIRV-Bitcast), run
consumer-pkgconfig a consumer compiled with pkg-config's flags, run
library-only       the library alone (no C++, no SPIRV-Tools) installed; a find_package consumer
subdir             a consumer project that takes the tree with add_subdirectory(), library-only
doc-example        docs/embedding.md shows consumer.c verbatim
opt-parity         `spirv-bitcast opt FLAGS` writes the bytes `spirv-opt FLAGS` writes
opt-run            one `spirv-bitcast opt` command: status, stderr, output checked by spirv-val

Every check prints what it compared and exits non-zero on a mismatch.
SPDX-License-Identifier: Apache-2.0
"""

import argparse
import filecmp
import os
import re
import shlex
import shutil
import subprocess
import sys


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def run(cmd, env=None, cwd=None, check=True):
    """Runs `cmd` (a list), echoing it; returns the CompletedProcess with text output."""
    print("$ " + " ".join(shlex.quote(c) for c in cmd), flush=True)
    proc = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, errors="replace")
    if check and proc.returncode != 0:
        sys.stdout.write(proc.stdout)
        sys.stderr.write(proc.stderr)
        fail("exit status %d from %s" % (proc.returncode, cmd[0]))
    return proc


def fresh_dir(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)


# ------------------------------------------------------------------------------------------
# The library binary

def header_functions(header_path):
    """The names of the functions the header declares with SPVBC_API."""
    with open(header_path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"\\\n", " ", text)
    text = re.sub(r"^[ \t]*#[^\n]*", " ", text, flags=re.M)
    names = re.findall(r"\bSPVBC_API\b[^;{(]*?\b([A-Za-z_]\w*)\s*\(", text)
    if not names:
        fail("no SPVBC_API declaration found in " + header_path)
    dups = sorted({n for n in names if names.count(n) > 1})
    if dups:
        fail("declared twice: " + ", ".join(dups))
    return set(names)


def nm_symbols(nm, args, path):
    """Symbol names (version suffix dropped) listed by `nm args path`."""
    out = run([nm] + args + [path]).stdout
    names = set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 2 and not line.endswith(":"):
            names.add(fields[-1].split("@")[0])
    return names


def cmd_exports(a):
    declared = header_functions(a.header)
    bad = sorted(n for n in declared if not n.startswith("spvbc_"))
    if bad:
        fail("public functions without the spvbc_ prefix: " + ", ".join(bad))
    exported = nm_symbols(a.nm, ["-D", "--defined-only"], a.shared)
    print("header declares %d SPVBC_API functions; %s exports %d symbols"
          % (len(declared), os.path.basename(a.shared), len(exported)))
    extra = sorted(exported - declared)
    missing = sorted(declared - exported)
    if extra:
        print("exported but not declared SPVBC_API: " + ", ".join(extra))
    if missing:
        print("declared SPVBC_API but not exported: " + ", ".join(missing))
    static_defined = nm_symbols(a.nm, ["-g", "--defined-only"], a.static)
    missing_static = sorted(declared - static_defined)
    if missing_static:
        print("declared but not defined in the static library: " + ", ".join(missing_static))
    if extra or missing or missing_static:
        fail("the exported symbol list differs from the header")
    for name in sorted(declared):
        print("  " + name)


def cmd_static_namespace(a):
    defined = nm_symbols(a.nm, ["-g", "--defined-only"], a.static)
    # AddressSanitizer's ODR indicator of a global (a sanitizer build) carries the global's own
    # name: __odr_asan.spvbc__oom_diagnostic is in the namespace too.
    foreign = sorted(n for n in defined
                     if not n.startswith("spvbc_") and not n.startswith("__odr_asan.spvbc_"))
    print("%s defines %d global symbols" % (os.path.basename(a.static), len(defined)))
    if foreign:
        fail("global symbols outside the spvbc_ namespace (they can clash with a program "
             "linking the archive): " + ", ".join(foreign))


CXX_LIBS = re.compile(r"libstdc\+\+|libc\+\+|libsupc\+\+|libc\+\+abi")
CXX_SYMBOLS = re.compile(r"^(_Z|__cxa_|__gxx_personality|_Unwind_Resume$|__dynamic_cast$)")


def cxx_undefined(nm, args, path):
    """C++ runtime symbols among the undefined symbols of `path` (glibc's __cxa_finalize and
    __cxa_atexit, which every C shared object references, are C runtime)."""
    out = run([nm] + args + [path]).stdout
    found = []
    for line in out.splitlines():
        fields = line.split()
        if not fields or line.endswith(":"):
            continue
        name, _, version = fields[-1].partition("@")
        if CXX_SYMBOLS.search(name) and not version.lstrip("@").startswith("GLIBC"):
            found.append(fields[-1])
    return found


def cmd_no_cxx(a):
    dyn = run([a.readelf, "-d", a.shared]).stdout
    needed = re.findall(r"\(NEEDED\).*\[(.+?)\]", dyn)
    print("NEEDED: " + ", ".join(needed))
    if not any(n.startswith("libc.so") for n in needed):
        fail("readelf output not understood (no libc.so among NEEDED)")
    cxx = [n for n in needed if CXX_LIBS.search(n)]
    if cxx:
        fail("the shared library needs a C++ runtime: " + ", ".join(cxx))
    bad = cxx_undefined(a.nm, ["-D", "--undefined-only"], a.shared)
    bad += cxx_undefined(a.nm, ["--undefined-only"], a.static)
    if bad:
        fail("C++ runtime symbols referenced: " + ", ".join(sorted(set(bad))))
    print("no C++ runtime in %s or %s" % (a.shared, a.static))


# ------------------------------------------------------------------------------------------
# The installed tree and its consumers

def cmd_install(a):
    fresh_dir(a.prefix)
    # Only this project's components: other parts of the tree (the layer, ...) have their own.
    for component in ("spvbc_runtime", "spvbc_dev"):
        run([a.cmake, "--install", a.build_dir, "--prefix", a.prefix,
             "--component", component])
    p = lambda *parts: os.path.join(a.prefix, *parts)
    lib = lambda name: p(a.libdir, name)
    pkgdir = p(a.libdir, "cmake", "SPIRV-Bitcast")
    expect = [p(a.includedir, "spirv_bitcast.h"), lib("libspirv-bitcast.a"),
              lib("libspirv-bitcast.so." + a.version), lib("libspirv-bitcast.so." + a.soversion),
              lib("libspirv-bitcast.so"), p(a.bindir, "spirv-bitcast"),
              os.path.join(pkgdir, "SPIRV-BitcastConfig.cmake"),
              os.path.join(pkgdir, "SPIRV-BitcastConfigVersion.cmake"),
              os.path.join(pkgdir, "SPIRV-BitcastTargets.cmake"),
              lib("pkgconfig/spirv-bitcast.pc")]
    missing = [e for e in expect if not os.path.exists(e)]
    if missing:
        fail("not installed: " + ", ".join(missing))
    if not filecmp.cmp(a.header, expect[0], shallow=False):
        fail("the installed header differs from include/spirv_bitcast.h")
    if os.path.islink(expect[2]) or not os.path.islink(expect[3]) \
            or not os.path.islink(expect[4]):
        fail("expected a real libspirv-bitcast.so.%s and .so.%s, .so links"
             % (a.version, a.soversion))
    dyn = run([a.readelf, "-d", expect[2]]).stdout
    soname = re.findall(r"\(SONAME\).*\[(.+?)\]", dyn)
    if soname != ["libspirv-bitcast.so." + a.soversion]:
        fail("SONAME is %s, expected libspirv-bitcast.so.%s" % (soname, a.soversion))
    with open(expect[-1], encoding="utf-8") as f:
        pc = f.read()
    if not re.search(r"^Version: %s$" % re.escape(a.version), pc, re.M):
        fail("spirv-bitcast.pc has no 'Version: %s'" % a.version)
    # Relocatable: nothing installed for find_package or pkg-config names the build tree or
    # the prefix (the files locate the prefix from their own directory).
    for path in expect[6:]:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for where in (os.path.realpath(a.build_dir), os.path.realpath(a.prefix)):
            if where in text:
                fail("%s names %s: not relocatable" % (path, where))
    version = run([expect[5], "--version"]).stdout
    if a.version not in version:
        fail("installed spirv-bitcast --version printed %r" % version)
    print("installed into %s: %d files checked, SONAME %s" % (a.prefix, len(expect), soname[0]))


def check_consumer_run(exe, out_spv, spirv_val):
    proc = run([exe, out_spv])
    sys.stdout.write(proc.stdout)
    sys.stderr.write(proc.stderr)
    if "lowered 1 bitcast" not in proc.stdout or "handed on" not in proc.stdout:
        fail("%s did not lower and hand on the module" % exe)
    run([spirv_val, out_spv])


def cmd_consumer_cmake(a):
    fresh_dir(a.work)
    build = os.path.join(a.work, "build")
    cfg = [a.cmake, "-S", a.source, "-B", build, "-DCMAKE_PREFIX_PATH=" + a.prefix,
           "-DCMAKE_C_COMPILER=" + a.c_compiler, "-DCMAKE_BUILD_TYPE=Release",
           "-DSPVBC_EXPECT_VERSION=" + a.version]
    if a.c_flags:
        cfg.append("-DCMAKE_C_FLAGS=" + a.c_flags)
    proc = run(cfg)
    sys.stdout.write(proc.stdout)
    run([a.cmake, "--build", build])
    outs = []
    for kind in ("shared", "static"):
        exe = os.path.join(build, "consumer_" + kind)
        outs.append(os.path.join(a.work, kind + ".spv"))
        check_consumer_run(exe, outs[-1], a.spirv_val)
    if not filecmp.cmp(outs[0], outs[1], shallow=False):
        fail("the shared and the static consumer handed on different words")
    print("find_package consumer: shared and static builds ran; output passes spirv-val")


def cmd_consumer_pkgconfig(a):
    fresh_dir(a.work)
    env = dict(os.environ)
    env["PKG_CONFIG_LIBDIR"] = os.path.join(a.prefix, a.libdir, "pkgconfig")
    env.pop("PKG_CONFIG_PATH", None)
    pc = lambda *args: run([a.pkg_config] + list(args) + ["spirv-bitcast"], env=env).stdout
    modversion = pc("--modversion").strip()
    if modversion != a.version:
        fail("pkg-config --modversion gave %r, expected %r" % (modversion, a.version))
    cflags = shlex.split(pc("--cflags"))
    libs = shlex.split(pc("--libs"))
    libdir = pc("--variable=libdir").strip()
    if os.path.realpath(libdir) != os.path.realpath(os.path.join(a.prefix, a.libdir)):
        fail("pkg-config libdir %s is not the installed %s/%s" % (libdir, a.prefix, a.libdir))
    exe = os.path.join(a.work, "consumer")
    run([a.c_compiler, "-std=c11", "-Wall", "-Wextra", "-pedantic", "-Werror"]
        + shlex.split(a.c_flags) + cflags + [a.source, "-o", exe] + libs
        + ["-Wl,-rpath," + libdir])
    check_consumer_run(exe, os.path.join(a.work, "out.spv"), a.spirv_val)
    print("pkg-config consumer: built with %s, ran; output passes spirv-val"
          % " ".join(cflags + libs))


LIBRARY_ONLY_OPTIONS = ["-DSPVBC_BUILD_CLI=OFF", "-DSPVBC_BUILD_TESTS=OFF",
                        "-DSPVBC_BUILD_LAYERS=OFF", "-DSPVBC_BUILD_EXAMPLES=OFF",
                        "-DSPVBC_BUILD_BENCH=OFF"]
# A C++ compiler that does not exist: a library-only configure must not need one.
NO_CXX = "-DCMAKE_CXX_COMPILER=/nonexistent/c++"


def build_consumers(build, work, spirv_val):
    """Runs the shared and static consumers built in `build`; their outputs must agree."""
    outs = []
    for kind in ("shared", "static"):
        outs.append(os.path.join(work, kind + ".spv"))
        check_consumer_run(os.path.join(build, "consumer_" + kind), outs[-1], spirv_val)
    if not filecmp.cmp(outs[0], outs[1], shallow=False):
        fail("the shared and the static consumer handed on different words")


def cmd_library_only(a):
    fresh_dir(a.work)
    build, prefix = os.path.join(a.work, "build"), os.path.join(a.work, "prefix")
    cfg = [a.cmake, "-S", a.source_root, "-B", build, "-DCMAKE_C_COMPILER=" + a.c_compiler,
           NO_CXX, "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_INSTALL_LIBDIR=lib"] \
        + LIBRARY_ONLY_OPTIONS
    if a.c_flags:
        cfg.append("-DCMAKE_C_FLAGS=" + a.c_flags)
    run(cfg)
    run([a.cmake, "--build", build])
    run([a.cmake, "--install", build, "--prefix", prefix])
    installed = sorted(os.path.relpath(os.path.join(d, f), prefix)
                       for d, _, files in os.walk(prefix) for f in files)
    expect = ["include/spirv_bitcast.h", "lib/cmake/SPIRV-Bitcast/SPIRV-BitcastConfig.cmake",
              "lib/cmake/SPIRV-Bitcast/SPIRV-BitcastConfigVersion.cmake",
              "lib/cmake/SPIRV-Bitcast/SPIRV-BitcastTargets-release.cmake",
              "lib/cmake/SPIRV-Bitcast/SPIRV-BitcastTargets.cmake", "lib/libspirv-bitcast.a",
              "lib/libspirv-bitcast.so", "lib/libspirv-bitcast.so." + a.version,
              "lib/libspirv-bitcast.so." + ".".join(a.version.split(".")[:2]),
              "lib/pkgconfig/spirv-bitcast.pc"]
    if installed != sorted(expect):
        fail("a library-only install made %s, expected %s" % (installed, sorted(expect)))
    # docs/embedding.md lists the same files (its embedder's checklist).
    with open(a.doc, encoding="utf-8") as f:
        doc = f.read()
    m = re.search(r"<!-- library-only install: checked by ctest install.library_only -->\n"
                  r"(.*?)<!-- end of the library-only install -->", doc, flags=re.S)
    listed = sorted(line.strip() for line in m.group(1).splitlines() if line.strip()) if m else []
    if listed != sorted(expect):
        fail("%s lists %s as the library-only install; it makes %s" % (a.doc, listed, installed))
    consumer = os.path.join(a.work, "consumer")
    cfg = [a.cmake, "-S", os.path.join(os.path.dirname(__file__), "consumer"), "-B", consumer,
           "-DCMAKE_PREFIX_PATH=" + prefix, "-DCMAKE_C_COMPILER=" + a.c_compiler,
           "-DCMAKE_BUILD_TYPE=Release", "-DSPVBC_EXPECT_VERSION=" + a.version,
           "-DSPVBC_EXPECT_CLI=OFF"]
    if a.c_flags:
        cfg.append("-DCMAKE_C_FLAGS=" + a.c_flags)
    run(cfg)
    run([a.cmake, "--build", consumer])
    build_consumers(consumer, a.work, a.spirv_val)
    print("library-only: configured without C++ or SPIRV-Tools, installed %d files; the "
          "find_package consumer ran" % len(installed))


def cmd_subdir(a):
    fresh_dir(a.work)
    build = os.path.join(a.work, "build")
    cfg = [a.cmake, "-S", os.path.join(os.path.dirname(__file__), "subdir"), "-B", build,
           "-DSPVBC_SOURCE_DIR=" + a.source_root, "-DCMAKE_C_COMPILER=" + a.c_compiler, NO_CXX,
           "-DCMAKE_BUILD_TYPE=Release"]
    if a.c_flags:
        cfg.append("-DCMAKE_C_FLAGS=" + a.c_flags)
    run(cfg)
    run([a.cmake, "--build", build])
    build_consumers(build, a.work, a.spirv_val)
    print("add_subdirectory consumer: library-only, no C++; shared and static builds ran")


def cmd_doc_example(a):
    with open(a.doc, encoding="utf-8") as f:
        doc = f.read()
    with open(a.source, encoding="utf-8") as f:
        source = f.read()
    blocks = re.findall(r"^```c\n(.*?)^```$", doc, flags=re.S | re.M)
    if source not in blocks:
        fail("no ```c block of %s equals %s; copy the file into the document"
             % (a.doc, a.source))
    print("%s shows %s verbatim" % (a.doc, a.source))


# ------------------------------------------------------------------------------------------
# spirv-bitcast opt

def cmd_opt_parity(a):
    ours, _, theirs = a.flags.partition("|")
    theirs = theirs or ours
    fresh_dir(a.work)
    mine = os.path.join(a.work, "spirv-bitcast-opt.spv")
    ref = os.path.join(a.work, "spirv-opt.spv")
    run([a.spirv_opt] + shlex.split(theirs) + [a.input, "-o", ref])
    proc = run(shlex.split(a.opt) + shlex.split(ours) + [a.input, "-o", mine])
    sys.stderr.write(proc.stderr)
    with open(mine, "rb") as f:
        got = f.read()
    with open(ref, "rb") as f:
        want = f.read()
    if got != want:
        first = next((i for i in range(min(len(got), len(want))) if got[i] != want[i]),
                     min(len(got), len(want)))
        fail("outputs differ: %d vs %d bytes, first difference at word %d"
             % (len(got), len(want), first // 4))
    print("identical: %d bytes (input %d bytes) for [%s] vs spirv-opt [%s]"
          % (len(got), os.path.getsize(a.input), ours, theirs))


def cmd_opt_run(a):
    fresh_dir(a.work)
    out = os.path.join(a.work, "out.spv")
    cmd = shlex.split(a.opt) + a.args + ([] if a.no_output else ["-o", out])
    proc = run(cmd, check=False)
    sys.stdout.write(proc.stdout)
    sys.stderr.write(proc.stderr)
    if proc.returncode != a.status:
        fail("exit status %d, expected %d" % (proc.returncode, a.status))
    if not re.search(a.stderr, proc.stderr, re.S):
        fail("stderr does not match %r" % a.stderr)
    if a.stdout is not None and not re.search(a.stdout, proc.stdout, re.S):
        fail("stdout does not match %r" % a.stdout)
    if a.no_output:
        return
    if a.status != 0:
        if os.path.exists(out):
            fail("a failed run wrote %s" % out)
        return
    run([a.spirv_val, out])
    if a.dis is not None:
        dis = run([a.spirv_dis, out]).stdout
        if not re.search(a.dis, dis):
            fail("the output's disassembly does not match %r" % a.dis)
    print("status %d as expected; output passes spirv-val" % proc.returncode)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)

    def command(name, fn, required, optional=()):
        """A subcommand `name` running `fn`, with the `required` --options and the `optional`
        ones (each a name and its default)."""
        s = sub.add_parser(name)
        for opt in required:
            s.add_argument("--" + opt, required=True)
        for opt, default in optional:
            s.add_argument("--" + opt, default=default)
        s.set_defaults(fn=fn)
        return s

    command("exports", cmd_exports, ("nm", "header", "shared", "static"))
    command("static-namespace", cmd_static_namespace, ("nm", "static"))
    command("no-cxx", cmd_no_cxx, ("nm", "readelf", "shared", "static"))
    command("install", cmd_install,
            ("cmake", "build-dir", "prefix", "libdir", "includedir", "bindir", "version",
             "soversion", "readelf", "header"))
    command("consumer-cmake", cmd_consumer_cmake,
            ("cmake", "prefix", "source", "work", "c-compiler", "version", "spirv-val"),
            (("c-flags", ""),))
    command("consumer-pkgconfig", cmd_consumer_pkgconfig,
            ("pkg-config", "prefix", "libdir", "source", "work", "c-compiler", "version",
             "spirv-val"),
            (("c-flags", ""),))
    command("library-only", cmd_library_only,
            ("cmake", "source-root", "work", "c-compiler", "version", "spirv-val", "doc"),
            (("c-flags", ""),))
    command("subdir", cmd_subdir, ("cmake", "source-root", "work", "c-compiler", "spirv-val"),
            (("c-flags", ""),))
    command("doc-example", cmd_doc_example, ("doc", "source"))
    command("opt-parity", cmd_opt_parity, ("opt", "spirv-opt", "input", "flags", "work"))

    s = command("opt-run", cmd_opt_run, ("opt", "spirv-val", "spirv-dis", "stderr", "work"))
    s.add_argument("--status", type=int, required=True)
    s.add_argument("--stdout")
    s.add_argument("--dis")
    s.add_argument("--no-output", action="store_true")
    s.add_argument("args", nargs=argparse.REMAINDER)

    a = ap.parse_args()
    if getattr(a, "args", None) and a.args[0] == "--":
        a.args = a.args[1:]
    a.fn(a)


if __name__ == "__main__":
    main()
