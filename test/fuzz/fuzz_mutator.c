/*
 * fuzz_mutator.c - a structure-aware libFuzzer mutator for SPIR-V (parse, validate and lower
 * targets).
 *
 * Random bytes rarely get past the header and the word counts, so most mutations here work on
 * instructions: they keep the magic, a known version, plausible word counts and ids below the
 * bound, and change one thing a producer could get wrong: an operand (often to an id that
 * exists, or to a width/count/lane literal that matters), an opcode, an instruction's place
 * (duplicate, delete, move), or they insert a new type, constant or OpBitcast, tweak the header
 * (version, bound, generator: the generator word selects the targets' options), change one word
 * count, swap the byte order or truncate.  One mutation in eight is libFuzzer's own byte-level
 * mutation.  The cross-over splices the instructions of two modules.  libFuzzer's seed drives
 * test/support's generator of random numbers.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_harness.h"
#include "test_rng.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2,
                                 size_t size2, uint8_t *out, size_t max_out_size,
                                 unsigned int seed);

#define MAX_WORDS 8192

typedef test_rng rng;

static uint32_t rnd(rng *r)
{
    return (uint32_t)(test_rng_next(r) >> 32);
}

static uint32_t below(rng *r, uint32_t n)
{
    return test_rng_below(r, n);
}

typedef struct mod {
    uint32_t w[MAX_WORDS];
    size_t n;
    size_t inst[MAX_WORDS]; /* offsets of well-formed instructions */
    size_t ninst;
    uint32_t ids[MAX_WORDS]; /* result ids seen */
    uint32_t types[MAX_WORDS];
    size_t nids, ntypes;
    size_t first_fn; /* index into inst of the first OpFunction, or ninst */
    int swapped;
} mod;

static int is_type_op(uint32_t op)
{
    return (op >= 19 && op <= 38) || op == 322 || op == 327;
}

/* Indexes the instructions (stops at the first bad word count) and the ids they define. */
static void index_mod(mod *m)
{
    m->ninst = m->nids = m->ntypes = 0;
    m->first_fn = (size_t)-1;
    size_t off = 5;
    while (off < m->n) {
        uint32_t wc = m->w[off] >> 16, op = m->w[off] & 0xFFFFu;
        if (wc == 0 || wc > m->n - off) break;
        if (op == 54 /* OpFunction */ && m->first_fn == (size_t)-1) m->first_fn = m->ninst;
        m->inst[m->ninst++] = off;
        if (is_type_op(op) && wc >= 2) {
            m->types[m->ntypes++] = m->w[off + 1];
            m->ids[m->nids++] = m->w[off + 1];
        } else if (wc >= 3 && ((op >= 41 && op <= 52) || op == 1 || op == 59 || op == 124 ||
                               op == 79 || op == 61 || op == 128 || op == 129 || op == 81)) {
            m->ids[m->nids++] = m->w[off + 2]; /* <type> <id> ... */
        }
        off += wc;
    }
    if (m->first_fn == (size_t)-1) m->first_fn = m->ninst;
}

static uint32_t max_id(const mod *m)
{
    uint32_t mx = 0;
    for (size_t i = 0; i < m->nids; ++i)
        if (m->ids[i] > mx && m->ids[i] < 0x400000u) mx = m->ids[i];
    return mx;
}

static uint32_t some_id(mod *m, rng *r)
{
    if (m->nids && below(r, 8)) return m->ids[below(r, (uint32_t)m->nids)];
    return 1 + below(r, m->n >= 4 && m->w[3] > 1 ? m->w[3] : 16);
}

static uint32_t some_type(mod *m, rng *r)
{
    if (m->ntypes && below(r, 8)) return m->types[below(r, (uint32_t)m->ntypes)];
    return some_id(m, r);
}

static uint32_t interesting(rng *r)
{
    static const uint32_t v[] = {
        0,  1,  2,   3,           4,           5,   7,  8,  15,          16,          17,   24,
        32, 64, 128, 0xFFFFFFFFu, 0x7FFFFFFFu, 124, 79, 52, 0x00010500u, 0x00010400u, 5349, 12};
    return v[below(r, sizeof v / sizeof v[0])];
}

/* Inserts `len` words at word offset `at`; returns 0 if they do not fit. */
static int insert_words(mod *m, size_t at, const uint32_t *w, size_t len)
{
    if (m->n + len > MAX_WORDS || at > m->n) return 0;
    memmove(m->w + at + len, m->w + at, (m->n - at) * 4);
    memcpy(m->w + at, w, len * 4);
    m->n += len;
    return 1;
}

static void remove_words(mod *m, size_t at, size_t len)
{
    memmove(m->w + at, m->w + at + len, (m->n - at - len) * 4);
    m->n -= len;
}

/* A fresh id: the bound, which is raised. */
static uint32_t fresh_id(mod *m)
{
    uint32_t id = m->w[3];
    if (id == 0 || id >= 0x400000u) id = max_id(m) + 1;
    m->w[3] = id + 1;
    return id;
}

/* Where type declarations go: before the first OpFunction (or at the end). */
static size_t types_end(const mod *m)
{
    return m->first_fn < m->ninst ? m->inst[m->first_fn] : m->n;
}

/* A spot inside a function body: after an OpLabel if there is one. */
static size_t body_spot(mod *m, rng *r)
{
    size_t labels[64], nl = 0;
    for (size_t i = m->first_fn; i < m->ninst && nl < 64; ++i)
        if ((m->w[m->inst[i]] & 0xFFFFu) == 248 /* OpLabel */) labels[nl++] = i;
    if (!nl) return types_end(m);
    size_t i = labels[below(r, (uint32_t)nl)];
    return m->inst[i] + (m->w[m->inst[i]] >> 16);
}

static void mutate_structure(mod *m, rng *r)
{
    const uint32_t choice = below(r, 16);
    size_t i = m->ninst ? below(r, (uint32_t)m->ninst) : 0;
    size_t off = m->ninst ? m->inst[i] : 5;
    uint32_t wc = m->ninst ? m->w[off] >> 16 : 0;
    switch (choice) {
    case 0:
    case 1:
    case 2: /* an operand word: an existing id, a neighbour, or an interesting literal */
        if (wc >= 2) {
            size_t k = off + 1 + below(r, wc - 1);
            uint32_t how = below(r, 4);
            m->w[k] = how == 0   ? some_id(m, r)
                      : how == 1 ? m->w[k] + (below(r, 2) ? 1u : (uint32_t)-1)
                      : how == 2 ? some_type(m, r)
                                 : interesting(r);
        }
        break;
    case 3: { /* an opcode */
        static const uint16_t ops[] = {124, 124, 124, 79, 52, 23, 21, 22, 32, 39, 28,    30,
                                       46,  1,   43,  44, 51, 50, 8,  17, 10, 0,  0xFFFF};
        if (m->ninst) m->w[off] = (m->w[off] & 0xFFFF0000u) | ops[below(r, sizeof ops / 2)];
        break;
    }
    case 4: /* duplicate an instruction */
        if (m->ninst) {
            uint32_t tmp[64];
            if (wc <= 64) {
                memcpy(tmp, m->w + off, wc * 4);
                (void)insert_words(m, off + wc, tmp, wc);
            }
        }
        break;
    case 5: /* delete an instruction */
        if (m->ninst) remove_words(m, off, wc);
        break;
    case 6: /* move an instruction */
        if (m->ninst > 1 && wc <= 64) {
            uint32_t tmp[64];
            memcpy(tmp, m->w + off, wc * 4);
            remove_words(m, off, wc);
            index_mod(m);
            size_t to = m->ninst ? m->inst[below(r, (uint32_t)m->ninst)] : 5;
            (void)insert_words(m, to, tmp, wc);
        }
        break;
    case 7:
    case 8: { /* a new OpBitcast in a function body */
        uint32_t w[4] = {(4u << 16) | 124u, some_type(m, r), 0, some_id(m, r)};
        w[2] = fresh_id(m);
        (void)insert_words(m, body_spot(m, r), w, 4);
        break;
    }
    case 9: { /* a new type: int, float, vector, pointer, array, struct */
        uint32_t w[6];
        size_t len;
        uint32_t id = fresh_id(m);
        switch (below(r, 6)) {
        case 0: {
            static const uint32_t widths[] = {8, 16, 32, 64, 0, 1, 24};
            w[0] = (4u << 16) | 21u;
            w[1] = id;
            w[2] = widths[below(r, 7)];
            w[3] = below(r, 2);
            len = 4;
            break;
        }
        case 1: {
            static const uint32_t widths[] = {16, 32, 64, 0, 8};
            w[0] = (3u << 16) | 22u;
            w[1] = id;
            w[2] = widths[below(r, 5)];
            len = 3;
            break;
        }
        case 2: {
            static const uint32_t counts[] = {2, 3, 4, 8, 16, 3, 4, 0, 1, 5, 17};
            w[0] = (4u << 16) | 23u;
            w[1] = id;
            w[2] = some_type(m, r);
            w[3] = counts[below(r, 11)];
            len = 4;
            break;
        }
        case 3: {
            static const uint32_t scs[] = {5, 7, 4, 12, 5349, 8};
            w[0] = (4u << 16) | 32u;
            w[1] = id;
            w[2] = scs[below(r, 6)];
            w[3] = some_type(m, r);
            len = 4;
            break;
        }
        case 4:
            w[0] = (4u << 16) | 30u; /* struct of two members */
            w[1] = id;
            w[2] = some_type(m, r);
            w[3] = some_type(m, r);
            len = 4;
            break;
        default:
            w[0] = (3u << 16) | 39u; /* OpTypeForwardPointer */
            w[1] = some_type(m, r);
            w[2] = below(r, 2) ? 5349u : 5u;
            len = 3;
            break;
        }
        size_t at = types_end(m);
        if (m->ntypes && below(r, 2)) {
            /* right after an existing type */
            for (size_t k = 0; k < m->ninst; ++k)
                if (is_type_op(m->w[m->inst[k]] & 0xFFFFu) && below(r, 3) == 0) {
                    at = m->inst[k] + (m->w[m->inst[k]] >> 16);
                    break;
                }
        }
        (void)insert_words(m, at, w, len);
        break;
    }
    case 10: { /* a value: OpUndef in a body, OpConstantNull or a spec constant op */
        uint32_t w[6];
        uint32_t id = fresh_id(m);
        uint32_t t = some_type(m, r);
        switch (below(r, 3)) {
        case 0:
            w[0] = (3u << 16) | 1u;
            w[1] = t;
            w[2] = id;
            (void)insert_words(m, body_spot(m, r), w, 3);
            break;
        case 1:
            w[0] = (3u << 16) | 46u;
            w[1] = t;
            w[2] = id;
            (void)insert_words(m, types_end(m), w, 3);
            break;
        default:
            w[0] = (5u << 16) | 52u;
            w[1] = t;
            w[2] = id;
            w[3] = 124u;
            w[4] = some_id(m, r);
            (void)insert_words(m, types_end(m), w, 5);
            break;
        }
        break;
    }
    case 11: { /* header */
        static const uint32_t versions[] = {0x00010000u, 0x00010300u, 0x00010400u,
                                            0x00010500u, 0x00010600u, 0x00010700u};
        switch (below(r, 5)) {
        case 0: m->w[1] = versions[below(r, 6)]; break;
        case 1: m->w[3] = max_id(m) + 1 + below(r, 3); break;
        case 2: m->w[2] = rnd(r); break; /* option bits */
        case 3: m->w[2] ^= 1u << below(r, 12); break;
        default: m->w[3] = below(r, 2) ? interesting(r) : 0x3FFFFFu + below(r, 3); break;
        }
        break;
    }
    case 12: /* a word count */
        if (m->ninst) {
            uint32_t nwc = below(r, 4) == 0 ? 0 : wc + (below(r, 2) ? 1u : (uint32_t)-1);
            m->w[off] = (nwc << 16) | (m->w[off] & 0xFFFFu);
        }
        break;
    case 13: /* truncate at an instruction boundary */
        if (m->ninst > 1) m->n = m->inst[1 + below(r, (uint32_t)m->ninst - 1)];
        break;
    case 14: /* byte order */ m->swapped = !m->swapped; break;
    default: /* a literal that shapes a type: width, count, storage class */
        for (size_t k = 0; k < m->ninst; ++k) {
            size_t o = m->inst[(i + k) % m->ninst];
            uint32_t op = m->w[o] & 0xFFFFu, c = m->w[o] >> 16;
            if ((op == 21 || op == 22 || op == 23 || op == 32) && c >= 3) {
                m->w[o + (op == 23 ? 3 : 2)] = interesting(r);
                break;
            }
        }
        break;
    }
}

static int load(mod *m, const uint8_t *data, size_t size)
{
    if (size < 20 || size % 4 || size / 4 > MAX_WORDS) return 0;
    m->n = size / 4;
    memcpy(m->w, data, size);
    m->swapped = m->w[0] == FUZZ_SWAPPED_MAGIC;
    if (m->swapped)
        for (size_t i = 0; i < m->n; ++i)
            m->w[i] = fuzz_bswap(m->w[i]);
    if (m->w[0] != 0x07230203u) return 0;
    index_mod(m);
    return 1;
}

static size_t store(mod *m, uint8_t *data, size_t max_size)
{
    if (m->n * 4 > max_size || m->n < 5) return 0;
    if (m->swapped)
        for (size_t i = 0; i < m->n; ++i)
            m->w[i] = fuzz_bswap(m->w[i]);
    memcpy(data, m->w, m->n * 4);
    return m->n * 4;
}

static mod g_mod, g_mod2;

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    rng r;
    test_rng_seed(&r, seed * 0x9E3779B97F4A7C15ull + 1);
    if (below(&r, 8) == 0 || !load(&g_mod, data, size))
        return LLVMFuzzerMutate(data, size, max_size);
    const uint32_t rounds = 1 + below(&r, 3);
    for (uint32_t k = 0; k < rounds; ++k) {
        mutate_structure(&g_mod, &r);
        if (g_mod.n < 5) break;
        index_mod(&g_mod);
        /* Usually keep every id below the bound, and usually shrink a huge bound back to
         * what the ids need: a 4-million-id bound costs 16 MiB an execution. */
        if (below(&r, 4) != 0) {
            uint32_t mx = max_id(&g_mod);
            if (g_mod.w[3] <= mx && mx < 0x3FFFFFu) g_mod.w[3] = mx + 1;
            if (g_mod.w[3] > 65536u && mx + 1 < g_mod.w[3] && below(&r, 8) != 0)
                g_mod.w[3] = mx + 1;
        }
    }
    size_t out = store(&g_mod, data, max_size);
    return out ? out : LLVMFuzzerMutate(data, size, max_size);
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2,
                                 size_t size2, uint8_t *out, size_t max_out_size, unsigned int seed)
{
    rng r;
    test_rng_seed(&r, seed * 0x9E3779B97F4A7C15ull + 7);
    if (!load(&g_mod, data1, size1) || !load(&g_mod2, data2, size2) || !g_mod.ninst ||
        !g_mod2.ninst) {
        size_t n = size1 < max_out_size ? size1 : max_out_size;
        memcpy(out, data1, n);
        return n;
    }
    /* The first module up to a cut, a run of the second's instructions, the first's rest. */
    size_t cut = g_mod.inst[below(&r, (uint32_t)g_mod.ninst)];
    size_t a = below(&r, (uint32_t)g_mod2.ninst);
    size_t b = a + 1 + below(&r, (uint32_t)(g_mod2.ninst - a));
    size_t from = g_mod2.inst[a];
    size_t to = b < g_mod2.ninst ? g_mod2.inst[b] : g_mod2.n;
    (void)insert_words(&g_mod, cut, g_mod2.w + from, to - from);
    index_mod(&g_mod);
    uint32_t mx = max_id(&g_mod);
    if (g_mod.w[3] <= mx && mx < 0x3FFFFFu) g_mod.w[3] = mx + 1;
    size_t n = store(&g_mod, out, max_out_size);
    if (!n) {
        n = size1 < max_out_size ? size1 : max_out_size;
        memcpy(out, data1, n);
    }
    return n;
}
