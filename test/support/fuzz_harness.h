/*
 * fuzz_harness.h - test support: the plumbing of the fuzz targets (test/fuzz: fuzz_parse.c,
 * fuzz_validate.c, fuzz_lower.c, fuzz_plan.c), the regression driver and the mutator.
 * fuzz_harness.c is compiled into each fuzz executable (with its instrumentation).
 *
 * Each target is a function `int spvbc_fuzz_<name>(const uint8_t *data, size_t size)` that
 * returns 0 and abort()s (after printing what failed) when a property does not hold; a
 * libFuzzer build wraps it in LLVMFuzzerTestOneInput (SPVBC_FUZZ_LIBFUZZER defined), the
 * regression driver calls all four directly.
 *
 * Options come from the module itself so that every input is plain SPIR-V bytes: the header's
 * generator word (word 2, which the library only reports) selects them.
 */
#ifndef SPVBC_FUZZ_HARNESS_H_
#define SPVBC_FUZZ_HARNESS_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_bitcast.h"

#if defined(__GNUC__)
#define FUZZ_UNUSED __attribute__((unused))
#define FUZZ_NORETURN __attribute__((noreturn))
#else
#define FUZZ_UNUSED
#define FUZZ_NORETURN
#endif

int spvbc_fuzz_parse(const uint8_t *data, size_t size);
int spvbc_fuzz_validate(const uint8_t *data, size_t size);
int spvbc_fuzz_lower(const uint8_t *data, size_t size);
int spvbc_fuzz_plan(const uint8_t *data, size_t size);

/** SPIRV-Tools' validator (fuzz_harness.c; only with SPVBC_FUZZ_SPIRV_VAL): 1 valid, 0 invalid
 *  (message in `msg` if not NULL), -1 if it could not run. */
int spvbc_fuzz_spirv_val(const uint32_t *words, size_t n, char *msg, size_t msg_size);

static FUZZ_UNUSED FUZZ_NORETURN void fuzz_fail(const char *file, int line, const char *cond,
                                                const char *what)
{
    fprintf(stderr, "\n*** spvbc fuzz property failed: %s:%d: %s (%s)\n", file, line, what, cond);
    fflush(stderr);
    abort();
}

/** FUZZ_CHECK(cond, "what") aborts with a message when `cond` does not hold. */
#define FUZZ_CHECK(cond, what)                                                                     \
    do {                                                                                           \
        if (!(cond)) fuzz_fail(__FILE__, __LINE__, #cond, (what));                                 \
    } while (0)

#define FUZZ_SWAPPED_MAGIC 0x03022307u

static FUZZ_UNUSED uint32_t fuzz_bswap(uint32_t v)
{
    return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
}

/** A malloc'd, word-aligned copy of `size / 4` words of `data` (at least one word). */
static FUZZ_UNUSED uint32_t *fuzz_words(const uint8_t *data, size_t size)
{
    size_t n = size / 4;
    uint32_t *w = (uint32_t *)malloc((n ? n : 1) * 4);
    FUZZ_CHECK(w != NULL, "test harness out of memory");
    if (n) memcpy(w, data, n * 4);
    return w;
}

/** A malloc'd copy of `n` words in host byte order (swapped if the magic says so). */
static FUZZ_UNUSED uint32_t *fuzz_host_words(const uint32_t *w, size_t n, int *swapped)
{
    uint32_t *h = (uint32_t *)malloc((n ? n : 1) * 4);
    FUZZ_CHECK(h != NULL, "test harness out of memory");
    *swapped = n >= 1 && w[0] == FUZZ_SWAPPED_MAGIC;
    for (size_t i = 0; i < n; ++i)
        h[i] = *swapped ? fuzz_bswap(w[i]) : w[i];
    return h;
}

/** The option bits: the generator word in host order, 0 for short input. */
static FUZZ_UNUSED uint32_t fuzz_option_bits(const uint8_t *data, size_t size)
{
    if (size < 12) return 0;
    uint32_t w0, g;
    memcpy(&w0, data, 4);
    memcpy(&g, data + 8, 4);
    return w0 == FUZZ_SWAPPED_MAGIC ? fuzz_bswap(g) : g;
}

/* Option bits (generator word):
 *   bit 0      copy_words
 *   bits 1-2   max_id_bound: 0 (default), 16, 1024, 65536
 *   bit 3      parse through spvbc_module_parse_bytes from a misaligned copy
 *   bits 4-6   validate flags (NOTES, STRICT, WARNINGS_AS_ERRORS)
 *   bits 8-11  lower classes (0 = all)
 */
static FUZZ_UNUSED spvbc_parse_options fuzz_parse_options(uint32_t bits)
{
    static const uint32_t caps[4] = {0, 16, 1024, 65536};
    spvbc_parse_options o = SPVBC_PARSE_OPTIONS_INIT;
    o.copy_words = (int)(bits & 1u);
    o.max_id_bound = caps[(bits >> 1) & 3u];
    return o;
}

/** Parses `n` words at `w` (the same words as `data`) the way the option bits say. */
static FUZZ_UNUSED spvbc_result fuzz_parse_module(spvbc_context ctx, const uint32_t *w, size_t n,
                                                  uint32_t bits, spvbc_module *m)
{
    spvbc_parse_options o = fuzz_parse_options(bits);
    if (bits & 8u) {
        unsigned char *mis = (unsigned char *)malloc(n * 4 + 1);
        FUZZ_CHECK(mis != NULL, "test harness out of memory");
        if (n) memcpy(mis + 1, w, n * 4);
        spvbc_result r = spvbc_module_parse_bytes(ctx, mis + 1, n * 4, &o, m);
        free(mis); /* misaligned input is copied: the module must not need it */
        return r;
    }
    return spvbc_module_parse(ctx, w, n, &o, m);
}

/* ---- instruction walk over host-order words -------------------------------------------- */

typedef struct fuzz_inst {
    size_t offset;
    uint32_t wc, opcode;
} fuzz_inst;

/** Calls `fn` for each well-formed instruction after the header; stops at a bad word count. */
#define FUZZ_FOR_EACH_INST(h, n, it)                                                               \
    for (fuzz_inst it = {5, (n) > 5 ? (h)[5] >> 16 : 0, (n) > 5 ? (h)[5] & 0xFFFFu : 0};           \
         (n) > 5 && it.offset < (n) && it.wc != 0 && it.wc <= (n)-it.offset;                       \
         it.offset += it.wc, it.wc = it.offset < (n) ? (h)[it.offset] >> 16 : 0,                   \
                   it.opcode = it.offset < (n) ? (h)[it.offset] & 0xFFFFu : 0)

/** Checks the context's diagnostics are well-formed for a module of `n` words. */
static FUZZ_UNUSED void fuzz_check_diags(spvbc_context ctx, size_t n, const uint32_t *h,
                                         size_t instruction_count)
{
    size_t count = spvbc_context_diagnostic_count(ctx);
    for (size_t i = 0; i < count; ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        FUZZ_CHECK(d != NULL, "diagnostic index below the count");
        FUZZ_CHECK(d->severity == SPVBC_SEVERITY_ERROR || d->severity == SPVBC_SEVERITY_WARNING ||
                       d->severity == SPVBC_SEVERITY_NOTE,
                   "severity in range");
        FUZZ_CHECK(d->rule != NULL && d->rule[0] != '\0', "every diagnostic has a rule");
        FUZZ_CHECK(d->message != NULL && strlen(d->message) > 0, "every diagnostic has text");
        if (d->result_name) (void)strlen(d->result_name);
        if (d->source_file) (void)strlen(d->source_file);
        if (d->operand_type) (void)strlen(d->operand_type);
        if (d->result_type) (void)strlen(d->result_type);
        if (d->astype) (void)strlen(d->astype);
        if (d->word_offset != SPVBC_NO_POSITION)
            FUZZ_CHECK(d->word_offset < (n > 5 ? n : 5), "word_offset inside the module");
        if (h && d->word_offset != SPVBC_NO_POSITION && d->word_offset >= 5 && d->word_offset < n &&
            d->opcode)
            FUZZ_CHECK((h[d->word_offset] & 0xFFFFu) == d->opcode,
                       "opcode names the instruction at word_offset");
        if (instruction_count != (size_t)-1 && d->instruction_index != SPVBC_NO_POSITION)
            FUZZ_CHECK(d->instruction_index < instruction_count, "instruction_index in range");
    }
}

/* ---- run-one-input plumbing (fuzz_harness.c) ------------------------------------------- */

/** A spvbc_module_write() sink that compares the streamed words with `expect` (`n` words). */
typedef struct fuzz_collect {
    const uint32_t *expect;
    size_t n, at;
    int mismatch;
} fuzz_collect;

/** The spvbc_write_fn of a fuzz_collect `user`: sets `mismatch` where the words differ. */
int fuzz_collect_fn(void *user, const uint32_t *words, size_t count);

/** One input of whole words, parsed the way its option bits say. */
typedef struct fuzz_input {
    uint32_t bits; /* the option bits (generator word) */
    size_t n; /* words */
    uint32_t *w; /* the words as given */
    uint32_t *h; /* the words in host byte order */
    int swapped;
    spvbc_context ctx;
    spvbc_module m;
    spvbc_module_info info;
} fuzz_input;

/** Opens `size` bytes at `data` as a module: 1 when it parsed (call fuzz_input_close), 0 when
 *  there is nothing to check (not whole words, shorter than a header, or it does not parse;
 *  everything is freed). */
int fuzz_input_open(fuzz_input *in, const uint8_t *data, size_t size);

/** Destroys the module and context of `in` and frees its words. */
void fuzz_input_close(fuzz_input *in);

/** One pass over a module (validate or lower with the target's options): its result, with its
 *  summary written to `summary`. */
typedef spvbc_result (*fuzz_pass_fn)(spvbc_module m, const void *options, void *summary);

/** Runs `pass` on `in`'s module under keep-all, keep-first N (N from the option bits, 0 to 7)
 *  and count-only, and checks that the policies agree: the same result and summary bytes;
 *  keep-first keeps keep-all's first N diagnostics and ends with an R-NOT-KEPT note giving the
 *  number dropped; count-only keeps only that note.  Leaves the context at keep-all. */
void fuzz_check_policies(fuzz_input *in, fuzz_pass_fn pass, const void *options,
                         size_t summary_size);

#ifdef SPVBC_FUZZ_LIBFUZZER
#define SPVBC_FUZZ_ENTRY(fn)                                                                       \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);                                  \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                                   \
    {                                                                                              \
        return fn(data, size);                                                                     \
    }
#else
#define SPVBC_FUZZ_ENTRY(fn)
#endif

#endif /* SPVBC_FUZZ_HARNESS_H_ */
