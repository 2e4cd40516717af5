#!/usr/bin/env python3
"""man_check.py - docs/man/spirv-bitcast-layers.7.scd says what the layers' core does.

    man_check.py <page.scd> <layer/core dir> <spirv_bitcast.h source dir>

Checks, both ways where it can:
- the variables of ENVIRONMENT are exactly the SPVBC_LAYER_* variables the core's files
  (layer/core/*.c, "the core" below) read: SPVBC_LAYER_<KEY> for each key of
  spvbc_layer_setting_keys[], and KHRONOS SETTINGS names every key with its
  VK_SPVBC_BITCAST_<KEY>;
- SPVBC_LAYER_MODE's values are the core's mode names, SPVBC_LAYER_PAD's the library's pad
  policy names (pad_names[] in source/*.c), the first listed being the default;
- every verdict the page lists is one the core can print, and every verdict the core prints is
  listed.
Prints one line per finding; exit 0 when there is none, 1 otherwise.
"""
import glob
import re
import sys


def main():
    page, core, srcdir = sys.argv[1], sys.argv[2], sys.argv[3]
    text = open(page, encoding="utf-8").read()
    code = "".join(open(f, encoding="utf-8").read()
                   for f in sorted(glob.glob(core + "/*.c")))
    problems = []

    env = text.split("# ENVIRONMENT", 1)[1].split("\n# ", 1)[0]
    documented = dict(re.findall(r"^\*(SPVBC_LAYER_\w+)\*=(.*)$", env, re.M))
    # The core reads each key of spvbc_layer_setting_keys[] as SPVBC_LAYER_<KEY> (env_get).
    keys = re.search(r"spvbc_layer_setting_keys\[[^\]]*\]\s*=\s*\{([^}]*)\}", code)
    keys = re.findall(r'"([a-z_]+)"', keys.group(1)) if keys else []
    if not keys or '"SPVBC_LAYER_"' not in code:
        problems.append("the core's spvbc_layer_setting_keys[] or its SPVBC_LAYER_ prefix not found")
    read = {"SPVBC_LAYER_" + k.upper() for k in keys}
    # The Vulkan layer's Khronos channels: every key and its VK_SPVBC_BITCAST_<KEY> documented.
    khronos = text.split("# KHRONOS SETTINGS", 1)[1].split("\n# ", 1)[0] \
        if "# KHRONOS SETTINGS" in text else ""
    for k in keys:
        if f"*{k}*" not in khronos or f"VK_SPVBC_BITCAST_{k.upper()}" not in khronos:
            problems.append(f"setting {k} (VK_SPVBC_BITCAST_{k.upper()}) is not in KHRONOS SETTINGS")
    for v in sorted(read - set(documented)):
        problems.append(f"{v} is read by the core but not in ENVIRONMENT")
    for v in sorted(set(documented) - read):
        problems.append(f"{v} is in ENVIRONMENT but the core does not read it")

    def values(var):
        return re.findall(r"\*([a-z]+)\*", documented.get(var, ""))

    modes = re.search(r"g_modes\[\]\s*=\s*\{([^}]*)\}", code)
    modes = re.findall(r'"([a-z]+)"', modes.group(1)) if modes else []
    if values("SPVBC_LAYER_MODE") != modes:
        problems.append(f"SPVBC_LAYER_MODE: page {values('SPVBC_LAYER_MODE')}, code {modes}")
    lib = "".join(open(f, encoding="utf-8").read() for f in glob.glob(srcdir + "/*.c"))
    pads = re.search(r"pad_names\[\]\s*=\s*\{([^}]*)\}", lib)
    pad_names = re.findall(r'"(undef|zero|error)"', pads.group(1)) if pads else []
    if sorted(values("SPVBC_LAYER_PAD")) != sorted(pad_names) or \
            values("SPVBC_LAYER_PAD")[:1] != ["undef"]:
        problems.append(f"SPVBC_LAYER_PAD: page {values('SPVBC_LAYER_PAD')}, "
                        f"library {pad_names} (default undef)")
    if "stderr" not in values("SPVBC_LAYER_LOG") or '"stderr"' not in code:
        problems.append("SPVBC_LAYER_LOG: stderr not documented or not read")

    # Verdicts: the page's "*unchanged (valid,* ..." items against the code's formats.
    log = text.split("# LOG", 1)[1].split("\n# ", 1)[0]
    page_verdicts = set()
    for item in re.findall(r"^\*(unchanged \([a-z ]*|lowered)\*?", log, re.M):
        page_verdicts.add(item.rstrip(" :,(").split(":")[0].split(",")[0].strip())
    code_verdicts = set()
    for fmt in re.findall(r'"((?:unchanged \(|lowered )[^"%]*)', code):
        code_verdicts.add(fmt.rstrip(" :,(").split(":")[0].split(",")[0].strip())
    # "unchanged (%zu errors" starts with a number in the code: compare the words only.
    norm = lambda s: re.sub(r"\s+", " ", s.replace("(", "( ")).strip()
    pv = {norm(v) for v in page_verdicts}
    cv = {norm(v) for v in code_verdicts}
    for v in sorted(cv - pv):
        problems.append(f"verdict '{v}' printed by the core is not in LOG")
    for v in sorted(pv - cv):
        problems.append(f"verdict '{v}' in LOG is not printed by the core")

    for p in problems:
        print("man_check:", p)
    print(f"man_check: {len(documented)} variables, {len(pv)} verdicts: "
          f"{'OK' if not problems else str(len(problems)) + ' problem(s)'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
