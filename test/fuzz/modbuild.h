/*
 * modbuild.h - a tiny SPIR-V word-array builder for the robustness tests, the fuzz seed
 * corpus generator and the fuzz targets.  Header-only (static functions), C11, no library
 * dependency beyond libc and the SPIR-V headers.
 *
 * Two layers:
 *   mb_*   raw words: a header and instructions appended in order; each append returns the
 *          word offset of the instruction's first word, so tests can state exact positions.
 *   sm_*   a small structured module (capabilities, memory model, entry point, types,
 *          one function) for valid Kernel or Shader modules with bitcasts of any
 *          scalar/vector pair.  Types are declared once (find-or-create).
 *
 * Allocation failure aborts: this is test code, and the library under test is never asked
 * to allocate through it.
 */
#ifndef SPVBC_TEST_MODBUILD_H_
#define SPVBC_TEST_MODBUILD_H_

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "spirv_bitcast.h"

#if defined(__GNUC__)
#define MB_UNUSED __attribute__((unused))
#else
#define MB_UNUSED
#endif

/* ---- raw words ----------------------------------------------------------------------- */

typedef struct mb {
    uint32_t *w;
    size_t n, cap;
} mb;

static MB_UNUSED void mb_reserve(mb *b, size_t extra)
{
    if (b->n + extra <= b->cap) return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->n + extra) cap *= 2;
    uint32_t *w = (uint32_t *)realloc(b->w, cap * sizeof *w);
    if (!w) {
        fprintf(stderr, "modbuild: out of memory\n");
        abort();
    }
    b->w = w;
    b->cap = cap;
}

static MB_UNUSED void mb_free(mb *b)
{
    free(b->w);
    b->w = NULL;
    b->n = b->cap = 0;
}

static MB_UNUSED size_t mb_word(mb *b, uint32_t v)
{
    mb_reserve(b, 1);
    b->w[b->n] = v;
    return b->n++;
}

/** Appends the 5-word header. */
static MB_UNUSED void mb_header(mb *b, uint32_t version, uint32_t bound)
{
    mb_word(b, SpvMagicNumber);
    mb_word(b, version);
    mb_word(b, 0);
    mb_word(b, bound);
    mb_word(b, 0);
}

/** Appends an instruction of `nops` operand words; returns its word offset. */
static MB_UNUSED size_t mb_opn(mb *b, uint32_t opcode, const uint32_t *ops, size_t nops)
{
    size_t at = mb_word(b, (uint32_t)((nops + 1) << 16) | opcode);
    for (size_t i = 0; i < nops; ++i) mb_word(b, ops[i]);
    return at;
}

static MB_UNUSED size_t mb_op0(mb *b, uint32_t opcode) { return mb_opn(b, opcode, NULL, 0); }

/** MB(b, SpvOpX, operands...): at least one operand (use mb_op0 for none). */
#define MB(b, opcode, ...)                                                                    \
    mb_opn((b), (opcode), (const uint32_t[]){__VA_ARGS__},                                    \
           sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t))

/** Words of a literal string (NUL-terminated, zero-padded), appended to `ops` at `*n`. */
static MB_UNUSED void mb_str_words(uint32_t *ops, size_t *n, const char *s)
{
    size_t len = strlen(s) + 1;
    for (size_t i = 0; i < len; i += 4) {
        uint32_t w = 0;
        for (size_t j = 0; j < 4 && i + j < len; ++j) w |= (uint32_t)(unsigned char)s[i + j] << (8 * j);
        ops[(*n)++] = w;
    }
}

/** OpEntryPoint `model` `fn` "name" (no interface ids). */
static MB_UNUSED size_t mb_entry(mb *b, uint32_t model, uint32_t fn, const char *name)
{
    uint32_t ops[32];
    size_t n = 0;
    ops[n++] = model;
    ops[n++] = fn;
    mb_str_words(ops, &n, name);
    return mb_opn(b, SpvOpEntryPoint, ops, n);
}

/** OpName `id` "name". */
static MB_UNUSED size_t mb_name(mb *b, uint32_t id, const char *name)
{
    uint32_t ops[32];
    size_t n = 0;
    ops[n++] = id;
    mb_str_words(ops, &n, name);
    return mb_opn(b, SpvOpName, ops, n);
}

/** OpExtension "name". */
static MB_UNUSED size_t mb_extension(mb *b, const char *name)
{
    uint32_t ops[32];
    size_t n = 0;
    mb_str_words(ops, &n, name);
    return mb_opn(b, SpvOpExtension, ops, n);
}

static MB_UNUSED void mb_append(mb *b, const mb *src)
{
    mb_reserve(b, src->n);
    if (src->n) memcpy(b->w + b->n, src->w, src->n * sizeof(uint32_t));
    b->n += src->n;
}

static MB_UNUSED uint32_t mb_bswap(uint32_t v)
{
    return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
}

/* ---- a structured module ------------------------------------------------------------- */

#define SM_MAX_TYPES 64

typedef struct sm_typeent {
    uint32_t op;       /* SpvOpTypeInt / Float / Bool / Vector / Pointer / Void */
    uint32_t a, b, c;  /* int: width, signed; float: width; vector: comp id, count; ptr: sc, pointee */
    uint32_t id;
} sm_typeent;

typedef struct sm {
    int shader;         /* 1: Shader, Logical GLSL450, GLCompute; 0: Kernel, Physical64 OpenCL */
    uint32_t version;
    uint32_t next_id;
    uint64_t caps;      /* bit i: SpvCapability i for i < 64 */
    uint32_t extra_caps[8];
    size_t extra_cap_count;
    int storage_only_small; /* Shader: declare 8/16-bit types with storage capabilities only */
    int psb_ext;        /* add OpExtension "SPV_KHR_physical_storage_buffer" */
    mb debug, types, body;
    sm_typeent t[SM_MAX_TYPES];
    size_t nt;
    uint32_t void_id, fnty_id, fn_id;
    int in_fn;
} sm;

static MB_UNUSED void sm_cap(sm *s, uint32_t cap)
{
    if (cap < 64) {
        s->caps |= (uint64_t)1 << cap;
        return;
    }
    for (size_t i = 0; i < s->extra_cap_count; ++i)
        if (s->extra_caps[i] == cap) return;
    if (s->extra_cap_count < 8) s->extra_caps[s->extra_cap_count++] = cap;
}

static MB_UNUSED uint32_t sm_id(sm *s) { return s->next_id++; }

static MB_UNUSED void sm_init(sm *s, int shader, uint32_t version)
{
    memset(s, 0, sizeof *s);
    s->shader = shader;
    s->version = version;
    s->next_id = 1;
    s->fn_id = sm_id(s);
    sm_cap(s, shader ? SpvCapabilityShader : SpvCapabilityKernel);
    if (!shader) sm_cap(s, SpvCapabilityAddresses);
}

static MB_UNUSED uint32_t sm_find(sm *s, uint32_t op, uint32_t a, uint32_t b, uint32_t c)
{
    for (size_t i = 0; i < s->nt; ++i)
        if (s->t[i].op == op && s->t[i].a == a && s->t[i].b == b && s->t[i].c == c) return s->t[i].id;
    if (s->nt == SM_MAX_TYPES) abort();
    uint32_t id = sm_id(s);
    s->t[s->nt++] = (sm_typeent){op, a, b, c, id};
    switch (op) {
    case SpvOpTypeVoid: MB(&s->types, op, id); break;
    case SpvOpTypeBool: MB(&s->types, op, id); break;
    case SpvOpTypeInt: MB(&s->types, op, id, a, b); break;
    case SpvOpTypeFloat: MB(&s->types, op, id, a); break;
    case SpvOpTypeVector: MB(&s->types, op, id, a, b); break;
    case SpvOpTypePointer: MB(&s->types, op, id, a, b); break;
    default: abort();
    }
    return id;
}

/** Declares (once) the scalar or vector type `d` and the capabilities it needs. */
static MB_UNUSED uint32_t sm_type(sm *s, spvbc_type_desc d)
{
    uint32_t scalar;
    int small = 0;
    switch (d.kind) {
    case SPVBC_SCALAR_INT:
        if (s->shader) d.is_signed = d.is_signed ? 1u : 0u;
        else d.is_signed = 0; /* Kernel integers are signless */
        scalar = sm_find(s, SpvOpTypeInt, d.width, d.is_signed, 0);
        if (d.width == 8) small = 1;
        if (d.width == 16) small = 2;
        if (d.width == 64) sm_cap(s, SpvCapabilityInt64);
        break;
    case SPVBC_SCALAR_FLOAT:
        scalar = sm_find(s, SpvOpTypeFloat, d.width, 0, 0);
        if (d.width == 16) small = 3;
        if (d.width == 64) sm_cap(s, SpvCapabilityFloat64);
        break;
    case SPVBC_SCALAR_BOOL: scalar = sm_find(s, SpvOpTypeBool, 0, 0, 0); break;
    default: scalar = sm_find(s, SpvOpTypeVoid, 0, 0, 0); break;
    }
    if (small) {
        if (s->shader && s->storage_only_small) {
            sm_cap(s, small == 1 ? SpvCapabilityStorageBuffer8BitAccess
                                 : SpvCapabilityStorageBuffer16BitAccess);
        } else {
            sm_cap(s, small == 1 ? SpvCapabilityInt8
                                 : small == 2 ? SpvCapabilityInt16 : SpvCapabilityFloat16);
        }
    }
    if (d.count <= 1) return scalar;
    if (d.count > 4) sm_cap(s, SpvCapabilityVector16);
    return sm_find(s, SpvOpTypeVector, scalar, d.count, 0);
}

static MB_UNUSED uint32_t sm_ptr(sm *s, uint32_t storage, uint32_t pointee)
{
    return sm_find(s, SpvOpTypePointer, storage, pointee, 0);
}

static MB_UNUSED spvbc_type_desc sm_desc(spvbc_scalar_kind k, uint32_t width, uint32_t count)
{
    spvbc_type_desc d = {k, width, count, 0};
    return d;
}

/** Starts the one function (void()): declares void and the function type. */
static MB_UNUSED void sm_begin(sm *s)
{
    s->void_id = sm_find(s, SpvOpTypeVoid, 0, 0, 0);
    uint32_t fnty = sm_id(s);
    MB(&s->types, SpvOpTypeFunction, fnty, s->void_id);
    s->fnty_id = fnty;
    MB(&s->body, SpvOpFunction, s->void_id, s->fn_id, 0, fnty);
    MB(&s->body, SpvOpLabel, sm_id(s));
    s->in_fn = 1;
}

/** OpString "s" in the debug section; returns its id. */
static MB_UNUSED uint32_t sm_string(sm *s, const char *str)
{
    uint32_t ops[64];
    size_t n = 0;
    uint32_t id = sm_id(s);
    ops[n++] = id;
    mb_str_words(ops, &n, str);
    mb_opn(&s->debug, SpvOpString, ops, n);
    return id;
}

/** OpName `id` "name" in the debug section. */
static MB_UNUSED void sm_name(sm *s, uint32_t id, const char *name) { mb_name(&s->debug, id, name); }

/** OpLine `file` `line` `col` in the function body. */
static MB_UNUSED void sm_line(sm *s, uint32_t file, uint32_t line, uint32_t col)
{
    MB(&s->body, SpvOpLine, file, line, col);
}

/** A value of type id `type` in the function (OpUndef). */
static MB_UNUSED uint32_t sm_undef(sm *s, uint32_t type)
{
    uint32_t id = sm_id(s);
    MB(&s->body, SpvOpUndef, type, id);
    return id;
}

/** A global OpConstantNull of `type`. */
static MB_UNUSED uint32_t sm_null(sm *s, uint32_t type)
{
    uint32_t id = sm_id(s);
    MB(&s->types, SpvOpConstantNull, type, id);
    return id;
}

/** OpBitcast `type` `operand` in the function; returns the result id. */
static MB_UNUSED uint32_t sm_bitcast(sm *s, uint32_t type, uint32_t operand)
{
    uint32_t id = sm_id(s);
    MB(&s->body, SpvOpBitcast, type, id, operand);
    return id;
}

/** Finishes the function and writes the whole module into `out` (which it resets). */
static MB_UNUSED void sm_finish(sm *s, mb *out)
{
    if (!s->in_fn) sm_begin(s);
    mb_op0(&s->body, SpvOpReturn);
    mb_op0(&s->body, SpvOpFunctionEnd);
    out->n = 0;
    mb_header(out, s->version, s->next_id);
    for (uint32_t c = 0; c < 64; ++c)
        if (s->caps & ((uint64_t)1 << c)) MB(out, SpvOpCapability, c);
    for (size_t i = 0; i < s->extra_cap_count; ++i) MB(out, SpvOpCapability, s->extra_caps[i]);
    if (s->psb_ext) mb_extension(out, "SPV_KHR_physical_storage_buffer");
    if ((s->caps >> SpvCapabilityShader) & 1u) {
        for (size_t i = 0; i < s->extra_cap_count; ++i) {
            if (s->extra_caps[i] == SpvCapabilityStorageBuffer8BitAccess)
                mb_extension(out, "SPV_KHR_8bit_storage");
            if (s->extra_caps[i] == SpvCapabilityStorageBuffer16BitAccess)
                mb_extension(out, "SPV_KHR_16bit_storage");
        }
    }
    if (s->shader) {
        MB(out, SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450);
        mb_entry(out, SpvExecutionModelGLCompute, s->fn_id, "main");
        MB(out, SpvOpExecutionMode, s->fn_id, SpvExecutionModeLocalSize, 1, 1, 1);
    } else {
        MB(out, SpvOpMemoryModel, SpvAddressingModelPhysical64, SpvMemoryModelOpenCL);
        mb_entry(out, SpvExecutionModelKernel, s->fn_id, "k");
    }
    mb_append(out, &s->debug);
    mb_append(out, &s->types);
    mb_append(out, &s->body);
    mb_free(&s->debug);
    mb_free(&s->types);
    mb_free(&s->body);
}

/** A module with `n` OpBitcast from `src` to `dst` (each of its own OpUndef operand). */
static MB_UNUSED void sm_cast_module(mb *out, int shader, uint32_t version, spvbc_type_desc src,
                                     spvbc_type_desc dst, size_t n)
{
    sm s;
    sm_init(&s, shader, version);
    uint32_t st = sm_type(&s, src), dt = sm_type(&s, dst);
    sm_begin(&s);
    for (size_t i = 0; i < n; ++i) sm_bitcast(&s, dt, sm_undef(&s, st));
    sm_finish(&s, out);
}

/** OpSpecConstant `type` `value` (32-bit literal) in the types section. */
static MB_UNUSED uint32_t sm_spec_const(sm *s, uint32_t type, uint32_t value)
{
    uint32_t id = sm_id(s);
    MB(&s->types, SpvOpSpecConstant, type, id, value);
    return id;
}

/** OpSpecConstantComposite `type` with `n` copies of `part`. */
static MB_UNUSED uint32_t sm_spec_splat(sm *s, uint32_t type, uint32_t part, uint32_t n)
{
    uint32_t ops[20];
    uint32_t id = sm_id(s);
    ops[0] = type;
    ops[1] = id;
    for (uint32_t i = 0; i < n && i < 16; ++i) ops[2 + i] = part;
    mb_opn(&s->types, SpvOpSpecConstantComposite, ops, 2 + (n < 16 ? n : 16));
    return id;
}

/** OpSpecConstantOp `type` Bitcast `operand`. */
static MB_UNUSED uint32_t sm_spec_bitcast(sm *s, uint32_t type, uint32_t operand)
{
    uint32_t id = sm_id(s);
    MB(&s->types, SpvOpSpecConstantOp, type, id, SpvOpBitcast, operand);
    return id;
}

#define SM_F32(n) sm_desc(SPVBC_SCALAR_FLOAT, 32, (n))
#define SM_I32(n) sm_desc(SPVBC_SCALAR_INT, 32, (n))
#define SM_I8(n) sm_desc(SPVBC_SCALAR_INT, 8, (n))
#define SM_I16(n) sm_desc(SPVBC_SCALAR_INT, 16, (n))
#define SM_I64(n) sm_desc(SPVBC_SCALAR_INT, 64, (n))
#define SM_F16(n) sm_desc(SPVBC_SCALAR_FLOAT, 16, (n))
#define SM_F64(n) sm_desc(SPVBC_SCALAR_FLOAT, 64, (n))

/*
 * Sample modules whose bitcasts the lowering can fix: every one is valid SPIR-V after
 * spvbc_module_lower() with SPVBC_PAD_UNDEF or SPVBC_PAD_ZERO (and invalid before).
 *   0  Kernel 1.0: float3 -> int4 (3->4) and int4 -> float3 (4->3); vec4 float is not
 *      declared, so lowering adds it (and a null float3 under pad zero); OpName + OpLine
 *   1  Kernel 1.0: float4 -> float3, float3 -> long2, long2 -> int3, char3 -> int,
 *      int2 -> long (valid, kept), all with Int8/Int64
 *   2  Shader 1.5 (GLCompute): float4 -> float3, int3 -> float4, uint2 -> float2 (valid)
 *   3  Kernel 1.2: OpSpecConstantOp Bitcast float4 -> float3 beside a function bitcast
 *   4  Kernel 1.0: half3 -> short4, double -> float2 (valid), ushort4 -> half3
 * Returns 0 when `which` is out of range.
 */
#define MB_SAMPLE_COUNT 5

static MB_UNUSED int mb_sample_module(int which, mb *out)
{
    sm s;
    switch (which) {
    case 0: {
        sm_init(&s, 0, 0x00010000u);
        uint32_t file = sm_string(&s, "sample0.cl");
        uint32_t f3 = sm_type(&s, SM_F32(3)), i4 = sm_type(&s, SM_I32(4));
        sm_begin(&s);
        uint32_t x = sm_undef(&s, f3);
        sm_line(&s, file, 10, 5);
        uint32_t a = sm_bitcast(&s, i4, x);
        sm_line(&s, file, 11, 7);
        uint32_t b = sm_bitcast(&s, f3, a);
        sm_name(&s, a, "as_int4_of_float3");
        sm_name(&s, b, "as_float3_of_int4");
        break;
    }
    case 1: {
        sm_init(&s, 0, 0x00010000u);
        uint32_t f4 = sm_type(&s, SM_F32(4)), f3 = sm_type(&s, SM_F32(3));
        uint32_t l2 = sm_type(&s, SM_I64(2)), i3 = sm_type(&s, SM_I32(3));
        uint32_t c3 = sm_type(&s, SM_I8(3)), i1 = sm_type(&s, SM_I32(1));
        uint32_t i2 = sm_type(&s, SM_I32(2)), l1 = sm_type(&s, SM_I64(1));
        sm_begin(&s);
        sm_bitcast(&s, f3, sm_undef(&s, f4));
        sm_bitcast(&s, l2, sm_undef(&s, f3));
        sm_bitcast(&s, i3, sm_undef(&s, l2));
        sm_bitcast(&s, i1, sm_undef(&s, c3));
        sm_bitcast(&s, l1, sm_undef(&s, i2));
        break;
    }
    case 2: {
        sm_init(&s, 1, 0x00010500u);
        uint32_t f4 = sm_type(&s, SM_F32(4)), f3 = sm_type(&s, SM_F32(3));
        spvbc_type_desc si3 = SM_I32(3);
        si3.is_signed = 1;
        uint32_t i3 = sm_type(&s, si3), u2 = sm_type(&s, SM_I32(2));
        uint32_t f2 = sm_type(&s, SM_F32(2));
        sm_begin(&s);
        uint32_t y = sm_bitcast(&s, f3, sm_undef(&s, f4));
        sm_name(&s, y, "y");
        sm_bitcast(&s, f4, sm_undef(&s, i3));
        sm_bitcast(&s, f2, sm_undef(&s, u2));
        break;
    }
    case 3: {
        sm_init(&s, 0, 0x00010200u);
        uint32_t f1 = sm_type(&s, SM_F32(1));
        uint32_t f4 = sm_type(&s, SM_F32(4)), f3 = sm_type(&s, SM_F32(3));
        uint32_t c = sm_spec_const(&s, f1, 0x3F800000u);
        uint32_t v = sm_spec_splat(&s, f4, c, 4);
        uint32_t r = sm_spec_bitcast(&s, f3, v);
        sm_name(&s, r, "spec_as_float3");
        sm_begin(&s);
        sm_bitcast(&s, f3, sm_undef(&s, f4));
        break;
    }
    case 4: {
        sm_init(&s, 0, 0x00010000u);
        uint32_t h3 = sm_type(&s, SM_F16(3)), s4 = sm_type(&s, SM_I16(4));
        uint32_t d1 = sm_type(&s, SM_F64(1)), f2 = sm_type(&s, SM_F32(2));
        sm_begin(&s);
        sm_bitcast(&s, s4, sm_undef(&s, h3));
        sm_bitcast(&s, f2, sm_undef(&s, d1));
        sm_bitcast(&s, h3, sm_undef(&s, s4));
        break;
    }
    default: return 0;
    }
    sm_finish(&s, out);
    return 1;
}

#endif /* SPVBC_TEST_MODBUILD_H_ */
