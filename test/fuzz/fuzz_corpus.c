/*
 * fuzz_corpus.c - writes the fuzz seed corpus (small valid and invalid modules) into a
 * directory at build time; nothing of it is checked in.
 *
 *   spvbc_fuzz_corpus OUT_DIR
 *
 * Sources: the naive as_type kernels of test/support (Kernel and Vulkan flavours) for every
 * OpenCL pair with a 3-component side and a sample of the others; the sample modules of
 * modbuild.h in both byte orders and under several option bits (the generator word); pointer,
 * spec-constant and storage-only cases; the malformed catalogue of test_malformed*.c in short;
 * and plan-API inputs (fuzz_plan.c's byte layout).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "astype_gen.h"
#include "modbuild.h"

static const char *g_dir;
static size_t g_count;

static void write_bytes(const char *name, const void *data, size_t size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    g_count++;
}

static void write_mb(const char *name, const mb *b)
{
    write_bytes(name, b->w, b->n * 4);
}

/* The module with generator word `gen` (the targets' option bits), in both byte orders when
 * `both` is set. */
static void write_variants(const char *base, const mb *b, uint32_t gen, int both)
{
    char name[256];
    mb c = {0};
    mb_append(&c, b);
    c.w[2] = gen;
    snprintf(name, sizeof name, "%s-g%x", base, gen);
    write_mb(name, &c);
    if (both) {
        for (size_t i = 0; i < c.n; ++i)
            c.w[i] = mb_bswap(c.w[i]);
        snprintf(name, sizeof name, "%s-g%x-swapped", base, gen);
        write_mb(name, &c);
    }
    mb_free(&c);
}

/* Finishes `s` and writes it as write_variants(`base`, ..., `gen`, 0) does. */
static void write_sm(sm *s, const char *base, uint32_t gen)
{
    mb b = {0};
    sm_finish(s, &b);
    write_variants(base, &b, gen, 0);
    mb_free(&b);
}

static void naive_kernels(void)
{
    spvbc_type_desc t[SPVBC_GEN_OPENCL_TYPE_COUNT];
    size_t nt = spvbc_gen_opencl_types(t);
    unsigned k = 0;
    for (size_t i = 0; i < nt; ++i) {
        for (size_t j = 0; j < nt; ++j) {
            const int three = t[i].count == 3 || t[j].count == 3;
            const int legal = spvbc_gen_opencl_size(&t[i]) == spvbc_gen_opencl_size(&t[j]);
            /* every legal pair with a 3-component side; every 37th other pair */
            if (!(three && legal) && (i * nt + j) % 37 != 0) continue;
            for (int fl = 0; fl < 2; ++fl) {
                if (fl == SPVBC_GEN_VULKAN && (i + j) % 3 != 0) continue;
                char *text = spvbc_gen_astype_text(&t[i], &t[j], (spvbc_gen_flavour)fl);
                if (!text) continue;
                uint32_t *w = NULL;
                size_t n = 0;
                if (spvbc_gen_assemble(text, spvbc_gen_target_env((spvbc_gen_flavour)fl), &w, &n) ==
                    0) {
                    char a[32], b[32], name[128];
                    spvbc_gen_type_name(&t[i], a, sizeof a);
                    spvbc_gen_type_name(&t[j], b, sizeof b);
                    /* vary the option bits across seeds */
                    if (n >= 5) w[2] = (k++ * 0x9E3779B9u) & 0xF7Fu;
                    snprintf(name, sizeof name, "naive-%s-as_%s-%s", a, b, fl ? "vk" : "cl");
                    write_bytes(name, w, n * 4);
                }
                free(w);
                free(text);
            }
        }
    }
}

static void samples(void)
{
    static const uint32_t gens[] = {0, 1, 8, 0x10, 0x30, 0x40, 0x100, 0x200, 0x400, 0x800, 0xF00};
    mb b = {0};
    char base[64];
    for (int s = 0; mb_sample_module(s, &b); ++s) {
        snprintf(base, sizeof base, "sample%d", s);
        for (size_t g = 0; g < sizeof gens / sizeof gens[0]; ++g)
            write_variants(base, &b, gens[g], g < 3);
    }
    /* Many bitcasts in one module. */
    sm_cast_module(&b, 0, 0x00010000u, SM_F32(4), SM_F32(3), 64);
    write_variants("many-4to3", &b, 0, 1);
    sm_cast_module(&b, 1, 0x00010500u, SM_I32(3), SM_F32(4), 16);
    write_variants("many-3to4-shader", &b, 0x200, 0);
    mb_free(&b);
}

/* Pointer bitcasts: the version gate (1.4 / 1.5 / KHR extension) and partners. */
static void pointers(void)
{
    const uint32_t versions[] = {0x00010400u, 0x00010500u};
    for (int vi = 0; vi < 2; ++vi) {
        for (int ext = 0; ext < 2; ++ext) {
            sm s;
            sm_init(&s, 0, versions[vi]);
            s.psb_ext = ext;
            uint32_t f = sm_type(&s, SM_F32(1)), ul = sm_type(&s, SM_I64(1));
            uint32_t u2 = sm_type(&s, SM_I32(2)), f2 = sm_type(&s, SM_F32(2));
            uint32_t s4 = sm_type(&s, SM_I16(4));
            uint32_t p = sm_ptr(&s, SpvStorageClassCrossWorkgroup, f);
            uint32_t q = sm_ptr(&s, SpvStorageClassWorkgroup, f);
            sm_begin(&s);
            uint32_t x = sm_undef(&s, p);
            sm_bitcast(&s, ul, x);
            sm_bitcast(&s, u2, x);
            sm_bitcast(&s, f2, x);
            sm_bitcast(&s, s4, x);
            sm_bitcast(&s, q, x);
            sm_bitcast(&s, p, sm_undef(&s, ul));
            sm_bitcast(&s, p, sm_undef(&s, u2));
            sm_bitcast(&s, p, sm_undef(&s, f));
            char name[64];
            snprintf(name, sizeof name, "pointers-v%x-ext%d", versions[vi] >> 8 & 0xFF, ext);
            write_sm(&s, name, 0x10);
        }
    }
    /* Shader, PhysicalStorageBuffer64 and a logical pointer. */
    {
        sm s;
        sm_init(&s, 1, 0x00010500u);
        sm_cap(&s, SpvCapabilityPhysicalStorageBufferAddresses);
        sm_cap(&s, SpvCapabilityInt64);
        uint32_t ul = sm_type(&s, SM_I64(1)), f = sm_type(&s, SM_F32(1));
        uint32_t p = sm_ptr(&s, SpvStorageClassPhysicalStorageBuffer, f);
        uint32_t q = sm_ptr(&s, SpvStorageClassFunction, f);
        sm_begin(&s);
        sm_bitcast(&s, ul, sm_undef(&s, p));
        sm_bitcast(&s, p, sm_undef(&s, q));
        write_sm(&s, "pointers-shader", 0x20);
    }
}

/* OpSpecConstantOp Bitcast: Kernel 3->4 and 4->3, a Shader one (S7), and a vec4 type that is
 * declared only after the spec-constant bitcast that needs it. */
static void spec_constants(void)
{
    for (int shader = 0; shader < 2; ++shader) {
        sm s;
        sm_init(&s, shader, 0x00010000u);
        uint32_t f1 = sm_type(&s, SM_F32(1)), f3 = sm_type(&s, SM_F32(3));
        uint32_t i4 = sm_type(&s, SM_I32(4)), f4 = sm_type(&s, SM_F32(4));
        uint32_t c = sm_spec_const(&s, f1, 0x40000000u);
        uint32_t v3 = sm_spec_splat(&s, f3, c, 3), v4 = sm_spec_splat(&s, f4, c, 4);
        sm_spec_bitcast(&s, i4, v3);
        sm_spec_bitcast(&s, f3, v4);
        sm_spec_bitcast(&s, f3,
                        sm_spec_splat(&s, i4, sm_spec_const(&s, sm_type(&s, SM_I32(1)), 5), 4));
        write_sm(&s, shader ? "spec-shader" : "spec-kernel", shader ? 0x100 : 0x10);
    }
    /* Raw: float3 spec composite, bitcast to int4 before OpTypeVector float 4 is declared. */
    enum { FN = 1, VOID, FNTY, F, F3, I, I4, C, V3, R, F4, N4, LABEL, BOUND };
    mb b = {0};
    mb_kernel_head(&b, 0x00010000u, BOUND, FN);
    mb_void_fn_type(&b, VOID, FNTY);
    MB(&b, SpvOpTypeFloat, F, 32);
    MB(&b, SpvOpTypeVector, F3, F, 3);
    MB(&b, SpvOpTypeInt, I, 32, 0);
    MB(&b, SpvOpTypeVector, I4, I, 4);
    MB(&b, SpvOpSpecConstant, F, C, 0x3F800000u);
    MB(&b, SpvOpSpecConstantComposite, F3, V3, C, C, C);
    MB(&b, SpvOpSpecConstantOp, I4, R, SpvOpBitcast, V3);
    MB(&b, SpvOpTypeVector, F4, F, 4);
    MB(&b, SpvOpConstantNull, F3, N4);
    mb_fn_begin(&b, VOID, FN, FNTY, LABEL);
    mb_fn_end(&b);
    write_variants("spec-late-vec4", &b, 0, 0);
    write_variants("spec-late-vec4", &b, 0x200, 0);
    mb_free(&b);
}

/* Shader modules with storage-only 8/16-bit types (V13), and with the arithmetic caps. */
static void small_types(void)
{
    for (int storage_only = 0; storage_only < 2; ++storage_only) {
        sm s;
        sm_init(&s, 1, 0x00010500u);
        s.storage_only_small = storage_only;
        const spvbc_type_desc casts[][2] = {{SM_I8(4), SM_I32(1)},
                                            {SM_F16(2), SM_I32(1)},
                                            {SM_I16(3), SM_F16(4)},
                                            {SM_F16(4), SM_F32(2)}};
        sm_casts(&s, casts, 4);
        write_sm(&s, storage_only ? "small-storage-only" : "small-arith", 0x10);
    }
}

/* A chain of nested arrays/structs/pointers ending in a pointer bitcast. */
static void nested(void)
{
    mb b = {0};
    enum { FN = 1, VOID, FNTY, C8, I32, LEN, LABEL, X, R, UL, FIRST };
    const uint32_t depth = 60;
    static const uint32_t caps[] = {SpvCapabilityInt8, SpvCapabilityInt64};
    mb_kernel_head_caps(&b, 0x00010000u, FIRST + depth + 1, FN, caps, 2);
    mb_void_fn_type(&b, VOID, FNTY);
    MB(&b, SpvOpTypeInt, C8, 8, 0);
    MB(&b, SpvOpTypeInt, I32, 32, 0);
    MB(&b, SpvOpTypeInt, UL, 64, 0);
    MB(&b, SpvOpConstant, I32, LEN, 2);
    uint32_t prev = mb_type_chain(&b, FIRST, depth, C8, LEN, SpvStorageClassCrossWorkgroup);
    uint32_t ptr = FIRST + depth;
    MB(&b, SpvOpTypePointer, ptr, SpvStorageClassCrossWorkgroup, prev);
    mb_fn_begin(&b, VOID, FN, FNTY, LABEL);
    MB(&b, SpvOpUndef, ptr, X);
    MB(&b, SpvOpBitcast, UL, R, X);
    mb_fn_end(&b);
    write_variants("nested60", &b, 0, 0);
    mb_free(&b);
}

/* The malformed catalogue, in short (test/unit/test_malformed*.c has the exact expectations). */
static void malformed(void)
{
    mb b = {0};
    if (!mb_sample_module(0, &b)) return;
    const size_t n = b.n;
    mb c = {0};
#define VARIANT(name, edit)                                                                        \
    do {                                                                                           \
        c.n = 0;                                                                                   \
        mb_append(&c, &b);                                                                         \
        edit;                                                                                      \
        write_mb(name, &c);                                                                        \
    } while (0)
    VARIANT("bad-magic", c.w[0] = 0xDEADBEEFu);
    VARIANT("bad-version", c.w[1] = 0x00010700u);
    VARIANT("bound-zero", c.w[3] = 0);
    VARIANT("bound-above-cap", c.w[3] = SPVBC_DEFAULT_MAX_ID_BOUND + 1u);
    VARIANT("bound-at-cap", c.w[3] = SPVBC_DEFAULT_MAX_ID_BOUND);
    VARIANT("bound-small", c.w[3] = 3);
    VARIANT("schema", c.w[4] = 1);
    VARIANT("wordcount-zero", c.w[n - 1] &= 0xFFFFu);
    VARIANT("past-end", c.w[n - 1] = (5u << 16) | SpvOpFunctionEnd);
    VARIANT("truncated", c.n = n - 3);
    VARIANT("header-only", c.n = 5);
    VARIANT("short-header", c.n = 3);
#undef VARIANT
    mb_free(&c);
    mb_free(&b);
}

/* Plan-API inputs: fuzz_plan.c reads kind, width, count, sign selectors for each side, then
 * features, pad and a flags byte. */
static void plans(void)
{
    /* kind selector 0 int, 1 float; width selector 0..3 = 8..64; count selector 0..5. */
    static const uint8_t kinds[][2] = {{1, 2}, {0, 2}, {0, 1}, {0, 0}, {1, 1}, {1, 3}, {0, 3}};
    unsigned k = 0;
    for (size_t a = 0; a < sizeof kinds / sizeof kinds[0]; ++a)
        for (size_t b = 0; b < sizeof kinds / sizeof kinds[0]; ++b)
            for (uint8_t cs = 0; cs < 6; ++cs)
                for (uint8_t cd = 0; cd < 6; ++cd) {
                    if ((cs != 2 && cd != 2) && (cs + cd + a + b) % 5 != 0) continue;
                    uint8_t in[12] = {kinds[a][0], kinds[a][1],      cs, 1,
                                      kinds[b][0], kinds[b][1],      cd, 0,
                                      0,           (uint8_t)(k % 3), 0,  (uint8_t)k};
                    char name[64];
                    snprintf(name, sizeof name, "plan-%03u", k++);
                    write_bytes(name, in, sizeof in);
                }
    /* bool, void, bad widths and counts, an out-of-range pad, missing features */
    const uint8_t odd[][11] = {
        {2, 2, 0, 0, 1, 2, 0, 0, 0, 0, 0}, {3, 2, 0, 0, 1, 2, 0, 0, 0, 0, 0},
        {0, 8, 1, 0, 1, 2, 1, 0, 0, 0, 0}, {0, 2, 11, 0, 1, 2, 3, 0, 0, 0, 0},
        {1, 2, 3, 0, 1, 2, 2, 0, 0, 3, 0}, {1, 3, 0, 0, 0, 2, 1, 0, 1, 0, 0},
        {6, 2, 0, 0, 7, 2, 0, 0, 0, 0, 1}, {1, 2, 2, 0, 1, 2, 3, 0, 0x40, 2, 0}};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; ++i) {
        char name[64];
        snprintf(name, sizeof name, "plan-odd-%zu", i);
        write_bytes(name, odd[i], sizeof odd[i]);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
        return 2;
    }
    g_dir = argv[1];
    if (mkdir(g_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "cannot create %s\n", g_dir);
        return 1;
    }
    naive_kernels();
    samples();
    pointers();
    spec_constants();
    small_types();
    nested();
    malformed();
    plans();
    printf("wrote %zu seeds to %s\n", g_count, g_dir);
    return 0;
}
