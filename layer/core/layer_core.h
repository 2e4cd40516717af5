/*
 * layer_core.h - what the layers (Vulkan: VK_LAYER_SPVBC_bitcast, OpenCL: the ICD loader layer)
 * do to one SPIR-V module, without any driver API.
 *
 * Each layer calls spvbc_layer_process() for every module it intercepts and hands the driver
 * either the caller's words or the returned replacement.  Keeping this part free of Vulkan and
 * OpenCL lets tests feed it arbitrary bytes, and gives both layers the same switches and log.
 *
 * Configuration (read once, from the environment):
 *   SPVBC_LAYER_MODE = lower (default) | validate | off
 *       lower:    validate, lower the as_type-legal invalid bitcasts, hand the lowered module on;
 *       validate: validate and log only; the driver always gets the caller's words;
 *       off:      touch nothing, log nothing.
 *   SPVBC_LAYER_PAD  = undef (default) | zero | error   (padding of 3-component sources)
 *   SPVBC_LAYER_GENERATION = newest (default) | 2026.4 | 2025.1 | 2023.1
 *                      (whose verdicts: SPVBC_GENERATION_*, as the CLI's --generation)
 *   SPVBC_LAYER_LOG  = stderr (default) | off | <path>  (lines are appended to the file;
 *                      off: no log at all, and nothing hashed, timed or formatted for it)
 *   SPVBC_LAYER_LOG_LEVEL = changes (default) | all
 *       changes: quiet, as loaders and layers are by default: a line only for a module the
 *                layer lowered, or refused to lower (an as_type-legal bitcast it could not
 *                rewrite), for every module with errors in validate mode, and when the layer
 *                itself failed (a library error);
 *       all:     also the "active" line and a line for every other module (valid, not parsed,
 *                errors nothing could fix).
 *   In lower mode at level changes, a module that lowering cannot change (no bitcast with a
 *   3-component vector on either side: spvbc_bytes_may_lower) is passed on without a parse.
 *
 * The log line of a module:  "spvbc-layer: <api>: in <hash> <words> words: <verdict> [<t> us]"
 * (<api>: vkCreateShaderModule, vkCreateComputePipelines, vkCreateGraphicsPipelines,
 * vkCreateShadersEXT, clCreateProgramWithIL or clCreateProgramWithILKHR),
 * where <hash> is "xxh64=<16 hex digits>", the XXH64 hash (seed 0, as xxh64sum prints it) of the
 * module's bytes as given, <t> the
 * microseconds the layer spent on the module (the log line itself not included) and <verdict>
 * is one of
 *   "unchanged (valid, <n> bitcasts)"                       nothing to do: caller's words passed on
 *   "lowered <r> bitcasts -> out <hash> <words> words"      the replacement was passed on
 *   "unchanged (<e> errors, <r> refused)"                   the library could not fix it
 *   "unchanged (validate mode: <e> errors, <l> lowerable)"
 *   "unchanged (not parsed: <result>)"                      not SPIR-V the library reads
 *   "unchanged (library error: <result>)"
 * followed by one indented line per error diagnostic ("  error: word <n>: <message> [<rule>]").
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_LAYER_CORE_H_
#define SPVBC_LAYER_CORE_H_

#include <stddef.h>
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
    /** NULL or "stderr": standard error; else a path opened in append mode for each line. */
    char log_path[1024];
    int log_to_stderr;
    /** Nonzero: log nothing (SPVBC_LAYER_LOG=off); the module's work is then all there is. */
    int log_off;
    /** Nonzero: a line for every module (SPVBC_LAYER_LOG_LEVEL=all), not only for those the
     *  layer changed or refused. */
    int log_all;
    /** SPVBC_VALIDATE_* flags of the layer's validations (not from the environment: the layer
     *  sets them).  The OpenCL layer sets SPVBC_VALIDATE_STRICT, so that an OpSpecConstantOp
     *  Bitcast that current SPIRV-Tools rejects (a warning by default: W-SPEC-BITCAST) is an
     *  error and lowered where as_type allows; the Vulkan layer keeps 0 (spec-constant bitcasts
     *  need Kernel there, and a stricter verdict would only add log lines). */
    uint32_t validate_flags;
    /** SPVBC_GENERATION_* of the layer's validations and lowerings (SPVBC_LAYER_GENERATION). */
    uint32_t generation;
} spvbc_layer_config;

/** Fills `cfg` from the environment (unknown values fall back to the defaults and are logged). */
void spvbc_layer_config_from_env(spvbc_layer_config *cfg);

/** "lower", "validate", "off" ("?" for anything else). */
const char *spvbc_layer_mode_name(spvbc_layer_mode mode);
/** Logs "spvbc-layer: <layer_name> active: mode=<mode> pad=<pad> (libspirv-bitcast <version>)"
 *  at level all unless the mode is off; each layer calls it once, when it is first used. */
void spvbc_layer_announce(const spvbc_layer_config *cfg, const char *layer_name);

/** Appends one formatted line (a newline is added) to the configured log; thread-safe. */
void spvbc_layer_log(const spvbc_layer_config *cfg, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/** XXH64 (seed 0) of `size` bytes: the value `xxh64sum` prints for them. */
uint64_t spvbc_layer_hash(const void *bytes, size_t size);

/**
 * Looks at the module of `code_size` bytes at `code` (passed to `api`, e.g.
 * "vkCreateShaderModule"), logs its verdict (as the level says) and returns 1 with a malloc'd replacement in
 * `*out_code` / `*out_size` (bytes) when the driver should get the lowered module instead, or 0
 * when the caller's words must be passed on unchanged (always 0 outside lower mode, and whenever
 * anything fails).  Never fails loudly: any input, NULL included, is accepted.
 */
int spvbc_layer_process(const spvbc_layer_config *cfg, const char *api, const void *code,
                        size_t code_size, uint32_t **out_code, size_t *out_size);

/** Destroys the library contexts the layer keeps for reuse (also done when the layer is
 *  unloaded); safe at any time, but only while no spvbc_layer_process call is running. */
void spvbc_layer_release_contexts(void);

#ifdef __cplusplus
}
#endif

#endif /* SPVBC_LAYER_CORE_H_ */
