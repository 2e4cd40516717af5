/*
 * astype_ref.c - the C reference of as_type for the execution tests (see astype_ref.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "astype_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* ---------------------------------------------------------------------------------------- */
/* Reporting */

void ref_reasons_add(reasons *rs, const char *text)
{
    for (unsigned i = 0; i < rs->n; ++i) {
        if (strcmp(rs->r[i].text, text) == 0) {
            rs->r[i].count++;
            return;
        }
    }
    if (rs->n < sizeof rs->r / sizeof rs->r[0]) {
        (void)snprintf(rs->r[rs->n].text, sizeof rs->r[rs->n].text, "%s", text);
        rs->r[rs->n].count = 1;
        rs->n++;
    }
}

void ref_reasons_format(const reasons *rs, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    if (rs->n == 0) {
        (void)snprintf(buf, size, "none");
        return;
    }
    for (unsigned i = 0; i < rs->n && used < size; ++i) {
        int k = snprintf(buf + used, size - used, "%s%u %s", i ? ", " : "", rs->r[i].count,
                         rs->r[i].text);
        if (k < 0) break;
        used += (size_t)k;
    }
}

/* ---------------------------------------------------------------------------------------- */
/* Types and classes (computed here, independently of the library) */

const char *const ref_class_names[PC_NUM] = {"same-count",  "4->3",      "3->4",
                                             "vec3-source", "vec3-dest", "count-change"};

pair_class ref_classify(const spvbc_type_desc *s, const spvbc_type_desc *d)
{
    if (s->count == d->count) return PC_SAME_COUNT;
    if (s->count == 4 && d->count == 3) return PC_4_TO_3;
    if (s->count == 3 && d->count == 4) return PC_3_TO_4;
    if (s->count == 3) return PC_VEC3_SOURCE;
    if (d->count == 3) return PC_VEC3_DEST;
    return PC_COUNT_CHANGE;
}

int ref_same_spirv_type(const spvbc_type_desc *a, const spvbc_type_desc *b)
{
    return a->kind == b->kind && a->width == b->width && a->count == b->count &&
           (a->kind != SPVBC_SCALAR_INT || (a->is_signed != 0) == (b->is_signed != 0));
}

/* The storage size in bytes under OpenCL's rule (a 3-vector occupies 4 lanes). */
size_t ref_opencl_bytes(const spvbc_type_desc *t)
{
    return (size_t)(t->count == 3 ? 4u : t->count) * t->width / 8u;
}

/* ---------------------------------------------------------------------------------------- */
/* Input values */

uint64_t ref_splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Bit patterns worth putting in a lane of `kind`/`width`: NaN payloads, signalling NaNs,
 * denormals, -0.0, +-inf, all-ones, 0, extremes. */
static size_t special_patterns(spvbc_scalar_kind kind, uint32_t width, uint64_t *out)
{
    static const uint64_t f16[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7e01, 0x7c01,
                                   0x7d55, 0xfe01, 0xfc01, 0x0001, 0x03ff, 0x8001, 0x83ff,
                                   0x3c00, 0xffff, 0x7bff, 0x0400, 0x7fff};
    static const uint64_t f32[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                                   0x7fc00001, 0x7f800001, 0x7fa5a5a5, 0xffc12345, 0xff800001,
                                   0x00000001, 0x007fffff, 0x80000001, 0x807fffff, 0x3f800000,
                                   0xffffffff, 0x7f7fffff, 0x00800000, 0x7fffffff, 0x00400000};
    static const uint64_t f64[] = {
        0x0000000000000000ull, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
        0x7ff8000000000000ull, 0x7ff8000000000001ull, 0x7ff0000000000001ull, 0x7ff4a5a5a5a5a5a5ull,
        0xfff8123456789abcull, 0xfff0000000000001ull, 0x0000000000000001ull, 0x000fffffffffffffull,
        0x8000000000000001ull, 0x3ff0000000000000ull, 0xffffffffffffffffull, 0x7fefffffffffffffull,
        0x0010000000000000ull, 0x7fffffffffffffffull};
    const uint64_t *src;
    size_t n;
    if (kind == SPVBC_SCALAR_FLOAT) {
        src = width == 16 ? f16 : width == 32 ? f32 : f64;
        n = width == 16   ? sizeof f16 / sizeof f16[0]
            : width == 32 ? sizeof f32 / sizeof f32[0]
                          : sizeof f64 / sizeof f64[0];
        memcpy(out, src, n * sizeof *out);
        return n;
    }
    uint64_t mask = width == 64 ? ~0ull : ((1ull << width) - 1u);
    uint64_t sign = 1ull << (width - 1u);
    const uint64_t ints[] = {0,
                             mask,
                             1,
                             sign,
                             sign - 1u,
                             0x5555555555555555ull & mask,
                             0xaaaaaaaaaaaaaaaaull & mask,
                             0x0807060504030201ull & mask,
                             sign | 1u,
                             0x8080808080808080ull & mask};
    n = sizeof ints / sizeof ints[0];
    memcpy(out, ints, sizeof ints);
    return n;
}

static void put_lane(uint8_t *p, uint32_t bytes, uint64_t v)
{
    for (uint32_t i = 0; i < bytes; ++i)
        p[i] = (uint8_t)(v >> (8u * i));
}

/* Writes REF_ELEMS source values of `s` with stride `sstride` into `buf`.  Patterns are placed both
 * at the source's lane boundaries and at the destination's, so a NaN or denormal lands in every
 * lane of both views; a 3-vector's unused 4th lane in memory gets REF_IN_GARBAGE. */
void ref_make_inputs(uint8_t *buf, const spvbc_type_desc *s, const spvbc_type_desc *d,
                     size_t sstride, uint64_t seed)
{
    uint64_t st = seed;
    uint64_t sp_src[32], sp_dst[32];
    size_t ns = special_patterns(s->kind, s->width, sp_src);
    size_t nd = special_patterns(d->kind, d->width, sp_dst);
    uint32_t sb = s->width / 8u, db = d->width / 8u;
    size_t value_bytes = (size_t)s->count * sb; /* a 3-vector's 3 lanes */
    memset(buf, 0, sstride * REF_ELEMS);
    for (uint32_t e = 0; e < REF_ELEMS; ++e) {
        uint8_t *p = buf + (size_t)e * sstride;
        uint32_t mode = e < 192u ? e % 4u : 4u + (e - 192u);
        for (size_t i = 0; i < value_bytes; ++i)
            p[i] = (uint8_t)ref_splitmix(&st);
        if (mode == 0) { /* source-lane specials */
            for (uint32_t l = 0; l < s->count; ++l)
                put_lane(p + (size_t)l * sb, sb, sp_src[((e / 4u) * 7u + l * 3u) % ns]);
        } else if (mode == 1) { /* destination-lane specials */
            for (size_t off = 0, l = 0; off + db <= value_bytes; off += db, ++l)
                put_lane(p + off, db, sp_dst[((e / 4u) * 5u + l * 3u) % nd]);
        } else if (mode == 2) { /* every other destination lane special, the rest random */
            for (size_t off = 0, l = 0; off + db <= value_bytes; off += db, ++l)
                if (((l + e / 4u) & 1u) == 0) put_lane(p + off, db, sp_dst[(e / 8u + l) % nd]);
        } else if (mode == 4) {
            memset(p, 0x00, value_bytes);
        } else if (mode == 5) {
            memset(p, 0xff, value_bytes);
        } else if (mode == 6) {
            memset(p, 0x80, value_bytes);
        } else if (mode == 7) {
            memset(p, 0x7f, value_bytes);
        } else if (mode == 8) {
            for (size_t i = 0; i < value_bytes; ++i)
                p[i] = (uint8_t)(i + 1u);
        }
        /* mode 3 and modes past 8: random bits */
        if (s->count == 3) memset(p + value_bytes, REF_IN_GARBAGE, sb);
    }
}

/* ---------------------------------------------------------------------------------------- */
/* Reference and comparison */

static int is_nan(uint64_t v, uint32_t width)
{
    uint32_t mant = width == 16 ? 10u : width == 32 ? 23u : 52u;
    uint64_t exp_mask = ((1ull << (width - 1u - mant)) - 1u) << mant;
    uint64_t mant_mask = (1ull << mant) - 1u;
    return (v & exp_mask) == exp_mask && (v & mant_mask) != 0;
}

static int is_denormal(uint64_t v, uint32_t width)
{
    uint32_t mant = width == 16 ? 10u : width == 32 ? 23u : 52u;
    uint64_t exp_mask = ((1ull << (width - 1u - mant)) - 1u) << mant;
    uint64_t mant_mask = (1ull << mant) - 1u;
    return (v & exp_mask) == 0 && (v & mant_mask) != 0;
}

static uint64_t get_lane(const uint8_t *p, uint32_t bytes)
{
    uint64_t v = 0;
    for (uint32_t i = 0; i < bytes; ++i)
        v |= (uint64_t)p[i] << (8u * i);
    return v;
}

/* A description of how `got` differs from `want` in a lane of type kind/width. */
static const char *mismatch_kind(spvbc_scalar_kind kind, uint32_t width, uint64_t want,
                                 uint64_t got)
{
    if (kind == SPVBC_SCALAR_FLOAT) {
        uint32_t mant = width == 16 ? 10u : width == 32 ? 23u : 52u;
        uint64_t quiet = 1ull << (mant - 1u);
        if (is_nan(want, width) && is_nan(got, width)) {
            if ((want | quiet) == got) return "signalling NaN quieted";
            return "NaN payload changed";
        }
        if (is_nan(want, width)) return "NaN replaced by a non-NaN";
        if (is_denormal(want, width) && (got << 1) == 0) return "denormal flushed to zero";
    }
    uint64_t fill = 0;
    for (uint32_t i = 0; i < width / 8u; ++i)
        fill |= (uint64_t)REF_OUT_FILL << (8u * i);
    if (got == fill) return "lane not written";
    return "wrong bits";
}

/* Compares REF_ELEMS outputs of `d` (stride `dstride`) with the as_type of the inputs; returns the
 * number of failing lanes. */
unsigned long long ref_compare(const char *label, const uint8_t *in, size_t sstride,
                               const spvbc_type_desc *s, const uint8_t *out, size_t dstride,
                               const spvbc_type_desc *d, spvbc_pad_policy pad, compare_stats *cs)
{
    uint32_t sb = s->width / 8u, db = d->width / 8u;
    size_t avail = (size_t)s->count * sb; /* bytes the source value defines */
    uint32_t lanes = d->count; /* a 3-vector result has 3 lanes */
    unsigned long long failed = 0;
    for (uint32_t e = 0; e < REF_ELEMS; ++e) {
        const uint8_t *pi = in + (size_t)e * sstride;
        const uint8_t *po = out + (size_t)e * dstride;
        for (uint32_t l = 0; l < lanes; ++l) {
            size_t lo = (size_t)l * db, hi = lo + db;
            uint8_t want[8];
            if (hi <= avail) {
                memcpy(want, pi + lo, db);
            } else if (pad == SPVBC_PAD_ZERO) {
                for (size_t i = lo; i < hi; ++i)
                    want[i - lo] = i < avail ? pi[i] : 0u;
            } else {
                cs->lanes_undefined++;
                const uint8_t *got = po + lo;
                int zero = 1, mem = 1, fill = 1;
                for (size_t i = lo < avail ? avail : lo; i < hi; ++i) {
                    uint8_t b = got[i - lo];
                    zero &= b == 0u;
                    mem &= b == REF_IN_GARBAGE;
                    fill &= b == REF_OUT_FILL;
                }
                if (zero) {
                    cs->pad_zero++;
                } else if (mem) {
                    cs->pad_memory++;
                } else if (fill) {
                    cs->pad_unwritten++;
                } else {
                    cs->pad_other++;
                }
                if (lo < avail && memcmp(got, pi + lo, avail - lo) != 0)
                    cs->partial_defined_differ++;
                continue;
            }
            cs->lanes_compared++;
            if (memcmp(want, po + lo, db) == 0) continue;
            failed++;
            cs->lanes_failed++;
            uint64_t w = get_lane(want, db), g = get_lane(po + lo, db);
            const char *why = mismatch_kind(d->kind, d->width, w, g);
            ref_reasons_add(&cs->why, why);
            if (failed <= 4 && label[0] != '\0') {
                printf("  FAIL %s: element %u lane %u: want 0x%0*llx got 0x%0*llx (%s)\n", label, e,
                       l, (int)db * 2, (unsigned long long)w, (int)db * 2, (unsigned long long)g,
                       why);
            }
        }
    }
    return failed;
}

void ref_print_undefined(const char *prefix, const compare_stats *cs)
{
    printf("%s: %llu lanes left undefined by the undef padding were not compared; their pad "
           "bytes held: zero %llu, the vec3's unused 4th memory lane %llu, nothing written %llu, "
           "other %llu; partly defined lanes whose defined bytes differ: %llu\n",
           prefix, cs->lanes_undefined, cs->pad_zero, cs->pad_memory, cs->pad_unwritten,
           cs->pad_other, cs->partial_defined_differ);
}

int ref_tally_compare(ref_tally *t, const char *label, const uint8_t *in, size_t sstride,
                      const spvbc_type_desc *s, const uint8_t *out, size_t dstride,
                      const spvbc_type_desc *d, spvbc_pad_policy pad, pair_class pc, int verbose)
{
    unsigned long long bad = ref_compare(label, in, sstride, s, out, dstride, d, pad, &t->cs);
    if (bad != 0) {
        printf("  FAIL %s: %llu lane(s) differ\n", label, bad);
        ref_reasons_add(&t->failures, "lanes differ");
        return 0;
    }
    if (verbose) printf("  ok   %s [%s]\n", label, ref_class_names[pc]);
    return 1;
}

void ref_tally_pair(ref_tally *t, pair_class pc, int ok)
{
    t->pairs_run++;
    t->class_run[pc]++;
    if (ok) {
        t->pairs_passed++;
    } else {
        t->pairs_failed++;
    }
}

void ref_tally_print(const ref_tally *t, const char *prefix)
{
    char fl[512], lw[512];
    ref_reasons_format(&t->failures, fl, sizeof fl);
    ref_reasons_format(&t->cs.why, lw, sizeof lw);
    printf("%s: by class:", prefix);
    for (int c = 0; c < PC_NUM; ++c)
        printf(" %s %u%s", ref_class_names[c], t->class_run[c], c + 1 < PC_NUM ? "," : "\n");
    ref_print_undefined(prefix, &t->cs);
    if (t->pairs_failed != 0) printf("%s: failures: %s; failing lanes: %s\n", prefix, fl, lw);
}

int ref_tally_summary(const ref_tally *t, const char *prefix, const char *desc, const char *runs)
{
    char sk[512];
    ref_reasons_format(&t->skipped, sk, sizeof sk);
    printf("%s: %s: %u pairs run (%s), %llu input values, %llu lanes compared: %u passed, %u "
           "failed, %u skipped (%s)\n",
           prefix, desc, t->pairs_run, runs, t->values, t->cs.lanes_compared, t->pairs_passed,
           t->pairs_failed, t->pairs_skipped, sk);
    return t->pairs_failed == 0 && t->pairs_run > 0 ? 0 : 1;
}

void ref_print_diagnostics(spvbc_context ctx)
{
    for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i) {
        const spvbc_diagnostic *dg = spvbc_context_diagnostic(ctx, i);
        printf("    %s: word %zu: %s [%s]\n", spvbc_severity_string(dg->severity), dg->word_offset,
               dg->message ? dg->message : "?", dg->rule ? dg->rule : "?");
    }
}

/* Lowers `in` with the library under `pad`; returns 0 and a malloc'd copy of the result. */
int ref_lower(const uint32_t *in, size_t n, spvbc_pad_policy pad, uint32_t **out, size_t *out_n,
              size_t *rewritten)
{
    spvbc_context ctx = NULL;
    spvbc_module mod = NULL;
    int rc = 1;
    if (spvbc_context_create(NULL, &ctx) != SPVBC_SUCCESS) return 1;
    spvbc_result r = spvbc_module_parse(ctx, in, n, NULL, &mod);
    if (r != SPVBC_SUCCESS) {
        printf("    spvbc_module_parse: %s\n", spvbc_result_string(r));
        ref_print_diagnostics(ctx);
        goto done;
    }
    spvbc_lower_options lo = {sizeof(spvbc_lower_options), pad, 0, SPVBC_GENERATION_NEWEST};
    spvbc_lower_summary sum = SPVBC_LOWER_SUMMARY_INIT;
    r = spvbc_module_lower(mod, &lo, &sum);
    if (r != SPVBC_SUCCESS && r != SPVBC_PARTIAL) {
        printf("    spvbc_module_lower: %s\n", spvbc_result_string(r));
        ref_print_diagnostics(ctx);
        goto done;
    }
    if (sum.refused != 0) {
        printf("    spvbc_module_lower refused %zu bitcast(s)\n", sum.refused);
        ref_print_diagnostics(ctx);
    }
    const uint32_t *w = NULL;
    size_t wn = 0;
    r = spvbc_module_get_words(mod, &w, &wn);
    if (r != SPVBC_SUCCESS) {
        printf("    spvbc_module_get_words: %s\n", spvbc_result_string(r));
        goto done;
    }
    *out = malloc(wn * sizeof *w);
    if (*out == NULL) goto done;
    memcpy(*out, w, wn * sizeof *w);
    *out_n = wn;
    *rewritten = sum.rewritten;
    rc = 0;
done:
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    return rc;
}
