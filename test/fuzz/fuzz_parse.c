/*
 * fuzz_parse.c - spvbc_module_parse / _parse_bytes on arbitrary bytes.
 *
 * Properties: a failure is INVALID_BINARY, INVALID_ID or UNSUPPORTED with exactly one error
 * diagnostic inside the module and the out-parameter untouched; a size that is not a multiple
 * of 4 is INVALID_BINARY at word size / 4; a success reports the header as it is (in host
 * order), get_words and write return the input words, a copy_words module works after the
 * caller's buffer is freed, and a progress callback is told of the end and can stop the parse.
 */
#include "fuzz_harness.h"

/* The parse's progress callback: counts its calls, checks that what it is told grows, and
 * stops the parse at call `stop` (0: never). */
typedef struct progress_seen {
    size_t calls, last, stop;
    int backwards;
} progress_seen;

static int seen_progress(void *user, size_t words_read)
{
    progress_seen *s = (progress_seen *)user;
    if (words_read <= s->last) s->backwards = 1;
    s->last = words_read;
    return ++s->calls == s->stop;
}

/* A module that parsed (its `n` host-order words `h`) parses again with a progress callback,
 * which is told of its end last; stopped at its last call, the parse fails with
 * SPVBC_ERROR_STOPPED, no module and no diagnostic. */
static void check_progress(const uint32_t *h, size_t n)
{
    spvbc_context ctx;
    FUZZ_CHECK(spvbc_context_create(NULL, &ctx) == SPVBC_SUCCESS, "context");
    progress_seen s = {0, 0, 0, 0};
    spvbc_parse_options o = SPVBC_PARSE_OPTIONS_INIT;
    o.progress = seen_progress;
    o.progress_user = &s;
    spvbc_module m = NULL;
    FUZZ_CHECK(spvbc_module_parse(ctx, h, n, &o, &m) == SPVBC_SUCCESS, "parses with progress");
    FUZZ_CHECK(s.calls >= 1 && s.last == n && !s.backwards, "progress ends at the end");
    spvbc_module_destroy(m);
    progress_seen stop = {0, 0, s.calls, 0};
    o.progress_user = &stop;
    m = NULL;
    FUZZ_CHECK(spvbc_module_parse(ctx, h, n, &o, &m) == SPVBC_ERROR_STOPPED && m == NULL,
               "a progress callback stops the parse");
    FUZZ_CHECK(stop.calls == s.calls && spvbc_context_diagnostic_count(ctx) == 0,
               "stopped at the last call, without a diagnostic");
    spvbc_context_destroy(ctx);
}

int spvbc_fuzz_parse(const uint8_t *data, size_t size)
{
    const uint32_t bits = fuzz_option_bits(data, size);
    spvbc_context ctx;
    FUZZ_CHECK(spvbc_context_create(NULL, &ctx) == SPVBC_SUCCESS, "context");
    const spvbc_module sentinel = (spvbc_module)(uintptr_t)0x5a5a5a50u;
    spvbc_module m = sentinel;

    if (size % 4 != 0) {
        spvbc_parse_options o = fuzz_parse_options(bits);
        spvbc_result r = spvbc_module_parse_bytes(ctx, data, size, &o, &m);
        FUZZ_CHECK(r == SPVBC_ERROR_INVALID_BINARY, "odd size is INVALID_BINARY");
        FUZZ_CHECK(m == sentinel, "out_module untouched");
        FUZZ_CHECK(spvbc_context_diagnostic_count(ctx) == 1, "one diagnostic");
        FUZZ_CHECK(spvbc_context_diagnostic(ctx, 0)->word_offset == size / 4,
                   "odd size reported at word size / 4");
        spvbc_context_destroy(ctx);
        return 0;
    }

    const size_t n = size / 4;
    uint32_t *w = fuzz_words(data, size);
    int swapped;
    uint32_t *h = fuzz_host_words(w, n, &swapped);
    spvbc_parse_options o = fuzz_parse_options(bits);
    spvbc_result r = fuzz_parse_module(ctx, w, n, bits, &m);

    if (r != SPVBC_SUCCESS) {
        FUZZ_CHECK(r == SPVBC_ERROR_INVALID_BINARY || r == SPVBC_ERROR_INVALID_ID ||
                       r == SPVBC_ERROR_UNSUPPORTED,
                   "parse failure is a binary, id or limit error");
        FUZZ_CHECK(m == sentinel, "out_module untouched on failure");
        FUZZ_CHECK(spvbc_context_diagnostic_count(ctx) == 1, "exactly one diagnostic");
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
        FUZZ_CHECK(d->severity == SPVBC_SEVERITY_ERROR, "it is an error");
        FUZZ_CHECK(d->word_offset != SPVBC_NO_POSITION, "it has a position");
        fuzz_check_diags(ctx, n, n >= 5 ? h : NULL, n);
        if (r == SPVBC_ERROR_UNSUPPORTED && n >= 5) {
            uint32_t cap = o.max_id_bound ? o.max_id_bound : SPVBC_DEFAULT_MAX_ID_BOUND;
            FUZZ_CHECK(h[3] > cap || n > 0xFFFFFFF0u, "UNSUPPORTED only above the cap");
        }
        if (n >= 5 && h[0] == 0x07230203u && (h[1] & 0xFF0000FFu) == 0 && (h[1] >> 16) == 1 &&
            ((h[1] >> 8) & 0xFFu) <= 6 && h[3] != 0 && h[4] == 0 &&
            h[3] <= (o.max_id_bound ? o.max_id_bound : SPVBC_DEFAULT_MAX_ID_BOUND))
            FUZZ_CHECK(d->word_offset >= 5, "a valid header is not blamed");
    } else {
        FUZZ_CHECK(m != sentinel && m != NULL, "module written");
        FUZZ_CHECK(n >= 5, "a module has a header");
        FUZZ_CHECK(spvbc_context_diagnostic_count(ctx) == 0, "a clean parse says nothing");
        spvbc_module_info info = SPVBC_MODULE_INFO_INIT;
        FUZZ_CHECK(spvbc_module_get_info(m, &info) == SPVBC_SUCCESS, "info");
        FUZZ_CHECK(info.byte_swapped == swapped, "byte order detected");
        FUZZ_CHECK(h[0] == 0x07230203u, "magic");
        FUZZ_CHECK(info.version == h[1] && info.generator == h[2] && info.id_bound == h[3],
                   "header reported as is");
        FUZZ_CHECK(h[3] != 0 && h[4] == 0, "bound and schema checked");
        FUZZ_CHECK(info.id_bound <= (o.max_id_bound ? o.max_id_bound : SPVBC_DEFAULT_MAX_ID_BOUND),
                   "bound within the cap");
        FUZZ_CHECK(info.instruction_count <= n - 5, "instruction count");
        FUZZ_CHECK(info.bitcast_count <= info.instruction_count, "bitcast count");
        size_t counted = 0, bitcasts = 0;
        FUZZ_FOR_EACH_INST(h, n, it)
        {
            counted++;
            if (it.opcode == 124 || (it.opcode == 52 && it.wc >= 4 && h[it.offset + 3] == 124))
                bitcasts++;
        }
        FUZZ_CHECK(counted == info.instruction_count, "every instruction walked");
        FUZZ_CHECK(bitcasts == info.bitcast_count, "every bitcast site found");

        /* The caller may free copied input at once. */
        int copied = o.copy_words || (bits & 8u) || swapped;
        if (copied) {
            memset(w, 0xEE, n * 4);
            free(w);
            w = NULL;
        }
        const uint32_t *out = NULL;
        size_t out_n = 0;
        FUZZ_CHECK(spvbc_module_get_words(m, &out, &out_n) == SPVBC_SUCCESS, "get_words");
        FUZZ_CHECK(out_n == n && memcmp(out, h, n * 4) == 0, "unlowered output is the input");
        if (!copied) FUZZ_CHECK(out == w, "no copy without copy_words");
        fuzz_collect c = {h, n, 0, 0};
        FUZZ_CHECK(spvbc_module_write(m, fuzz_collect_fn, &c) == SPVBC_SUCCESS, "write");
        FUZZ_CHECK(!c.mismatch && c.at == n, "write streams the input");
        spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
        spvbc_result vr = spvbc_module_validate(m, NULL, &vs);
        FUZZ_CHECK(vr == SPVBC_SUCCESS || vr == SPVBC_ERROR_VALIDATION_FAILED, "validate");
        FUZZ_CHECK(vs.bitcasts_checked == info.bitcast_count, "every site checked");
        spvbc_module_destroy(m);
        check_progress(h, n);
    }
    spvbc_context_destroy(ctx);
    free(w);
    free(h);
    return 0;
}

SPVBC_FUZZ_ENTRY(spvbc_fuzz_parse)
