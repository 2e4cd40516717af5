/* Types: the module's id and type table, each type declaration as the reader meets it, and the
 * cooperative types' shapes once the walk is done. */
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "types.h"

static spvbc_result reject(spvbc__type_error *err, spvbc_result r, const char *rule,
                           const char *fmt, uint32_t arg)
{
    err->rule = rule;
    err->fmt = fmt;
    err->arg = arg;
    return r;
}

/* The type record a type-declaring instruction refers to, rejecting an `id` that is not an
 * already declared type ("a type used before it is declared").  An `id` that an instruction of
 * an unknown opcode defined gives SPVBC_SUCCESS with `*out` NULL and `*foreign` its opcode: the
 * new type is built on something this build cannot read. */
static spvbc_result need_type(const struct spvbc_module_s *m, uint32_t id, const spvbc__type **out,
                              uint32_t *foreign, spvbc__type_error *err)
{
    if (id == 0 || id >= m->bound)
        return reject(err, SPVBC_ERROR_INVALID_ID, "R-ID-RANGE",
                      "type operand %%%u is 0 or at or above the id bound", id);
    *out = spvbc__type_of_id(m, id);
    if (!*out && (*foreign = spvbc__foreign_op_of(m->ids[id])) != 0) return SPVBC_SUCCESS;
    if (!*out)
        return reject(err, SPVBC_ERROR_INVALID_ID, "R-TYPE-ORDER",
                      "%%%u is used as a type but is not a type declared before this "
                      "instruction",
                      id);
    if ((*out)->foreign_op) *foreign = (*out)->foreign_op;
    return SPVBC_SUCCESS;
}

/* The type operand at word `at` of a `wc`-word declaration, which needs at least `min_wc` words
 * (`what` says which are missing when it is shorter). */
static spvbc_result operand_type(const struct spvbc_module_s *m, const uint32_t *w, uint32_t wc,
                                 uint32_t min_wc, uint32_t at, const char *what,
                                 const spvbc__type **out, uint32_t *foreign, spvbc__type_error *err)
{
    if (wc < min_wc) return reject(err, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS", what, 0);
    return need_type(m, w[at], out, foreign, err);
}

static spvbc_result add_type(struct spvbc_module_s *m, uint32_t id, const spvbc__type *t,
                             size_t offset, spvbc__type_error *err)
{
    if (m->type_count >= SPVBC__MAX_TYPES)
        return reject(err, SPVBC_ERROR_UNSUPPORTED, "R-LIMIT", "too many types", 0);
    if (m->type_count == m->type_cap &&
        !spvbc__grow(m->ctx, (void **)&m->types, &m->type_cap, sizeof *m->types, m->type_count + 1))
        return SPVBC_ERROR_OUT_OF_MEMORY;
    spvbc__type *slot = &m->types[m->type_count];
    *slot = *t;
    slot->id = id;
    slot->decl_offset = (uint32_t)offset;
    slot->decl_words = m->words[offset] >> 16;
    if (m->ids[id] == SPVBC__ID_FORWARD) slot->forward = 1;
    m->ids[id] = SPVBC__ID_TYPE_BIT | (uint32_t)m->type_count;
    m->type_count++;
    return SPVBC_SUCCESS;
}

/* Opcodes newer than Debian 12's SPIRV-Headers, by number so that the library builds with
 * those too (there they are unknown opcodes, and never reach this file). */
#define OP_TYPE_UNTYPED_POINTER_KHR 4417u
#define OP_TYPE_COOPERATIVE_MATRIX_KHR 4456u
#define OP_TYPE_COOPERATIVE_VECTOR_NV 5288u

/* Fills the cooperative type `t` declared by the `wc`-word `w` (opcode `op`): its component
 * type; its shape stays unknown until the reader resolves it. */
static spvbc_result cooperative(struct spvbc_module_s *m, uint32_t op, const uint32_t *w,
                                uint32_t wc, spvbc__type *t, spvbc__type_error *err)
{
    const uint32_t shapes = op == OP_TYPE_COOPERATIVE_MATRIX_KHR ? 4u
                            : op == SpvOpTypeCooperativeMatrixNV ? 3u
                                                                 : 1u;
    const spvbc__type *c = NULL;
    uint32_t foreign = 0;
    spvbc_result r = operand_type(m, w, wc, 3 + shapes, 2, "cooperative type is missing operands",
                                  &c, &foreign, err);
    if (r != SPVBC_SUCCESS) return r;
    t->foreign_op = (uint16_t)foreign;
    if (c && c->kind != SPVBC__T_INT && c->kind != SPVBC__T_FLOAT)
        return reject(err, SPVBC_ERROR_INVALID_BINARY, "R-TYPE-SHAPE",
                      "cooperative type component %%%u is not a numerical scalar", w[2]);
    t->kind = op == OP_TYPE_COOPERATIVE_MATRIX_KHR ? SPVBC__T_COOPMAT_KHR
              : op == SpvOpTypeCooperativeMatrixNV ? SPVBC__T_COOPMAT_NV
                                                   : SPVBC__T_COOPVEC_NV;
    t->elem = w[2];
    if (c) {
        t->comp_kind = c->kind;
        t->width = c->width;
        t->is_signed = c->is_signed;
        t->small = c->small;
        t->encoded = c->encoded;
        t->encoding = c->encoding;
    }
    /* The values of the shape operands (words 3 on) are the reader's to resolve, once the module
     * is read. */
    for (uint32_t i = 0; i < 4; ++i)
        t->shape[i] = SPVBC__SHAPE_UNKNOWN;
    return SPVBC_SUCCESS;
}

/* OpTypeInt and OpTypeFloat: kind, width, signedness, the float's encoding and the 8/16-bit
 * class the storage-only rules look at. */
static spvbc_result scalar_type(uint32_t op, const uint32_t *w, uint32_t wc, spvbc__type *t,
                                spvbc__type_error *err)
{
    if (wc < (op == SpvOpTypeInt ? 4u : 3u))
        return reject(err, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS",
                      "type declaration is missing its width operand", 0);
    t->kind = op == SpvOpTypeInt ? SPVBC__T_INT : SPVBC__T_FLOAT;
    t->width = w[2];
    if (t->width == 0)
        return reject(err, SPVBC_ERROR_INVALID_BINARY, "R-TYPE-SHAPE", "scalar type has width 0",
                      0);
    if (op == SpvOpTypeInt) t->is_signed = w[3] ? 1u : 0u;
    /* "Floating Point Encoding ... If not present, the encoding is IEEE 754" (OpTypeFloat,
     * SPIR-V 1.6 rev. 5 / SPV_KHR_bfloat16): BFloat16KHR, Float8E4M3EXT, ... are not IEEE
     * half, so neither Float16 nor the storage-only rule of 16-bit floats concerns them;
     * SPIRV-Tools 2026.4 sizes them by their width like any float. */
    if (op == SpvOpTypeFloat && wc >= 4) {
        t->encoded = 1;
        t->encoding = (uint16_t)(w[3] > 0xFFFFu ? 0xFFFFu : w[3]);
    }
    if (t->width == 8 && t->kind == SPVBC__T_INT) t->small = SPVBC__SMALL_INT8;
    if (t->width == 16 && !t->encoded)
        t->small = t->kind == SPVBC__T_INT ? SPVBC__SMALL_INT16 : SPVBC__SMALL_FLOAT16;
    return SPVBC_SUCCESS;
}

/* OpTypeVector: its component's facts and its count; `t` stays kind OTHER when the component is
 * an unknown opcode's result (`*foreign` then names that opcode). */
static spvbc_result vector_type(struct spvbc_module_s *m, const uint32_t *w, uint32_t wc,
                                spvbc__type *t, uint32_t *foreign, spvbc__type_error *err)
{
    const spvbc__type *c = NULL;
    spvbc_result r =
        operand_type(m, w, wc, 4, 2, "OpTypeVector is missing operands", &c, foreign, err);
    if (r != SPVBC_SUCCESS || !c) return r; /* !c: of a type this build does not know */
    if (c->kind != SPVBC__T_INT && c->kind != SPVBC__T_FLOAT && c->kind != SPVBC__T_BOOL)
        return reject(err, SPVBC_ERROR_INVALID_BINARY, "R-TYPE-SHAPE",
                      "OpTypeVector component type %%%u is not a scalar", w[2]);
    t->count = w[3];
    /* SPV_EXT_long_vector: "Component Count ... must be at least 2" when LongVectorEXT is
     * declared; otherwise 2, 3 or 4, or 8 or 16 with Vector16. */
    if (m->long_vector
            ? t->count < 2
            : t->count != 2 && t->count != 3 && t->count != 4 && t->count != 8 && t->count != 16)
        return reject(err, SPVBC_ERROR_INVALID_BINARY, "R-TYPE-SHAPE",
                      m->long_vector ? "OpTypeVector has %u components (must be at least 2)"
                                     : "OpTypeVector has %u components (must be 2, 3, 4, 8 "
                                       "or 16; any count from 2 with LongVectorEXT)",
                      t->count);
    t->kind = SPVBC__T_VECTOR;
    t->comp_kind = c->kind;
    t->width = c->width;
    t->is_signed = c->is_signed;
    t->elem = w[2];
    t->small = c->small;
    t->encoded = c->encoded;
    t->encoding = c->encoding;
    return SPVBC_SUCCESS;
}

spvbc_result spvbc__declare_type(struct spvbc_module_s *m, uint32_t op, const uint32_t *w,
                                 uint32_t wc, uint32_t id, size_t offset, spvbc__type_error *err)
{
    spvbc__type t;
    memset(&t, 0, sizeof t);
    t.count = 1;
    const spvbc__type *c = NULL;
    uint32_t foreign = 0; /* the unknown opcode the new type is built on, if any */
    spvbc_result r;
    switch (op) {
    case SpvOpTypeVoid: t.kind = SPVBC__T_VOID; break;
    case SpvOpTypeBool: t.kind = SPVBC__T_BOOL; break;
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
        if ((r = scalar_type(op, w, wc, &t, err)) != SPVBC_SUCCESS) return r;
        break;
    case SpvOpTypeVector:
        if ((r = vector_type(m, w, wc, &t, &foreign, err)) != SPVBC_SUCCESS) return r;
        break;
    case SpvOpTypePointer:
        r = operand_type(m, w, wc, 4, 3, "OpTypePointer is missing operands", &c, &foreign, err);
        if (r != SPVBC_SUCCESS) return r;
        t.kind = SPVBC__T_POINTER;
        t.storage = w[2];
        t.elem = w[3];
        /* spirv-val looks through pointees except those of forward-declared pointers. */
        t.small = m->ids[id] == SPVBC__ID_FORWARD || !c ? 0u : c->small;
        if (m->ids[id] == SPVBC__ID_FORWARD) foreign = 0;
        break;
    case OP_TYPE_UNTYPED_POINTER_KHR:
        /* SPV_KHR_untyped_pointers: "OpTypeUntypedPointerKHR Storage Class" declares a pointer
         * with no pointee type; OpBitcast treats it as any pointer of its storage class. */
        if (wc < 3)
            return reject(err, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS",
                          "OpTypeUntypedPointerKHR is missing its storage class", 0);
        t.kind = SPVBC__T_POINTER;
        t.storage = w[2];
        t.untyped = 1;
        break;
    case OP_TYPE_COOPERATIVE_MATRIX_KHR:
    case SpvOpTypeCooperativeMatrixNV:
    case OP_TYPE_COOPERATIVE_VECTOR_NV:
        if ((r = cooperative(m, op, w, wc, &t, err)) != SPVBC_SUCCESS) return r;
        break;
    case SpvOpTypeArray:
    case SpvOpTypeRuntimeArray:
    case SpvOpTypeMatrix:
        r = operand_type(m, w, wc, 3, 2, "composite type is missing its element type", &c, &foreign,
                         err);
        if (r != SPVBC_SUCCESS) return r;
        t.kind = SPVBC__T_OTHER;
        t.elem = w[2];
        t.small = c ? c->small : 0u;
        break;
    case SpvOpTypeStruct:
        t.kind = SPVBC__T_OTHER;
        for (uint32_t i = 2; i < wc; ++i) {
            uint32_t mid = w[i];
            if (mid < m->bound && m->ids[mid] == SPVBC__ID_FORWARD) continue;
            if ((r = need_type(m, mid, &c, &foreign, err)) != SPVBC_SUCCESS) return r;
            if (c) t.small |= c->small;
        }
        break;
    default: t.kind = SPVBC__T_OTHER; break;
    }
    if (!t.foreign_op) t.foreign_op = (uint16_t)foreign;
    return add_type(m, id, &t, offset, err);
}

typedef struct shape_const {
    uint32_t id, value, known;
} shape_const;

static int shape_const_cmp(const void *a, const void *b)
{
    const uint32_t x = ((const shape_const *)a)->id, y = ((const shape_const *)b)->id;
    return x < y ? -1 : x > y;
}

/* Which shape operands cooperative type `t` declares: words 3 to 3 + `*count` of its
 * declaration, giving shape[`*first`] on (a vector's one operand is its component count).
 * False for other types. */
static bool shape_operands(const spvbc__type *t, uint32_t *first, uint32_t *count)
{
    *first = t->kind == SPVBC__T_COOPVEC_NV ? SPVBC__SHAPE_ROWS : SPVBC__SHAPE_SCOPE;
    *count = t->kind == SPVBC__T_COOPMAT_KHR  ? 4u
             : t->kind == SPVBC__T_COOPMAT_NV ? 3u
             : t->kind == SPVBC__T_COOPVEC_NV ? 1u
                                              : 0u;
    return *count != 0 && t->decl_words >= 3 + *count;
}

static shape_const *shape_find(shape_const *k, size_t n, uint32_t id)
{
    shape_const key = {id, 0, 0};
    return (shape_const *)bsearch(&key, k, n, sizeof *k, shape_const_cmp);
}

/* Gives the cooperative types the values of their shape operands: spirv-val compares two
 * shapes where both operands are OpConstant 32-bit integers, and lets specialization constants
 * (whose value comes later) pass.  The shape ids (words 3 on of each declaration) are sorted,
 * then one pass over the declarations finds their constants: O(n log n), whatever the module
 * holds. */
spvbc_result spvbc__resolve_shapes(struct spvbc_module_s *m)
{
    size_t n = 0;
    for (size_t i = 0; i < m->type_count; ++i)
        if (m->types[i].kind >= SPVBC__T_COOPMAT_KHR) n += 4;
    if (n == 0) return SPVBC_SUCCESS;
    shape_const *k = (shape_const *)spvbc__alloc(m->ctx, n * sizeof *k);
    if (!k) return SPVBC_ERROR_OUT_OF_MEMORY;
    size_t used = 0;
    for (size_t i = 0; i < m->type_count; ++i) {
        const spvbc__type *t = &m->types[i];
        uint32_t first, count;
        if (!shape_operands(t, &first, &count)) continue;
        for (uint32_t j = 0; j < count; ++j)
            k[used++] = (shape_const){m->words[t->decl_offset + 3 + j], 0, 0};
    }
    qsort(k, used, sizeof *k, shape_const_cmp);
    for (size_t off = 5; /* after the header */ off < m->functions_offset;) {
        const uint32_t *w = m->words + off;
        const uint32_t wc = w[0] >> 16; /* the walk checked every word count */
        if ((w[0] & 0xffffu) == SpvOpConstant && wc == 4) {
            const spvbc__type *t = spvbc__type_of_id(m, w[1]);
            shape_const *hit = shape_find(k, used, w[2]);
            if (hit && t && t->kind == SPVBC__T_INT && t->width == 32) {
                hit->value = w[3];
                hit->known = 1;
            }
        }
        off += wc;
    }
    for (size_t i = 0; i < m->type_count; ++i) {
        spvbc__type *t = &m->types[i];
        uint32_t first, count;
        if (!shape_operands(t, &first, &count)) continue;
        for (uint32_t j = 0; j < count; ++j) {
            const shape_const *hit = shape_find(k, used, m->words[t->decl_offset + 3 + j]);
            if (hit && hit->known)
                t->shape[first + j] =
                    (uint16_t)(hit->value > SPVBC__SHAPE_MAX ? SPVBC__SHAPE_MAX : hit->value);
        }
    }
    spvbc__free(m->ctx, k, n * sizeof *k);
    return SPVBC_SUCCESS;
}
