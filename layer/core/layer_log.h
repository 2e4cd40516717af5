/*
 * layer_log.h - the layers' log: lines appended to standard error or a file (layer_settings.h
 * says which), and the line of one module's outcome.
 *
 * The line of a module:  "spvbc-layer: <api>: in <hash> <n> words: <verdict> [<t> us]"
 * (<api>: vkCreateShaderModule, vkCreateComputePipelines, vkCreateGraphicsPipelines,
 * vkCreateRayTracingPipelinesKHR, vkCreateRayTracingPipelinesNV, vkCreateShadersEXT,
 * clCreateProgramWithIL or clCreateProgramWithILKHR), where <hash> is
 * "xxh64=<16 hex digits>", the XXH64 hash (seed 0, as xxh64sum prints it) of the module's bytes as
 * given, <t> the microseconds the layer spent on the module (the log line itself not included) and
 * <verdict> is one of "unchanged (valid, <n> bitcasts)"                       nothing to do:
 * caller's words passed on "lowered <r> bitcasts -> out <hash> <n> words (<r> refused, <e> errors
 * left)" the replacement was passed on "unchanged (<e> errors, <r> refused)"                   the
 * library could not fix it "unchanged (validate mode: <e> errors, <l> lowerable)" "unchanged (not
 * parsed: <result>)"                      not SPIR-V the library reads "unchanged (library error:
 * <result>)" followed by one indented line per error diagnostic ("  error: word <n>: <message>
 * [<rule>]") and, where the OpenCL layer learnt it, a line on what the driver did.  Counts agree in
 * number ("1 bitcast", "1 error", "1 word"); NULL code reads "in NULL (<n> bytes)", and a size
 * no whole number of words "<n> bytes".
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_LAYER_LOG_H_
#define SPVBC_LAYER_LOG_H_

#include <stddef.h>

#include "layer_outcome.h"
#include "layer_settings.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Appends one formatted line (a newline is added) to the configured log; thread-safe.  A log
 *  file that cannot be opened or written is given up for standard error, after one line
 *  saying why. */
void spvbc_layer_log(const spvbc_layer_config *cfg, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/** Appends the line of outcome `o` of the module of `code_size` bytes at `code` (which came
 *  through `api`), with its findings and what the driver did, when `o->say`; thread-safe. */
void spvbc_layer_log_outcome(const spvbc_layer_config *cfg, const char *api, const void *code,
                             size_t code_size, const spvbc_layer_outcome *o);

/** The module's part of outcome `o`'s line, "<api>: in <hash> <n> words: <verdict> [<t> us]",
 *  into `buf` (`size` bytes, cut short where needed, always terminated); returns its length. */
size_t spvbc_layer_outcome_text(char *buf, size_t size, const char *api, const void *code,
                                size_t code_size, const spvbc_layer_outcome *o);

/** Finding `f` as its log line says it, "word <n>: <message>", into `buf` (`size` bytes,
 *  always terminated); returns its length. */
size_t spvbc_layer_finding_text(char *buf, size_t size, const spvbc_layer_finding *f);

/** Closes the log file kept open (the next line opens it again). */
void spvbc_layer_log_close(void);

#ifdef __cplusplus
}
#endif

#endif /* SPVBC_LAYER_LOG_H_ */
