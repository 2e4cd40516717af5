/*
 * layer_settings.h - the layers' settings: what to do with a module (mode, pad policy,
 * generation) and where and how much to log.  Five settings, by key:
 *
 *   mode       = lower (default) | validate | off
 *       lower:    validate, lower the as_type-legal invalid bitcasts, hand the lowered module on;
 *       validate: validate and log only; the driver always gets the caller's words;
 *       off:      touch nothing, log nothing.
 *   pad        = undef (default) | zero | error   (padding of 3-component sources;
 *                error: a module with such a bitcast is passed on unchanged, whole)
 *   generation = newest (default) | 2026.4 | 2025.1 | 2023.1
 *                (whose verdicts: SPVBC_GENERATION_*, as the CLI's --generation)
 *   log        = stderr (default) | off | <path>  (lines are appended to the file;
 *                off: no log at all, and nothing hashed, timed or formatted for it; a
 *                file that cannot be opened or written: standard error, after one line
 *                saying why)
 *   log_level  = changes (default) | all
 *       changes: quiet, as loaders and layers are by default: a line only for a module the
 *                layer lowered, or refused to lower (an as_type-legal bitcast it could not
 *                rewrite), for every module with errors in validate mode, and when the layer
 *                itself failed (a library error);
 *       all:     also the "active" line and a line for every other module (valid, not parsed,
 *                errors nothing could fix).
 *
 * Where the values come from (a spvbc_layer_setting_source):
 *   - the OpenCL layer: the environment, SPVBC_LAYER_ and the key in capitals
 *     (SPVBC_LAYER_MODE, SPVBC_LAYER_PAD, SPVBC_LAYER_GENERATION, SPVBC_LAYER_LOG,
 *     SPVBC_LAYER_LOG_LEVEL), read once per process (spvbc_layer_config_from_env);
 *   - the Vulkan layer, per instance, first the Khronos channels of Vulkan-Utility-Libraries'
 *     layer settings (vk_settings.c: VK_SPVBC_BITCAST_<KEY>, then vk_layer_settings.txt's
 *     spvbc_bitcast.<key>, then the application's VkLayerSettingsCreateInfoEXT), then the
 *     SPVBC_LAYER_* names above (the older names), then the defaults.
 * A value that is not understood is logged and the default is used.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_LAYER_SETTINGS_H_
#define SPVBC_LAYER_SETTINGS_H_

#include <stdint.h>

#include "spirv_bitcast.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum spvbc_layer_mode {
    SPVBC_LAYER_MODE_LOWER = 0,
    SPVBC_LAYER_MODE_VALIDATE = 1,
    SPVBC_LAYER_MODE_OFF = 2
} spvbc_layer_mode;

typedef struct spvbc_layer_config {
    spvbc_layer_mode mode;
    spvbc_pad_policy pad;
    /** The log file's path, used unless log_to_stderr; lines are appended to it. */
    char log_path[1024];
    int log_to_stderr;
    /** Nonzero: log nothing (log=off); the module's work is then all there is. */
    int log_off;
    /** Nonzero: a line for every module (log_level=all), not only for those the
     *  layer changed or refused. */
    int log_all;
    /** SPVBC_VALIDATE_* flags of the layer's validations (not from the environment: the layer
     *  sets them).  The OpenCL layer sets SPVBC_VALIDATE_STRICT, so that an OpSpecConstantOp
     *  Bitcast that current SPIRV-Tools rejects (W-SPEC-BITCAST, a warning in generations before
     *  2026.2) is an error and lowered where as_type allows in every generation; the Vulkan
     *  layer keeps 0 (spec-constant bitcasts need Kernel there, and a stricter verdict would
     *  only add log lines). */
    uint32_t validate_flags;
    /** SPVBC_GENERATION_* of the layer's validations and lowerings (setting generation). */
    uint32_t generation;
} spvbc_layer_config;

/** The number of settings, and the longest name a setting goes by in the environment. */
#define SPVBC_LAYER_SETTING_COUNT 5
#define SPVBC_LAYER_SETTING_NAME_MAX 64

/** The keys of the settings ("mode", "pad", "generation", "log", "log_level"): the manifest
 *  describes exactly these (layer/vulkan/test/manifest_check.py checks it). */
extern const char *const spvbc_layer_setting_keys[SPVBC_LAYER_SETTING_COUNT];

/** A setting's value as a source gives it: `text` (NULL or empty: not set), and `name`, what the
 *  setting goes by in a log line ("SPVBC_LAYER_MODE", "VK_SPVBC_BITCAST_MODE"). */
typedef struct spvbc_layer_setting_value {
    const char *text;
    const char *name;
} spvbc_layer_setting_value;

/** Where the settings come from: `get` fills `out` for setting `key` and returns nonzero when it
 *  has a value; the strings stay valid until the next call of `get`. */
typedef struct spvbc_layer_setting_source {
    int (*get)(void *user, const char *key, spvbc_layer_setting_value *out);
    void *user;
} spvbc_layer_setting_source;

/** Fills `cfg` from `src` (unknown values fall back to the defaults and are logged, through the
 *  log setting read first).  Does nothing when `cfg` or `src` is NULL. */
void spvbc_layer_config_from(spvbc_layer_config *cfg, const spvbc_layer_setting_source *src);

/** Fills `cfg` from the environment's SPVBC_LAYER_* names (unknown values fall back to the
 *  defaults and are logged). */
void spvbc_layer_config_from_env(spvbc_layer_config *cfg);

/** Spells setting `key`'s environment name into `name`: `prefix` then the key in capitals
 *  (SPVBC_LAYER_ + log_level: SPVBC_LAYER_LOG_LEVEL; VK_SPVBC_BITCAST_ + mode), cut to fit. */
void spvbc_layer_setting_env_name(const char *prefix, const char *key,
                                  char name[SPVBC_LAYER_SETTING_NAME_MAX]);

/** Setting `key` from the environment's older name (SPVBC_LAYER_<KEY>), spelled into `name`:
 *  returns nonzero and fills `out` when the variable is set; 0 otherwise or for a NULL
 *  argument. */
int spvbc_layer_setting_from_env(const char *key, spvbc_layer_setting_value *out,
                                 char name[SPVBC_LAYER_SETTING_NAME_MAX]);

/** "lower", "validate", "off" ("?" for anything else). */
const char *spvbc_layer_mode_name(spvbc_layer_mode mode);

#ifdef __cplusplus
}
#endif

#endif /* SPVBC_LAYER_SETTINGS_H_ */
