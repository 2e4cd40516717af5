/*
 * layer_outcome.h - what the layers decide about one SPIR-V module, as data: the verdict, its
 * counts, the findings behind it, and what the driver then did.  The log (layer_log.h) and the
 * Vulkan layer's debug messenger format the same outcome; both layers make it the same way.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_LAYER_OUTCOME_H_
#define SPVBC_LAYER_OUTCOME_H_

#include <stddef.h>
#include <stdint.h>

#include "layer_settings.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum spvbc_layer_verdict {
    /** Not looked at: mode off, or a module lowering cannot change (spvbc_bytes_scan_lowerable)
     *  passed on after a scan at level changes.  Never reported. */
    SPVBC_LAYER_PASSED = 0,
    /** "unchanged (valid, <n> bitcasts)": the caller's words passed on. */
    SPVBC_LAYER_VALID = 1,
    /** "lowered <r> bitcasts -> out <hash> <n> words (<r> refused, <e> errors left)". */
    SPVBC_LAYER_LOWERED = 2,
    /** "unchanged (<e> errors, <r> refused)": nothing the library could (or, under pad policy
     *  error, would) fix without leaving a refusal. */
    SPVBC_LAYER_UNFIXED = 3,
    /** "unchanged (validate mode: <e> errors, <l> lowerable)". */
    SPVBC_LAYER_VALIDATE_ONLY = 4,
    /** "unchanged (not parsed: <detail>)": no code, or not SPIR-V the library reads. */
    SPVBC_LAYER_NOT_PARSED = 5,
    /** "unchanged (library error: <detail>)": the layer itself failed. */
    SPVBC_LAYER_LIBRARY_ERROR = 6
} spvbc_layer_verdict;

/** What the driver did with the module the layer handed it (the OpenCL layer, which falls
 *  back to the application's words, records it; the Vulkan layer returns the driver's answer). */
typedef enum spvbc_layer_driver {
    SPVBC_LAYER_DRIVER_NOT_TOLD = 0, /**< nothing to say (the usual case) */
    SPVBC_LAYER_DRIVER_REFUSED_LOWERED = 1, /**< it refused the lowered module, took the caller's */
    SPVBC_LAYER_DRIVER_REFUSED_CALL =
        2 /**< it refused both: its own reasons, whatever the module */
} spvbc_layer_driver;

/** One finding the outcome reports (an error diagnostic of the library). */
typedef struct spvbc_layer_finding {
    spvbc_severity severity;
    size_t word_offset; /**< SPVBC_NO_POSITION where it has none */
    const char *rule; /**< in the outcome's `text` */
    const char *message;
} spvbc_layer_finding;

#define SPVBC_LAYER_MAX_FINDINGS 32

typedef struct spvbc_layer_outcome {
    spvbc_layer_verdict verdict;
    /** Whether the configured level reports it (the log, a messenger). */
    int say;
    /** NOT_PARSED and LIBRARY_ERROR: what failed ("no code", "get_words out of memory", a
     *  result string). */
    char detail[64];
    size_t bitcasts, errors, lowerable, rewritten, refused, errors_left;
    uint64_t in_hash; /**< of the caller's bytes; set where `say` and there is code */
    uint64_t out_hash; /**< LOWERED: of the replacement */
    size_t out_words;
    long long us; /**< the layer's own time on the module (hashes included), where `say` */
    spvbc_layer_driver driver;
    int driver_code, driver_code_again; /**< the driver's error codes, by `driver` */
    size_t finding_count;
    spvbc_layer_finding findings[SPVBC_LAYER_MAX_FINDINGS];
    size_t text_used;
    char text[3072]; /**< the findings' rules and messages, cut short when full */
} spvbc_layer_outcome;

/**
 * Decides what happens to the module of `code_size` bytes at `code` under `cfg`: fills `*o`
 * and returns 1 with a malloc'd replacement in `*out_code` / `*out_size` (bytes) when the driver
 * should get the lowered module instead, or 0 when the caller's words must be passed on
 * unchanged (always 0 outside lower mode, and whenever anything fails: the outcome says what).
 * Any input is accepted, NULL included; `*o` is always filled when `o` is not NULL.
 */
int spvbc_layer_decide(const spvbc_layer_config *cfg, const void *code, size_t code_size,
                       spvbc_layer_outcome *o, uint32_t **out_code, size_t *out_size);

#ifdef __cplusplus
}
#endif

#endif /* SPVBC_LAYER_OUTCOME_H_ */
