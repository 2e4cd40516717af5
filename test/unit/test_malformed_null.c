/* test_malformed_null.c - the malformed-input catalogue (test_malformed.h): NULL arguments for
 * every public function. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_alloc.h"
#include "test_malformed.h"

/* ---- NULL arguments for every public function ------------------------------------------ */

static int write_sink(void *user, const uint32_t *words, size_t n)
{
    (void)words;
    *(size_t *)user += n;
    return 0;
}

void test_null_arguments(void **state)
{
    (void)state;
    /* Version and static strings. */
    assert_int_equal(spvbc_version_number(), SPVBC_VERSION_NUMBER);
    assert_string_equal(spvbc_version_string(), SPVBC_VERSION_STRING);
    for (int r = -8; r <= 1; ++r)
        assert_non_null(spvbc_result_string((spvbc_result)r));
    assert_non_null(spvbc_result_string(SPVBC_RESULT_MAX_ENUM));
    for (int s = 0; s < 3; ++s)
        assert_non_null(spvbc_severity_string((spvbc_severity)s));
    for (int c = 0; c <= SPVBC_ASTYPE_EXCLUDED; ++c)
        assert_non_null(spvbc_astype_class_string((spvbc_astype_class)c));

    /* Context. */
    spvbc_context ctx = (spvbc_context)(uintptr_t)0x5a5a5a50u;
    assert_int_equal(spvbc_context_create(NULL, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    test_alloc unused;
    memset(&unused, 0, sizeof unused);
    const spvbc_allocator complete = test_alloc_allocator(&unused);
    spvbc_allocator incomplete = {sizeof(spvbc_allocator), NULL, NULL, NULL};
    assert_int_equal(spvbc_context_create(&incomplete, &ctx), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_ptr_equal(ctx, (spvbc_context)(uintptr_t)0x5a5a5a50u);
    incomplete.alloc = complete.alloc;
    assert_int_equal(spvbc_context_create(&incomplete, &ctx), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_ptr_equal(ctx, (spvbc_context)(uintptr_t)0x5a5a5a50u);
    incomplete.alloc = NULL;
    incomplete.free = complete.free;
    assert_int_equal(spvbc_context_create(&incomplete, &ctx), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_ptr_equal(ctx, (spvbc_context)(uintptr_t)0x5a5a5a50u);
    spvbc_context_destroy(NULL);
    assert_int_equal(spvbc_context_diagnostic_count(NULL), 0);
    assert_null(spvbc_context_diagnostic(NULL, 0));

    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    assert_null(spvbc_context_diagnostic(ctx, 0));
    assert_null(spvbc_context_diagnostic(ctx, SIZE_MAX));

    /* Plan API. */
    spvbc_type_desc f4 = {SPVBC_SCALAR_FLOAT, 32, 4, 0}, f3 = {SPVBC_SCALAR_FLOAT, 32, 3, 0};
    spvbc_plan plan = SPVBC_PLAN_INIT, plan_copy = SPVBC_PLAN_INIT;
    memset(&plan, 0xA5, sizeof plan);
    memcpy(&plan_copy, &plan, sizeof plan);
    assert_int_equal(spvbc_astype_plan(NULL, &f3, NULL, &plan), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_astype_plan(&f4, NULL, NULL, &plan), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_astype_plan(&f4, &f3, NULL, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_memory_equal(&plan, &plan_copy, sizeof plan);
    spvbc_plan_options bad_pad = {sizeof(spvbc_plan_options), 0, (spvbc_pad_policy)7};
    assert_int_equal(spvbc_astype_plan(&f4, &f3, &bad_pad, &plan), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_memory_equal(&plan, &plan_copy, sizeof plan);
    assert_int_equal(spvbc_astype_plan(&f4, &f3, NULL, &plan), SPVBC_SUCCESS);

    spvbc_type_desc td, td_copy;
    memset(&td, 0xA5, sizeof td);
    memcpy(&td_copy, &td, sizeof td);
    assert_int_equal(spvbc_type_desc_from_opencl(NULL, &td), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_type_desc_from_opencl("float4", NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_type_desc_from_opencl("float5", &td), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_type_desc_from_opencl("", &td), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_type_desc_from_opencl("bool", &td), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_memory_equal(&td, &td_copy, sizeof td);
    char buf[16];
    memset(buf, 'x', sizeof buf);
    assert_int_equal(spvbc_type_desc_opencl_name(NULL, buf, sizeof buf),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_type_desc_opencl_name(&f4, NULL, sizeof buf),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    spvbc_type_desc bad = {SPVBC_SCALAR_FLOAT, 24, 4, 0};
    assert_int_equal(spvbc_type_desc_opencl_name(&bad, buf, sizeof buf),
                     SPVBC_ERROR_INVALID_ARGUMENT);

    /* Modules. */
    mb b = {0};
    base_module(&b, 0x00010000u, NULL);
    spvbc_module m = SENTINEL_MODULE;
    assert_int_equal(spvbc_module_parse(NULL, b.w, b.n, NULL, &m), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_parse(ctx, NULL, b.n, NULL, &m), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_parse_bytes(NULL, b.w, b.n * 4, NULL, &m),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_parse_bytes(ctx, NULL, b.n * 4, NULL, &m),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_parse_bytes(ctx, b.w, b.n * 4, NULL, NULL),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_ptr_equal(m, SENTINEL_MODULE);
    spvbc_module_destroy(NULL);

    m = parse_ok(ctx, b.w, b.n, NULL);
    spvbc_module_info info = SPVBC_MODULE_INFO_INIT, info_copy = SPVBC_MODULE_INFO_INIT;
    memset(&info, 0xA5, sizeof info);
    memcpy(&info_copy, &info, sizeof info);
    assert_int_equal(spvbc_module_get_info(NULL, &info), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_get_info(m, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_memory_equal(&info, &info_copy, sizeof info);

    spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT, vs_copy = SPVBC_VALIDATE_SUMMARY_INIT;
    memset(&vs, 0xA5, sizeof vs);
    memcpy(&vs_copy, &vs, sizeof vs);
    assert_int_equal(spvbc_module_validate(NULL, NULL, &vs), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_memory_equal(&vs, &vs_copy, sizeof vs);
    assert_int_equal(spvbc_module_validate(m, NULL, NULL), SPVBC_ERROR_VALIDATION_FAILED);

    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT, ls_copy = SPVBC_LOWER_SUMMARY_INIT;
    memset(&ls, 0xA5, sizeof ls);
    memcpy(&ls_copy, &ls, sizeof ls);
    assert_int_equal(spvbc_module_lower(NULL, NULL, &ls), SPVBC_ERROR_INVALID_ARGUMENT);
    spvbc_lower_options bad_lo = {sizeof(spvbc_lower_options), (spvbc_pad_policy)3, 0,
                                  SPVBC_GENERATION_NEWEST};
    assert_int_equal(spvbc_module_lower(m, &bad_lo, &ls), SPVBC_ERROR_INVALID_ARGUMENT);
    bad_lo.pad = SPVBC_PAD_POLICY_MAX_ENUM;
    assert_int_equal(spvbc_module_lower(m, &bad_lo, &ls), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_memory_equal(&ls, &ls_copy, sizeof ls);

    const uint32_t *w = (const uint32_t *)(uintptr_t)0x5a5a5a50u;
    size_t n = 12345;
    assert_int_equal(spvbc_module_get_words(NULL, &w, &n), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_get_words(m, NULL, &n), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_get_words(m, &w, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_ptr_equal(w, (const uint32_t *)(uintptr_t)0x5a5a5a50u);
    assert_int_equal(n, 12345);

    size_t total = 0;
    assert_int_equal(spvbc_module_write(NULL, write_sink, &total), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_write(m, NULL, &total), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(total, 0);
    assert_int_equal(spvbc_module_write(m, mb_write_stop, NULL), SPVBC_ERROR_STOPPED);
    assert_int_equal(spvbc_module_write(m, write_sink, &total), SPVBC_SUCCESS);
    assert_int_equal(total, b.n);

    spvbc_module_destroy(m);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}
