#!/usr/bin/env python3
"""manifest_check.py - VK_LAYER_SPVBC_bitcast's generated manifests against the layer-manifest
format the Vulkan Configurator reads (LunarG VulkanTools, vkconfig_core/layers/layers_schema.json
and the loader's layer-manifest documentation), and against the settings the layer reads.

  manifest_check.py --settings-source <layer_settings.c> <manifest.json>...
      The documented rules, checked here (no schema file needed): the loader-facing fields;
      file_format_version 1.2.0 or later for "features"; every setting in "features"/"settings"
      has key, label, description, type and default of the right JSON types and no property
      outside its type's; ENUM settings have flags (key, label, description) with unique keys
      and a default among them; each env is VK_SPVBC_BITCAST_<KEY> (Vulkan-Utility-Libraries'
      form for the layer name); the keys are exactly spvbc_layer_setting_keys[] of
      layer_settings.c, and each ENUM's values exactly the names the layer accepts.
  manifest_check.py --schema <layers_schema.json> <manifest.json>...
      Validation against that schema with python3-jsonschema; exit 77 (SKIPPED) with the reason
      when no schema file is given (it is not packaged in Debian) or jsonschema is missing.

Exit 0 pass, 1 failure, 2 usage, 77 skipped.

SPDX-License-Identifier: Apache-2.0
"""
import argparse
import json
import os
import re
import sys

LAYER_NAME = "VK_LAYER_SPVBC_bitcast"
ENV_PREFIX = "VK_SPVBC_BITCAST_"  # "VK_" + the layer name without "VK_LAYER_", in capitals
COMMON = {"key", "env", "label", "description", "type", "default", "url", "platforms",
          "status", "view", "dependence"}
EXTRA = {"ENUM": {"flags"}, "STRING": set(), "SAVE_FILE": {"filter"}, "LOAD_FILE": {"filter"},
         "SAVE_FOLDER": set(), "BOOL": set(), "INT": {"range", "unit"}}


def c_strings(text, pattern):
    """The string literals of the first initializer list in `text` after regex `pattern`."""
    m = re.search(pattern + r"[^{]*\{([^}]*)\}", text)
    if not m:
        return None
    return re.findall(r'"([^"]*)"', m.group(1))


def layer_values(source):
    """What layer_settings.c reads: its keys, and the names each ENUM setting accepts."""
    with open(source, encoding="utf-8") as f:
        text = f.read()
    keys = c_strings(text, r"spvbc_layer_setting_keys\[[^\]]*\]\s*=")
    values = {
        "mode": c_strings(text, r"g_modes\[\]\s*="),
        "log_level": c_strings(text, r"g_levels\[\]\s*="),
        "generation": None,  # below: the names[] of setting_generation()
        # The library's spvbc_pad_policy_string() names, as layer_settings.c lists them.
        "pad": ["undef", "zero", "error"],
    }
    gen = re.search(r"setting_generation\([^)]*\)\s*\{(.*?)\n\}", text, re.S)
    if gen:
        values["generation"] = c_strings(gen.group(1), r"names\[\]\s*=")
    return keys, values


def check_setting(s, where, errors):
    """The rules of one setting object `s`; problems appended to `errors`."""
    if not isinstance(s, dict):
        errors.append(f"{where}: not an object")
        return
    for field in ("key", "label", "description", "type", "default"):
        if field not in s:
            errors.append(f"{where}: no '{field}'")
    for field in ("key", "label", "description", "type", "env"):
        if field in s and not isinstance(s[field], str):
            errors.append(f"{where}: '{field}' is not a string")
    kind = s.get("type")
    if kind not in EXTRA:
        errors.append(f"{where}: type {kind!r} is none the layer uses ({', '.join(EXTRA)})")
        return
    unknown = set(s) - COMMON - EXTRA[kind]
    if unknown:
        errors.append(f"{where}: properties a {kind} setting may not have: {sorted(unknown)}")
    if kind in ("ENUM", "STRING", "SAVE_FILE", "LOAD_FILE", "SAVE_FOLDER"):
        if "default" in s and not isinstance(s["default"], str):
            errors.append(f"{where}: the default of a {kind} setting is not a string")
    if kind == "ENUM":
        flags = s.get("flags")
        if not isinstance(flags, list) or not flags:
            errors.append(f"{where}: an ENUM setting without flags")
            return
        keys = []
        for i, flag in enumerate(flags):
            for field in ("key", "label", "description"):
                if not isinstance(flag, dict) or not isinstance(flag.get(field), str):
                    errors.append(f"{where}: flags[{i}] has no string '{field}'")
            if isinstance(flag, dict):
                keys.append(flag.get("key"))
        if len(set(keys)) != len(keys):
            errors.append(f"{where}: flag keys repeat: {keys}")
        if s.get("default") not in keys:
            errors.append(f"{where}: default {s.get('default')!r} is not among {keys}")


def check_manifest(path, keys, values, errors):
    """The rules of one manifest file."""
    with open(path, encoding="utf-8") as f:
        m = json.load(f)
    layer = m.get("layer", {})
    version = tuple(int(x) for x in m.get("file_format_version", "0.0.0").split("."))
    if version < (1, 2, 0):
        errors.append(f"{path}: file_format_version {version} is below 1.2.0 (needed for features)")
    for field in ("name", "type", "library_path", "api_version", "implementation_version",
                  "description", "functions"):
        if field not in layer:
            errors.append(f"{path}: layer has no '{field}'")
    if layer.get("name") != LAYER_NAME:
        errors.append(f"{path}: layer name {layer.get('name')!r}")
    if not re.match(r"^1\.[0-9]+\.[0-9]+$", str(layer.get("api_version", ""))):
        errors.append(f"{path}: api_version {layer.get('api_version')!r}")
    settings = layer.get("features", {}).get("settings")
    if not isinstance(settings, list):
        errors.append(f"{path}: no layer.features.settings list")
        return
    seen = []
    for i, s in enumerate(settings):
        where = f"{path}: settings[{i}] ({s.get('key') if isinstance(s, dict) else '?'})"
        check_setting(s, where, errors)
        if not isinstance(s, dict):
            continue
        key = s.get("key")
        seen.append(key)
        if s.get("env") != ENV_PREFIX + str(key).upper():
            errors.append(f"{where}: env {s.get('env')!r}, not {ENV_PREFIX + str(key).upper()}")
        if s.get("type") == "ENUM" and key in values:
            flags = [f.get("key") for f in s.get("flags", []) if isinstance(f, dict)]
            if values[key] is not None and flags != values[key]:
                errors.append(f"{where}: values {flags}, the layer reads {values[key]}")
    if len(set(seen)) != len(seen):
        errors.append(f"{path}: setting keys repeat: {seen}")
    if keys is not None and sorted(seen) != sorted(keys):
        errors.append(f"{path}: the manifest describes {sorted(seen)}; the layer reads "
                      f"{sorted(keys)}")
    print(f"manifest_check: {path}: {len(settings)} settings ({', '.join(map(str, seen))})")


def schema_check(schema, manifests):
    """Validation against `schema`: 0, 1, or 77 with the reason."""
    if not schema:
        print("manifest_check: SKIP: no layers_schema.json given (LunarG VulkanTools' schema is "
              "not packaged in Debian): -DSPVBC_LAYERS_SCHEMA=<path> checks against it")
        return 77
    if not os.path.isfile(schema):
        print(f"manifest_check: SKIP: the schema {schema} does not exist")
        return 77
    try:
        import jsonschema  # pylint: disable=import-outside-toplevel
    except ImportError:
        print("manifest_check: SKIP: python3-jsonschema is not installed")
        return 77
    with open(schema, encoding="utf-8") as f:
        s = json.load(f)
    rc = 0
    for path in manifests:
        with open(path, encoding="utf-8") as f:
            m = json.load(f)
        try:
            jsonschema.validate(m, s)
            print(f"manifest_check: {path}: valid against {schema}")
        except jsonschema.ValidationError as e:
            print(f"manifest_check: FAIL: {path}: {e.message} at {list(e.absolute_path)}")
            rc = 1
    return rc


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--settings-source", help="layer/core/layer_settings.c")
    p.add_argument("--schema", help="layers_schema.json: validate against it (else the rules)")
    p.add_argument("manifests", nargs="+")
    a = p.parse_args()
    if a.schema is not None:
        return schema_check(a.schema, a.manifests)
    if not a.settings_source:
        p.error("--settings-source or --schema")
    keys, values = layer_values(a.settings_source)
    errors = []
    if keys is None:
        errors.append(f"{a.settings_source}: no spvbc_layer_setting_keys[] found")
    for path in a.manifests:
        check_manifest(path, keys, values, errors)
    for e in errors:
        print(f"manifest_check: FAIL: {e}")
    print(f"manifest_check: {'passed' if not errors else 'FAILED'}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
