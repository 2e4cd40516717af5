/*
 * pathological.c - pathological sizes: bounded memory and no stack overflow.
 *
 *   spvbc_pathological [BITCASTS] [--no-spirv-val]
 *
 * Three cases, each parsed, validated and lowered inside a thread with a 256 KiB stack (so any
 * recursion proportional to the input overflows and crashes the test), through a counting
 * allocator whose peak must stay linear in the input:
 *   bitcasts  a Kernel module with BITCASTS OpBitcast (default 1,000,000; every 4th a lowerable
 *             float4 -> float3, the rest valid int4 <- float4);
 *   bound     a module with the 4,194,303-id bound (the default cap) and a handful of
 *             instructions: the id table is the only large allocation;
 *   deep      a 100,000-deep chain of nested arrays, structs and pointers, with a bitcast of
 *             a pointer to the deepest type (in a Shader module too, where V13 looks through
 *             pointee types) and a lowerable float4 -> float3.
 * Every lowered output goes through spirv-val (skipped above 2,000,000 bitcasts or with
 * --no-spirv-val).  Time and peak RSS are printed, never asserted (bench/ owns speed).
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "modbuild.h"
#include "spvval.h"
#include "test_alloc.h"
#include "test_time.h"

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static long peak_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* ---- one job: parse, validate, lower, get_words in a small-stack thread --------------- */

typedef struct job {
    const uint32_t *words;
    size_t n;
    spvbc_lower_options lo;
    spvbc_parse_options po;
    /* results */
    test_alloc mem;
    spvbc_validate_summary vs;
    spvbc_lower_summary ls;
    uint32_t *out;
    size_t out_n;
    int parse_result, validate_result, lower_result;
    double t_parse, t_validate, t_lower;
} job;

/* Resets `j` to run the module in `b` with default options. */
static void job_init(job *j, const mb *b)
{
    memset(j, 0, sizeof *j);
    j->words = b->w;
    j->n = b->n;
}

static void *job_main(void *arg)
{
    job *j = (job *)arg;
    spvbc_allocator a = test_alloc_allocator(&j->mem);
    spvbc_context ctx;
    CHECK(spvbc_context_create(&a, &ctx) == SPVBC_SUCCESS);
    spvbc_module m = NULL;
    double t0 = test_time_now();
    j->po.struct_size = sizeof j->po;
    j->parse_result = spvbc_module_parse(ctx, j->words, j->n, &j->po, &m);
    double t1 = test_time_now();
    j->t_parse = t1 - t0;
    if (j->parse_result != SPVBC_SUCCESS) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
        fprintf(stderr, "parse: %s\n", d ? d->message : "?");
        spvbc_context_destroy(ctx);
        return NULL;
    }
    j->vs.struct_size = sizeof j->vs;
    j->validate_result = spvbc_module_validate(m, NULL, &j->vs);
    double t2 = test_time_now();
    j->t_validate = t2 - t1;
    j->lo.struct_size = sizeof j->lo;
    j->ls.struct_size = sizeof j->ls;
    j->lower_result = spvbc_module_lower(m, &j->lo, &j->ls);
    CHECK(j->lower_result == SPVBC_SUCCESS || j->lower_result == SPVBC_PARTIAL ||
          j->lower_result == SPVBC_ERROR_UNSUPPORTED);
    const uint32_t *w;
    size_t n;
    CHECK(spvbc_module_get_words(m, &w, &n) == SPVBC_SUCCESS);
    j->t_lower = test_time_now() - t2;
    j->out = (uint32_t *)malloc(n * 4);
    CHECK(j->out != NULL);
    memcpy(j->out, w, n * 4);
    j->out_n = n;
    spvbc_module_destroy(m);
    spvbc_context_destroy(ctx);
    CHECK(!j->mem.bad_free);
    CHECK(j->mem.live_bytes == 0);
    return NULL;
}

static void run_job(job *j, const char *name)
{
    pthread_attr_t attr;
    pthread_t t;
    CHECK(pthread_attr_init(&attr) == 0);
    CHECK(pthread_attr_setstacksize(&attr, 256 * 1024) == 0);
    CHECK(pthread_create(&t, &attr, job_main, j) == 0);
    CHECK(pthread_join(t, NULL) == 0);
    pthread_attr_destroy(&attr);
    printf("%-10s %10zu words in: parse %.3f s, validate %.3f s, lower+get_words %.3f s; "
           "library peak %.1f MiB (%.2f bytes per input byte), %zu allocations; "
           "process peak RSS %.1f MiB\n",
           name, j->n, j->t_parse, j->t_validate, j->t_lower, (double)j->mem.peak_bytes / 1048576.0,
           (double)j->mem.peak_bytes / (double)(j->n * 4), j->mem.calls,
           (double)peak_rss_kib() / 1024.0);
    fflush(stdout);
}

static int g_spirv_val = 1;

static void check_output(const job *j, size_t limit_for_val)
{
    if (!g_spirv_val || j->out_n > limit_for_val) {
        printf("           (spirv-val skipped for %zu words)\n", j->out_n);
        return;
    }
    char msg[1024];
    double t0 = test_time_now();
    int v = spvval_check(j->out, j->out_n, msg, sizeof msg);
    if (v != 1) {
        fprintf(stderr, "spirv-val rejects the lowered module: %s\n", msg);
        exit(1);
    }
    printf("           spirv-val accepts the output (%.3f s)\n", test_time_now() - t0);
}

/* ---- the cases ------------------------------------------------------------------------- */

static void case_bitcasts(size_t count)
{
    enum { FN = 1, VOID, FNTY, F, F4, F3, I, I4, LABEL, X, FIRST };
    mb b = {0};
    mb_reserve(&b, 64 + count * 4);
    if (count > 0x3FFFFF00u) count = 0x3FFFFF00u;
    mb_kernel_head(&b, 0x00010000u, (uint32_t)(FIRST + count), FN);
    mb_void_fn_type(&b, VOID, FNTY);
    MB(&b, SpvOpTypeFloat, F, 32);
    MB(&b, SpvOpTypeVector, F4, F, 4);
    MB(&b, SpvOpTypeVector, F3, F, 3);
    MB(&b, SpvOpTypeInt, I, 32, 0);
    MB(&b, SpvOpTypeVector, I4, I, 4);
    mb_fn_begin(&b, VOID, FN, FNTY, LABEL);
    MB(&b, SpvOpUndef, F4, X);
    for (size_t i = 0; i < count; ++i)
        MB(&b, SpvOpBitcast, i % 4 == 0 ? F3 : I4, (uint32_t)(FIRST + i), X);
    mb_fn_end(&b);

    job j;

    job_init(&j, &b);
    /* Above 4,194,290 bitcasts the ids exceed the default cap (and SPIR-V's universal limit):
     * the caller raises the cap, as the API allows. */
    j.po.max_id_bound = b.w[3] > SPVBC_DEFAULT_MAX_ID_BOUND ? 0xFFFFFFFFu : 0;
    run_job(&j, "bitcasts");
    CHECK(j.parse_result == SPVBC_SUCCESS);
    const size_t lowerable = (count + 3) / 4;
    CHECK(j.vs.bitcasts_checked == count);
    CHECK(j.vs.errors == lowerable && j.vs.lowerable == lowerable);
    CHECK(j.ls.rewritten == lowerable && j.ls.refused == 0);
    /* Linear memory: at most 64 bytes of library memory per input byte, plus 1 MiB. */
    CHECK(j.mem.peak_bytes <= 64 * b.n * 4 + (1u << 20));
    if (b.w[3] <= SPVBC_DEFAULT_MAX_ID_BOUND)
        check_output(&j, 8u * 2000000u);
    else
        printf("           (spirv-val skipped: bound above SPIR-V's limit)\n");
    free(j.out);
    mb_free(&b);
}

static void case_bound(void)
{
    mb b = {0};
    CHECK(mb_sample_module(0, &b));
    b.w[3] = SPVBC_DEFAULT_MAX_ID_BOUND;
    job j;
    job_init(&j, &b);
    j.lo.pad = SPVBC_PAD_ZERO;
    run_job(&j, "bound");
    CHECK(j.parse_result == SPVBC_SUCCESS);
    /* The id table (4 bytes an id) dominates; nothing else grows with the bound. */
    CHECK(j.mem.peak_bytes <= 4u * SPVBC_DEFAULT_MAX_ID_BOUND + (1u << 20));
    /* Lowering needs new ids; the output must still be valid SPIR-V, whose universal limit
     * on the bound is 4,194,303 (spirv-val: "The id bound is larger than the max id bound"),
     * and parse again with the same cap: over the cap, lower changes nothing and says so. */
    printf("           lower: %s, output bound %u (input %u)\n",
           spvbc_result_string((spvbc_result)j.lower_result), j.out[3], SPVBC_DEFAULT_MAX_ID_BOUND);
    CHECK(j.lower_result == SPVBC_ERROR_UNSUPPORTED);
    CHECK(j.out[3] == SPVBC_DEFAULT_MAX_ID_BOUND && j.out_n == j.n);
    CHECK(memcmp(j.out, j.words, j.n * 4) == 0);
    free(j.out);
    /* A bound just below: the new ids fit under the limit, so both bitcasts are lowered. */
    b.w[3] = SPVBC_DEFAULT_MAX_ID_BOUND - 8u;
    job_init(&j, &b);
    j.lo.pad = SPVBC_PAD_ZERO;
    run_job(&j, "bound-8");
    CHECK(j.parse_result == SPVBC_SUCCESS && j.lower_result == SPVBC_SUCCESS &&
          j.ls.rewritten == 2);
    check_output(&j, (size_t)-1);
    free(j.out);
    mb_free(&b);
}

static void case_deep(int shader)
{
    const uint32_t depth = 100000;
    enum { FN = 1, VOID, FNTY, C8, I32, LEN, LABEL, X, R, UL, F, F4, F3, Y, Z, P2, FIRST };
    const uint32_t ptr = FIRST + depth, r3 = FIRST + depth + 1;
    mb b = {0};
    if (shader) {
        mb_header(&b, 0x00010500u, r3 + 1);
        MB(&b, SpvOpCapability, SpvCapabilityShader);
        MB(&b, SpvOpCapability, SpvCapabilityPhysicalStorageBufferAddresses);
        MB(&b, SpvOpCapability, SpvCapabilityStorageBuffer8BitAccess);
        MB(&b, SpvOpCapability, SpvCapabilityInt64);
        MB(&b, SpvOpMemoryModel, SpvAddressingModelPhysicalStorageBuffer64, SpvMemoryModelGLSL450);
        mb_entry(&b, SpvExecutionModelGLCompute, FN, "main");
        MB(&b, SpvOpExecutionMode, FN, SpvExecutionModeLocalSize, 1, 1, 1);
    } else {
        static const uint32_t caps[] = {SpvCapabilityInt8, SpvCapabilityInt64};
        mb_kernel_head_caps(&b, 0x00010000u, r3 + 1, FN, caps, 2);
    }
    const uint32_t sc =
        shader ? SpvStorageClassPhysicalStorageBuffer : SpvStorageClassCrossWorkgroup;
    mb_void_fn_type(&b, VOID, FNTY);
    MB(&b, SpvOpTypeInt, C8, 8, 0);
    MB(&b, SpvOpTypeInt, I32, 32, 0);
    MB(&b, SpvOpTypeInt, UL, 64, 0);
    MB(&b, SpvOpTypeFloat, F, 32);
    MB(&b, SpvOpTypeVector, F4, F, 4);
    MB(&b, SpvOpTypeVector, F3, F, 3);
    MB(&b, SpvOpConstant, I32, LEN, 2);
    uint32_t prev = mb_type_chain(&b, FIRST, depth, C8, LEN, sc);
    MB(&b, SpvOpTypePointer, ptr, sc, prev);
    MB(&b, SpvOpTypePointer, P2, sc, C8);
    mb_fn_begin(&b, VOID, FN, FNTY, LABEL);
    MB(&b, SpvOpUndef, ptr, X);
    MB(&b, SpvOpBitcast, UL, R, X); /* pointer -> ulong (Shader: V13 through the chain) */
    MB(&b, SpvOpBitcast, P2, Z, X); /* pointer -> pointer (Shader: V13 through the chain) */
    MB(&b, SpvOpUndef, F4, Y);
    MB(&b, SpvOpBitcast, F3, r3, Y); /* lowerable 4->3 */
    mb_fn_end(&b);

    job j;

    job_init(&j, &b);
    run_job(&j, shader ? "deep-vk" : "deep-cl");
    CHECK(j.parse_result == SPVBC_SUCCESS);
    CHECK(j.vs.bitcasts_checked == 3);
    CHECK(j.ls.rewritten == 1);
    CHECK(j.mem.peak_bytes <= 64 * b.n * 4 + (1u << 20));
    if (shader) {
        /* The char at the bottom of the chain is storage-only: V13 on both pointer bitcasts
         * (the check looks through pointee types), plus the lowerable V12. */
        CHECK(j.vs.errors == 3 && j.ls.refused == 2);
    } else {
        CHECK(j.vs.errors == 1 && j.ls.refused == 0);
        check_output(&j, (size_t)-1);
    }
    free(j.out);
    mb_free(&b);
}

int main(int argc, char **argv)
{
    size_t count = 1000000;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--no-spirv-val"))
            g_spirv_val = 0;
        else
            count = (size_t)strtoull(argv[i], NULL, 10);
    }
    case_bitcasts(count);
    case_bound();
    case_deep(0);
    case_deep(1);
    printf("pathological sizes: ok\n");
    return 0;
}
