/* test_api_abi.c - the public API test (test_api.h): what an embedder relies on: growable structs,
 * the allocator contract, the lifetime of diagnostics and of the caller's words, the parse's
 * progress callback. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_alloc.h"
#include "test_api.h"

/* Growable structs: struct_size below 0.2.0's size is an argument error for every struct; a
 * later version's larger struct is accepted when its unknown fields are zero (else
 * SPVBC_ERROR_UNSUPPORTED), and an output struct's unknown tail is left alone. */
typedef struct future_lower_options {
    spvbc_lower_options known;
    uint32_t later_field;
} future_lower_options;
typedef struct future_lower_summary {
    spvbc_lower_summary known;
    uint64_t later_field;
} future_lower_summary;

void test_abi_struct_size(void **state)
{
    (void)state;
    kmod k;
    spvbc_context ctx;
    spvbc_module m = parse_kernel(&k, &ctx);
    test_alloc unused;
    memset(&unused, 0, sizeof unused);

    /* Too small: 0, and one byte short of 0.2.0's last field.  Each call gets one short struct. */
#define SHORT(type, last) (i ? offsetof(type, last) + sizeof(((type *)0)->last) - 1 : 0)
    for (int i = 0; i < 2; ++i) {
        spvbc_lower_options lo = SPVBC_LOWER_OPTIONS_INIT;
        spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
        spvbc_validate_options vo = SPVBC_VALIDATE_OPTIONS_INIT;
        spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
        spvbc_module_info info = SPVBC_MODULE_INFO_INIT;
        spvbc_parse_options po = SPVBC_PARSE_OPTIONS_INIT;
        spvbc_plan_options plo = SPVBC_PLAN_OPTIONS_INIT;
        spvbc_plan plan = SPVBC_PLAN_INIT, short_plan = SPVBC_PLAN_INIT;
        spvbc_allocator al = test_alloc_allocator(&unused);
        lo.struct_size = SHORT(spvbc_lower_options, classes);
        ls.struct_size = SHORT(spvbc_lower_summary, new_id_bound);
        vo.struct_size = SHORT(spvbc_validate_options, flags);
        vs.struct_size = SHORT(spvbc_validate_summary, lowerable);
        info.struct_size = SHORT(spvbc_module_info, byte_swapped);
        po.struct_size = SHORT(spvbc_parse_options, copy_words);
        plo.struct_size = SHORT(spvbc_plan_options, pad);
        short_plan.struct_size = SHORT(spvbc_plan, ops);
        al.struct_size = SHORT(spvbc_allocator, user);

        assert_int_equal(spvbc_module_lower(m, &lo, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
        assert_int_equal(spvbc_module_lower(m, NULL, &ls), SPVBC_ERROR_INVALID_ARGUMENT);
        assert_int_equal(spvbc_module_validate(m, &vo, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
        assert_int_equal(spvbc_module_validate(m, NULL, &vs), SPVBC_ERROR_INVALID_ARGUMENT);
        assert_int_equal(spvbc_module_get_info(m, &info), SPVBC_ERROR_INVALID_ARGUMENT);
        spvbc_module m2 = NULL;
        assert_int_equal(spvbc_module_parse(ctx, k.b.w, k.b.n, &po, &m2),
                         SPVBC_ERROR_INVALID_ARGUMENT);
        assert_int_equal(spvbc_module_parse_bytes(ctx, k.b.w, k.b.n * 4, &po, &m2),
                         SPVBC_ERROR_INVALID_ARGUMENT);
        assert_null(m2);
        spvbc_type_desc f4 = {SPVBC_SCALAR_FLOAT, 32, 4, 0}, f3 = {SPVBC_SCALAR_FLOAT, 32, 3, 0};
        assert_int_equal(spvbc_astype_plan(&f4, &f3, &plo, &plan), SPVBC_ERROR_INVALID_ARGUMENT);
        assert_int_equal(spvbc_astype_plan(&f4, &f3, NULL, &short_plan),
                         SPVBC_ERROR_INVALID_ARGUMENT);
        spvbc_context c2 = NULL;
        assert_int_equal(spvbc_context_create(&al, &c2), SPVBC_ERROR_INVALID_ARGUMENT);
        assert_null(c2);
    }
#undef SHORT

    /* A later version's options: accepted with the new field zero, refused when it is set. */
    future_lower_options fo;
    memset(&fo, 0, sizeof fo);
    fo.known.struct_size = sizeof fo;
    fo.known.pad = SPVBC_PAD_ZERO;
    future_lower_summary fs;
    memset(&fs, 0, sizeof fs);
    fs.known.struct_size = sizeof fs;
    fs.later_field = 0x0123456789abcdefu;
    assert_int_equal(spvbc_module_lower(m, &fo.known, &fs.known), SPVBC_SUCCESS);
    assert_int_equal(fs.known.struct_size, sizeof fs); /* the caller's size stays */
    assert_int_equal(fs.known.rewritten, 2);
    assert_int_equal(fs.known.constants_added, 0); /* pad zero was read: nothing to pad here */
    assert_true(fs.later_field == 0x0123456789abcdefu); /* the unknown tail is not touched */
    fo.later_field = 1;
    assert_int_equal(spvbc_module_lower(m, &fo.known, &fs.known), SPVBC_ERROR_UNSUPPORTED);

    /* The INIT macros give the defaults the NULL options stand for. */
    spvbc_lower_summary a = SPVBC_LOWER_SUMMARY_INIT, b = SPVBC_LOWER_SUMMARY_INIT;
    spvbc_lower_options dflt = SPVBC_LOWER_OPTIONS_INIT;
    assert_int_equal(spvbc_module_lower(m, NULL, &a), SPVBC_SUCCESS);
    assert_int_equal(spvbc_module_lower(m, &dflt, &b), SPVBC_SUCCESS);
    assert_memory_equal(&a, &b, sizeof a);
    spvbc_context_destroy(ctx);
    mb_free(&k.b);
}

/* The allocator contract: an allocator whose blocks are aligned to exactly
 * SPVBC_ALLOCATOR_ALIGNMENT (never to twice that) carries the whole pipeline; UBSan (the CI's
 * sanitizer build) reports any access that needs more.  Every size asked is non-zero and every
 * free names a live block with its size. */
typedef struct exact_align {
    size_t live, bytes, calls, bad;
} exact_align;

static void *exact_alloc(void *user, size_t size)
{
    exact_align *a = (exact_align *)user;
    a->calls++;
    if (size == 0) a->bad++;
    /* Room for the raw pointer and the size below the block, and for aligning it. */
    unsigned char *raw = (unsigned char *)malloc(size + 6 * SPVBC_ALLOCATOR_ALIGNMENT);
    if (!raw) return NULL;
    uintptr_t base = ((uintptr_t)raw + 4 * SPVBC_ALLOCATOR_ALIGNMENT - 1) &
                     ~(uintptr_t)(2 * SPVBC_ALLOCATOR_ALIGNMENT - 1);
    unsigned char *block = (unsigned char *)base + SPVBC_ALLOCATOR_ALIGNMENT;
    memcpy(block - sizeof raw, &raw, sizeof raw);
    memcpy(block - 2 * sizeof size, &size, sizeof size);
    a->live++;
    a->bytes += size;
    return block;
}

static void exact_free(void *user, void *ptr, size_t size)
{
    exact_align *a = (exact_align *)user;
    unsigned char *block = (unsigned char *)ptr, *raw;
    size_t asked;
    if (!ptr) {
        a->bad++;
        return;
    }
    memcpy(&raw, block - sizeof raw, sizeof raw);
    memcpy(&asked, block - 2 * sizeof asked, sizeof asked);
    if (asked != size) a->bad++;
    a->live--;
    a->bytes -= asked;
    free(raw);
}

void test_allocator_alignment(void **state)
{
    (void)state;
    assert_true(SPVBC_ALLOCATOR_ALIGNMENT >= sizeof(size_t)); /* room for the size above */
    exact_align a = {0, 0, 0, 0};
    spvbc_allocator al = SPVBC_ALLOCATOR_INIT(exact_alloc, exact_free, &a);
    kmod k;
    build_kernel(&k);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
    assert_int_equal((uintptr_t)ctx % SPVBC_ALLOCATOR_ALIGNMENT, 0);
    assert_int_equal((uintptr_t)ctx % (2 * SPVBC_ALLOCATOR_ALIGNMENT), SPVBC_ALLOCATOR_ALIGNMENT);
    for (int copy = 0; copy < 2; ++copy) {
        spvbc_parse_options po = SPVBC_PARSE_OPTIONS_INIT;
        po.copy_words = copy;
        spvbc_module m;
        assert_int_equal(spvbc_module_parse(ctx, k.b.w, k.b.n, &po, &m), SPVBC_SUCCESS);
        spvbc_validate_options vo = SPVBC_VALIDATE_OPTIONS_INIT;
        vo.flags = SPVBC_VALIDATE_NOTES;
        assert_int_equal(spvbc_module_validate(m, &vo, NULL), SPVBC_ERROR_VALIDATION_FAILED);
        for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i)
            assert_non_null(spvbc_context_diagnostic(ctx, i)->message);
        spvbc_lower_options lo = SPVBC_LOWER_OPTIONS_INIT;
        lo.pad = SPVBC_PAD_ZERO;
        assert_int_equal(spvbc_module_lower(m, &lo, NULL), SPVBC_SUCCESS);
        for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i)
            assert_non_null(spvbc_context_diagnostic(ctx, i)->message);
        const uint32_t *out;
        size_t n;
        assert_int_equal(spvbc_module_get_words(m, &out, &n), SPVBC_SUCCESS);
        assert_true(spirv_val(out, n));
        spvbc_module_destroy(m);
    }
    spvbc_context_destroy(ctx);
    assert_true(a.calls > 10);
    assert_int_equal(a.bad, 0);
    assert_int_equal(a.live, 0);
    assert_int_equal(a.bytes, 0);
    mb_free(&k.b);
}

/* A diagnostic pointer stays valid until the next module call or the context's end, even when
 * a later call adds the R-MEMORY diagnostic: spvbc_module_get_words() runs out of memory after
 * the caller read the lowering's k findings (k = 1..40 crosses every growth of the store's
 * arrays; ASan reports a read of a moved one). */
void test_diagnostic_pointers_survive_oom(void **state)
{
    (void)state;
    for (uint32_t k = 1; k <= 40; ++k) {
        mb b = {0};
        library_head(&b, 0x00010000u, ID_BOUND + k, SpvAddressingModelPhysical64);
        MB(&b, SpvOpTypeVoid, ID_VOID);
        MB(&b, SpvOpTypeFloat, ID_FLOAT, 32);
        MB(&b, SpvOpTypeVector, ID_V4F, ID_FLOAT, 4);
        MB(&b, SpvOpTypeVector, ID_V3F, ID_FLOAT, 3);
        MB(&b, SpvOpTypePointer, ID_PTR4, SpvStorageClassCrossWorkgroup, ID_V4F);
        load_param_fn(&b, ID_VOID, ID_FN, ID_PTR4, ID_F, ID_P, ID_L, ID_V4F, ID_X);
        for (uint32_t i = 0; i < k; ++i)
            MB(&b, SpvOpBitcast, ID_V3F, ID_BOUND + i, ID_X);
        mb_fn_end(&b);

        test_alloc ta;
        memset(&ta, 0, sizeof ta);
        spvbc_allocator al = test_alloc_allocator(&ta);
        spvbc_context ctx;
        spvbc_module m;
        assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
        assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, &m), SPVBC_SUCCESS);
        spvbc_lower_summary sum = SPVBC_LOWER_SUMMARY_INIT;
        assert_int_equal(spvbc_module_lower(m, NULL, &sum), SPVBC_SUCCESS);
        assert_int_equal(sum.rewritten, k);
        const size_t n = spvbc_context_diagnostic_count(ctx);
        assert_int_equal(n, k); /* one L-LOWERED note each */
        const spvbc_diagnostic **held = (const spvbc_diagnostic **)malloc(n * sizeof *held);
        char(*text)[256] = (char(*)[256])malloc(n * sizeof *text);
        assert_non_null(held);
        assert_non_null(text);
        for (size_t i = 0; i < n; ++i) {
            held[i] = spvbc_context_diagnostic(ctx, i);
            snprintf(text[i], sizeof text[i], "%s", held[i]->message);
        }
        /* get_words' one allocation fails (and every later one: nothing may be needed). */
        ta.fail_at = ta.calls + 1;
        ta.sticky = 1;
        const uint32_t *out;
        size_t out_n;
        assert_int_equal(spvbc_module_get_words(m, &out, &out_n), SPVBC_ERROR_OUT_OF_MEMORY);
        assert_int_equal(spvbc_context_diagnostic_count(ctx), n + 1);
        assert_string_equal(spvbc_context_diagnostic(ctx, n)->rule, "R-MEMORY");
        for (size_t i = 0; i < n; ++i) {
            assert_ptr_equal(spvbc_context_diagnostic(ctx, i), held[i]);
            assert_string_equal(held[i]->message, text[i]);
            assert_string_equal(held[i]->rule, "L-LOWERED");
        }
        /* Twice out of memory: still one R-MEMORY. */
        assert_int_equal(spvbc_module_get_words(m, &out, &out_n), SPVBC_ERROR_OUT_OF_MEMORY);
        assert_int_equal(spvbc_context_diagnostic_count(ctx), n + 1);
        ta.fail_at = 0;
        ta.sticky = 0;
        spvbc_module_destroy(m);
        spvbc_context_destroy(ctx);
        assert_int_equal(ta.live_blocks, 0);
        free(held);
        free(text);
        mb_free(&b);
    }
}

/* spvbc_module_destroy() reads none of the caller's words and allocates nothing: a driver
 * copies the output, frees the application's words, then destroys the module and reads the
 * findings.  The words are overwritten before they are freed, so a destroy that still read them
 * would make different sentences even without ASan (which reports the read itself). */
static void copy_texts(spvbc_context ctx, char (*texts)[512], size_t *n)
{
    *n = spvbc_context_diagnostic_count(ctx);
    assert_true(*n <= 8);
    for (size_t i = 0; i < *n; ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        snprintf(texts[i], sizeof texts[i], "%s [%s] %s %s:%u", d->message, d->rule,
                 d->result_name ? d->result_name : "-", d->source_file ? d->source_file : "-",
                 d->source_line);
    }
}

void test_destroy_reads_no_words(void **state)
{
    (void)state;
    kmod k;
    build_kernel(&k);
    for (int lower = 0; lower < 2; ++lower) {
        /* The reference: read while the module and its words are there. */
        char want[8][512], got[8][512];
        size_t nwant, ngot;
        spvbc_context ctx;
        spvbc_module m = parse_new(&k.b, &ctx);
        if (lower)
            assert_int_equal(spvbc_module_lower(m, NULL, NULL), SPVBC_SUCCESS);
        else
            assert_int_equal(spvbc_module_validate(m, NULL, NULL), SPVBC_ERROR_VALIDATION_FAILED);
        copy_texts(ctx, want, &nwant);
        assert_true(nwant >= 2);
        assert_non_null(strstr(want[0], "k.cl")); /* names and lines come from the words */
        spvbc_module_destroy(m);
        spvbc_context_destroy(ctx);

        /* The driver's order: findings unread, words gone, then destroy. */
        uint32_t *words = (uint32_t *)malloc(k.b.n * 4);
        assert_non_null(words);
        memcpy(words, k.b.w, k.b.n * 4);
        test_alloc ta;
        memset(&ta, 0, sizeof ta);
        spvbc_allocator al = test_alloc_allocator(&ta);
        assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
        assert_int_equal(spvbc_module_parse(ctx, words, k.b.n, NULL, &m), SPVBC_SUCCESS);
        if (lower) {
            assert_int_equal(spvbc_module_lower(m, NULL, NULL), SPVBC_SUCCESS);
            const uint32_t *out;
            size_t n;
            assert_int_equal(spvbc_module_get_words(m, &out, &n), SPVBC_SUCCESS);
        } else {
            assert_int_equal(spvbc_module_validate(m, NULL, NULL), SPVBC_ERROR_VALIDATION_FAILED);
        }
        memset(words, 0xFF, k.b.n * 4);
        free(words);
        const size_t calls = ta.calls;
        spvbc_module_destroy(m);
        assert_int_equal(ta.calls, calls); /* destroy allocates nothing */
        copy_texts(ctx, got, &ngot);
        assert_int_equal(ta.calls, calls); /* nor does reading the findings */
        assert_int_equal(ngot, nwant);
        for (size_t i = 0; i < nwant; ++i)
            assert_string_equal(got[i], want[i]);
        spvbc_context_destroy(ctx);
        assert_int_equal(ta.live_blocks, 0);
    }
    mb_free(&k.b);
}

/* Checks diagnostic 0 of `ctx`: result name `name`, source file `file`, line `line`. */
static void expect_names(spvbc_context ctx, const char *name, const char *file, uint32_t line)
{
    const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
    assert_non_null(d);
    assert_string_equal(d->result_name, name);
    assert_string_equal(d->source_file, file);
    assert_int_equal(d->source_line, line);
}

/* The Kernel test module with its OpName of %y, its OpString and its OpLine's line changed. */
static void rename_kernel(const kmod *k, mb *out, char name, char file, uint32_t line)
{
    memset(out, 0, sizeof *out);
    mb_append(out, &k->b);
    for (size_t off = 5; off < out->n; off += out->w[off] >> 16) {
        const uint32_t op = out->w[off] & 0xffffu;
        if (op == SpvOpName) out->w[off + 2] = (uint32_t)(unsigned char)name;
        if (op == SpvOpString) out->w[off + 2] = (out->w[off + 2] & ~0xffu) | (unsigned char)file;
        if (op == SpvOpLine) out->w[off + 2] = line;
    }
}

/* A call resolves names and source lines from its own module's words, whichever module the
 * context's last call was on, and a module parsed after another was destroyed (maybe at its
 * address) has its own. */
void test_names_follow_their_module(void **state)
{
    (void)state;
    kmod k;
    build_kernel(&k);
    mb b, c;
    rename_kernel(&k, &b, 'w', 'q', 13);
    rename_kernel(&k, &c, 'v', 'r', 14);
    spvbc_context ctx;
    spvbc_module ma = parse_new(&k.b, &ctx), mb_ = NULL, mc = NULL;
    assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, &mb_), SPVBC_SUCCESS);
    assert_int_equal(spvbc_module_validate(ma, NULL, NULL), SPVBC_ERROR_VALIDATION_FAILED);
    expect_names(ctx, "y", "k.cl", 12);
    assert_int_equal(spvbc_module_validate(mb_, NULL, NULL), SPVBC_ERROR_VALIDATION_FAILED);
    expect_names(ctx, "w", "q.cl", 13);
    assert_int_equal(spvbc_module_lower(ma, NULL, NULL), SPVBC_SUCCESS);
    expect_names(ctx, "y", "k.cl", 12);
    assert_int_equal(spvbc_module_lower(ma, NULL, NULL), SPVBC_SUCCESS);
    expect_names(ctx, "y", "k.cl", 12);
    spvbc_module_destroy(ma);
    assert_int_equal(spvbc_module_parse(ctx, c.w, c.n, NULL, &mc), SPVBC_SUCCESS);
    assert_int_equal(spvbc_module_lower(mc, NULL, NULL), SPVBC_SUCCESS);
    expect_names(ctx, "v", "r.cl", 14);
    assert_int_equal(spvbc_module_lower(mb_, NULL, NULL), SPVBC_SUCCESS);
    expect_names(ctx, "w", "q.cl", 13);
    spvbc_module_destroy(mc);
    spvbc_module_destroy(mb_);
    spvbc_context_destroy(ctx);
    mb_free(&b);
    mb_free(&c);
    mb_free(&k.b);
}

/* spvbc_parse_options.progress (since 0.2.2): what the walk has read, at instruction starts,
 * about every SPVBC_PARSE_PROGRESS_WORDS words and once at the end; non-zero stops the parse. */
typedef struct progress_log {
    const uint32_t *w;
    size_t n, calls, stop_at;
    size_t at[8]; /* the words read at each call (the first 8) */
    int off_boundary; /* a call named a word inside an instruction */
} progress_log;

static int on_progress(void *user, size_t words_read)
{
    progress_log *l = (progress_log *)user;
    size_t at = 5;
    while (at < words_read && at < l->n)
        at += l->w[at] >> 16 ? l->w[at] >> 16 : 1;
    if (at != words_read) l->off_boundary = 1;
    if (l->calls < 8) l->at[l->calls] = words_read;
    return ++l->calls == l->stop_at;
}

static progress_log progress_parse(spvbc_context ctx, const mb *b, size_t stop_at,
                                   spvbc_result want)
{
    progress_log l;
    memset(&l, 0, sizeof l);
    l.w = b->w;
    l.n = b->n;
    l.stop_at = stop_at;
    spvbc_parse_options po = SPVBC_PARSE_OPTIONS_INIT;
    po.progress = on_progress;
    po.progress_user = &l;
    spvbc_module m = NULL;
    assert_int_equal(spvbc_module_parse(ctx, b->w, b->n, &po, &m), want);
    if (want == SPVBC_SUCCESS) {
        spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
        assert_int_equal(spvbc_module_validate(m, NULL, &vs), SPVBC_ERROR_VALIDATION_FAILED);
        assert_int_equal(vs.lowerable, 2); /* the module is what it is without the callback */
        spvbc_module_destroy(m);
    } else {
        assert_null(m);
    }
    return l;
}

void test_parse_progress(void **state)
{
    (void)state;
    kmod k;
    build_kernel(&k);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    /* A small module: one call, at its end. */
    progress_log l = progress_parse(ctx, &k.b, 0, SPVBC_SUCCESS);
    assert_int_equal(l.calls, 1);
    assert_int_equal(l.at[0], k.b.n);
    /* 2.5 Mi words of OpNop (1 word) and OpLine (4) after the kernel: a call as soon as the walk
     * has read SPVBC_PARSE_PROGRESS_WORDS words since the last (or up to an OpLine's 3 more),
     * then one at the end. */
    const size_t step = SPVBC_PARSE_PROGRESS_WORDS, pad = step * 5 / 2;
    mb_reserve(&k.b, pad);
    while (k.b.n < pad) {
        mb_op0(&k.b, SpvOpNop);
        if (k.b.n % 7 == 0) MB(&k.b, SpvOpLine, ID_FILE, 1, 1);
    }
    l = progress_parse(ctx, &k.b, 0, SPVBC_SUCCESS);
    assert_int_equal(l.calls, 3);
    assert_int_equal(l.off_boundary, 0);
    assert_in_range(l.at[0] - 5, step, step + 3);
    assert_in_range(l.at[1] - l.at[0], step, step + 3);
    assert_int_equal(l.at[2], k.b.n);
    /* Stopping at the second call: no module, no diagnostic. */
    l = progress_parse(ctx, &k.b, 2, SPVBC_ERROR_STOPPED);
    assert_int_equal(l.calls, 2);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 0);
    /* A header the parse rejects: no walk, no call. */
    k.b.w[1] = 0x00020000u;
    l = progress_parse(ctx, &k.b, 0, SPVBC_ERROR_INVALID_BINARY);
    assert_int_equal(l.calls, 0);
    spvbc_context_destroy(ctx);
    mb_free(&k.b);
}
