/*
 * layer_settings.h - the layers' settings: what to do with a module (mode, pad policy,
 * generation) and where and how much to log, read once from the environment.
 *
 *   SPVBC_LAYER_MODE = lower (default) | validate | off
 *       lower:    validate, lower the as_type-legal invalid bitcasts, hand the lowered module on;
 *       validate: validate and log only; the driver always gets the caller's words;
 *       off:      touch nothing, log nothing.
 *   SPVBC_LAYER_PAD  = undef (default) | zero | error   (padding of 3-component sources;
 *                      error: a module with such a bitcast is passed on unchanged, whole)
 *   SPVBC_LAYER_GENERATION = newest (default) | 2026.4 | 2025.1 | 2023.1
 *                      (whose verdicts: SPVBC_GENERATION_*, as the CLI's --generation)
 *   SPVBC_LAYER_LOG  = stderr (default) | off | <path>  (lines are appended to the file;
 *                      off: no log at all, and nothing hashed, timed or formatted for it; a
 *                      file that cannot be opened or written: standard error, after one line
 *                      saying why)
 *   SPVBC_LAYER_LOG_LEVEL = changes (default) | all
 *       changes: quiet, as loaders and layers are by default: a line only for a module the
 *                layer lowered, or refused to lower (an as_type-legal bitcast it could not
 *                rewrite), for every module with errors in validate mode, and when the layer
 *                itself failed (a library error);
 *       all:     also the "active" line and a line for every other module (valid, not parsed,
 *                errors nothing could fix).
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
    /** Nonzero: log nothing (SPVBC_LAYER_LOG=off); the module's work is then all there is. */
    int log_off;
    /** Nonzero: a line for every module (SPVBC_LAYER_LOG_LEVEL=all), not only for those the
     *  layer changed or refused. */
    int log_all;
    /** SPVBC_VALIDATE_* flags of the layer's validations (not from the environment: the layer
     *  sets them).  The OpenCL layer sets SPVBC_VALIDATE_STRICT, so that an OpSpecConstantOp
     *  Bitcast that current SPIRV-Tools rejects (W-SPEC-BITCAST, a warning in generations before
     *  2026.2) is an error and lowered where as_type allows in every generation; the Vulkan
     *  layer keeps 0 (spec-constant bitcasts need Kernel there, and a stricter verdict would
     *  only add log lines). */
    uint32_t validate_flags;
    /** SPVBC_GENERATION_* of the layer's validations and lowerings (SPVBC_LAYER_GENERATION). */
    uint32_t generation;
} spvbc_layer_config;

/** Fills `cfg` from the environment (unknown values fall back to the defaults and are logged). */
void spvbc_layer_config_from_env(spvbc_layer_config *cfg);

/** "lower", "validate", "off" ("?" for anything else). */
const char *spvbc_layer_mode_name(spvbc_layer_mode mode);

#ifdef __cplusplus
}
#endif

#endif /* SPVBC_LAYER_SETTINGS_H_ */
