/*
 * test_malformed.h - what the rooms of the malformed-input catalogue share: the base module,
 * the failure checks, and the cases that main() in test_malformed.c runs.
 *
 *   test_malformed.c        the helpers below; empty, truncated and odd-sized input; the header
 *   test_malformed_ids.c    word counts, ids, the shapes of OpBitcast
 *   test_malformed_types.c  types, pointer loops, OpSpecConstantOp, lowering over the id cap
 *   test_malformed_null.c   NULL arguments for every public function
 */
#ifndef SPVBC_TEST_MALFORMED_H_
#define SPVBC_TEST_MALFORMED_H_

#include <stddef.h>
#include <stdint.h>

#include "modbuild.h"
#include "spirv_bitcast.h"

#define ANY_INDEX ((size_t)-2)
#define HDR SPVBC_NO_POSITION

/* Ids of the base Kernel module (a float4 -> float3 OpBitcast, lowerable). */
enum { ID_FN = 1, ID_VOID, ID_FNTY, ID_FLOAT, ID_V4, ID_V3, ID_LABEL, ID_X, ID_R, BASE_BOUND };

/* Word offsets of the base module's instructions; `first` is its first instruction (the
 * OpCapability after the header), `end` its last (OpFunctionEnd). */
typedef struct base_at {
    size_t first, tfloat, tv4, tv3, fn, label, undef, bitcast, ret, end;
} base_at;

#define BASE_BITCAST_INDEX 12u

/* What a failed parse must leave in its out-parameter. */
#define SENTINEL_MODULE ((spvbc_module)(uintptr_t)0x5a5a5a50u)

/* Appends the base module of SPIR-V `version` to the emptied `b`; `at` (if not NULL) gets the
 * offsets of its instructions. */
void base_module(mb *b, uint32_t version, base_at *at);

/* base_module() of SPIR-V 1.0 with the bitcast's operand id set to `operand`. */
base_at base_with_operand(mb *b, uint32_t operand);

/* Asserts that `ctx` holds exactly one error, at word `offset` and instruction `index`
 * (ANY_INDEX: any), with rule `rule` (NULL: any). */
void check_one_error(spvbc_context ctx, size_t offset, size_t index, const char *rule);

/* Parses `n` words three ways (in place, copied, from misaligned bytes) under `opts`: each
 * returns `expect`, leaves the module untouched and the words unchanged, and reports one error
 * as check_one_error() says. */
void expect_parse_fail_opts(const uint32_t *words, size_t n, const spvbc_parse_options *opts,
                            spvbc_result expect, size_t offset, size_t index, const char *rule);

/* expect_parse_fail_opts() on the words of `b` with the default options. */
void expect_parse_fail(const mb *b, spvbc_result expect, size_t offset, size_t index,
                       const char *rule);

/* One change to the base module: word `word` of the instruction at offsetof(base_at, `at`) set
 * to `value`; the parse then fails with `expect` at that instruction, whose index is `index`. */
typedef struct base_patch {
    size_t at, word;
    uint32_t value;
    spvbc_result expect;
    size_t index;
    const char *rule;
} base_patch;
#define AT(field) offsetof(base_at, field)

/* Applies each of the `n` patches to a fresh base module and checks its failure. */
void expect_patches_fail(const base_patch *p, size_t n);

/* One instruction: its opcode and its `nops` (at most 4) operand words. */
typedef struct inst {
    uint32_t op, ops[4];
    size_t nops;
} inst;

/* The base module's Kernel head (instructions 0-3), then the `n` instructions of `insts`: the
 * parse fails with `expect` and `rule` at `insts[bad]` (instruction index 4 + `bad`). */
void expect_insts_fail(const inst *insts, size_t n, size_t bad, spvbc_result expect,
                       const char *rule);

/* The module of `n` words parsed in `ctx` with `o`; fails the test if the parse fails. */
spvbc_module parse_ok(spvbc_context ctx, const uint32_t *w, size_t n,
                      const spvbc_parse_options *o);

/* Fails the test unless spirv-val accepts the `n` words. */
void check_valid_spirv(const uint32_t *w, size_t n);

/* spvval_check() for the other rooms: spvval.h goes into one file of a program only, because
 * SPIRV-Tools' libspirv.h defines a constant when compiled as C. */
int run_spirv_val(const uint32_t *w, size_t n, char *msg, size_t size);

/* The cases, in the order main() runs them: X(name) for each, by room. */
#define MALFORMED_CASES(X)                                                                         \
    /* test_malformed.c */                                                                         \
    X(test_empty) X(test_truncated_header) X(test_truncated_everywhere)                            \
    X(test_size_not_multiple_of_4) X(test_bad_magic) X(test_byte_swapped) X(test_versions)         \
    X(test_bound_zero) X(test_bound_above_cap) X(test_bound_huge_with_raised_cap) X(test_schema)   \
    /* test_malformed_ids.c */                                                                     \
    X(test_word_count_zero) X(test_instruction_past_end) X(test_id_zero)                           \
    X(test_id_at_or_above_bound) X(test_id_at_bound_in_reused_table) X(test_redefined_id)          \
    X(test_bitcast_missing_operand) X(test_bitcast_operand_is_type)                                \
    X(test_bitcast_operand_undefined)                                                              \
    /* test_malformed_types.c */                                                                   \
    X(test_type_used_before_declared) X(test_vector_of_non_scalar)                                 \
    X(test_vector_component_counts) X(test_scalar_width_zero) X(test_pointer_loop_valid)           \
    X(test_pointer_loops_no_hang) X(test_spec_constant_op_no_opcode) X(test_lower_over_cap)        \
    /* test_malformed_null.c */                                                                    \
    X(test_null_arguments)
#define MALFORMED_CASES_DECLARE(name) void name(void **state);
MALFORMED_CASES(MALFORMED_CASES_DECLARE)

#endif /* SPVBC_TEST_MALFORMED_H_ */
