/*
 * diff_cases.c - the differential test's case generators for the types SPIRV-Tools 2023.1
 * knows: numeric, pointer, bool, operand kinds, several bitcasts, spec constants.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_internal.h"

/* ---- case generators -------------------------------------------------------------------- */

static const uint32_t k_counts[6] = {1, 2, 3, 4, 8, 16};

static gtype random_numeric(const gmod *m)
{
    gkind k = coin() ? GT_INT : GT_FLOAT;
    uint32_t w = k == GT_INT ? (8u << rnd(4)) : (16u << rnd(3));
    uint32_t c = k_counts[rnd(m->kernel ? 6 : 4)];
    return num(k, w, c, m->kernel ? 0 : coin());
}

/* A numeric type with `bits` total bits, if one exists within the module's counts. */
static int numeric_with_bits(const gmod *m, uint32_t bits, gtype *out)
{
    gtype cand[64];
    size_t nc = 0;
    for (int k = 0; k < 2; ++k) {
        for (uint32_t w = 8; w <= 64; w *= 2) {
            if (k == 1 && w == 8) {
                continue;
            }
            for (size_t c = 0; c < (m->kernel ? 6u : 4u); ++c) {
                if (w * k_counts[c] == bits && nc < 64) {
                    cand[nc++] = num(k ? GT_FLOAT : GT_INT, w, k_counts[c], m->kernel ? 0 : coin());
                }
            }
        }
    }
    if (nc == 0) {
        return 0;
    }
    *out = cand[rnd((uint32_t)nc)];
    return 1;
}

/* A numeric type whose OpenCL size (a 3-component vector occupies 4) equals that of `t`. */
static int numeric_with_opencl_size(const gmod *m, const gtype *t, gtype *out)
{
    gtype cand[64];
    size_t nc = 0;
    uint32_t bytes = t->width / 8 * (t->count == 3 ? 4 : t->count);
    for (int k = 0; k < 2; ++k) {
        for (uint32_t w = 8; w <= 64; w *= 2) {
            if (k == 1 && w == 8) {
                continue;
            }
            for (size_t c = 0; c < (m->kernel ? 6u : 4u); ++c) {
                uint32_t cb = w / 8 * (k_counts[c] == 3 ? 4 : k_counts[c]);
                if (cb == bytes && nc < 64) {
                    cand[nc++] = num(k ? GT_FLOAT : GT_INT, w, k_counts[c], m->kernel ? 0 : coin());
                }
            }
        }
    }
    if (nc == 0) {
        return 0;
    }
    *out = cand[rnd((uint32_t)nc)];
    return 1;
}

static void init_module(gmod *m, int kernel)
{
    memset(m, 0, sizeof *m);
    m->minor = (int)rnd(7);
    m->kernel = kernel;
    m->next_id = 1;
    if (kernel) {
        m->addressing = coin() ? ADDR_PHYS64 : ADDR_PHYS32;
    } else {
        m->addressing = ADDR_LOGICAL;
        m->int8 = coin();
        m->int16 = coin();
        m->float16 = coin();
    }
    if (m->minor < 5 && rnd(4) == 0) {
        m->psb_ext = 1;
    }
}

static void bitcast_text(gmod *m, const gtype *d, const char *operand, char *line, size_t size)
{
    char dn[64];
    ensure_type(m, d, dn, sizeof dn);
    snprintf(line, size, "%%y = OpBitcast %s %s", dn, operand);
}

/* Runs `OpBitcast d s` in category `cat` on module `m` (an operand of type `s` made first),
 * then frees `m`. */
static void run_bitcast(int cat, gmod *m, const gtype *s, const gtype *d)
{
    char x[32], line[160];
    make_value(m, s, x, sizeof x);
    bitcast_text(m, d, x, line, sizeof line);
    run_case(cat, m, line, 0, model(m, d, s));
    gmod_free(m);
}

/* run_bitcast() with `a` and `b` as source and destination in a random order. */
static void run_either_way(int cat, gmod *m, const gtype *a, const gtype *b)
{
    if (coin()) {
        run_bitcast(cat, m, a, b);
    } else {
        run_bitcast(cat, m, b, a);
    }
}

void case_numeric(int kernel)
{
    gmod m;
    gtype s, d;
    init_module(&m, kernel);
    s = random_numeric(&m);
    switch (rnd(3)) {
    case 0:
        if (!numeric_with_bits(&m, s.width * s.count, &d)) {
            d = random_numeric(&m);
        }
        break;
    case 1:
        /* as_type-legal (same OpenCL size), often lowerable */
        if (!numeric_with_opencl_size(&m, &s, &d)) {
            d = random_numeric(&m);
        }
        break;
    default: d = random_numeric(&m); break;
    }
    run_bitcast(kernel ? CAT_NUM_KERNEL : CAT_NUM_SHADER, &m, &s, &d);
}

/* A partner for a pointer: another pointer, an int scalar/vector, a float. */
static gtype pointer_partner(const gmod *m, int sc_choices[], int nsc)
{
    static const struct {
        gkind k;
        uint32_t w, c;
    } opts[] = {{GT_INT, 32, 1},   {GT_INT, 64, 1},  {GT_INT, 16, 1}, {GT_INT, 8, 1},
                {GT_INT, 32, 2},   {GT_INT, 32, 3},  {GT_INT, 32, 4}, {GT_INT, 16, 2},
                {GT_INT, 16, 4},   {GT_INT, 8, 4},   {GT_INT, 64, 2}, {GT_FLOAT, 32, 1},
                {GT_FLOAT, 64, 1}, {GT_FLOAT, 32, 2}};
    uint32_t r = rnd(20);
    if (r < 6) {
        gtype e = random_numeric(m);
        return ptr(sc_choices[rnd((uint32_t)nsc)], e);
    }
    r = rnd((uint32_t)(sizeof opts / sizeof opts[0]));
    if (!m->kernel && opts[r].c > 4) {
        r = 0;
    }
    return num(opts[r].k, opts[r].w, opts[r].c, m->kernel ? 0 : coin());
}

void case_pointer(int cat)
{
    gmod m;
    gtype p, other;
    int scs[3];
    int nsc;
    init_module(&m, cat == CAT_PTR_KERNEL);
    if (cat == CAT_PTR_KERNEL) {
        scs[0] = SC_FUNCTION;
        scs[1] = SC_CROSS;
        scs[2] = SC_WORKGROUP;
        nsc = 3;
    } else if (cat == CAT_PTR_PSB) {
        m.addressing = ADDR_PSB64;
        if (m.minor < 5) {
            m.psb_ext = 1;
        }
        scs[0] = SC_PSB;
        scs[1] = SC_PSB;
        scs[2] = SC_FUNCTION;
        nsc = 3;
    } else {
        scs[0] = SC_FUNCTION;
        scs[1] = SC_STORAGE_BUFFER;
        nsc = 2;
    }
    p = ptr(scs[rnd((uint32_t)(cat == CAT_PTR_PSB ? 2 : nsc))], random_numeric(&m));
    other = pointer_partner(&m, scs, nsc);
    run_either_way(cat, &m, &p, &other);
}

void case_bool(void)
{
    gmod m;
    gtype b, other;
    init_module(&m, coin());
    b = num(GT_BOOL, 0, k_counts[rnd(m.kernel ? 6 : 4)], 0);
    switch (rnd(3)) {
    case 0: other = num(GT_BOOL, 0, k_counts[rnd(m.kernel ? 6 : 4)], 0); break;
    case 1:
        other = m.kernel ? ptr(SC_FUNCTION, num(GT_INT, 32, 1, 0))
                         : ptr(SC_FUNCTION, num(GT_FLOAT, 32, 1, 0));
        break;
    default: other = random_numeric(&m); break;
    }
    run_either_way(CAT_BOOL, &m, &b, &other);
}

/* Operands that are not values: a type (V0), an OpString or a label (V1). */
void case_operand_kind(void)
{
    gmod m;
    gtype d, t;
    char tn[64], line[160];
    rule expected;
    uint32_t r;
    init_module(&m, coin());
    d = num(GT_INT, 32, 1, 0);
    r = rnd(3);
    if (r == 0) {
        t = random_numeric(&m);
        if (storage_only(&m, &t)) {
            t = num(GT_FLOAT, 32, 1, 0);
        }
        ensure_type(&m, &t, tn, sizeof tn);
        expected = R_V0;
    } else if (r == 1) {
        snprintf(tn, sizeof tn, "%%str");
        spvbc_gen_printf(&m.debug, "%%str = OpString \"not a value\"\n");
        expected = R_V1;
    } else {
        snprintf(tn, sizeof tn, "%%entry");
        expected = R_V1;
    }
    bitcast_text(&m, &d, tn, line, sizeof line);
    run_case(CAT_OPERAND_KIND, &m, line, 0, expected);
    gmod_free(&m);
}

/* Two to four bitcasts in one function, each operand either a fresh value or the previous
 * result (chains): the verdict is the first error in module order. */
void case_multi(void)
{
    gmod m;
    gtype prev;
    char prev_id[32] = "";
    char lines[800] = "";
    rule expected = R_OK;
    uint32_t k = 2 + rnd(3);
    init_module(&m, coin());
    prev = random_numeric(&m);
    for (uint32_t i = 0; i < k; ++i) {
        gtype s, d;
        char x[32], dn[64];
        size_t len = strlen(lines);
        rule r;
        if (i > 0 && rnd(3) != 0) {
            s = prev;
            snprintf(x, sizeof x, "%s", prev_id);
        } else {
            s = random_numeric(&m);
            make_value(&m, &s, x, sizeof x);
        }
        if (coin() || !numeric_with_opencl_size(&m, &s, &d)) {
            if (!numeric_with_bits(&m, s.width * s.count, &d)) {
                d = random_numeric(&m);
            }
        }
        ensure_type(&m, &d, dn, sizeof dn);
        snprintf(lines + len, sizeof lines - len, "%s%%y%u = OpBitcast %s %s", i ? "\n" : "",
                 (unsigned)i, dn, x);
        r = model(&m, &d, &s);
        if (expected == R_OK) {
            expected = r;
        }
        prev = d;
        snprintf(prev_id, sizeof prev_id, "%%y%u", (unsigned)i);
    }
    run_case(CAT_MULTI, &m, lines, 0, expected);
    gmod_free(&m);
}

/* OpSpecConstantOp %D Bitcast %c with a constant or spec-constant operand. */
void case_spec(int kernel)
{
    gmod m;
    gtype s, d;
    char sn[64], dn[64], c[32], line[200];
    rule expected;
    init_module(&m, kernel);
    if (kernel) {
        uint32_t r = rnd(10);
        if (r < 7) {
            s = random_numeric(&m);
            if (coin()) {
                if (!numeric_with_opencl_size(&m, &s, &d)) {
                    d = random_numeric(&m);
                }
            } else if (coin() || !numeric_with_bits(&m, s.width * s.count, &d)) {
                d = random_numeric(&m);
            }
        } else if (r < 9) {
            /* pointer <-> integer (the null pointer constant) */
            gtype p = ptr(SC_CROSS, num(GT_FLOAT, 32, 1, 0));
            gtype i = num(GT_INT, m.addressing == ADDR_PHYS64 ? 64 : 32, 1, 0);
            if (rnd(4) == 0) {
                i = num(GT_INT, 32, 2, 0);
            }
            if (coin()) {
                s = p;
                d = i;
            } else {
                s = i;
                d = p;
            }
        } else {
            s = num(GT_BOOL, 0, 1, 0);
            d = num(GT_INT, 32, 1, 0);
            if (coin()) {
                gtype t = s;
                s = d;
                d = t;
            }
        }
    } else {
        static const gkind kinds[2] = {GT_INT, GT_FLOAT};
        s = num(kinds[rnd(2)], 32, 1 + rnd(2), coin());
        d = num(kinds[rnd(2)], 32, s.count, coin());
    }
    ensure_type(&m, &s, sn, sizeof sn);
    ensure_type(&m, &d, dn, sizeof dn);
    new_id(&m, c, sizeof c, "c");
    if (s.kind == GT_BOOL) {
        spvbc_gen_printf(&m.decls, "%s = OpSpecConstantTrue %s\n", c, sn);
    } else if (s.kind == GT_PTR || s.count > 1 || rnd(3) == 0) {
        spvbc_gen_printf(&m.decls, "%s = OpConstantNull %s\n", c, sn);
    } else {
        spvbc_gen_printf(&m.decls, "%s = %s %s %u\n", c, coin() ? "OpSpecConstant" : "OpConstant",
                         sn, 1u + rnd(100));
    }
    snprintf(line, sizeof line, "%%y = OpSpecConstantOp %s Bitcast %s", dn, c);
    expected = kernel ? model(&m, &d, &s) : R_S7;
    run_case(kernel ? CAT_SPEC_KERNEL : CAT_SPEC_SHADER, &m, line, 1, expected);
    gmod_free(&m);
}
