/*
 * astype_ref.h - the C reference of as_type used by the execution tests (Vulkan and OpenCL).
 *
 * It works from bytes only: as_type concatenates the source's lanes, lane 0 lowest (SPIR-V's
 * OpBitcast mapping, "lower-ordered bits go to the lower-numbered components", is
 * little-endian), and slices the destination's lanes from that string.  A 3-component source
 * contributes 3 lanes; the 4th lane of the padded value is undefined under the undef policy
 * (destination lanes touching it are not compared) and zero under the zero policy.  It never
 * asks the library's planner which lanes are defined.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_TEST_ASTYPE_REF_H_
#define SPVBC_TEST_ASTYPE_REF_H_

#include <stddef.h>
#include <stdint.h>

#include "spirv_bitcast.h"

#ifdef __cplusplus
extern "C" {
#endif

#define REF_ELEMS 256u /* input values per pair and policy */
#define REF_OUT_FILL 0xa5u /* the output buffer's bytes before a run */
#define REF_IN_GARBAGE 0xeeu /* the unused 4th lane of a 3-vector in the input buffer */

/* Counted reasons ("3 lanes differ, 2 skipped: ..."). */
typedef struct reason_count {
    char text[96];
    unsigned count;
} reason_count;
typedef struct reasons {
    reason_count r[32];
    unsigned n;
} reasons;

void ref_reasons_add(reasons *rs, const char *text);
/* "2 a, 1 b" or "none". */
void ref_reasons_format(const reasons *rs, char *buf, size_t size);

/* The as_type classes, computed from the lane counts only. */
typedef enum pair_class {
    PC_SAME_COUNT = 0,
    PC_4_TO_3 = 1,
    PC_3_TO_4 = 2,
    PC_VEC3_SOURCE = 3,
    PC_VEC3_DEST = 4,
    PC_COUNT_CHANGE = 5,
    PC_NUM = 6
} pair_class;

extern const char *const ref_class_names[PC_NUM];
pair_class ref_classify(const spvbc_type_desc *s, const spvbc_type_desc *d);
/* 1 if `a` and `b` are one SPIR-V type (signedness counts unless `signless`). */
int ref_same_spirv_type(const spvbc_type_desc *a, const spvbc_type_desc *b);
/* The storage size in bytes under OpenCL's rule (a 3-vector occupies 4 lanes). */
size_t ref_opencl_bytes(const spvbc_type_desc *t);
uint64_t ref_splitmix(uint64_t *state);

/* Writes REF_ELEMS source values of `s` (for as_<d>), `sstride` bytes apart, into `buf`:
 * NaN payloads, signalling NaNs, denormals, -0.0, +-inf, all-ones, zero and random bits, at
 * the lane boundaries of both `s` and `d`; a 3-vector's unused 4th lane gets REF_IN_GARBAGE. */
void ref_make_inputs(uint8_t *buf, const spvbc_type_desc *s, const spvbc_type_desc *d,
                     size_t sstride, uint64_t seed);

typedef struct compare_stats {
    unsigned long long lanes_compared;
    unsigned long long lanes_undefined;
    /* What the driver put in the padding bytes of undefined lanes (informational). */
    unsigned long long pad_zero, pad_memory, pad_unwritten, pad_other;
    /* Undefined lanes that also hold defined bytes (e.g. as_int2(short3).y) whose defined
     * bytes differ from the source (informational: the whole lane is undefined). */
    unsigned long long partial_defined_differ;
    unsigned long long lanes_failed;
    reasons why;
} compare_stats;

/* Compares REF_ELEMS outputs of `d` (`dstride` bytes apart) with as_<d> of the inputs under
 * `pad`; prints up to 4 failures under `label` (none if `label` is ""); returns the number of
 * failing lanes and accumulates into `cs`. */
unsigned long long ref_compare(const char *label, const uint8_t *in, size_t sstride,
                               const spvbc_type_desc *s, const uint8_t *out, size_t dstride,
                               const spvbc_type_desc *d, spvbc_pad_policy pad, compare_stats *cs);
void ref_print_undefined(const char *prefix, const compare_stats *cs);

/* The running tally of a sweep over type pairs (the Vulkan and the OpenCL runner share it). */
typedef struct ref_tally {
    unsigned pairs_run, pairs_passed, pairs_failed, pairs_skipped;
    unsigned class_run[PC_NUM];
    unsigned long long values; /* input values run */
    compare_stats cs;
    reasons skipped, failures;
} ref_tally;

/* ref_compare() of one run of pair class `pc` into `t`: prints "FAIL <label>" and counts a
 * failure when lanes differ (or "ok <label>" when `verbose`); returns 1 when all lanes match. */
int ref_tally_compare(ref_tally *t, const char *label, const uint8_t *in, size_t sstride,
                      const spvbc_type_desc *s, const uint8_t *out, size_t dstride,
                      const spvbc_type_desc *d, spvbc_pad_policy pad, pair_class pc, int verbose);
/* Counts one finished pair of class `pc` that passed (`ok`) or failed. */
void ref_tally_pair(ref_tally *t, pair_class pc, int ok);
/* Prints the per-class counts, the undefined lanes and (after a failure) the failure reasons,
 * each line starting with `prefix`. */
void ref_tally_print(const ref_tally *t, const char *prefix);
/* Prints the summary line "<prefix>: <desc>: N pairs run (<runs>), ..." and returns the exit
 * status: 0 when pairs ran and none failed, 1 otherwise. */
int ref_tally_summary(const ref_tally *t, const char *prefix, const char *desc, const char *runs);

/* Prints the context's diagnostics, indented. */
void ref_print_diagnostics(spvbc_context ctx);
/* Lowers `in` with the library under `pad`; returns 0 and a malloc'd copy of the result (and the
 * number of rewritten bitcasts); prints the library's diagnostics on failure or refusal. */
int ref_lower(const uint32_t *in, size_t n, spvbc_pad_policy pad, uint32_t **out, size_t *out_n,
              size_t *rewritten);

#ifdef __cplusplus
}
#endif

#endif /* SPVBC_TEST_ASTYPE_REF_H_ */
