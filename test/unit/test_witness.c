/* Second witnesses: behaviours that a mutation run (test/mutation/run.sh --all-tests, see
 * docs/robustness.md section 11) showed pinned by one test program only, each checked here
 * again through another way in, so that a change to that one test cannot leave them bare.
 * Here, the parse and the API's arguments:
 *   - short declarations and instructions (OpTypeForwardPointer, OpBitcast, on the walk's fast
 *     path as well, labels, OpTypeFloat, OpTypeInt of width 0, OpTypeArray,
 *     OpTypeUntypedPointerKHR) refused at their word;
 *   - the header's refusals from words and bytes (a bad magic shown as read, 16 bytes too short
 *     for a header whatever their magic);
 *   - NULL and out-of-range arguments of parse, write, get_words, validate, lower and the type
 *     names;
 *   - the OpenCL scalar names' kinds, widths and signedness, as read back by the name writer;
 *   - the capabilities a refusal names: only those missing;
 *   - misaligned bytes copied (the module keeps its words when the caller's change), and the
 *     copy's allocation failure reported alone.
 * Verdicts and outputs are in test_witness_verdicts.c, the lowering's and the writer's memory
 * edges in test_witness_edges.c (the lowered modules there go through spirv-val), the analysis'
 * extract rules in test_witness_analysis.c, the scan's reads against an unreadable page in
 * test_witness_scan.c, the plan's refusals and the names in test_witness_plan.c, the type
 * declarations' facts in test_witness_types.c, the reader's parse in test_witness_reader.c, what
 * it records in test_witness_records.c and its limits in test_witness_bounds.c.  Modules are
 * built as words.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "modbuild.h"
#include "opencl_scalars.h"
#include "spirv_bitcast.h"
#include "test_alloc.h"
#include "diag_check.h"
#include "test_witness.h"

/* Resets `b` to a Kernel module (SPIR-V 1.0, bound 20) with %4 = float, a void() function %1
 * (%2 void, %3 its type) and its label %5 open. */
static void kernel_fn(mb *b)
{
    mb_kernel_head(b, 0x00010000u, 20, 1);
    MB(b, SpvOpTypeFloat, 4, 32);
    mb_void_fn_type(b, 2, 3);
    mb_fn_begin(b, 2, 1, 3, 5);
}

/* The walk takes its fast path only for opcodes whose flags the process has cached: a valid
 * module with OpLabel, OpUndef and OpBitcast first, then a 3-word OpBitcast (no operand) in the
 * body, a label of id 0 (R-ID-ZERO) and one of 1 word, and a 2-word OpTypeForwardPointer among
 * the types: R-OPERANDS at each one's word but the second. */
static void test_short_instructions(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    kernel_fn(&b);
    MB(&b, SpvOpUndef, 4, 6);
    MB(&b, SpvOpBitcast, 4, 7, 6);
    mb_fn_end(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_SUCCESS, &ctx, &vs);
    spvbc_context_destroy(ctx);

    kernel_fn(&b);
    MB(&b, SpvOpUndef, 4, 6);
    const size_t at = MB(&b, SpvOpBitcast, 4, 7);
    mb_fn_end(&b);
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS", at,
                       "OpBitcast is missing its operand");

    /* A label of id 0, and one of no id at all (1 word). */
    mb_kernel_head(&b, 0x00010000u, 20, 1);
    MB(&b, SpvOpTypeFloat, 4, 32);
    mb_void_fn_type(&b, 2, 3);
    MB(&b, SpvOpFunction, 2, 1, 0, 3);
    const size_t label = b.n;
    MB(&b, SpvOpLabel, 0);
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_ID, "R-ID-ZERO", label, NULL);
    /* The word after the 1-word label (OpReturn's first word, 0x000100fd) is below the bound,
     * so that a fast path that took it for the label's id would go on without an error. */
    b.n = label;
    mb_op0(&b, SpvOpLabel);
    mb_fn_end(&b);
    b.w[3] = 0x10100u;
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS", label, NULL);

    mb_kernel_head(&b, 0x00010000u, 20, 1);
    const size_t fp = MB(&b, SpvOpTypeForwardPointer, 6);
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS", fp,
                       "OpTypeForwardPointer is missing operands");
    mb_free(&b);
}

/* A type declaration one word short of its first operand, or of width 0: refused at its word. */
static void test_short_types(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    size_t at;
    mb_kernel_head(&b, 0x00010000u, 20, 1);
    at = MB(&b, SpvOpTypeFloat, 4);
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS", at,
                       "type declaration is missing its width operand");
    mb_kernel_head(&b, 0x00010000u, 20, 1);
    at = MB(&b, SpvOpTypeInt, 4, 0, 0);
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_BINARY, "R-TYPE-SHAPE", at,
                       "scalar type has width 0");
    mb_kernel_head(&b, 0x00010000u, 20, 1);
    at = MB(&b, SpvOpTypeArray, 4);
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS", at,
                       "composite type is missing its element type");
    if (!opcode_unknown(OP_TYPE_UNTYPED_POINTER_KHR, "OpTypeUntypedPointerKHR")) {
        mb_kernel_head(&b, 0x00010000u, 20, 1);
        at = MB(&b, OP_TYPE_UNTYPED_POINTER_KHR, 4);
        expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS", at,
                           "OpTypeUntypedPointerKHR is missing its storage class");
    }
    mb_free(&b);
}

/* parse_bytes of `size` bytes at `bytes`: fails with `expect` and one diagnostic `rule` whose
 * message is `message`. */
static void bytes_fail(const void *bytes, size_t size, spvbc_result expect, const char *rule,
                       const char *message)
{
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module mod = NULL;
    assert_int_equal(spvbc_module_parse_bytes(ctx, bytes, size, NULL, &mod), expect);
    assert_null(mod);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
    assert_string_equal(spvbc_context_diagnostic(ctx, 0)->rule, rule);
    assert_string_equal(spvbc_context_diagnostic(ctx, 0)->message, message);
    spvbc_context_destroy(ctx);
}

/* A bad magic is shown as the first word reads (not the version's), from bytes and from words;
 * 16 bytes are too short for a header whatever their first word says. */
static void test_header_refusals(void **state)
{
    (void)state;
    const unsigned char bad[20] = {0xef, 0xbe, 0xad, 0xde, 0x00, 0x00, 0x01, 0x00, 0, 0,
                                   0,    0,    10,   0,    0,    0,    0,    0,    0, 0};
    bytes_fail(bad, sizeof bad, SPVBC_ERROR_INVALID_BINARY, "R-MAGIC",
               "bad magic number 0xdeadbeef (expected 0x07230203)");
    bytes_fail(bad, 16, SPVBC_ERROR_INVALID_BINARY, "R-HEADER",
               "module is shorter than the 5-word SPIR-V header");
    const uint32_t words[5] = {0xdeadbeefu, 0x00010000u, 0, 10, 0};
    expect_parse_error(words, 5, SPVBC_ERROR_INVALID_BINARY, "R-MAGIC", 0,
                       "bad magic number 0xdeadbeef (expected 0x07230203)");
}

/* NULL where a pointer is required, and lower's classes beyond SPVBC_LOWER_ALL: refused with
 * SPVBC_ERROR_INVALID_ARGUMENT before anything is read. */
static void test_bad_arguments(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    kernel_fn(&b);
    mb_fn_end(&b);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    spvbc_module mod = NULL;
    assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, &mod), SPVBC_SUCCESS);
    assert_int_equal(spvbc_module_write(NULL, mb_write_stop, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_write(mod, NULL, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_validate(NULL, NULL, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    const uint32_t *w = NULL;
    size_t n = 0;
    assert_int_equal(spvbc_module_get_words(NULL, &w, &n), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_get_words(mod, NULL, &n), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_get_words(mod, &w, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_null(w);
    assert_int_equal(n, 0);
    spvbc_lower_options lo = SPVBC_LOWER_OPTIONS_INIT;
    lo.classes = SPVBC_LOWER_ALL + 1u;
    assert_int_equal(spvbc_module_lower(mod, &lo, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);

    char buf[16] = "x";
    spvbc_type_desc d;
    assert_int_equal(spvbc_type_desc_from_opencl("int", &d), SPVBC_SUCCESS);
    assert_int_equal(spvbc_type_desc_opencl_name(NULL, buf, sizeof buf),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_type_desc_opencl_name(&d, NULL, sizeof buf),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_type_desc_opencl_name(&d, buf, 0), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_string_equal(buf, "x");
    d.kind = (spvbc_scalar_kind)99;
    assert_int_equal(spvbc_type_desc_opencl_name(&d, buf, sizeof buf),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    mb_free(&b);
}

/* Each OpenCL scalar name (opencl_scalars.h) read and written back: kind, width and signedness
 * as OpenCL C has them, and the name again. */
static void test_scalar_names_round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; i < OPENCL_SCALAR_COUNT; ++i) {
        const opencl_scalar *row = &opencl_scalars[i];
        spvbc_type_desc d;
        char buf[16];
        assert_int_equal(spvbc_type_desc_from_opencl(row->name, &d), SPVBC_SUCCESS);
        assert_int_equal(d.kind, row->kind);
        assert_int_equal(d.width, row->width);
        assert_int_equal(d.is_signed, row->is_signed);
        assert_int_equal(d.count, 1);
        assert_int_equal(spvbc_type_desc_opencl_name(&d, buf, sizeof buf), SPVBC_SUCCESS);
        assert_string_equal(buf, row->name);
    }
}

/* as_char8(half3) in a Kernel module with Float16Buffer only: the refusal names the three
 * capabilities missing (Float16, Int8, Vector16), none of those present or not needed. */
static void test_missing_capabilities_named(void **state)
{
    (void)state;
    sm s;
    sm_init(&s, 0, 0x00010200u);
    const spvbc_type_desc casts[1][2] = {
        {sm_desc(SPVBC_SCALAR_FLOAT, 16, 3), sm_desc(SPVBC_SCALAR_INT, 8, 8)}};
    sm_casts(&s, casts, 1);
    s.caps &= ~((uint64_t)1 << SpvCapabilityFloat16 | (uint64_t)1 << SpvCapabilityInt8 |
                (uint64_t)1 << SpvCapabilityVector16);
    sm_cap(&s, SpvCapabilityFloat16Buffer);
    mb b = {NULL, 0, 0};
    sm_finish(&s, &b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.errors, 1);
    const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
    assert_string_equal(d->rule, "V12");
    has_text(d->message, "the module lacks the capability Float16, Int8, Vector16;");
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* Misaligned input is copied (the header's promise): a module parsed from bytes at an odd
 * address keeps its words after the caller's bytes are overwritten and after another module of
 * the same size is parsed the same way (whose temporary copy may reuse freed memory). */
static void test_misaligned_bytes_are_copied(void **state)
{
    (void)state;
    mb a = {NULL, 0, 0}, c = {NULL, 0, 0};
    sm_cast_module(&a, 0, 0x00010000u, sm_desc(SPVBC_SCALAR_FLOAT, 32, 4),
                   sm_desc(SPVBC_SCALAR_INT, 32, 4), 1);
    sm_cast_module(&c, 0, 0x00010000u, sm_desc(SPVBC_SCALAR_INT, 32, 4),
                   sm_desc(SPVBC_SCALAR_FLOAT, 32, 4), 1);
    assert_int_equal(a.n, c.n);
    const size_t size = a.n * 4;
    unsigned char *buf = (unsigned char *)malloc(size + 8);
    assert_non_null(buf);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    for (size_t shift = 1; shift < 8; ++shift) {
        if (shift == 4) continue; /* aligned: parsed in place, as documented */
        spvbc_module ma = NULL, mc = NULL;
        memcpy(buf + shift, a.w, size);
        assert_int_equal(spvbc_module_parse_bytes(ctx, buf + shift, size, NULL, &ma),
                         SPVBC_SUCCESS);
        memset(buf, 0xA5, size + 8);
        memcpy(buf + shift, c.w, size);
        assert_int_equal(spvbc_module_parse_bytes(ctx, buf + shift, size, NULL, &mc),
                         SPVBC_SUCCESS);
        memset(buf, 0x5A, size + 8);
        const uint32_t *w = NULL;
        size_t n = 0;
        assert_int_equal(spvbc_module_get_words(ma, &w, &n), SPVBC_SUCCESS);
        assert_int_equal(n, a.n);
        assert_memory_equal(w, a.w, size);
        assert_int_equal(spvbc_module_get_words(mc, &w, &n), SPVBC_SUCCESS);
        assert_memory_equal(w, c.w, size);
        spvbc_module_destroy(mc);
        spvbc_module_destroy(ma);
    }
    spvbc_context_destroy(ctx);
    free(buf);
    mb_free(&c);
    mb_free(&a);
}

/* parse_bytes of misaligned input whose temporary copy cannot be allocated: OUT_OF_MEMORY with
 * R-MEMORY its only diagnostic (the previous call's are cleared first, as every call does). */
static void test_misaligned_copy_out_of_memory(void **state)
{
    (void)state;
    mb a = {NULL, 0, 0};
    sm_cast_module(&a, 0, 0x00010000u, sm_desc(SPVBC_SCALAR_FLOAT, 32, 4),
                   sm_desc(SPVBC_SCALAR_INT, 32, 4), 1);
    unsigned char *buf = (unsigned char *)malloc(a.n * 4 + 1);
    assert_non_null(buf);
    memcpy(buf + 1, a.w, a.n * 4);
    test_alloc ta;
    memset(&ta, 0, sizeof ta);
    const spvbc_allocator al = test_alloc_allocator(&ta);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
    const uint32_t bad[5] = {0xdeadbeefu, 0x00010000u, 0, 10, 0};
    spvbc_module mod = NULL;
    assert_int_equal(spvbc_module_parse(ctx, bad, 5, NULL, &mod), SPVBC_ERROR_INVALID_BINARY);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
    ta.fail_at = ta.calls + 1;
    assert_int_equal(spvbc_module_parse_bytes(ctx, buf + 1, a.n * 4, NULL, &mod),
                     SPVBC_ERROR_OUT_OF_MEMORY);
    assert_true(ta.triggered);
    assert_null(mod);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
    assert_string_equal(spvbc_context_diagnostic(ctx, 0)->rule, "R-MEMORY");
    spvbc_context_destroy(ctx);
    assert_int_equal(ta.bad_free, 0);
    assert_int_equal(ta.live_blocks, 0);
    free(buf);
    mb_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_short_instructions),
        cmocka_unit_test(test_short_types),
        cmocka_unit_test(test_header_refusals),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_scalar_names_round_trip),
        cmocka_unit_test(test_missing_capabilities_named),
        cmocka_unit_test(test_id_one),
        cmocka_unit_test(test_lower_bound_limit),
        cmocka_unit_test(test_pointer_bitcasts_at_1_5),
        cmocka_unit_test(test_logical_pointer_allocation_failures),
        cmocka_unit_test(test_early_findings_allocation_failures),
        cmocka_unit_test(test_operands_without_numerical_type),
        cmocka_unit_test(test_get_words_stable),
        cmocka_unit_test(test_position_ends_at_noline),
        cmocka_unit_test(test_pointer_width_physical32),
        cmocka_unit_test(test_misaligned_bytes_are_copied),
        cmocka_unit_test(test_misaligned_copy_out_of_memory),
        cmocka_unit_test(test_scan_short_modules_at_a_page),
        cmocka_unit_test(test_lower_stops_at_failed_rewrite),
        cmocka_unit_test(test_writer_refuses_broken_edit_lists),
        cmocka_unit_test(test_write_unchanged_module),
        cmocka_unit_test(test_pair_with_warning_and_error_twice),
        cmocka_unit_test(test_write_spans_adjacent_and_last),
        cmocka_unit_test(test_spec_bitcast_generations),
        cmocka_unit_test(test_extract_offset_words),
        cmocka_unit_test(test_extract_offset_at_bound_at_a_page),
        cmocka_unit_test(test_struct_member_at_bound_at_a_page),
        cmocka_unit_test(test_scan_vec3_operand_at_each_offset),
        cmocka_unit_test(test_plan_refusals_and_lanes),
        cmocka_unit_test(test_type_declarations_swapped),
        cmocka_unit_test(test_cooperative_facts_in_verdicts),
        cmocka_unit_test(test_foreign_through_declarations),
        cmocka_unit_test(test_untyped_pointer_in_kernel),
        cmocka_unit_test(test_half_through_pointees),
        cmocka_unit_test(test_names_read_back),
        cmocka_unit_test(test_extract_base_checks),
        cmocka_unit_test(test_coopmat_table_ends_at_a_page),
        cmocka_unit_test(test_scalar_astype_spelling),
        cmocka_unit_test(test_scan_arguments),
        cmocka_unit_test(test_scan_ids_at_the_bound),
        cmocka_unit_test(test_scan_types_of_the_last_scan),
        cmocka_unit_test(test_scan_spec_bitcast_tiny),
        cmocka_unit_test(test_float_last_word_at_a_page),
        cmocka_unit_test(test_reader_ends_at_a_page),
        cmocka_unit_test(test_lower_full_edit_list_at_a_page),
        cmocka_unit_test(test_lower_sorted_edits_and_cap),
        cmocka_unit_test(test_reader_fast_path_edges),
        cmocka_unit_test(test_reader_header_fields),
        cmocka_unit_test(test_reader_records_in_verdicts),
        cmocka_unit_test(test_reader_special_edges),
        cmocka_unit_test(test_reader_foreign_guesses),
        cmocka_unit_test(test_reader_site_lines),
        cmocka_unit_test(test_reader_more_edges),
        cmocka_unit_test(test_reader_entry_points),
        cmocka_unit_test(test_reader_fast_path_wide_bound),
        cmocka_unit_test(test_reader_debug_lines),
        cmocka_unit_test(test_reader_foreign_edges),
        cmocka_unit_test(test_cooperative_parse_under_failures),
        cmocka_unit_test(test_reader_lines_many_sites),
        cmocka_unit_test(test_reader_bound_one_at_a_page),
        cmocka_unit_test(test_reader_word_limit_through_bytes),
        cmocka_unit_test(test_reader_bytes_magic_without_memory),
        cmocka_unit_test(test_operand_at_bound_after_pair),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
