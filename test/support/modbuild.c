/* modbuild.c - the SPIR-V word-array builder of the tests (modbuild.h says what it is for). */
#include "modbuild.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mb_reserve(mb *b, size_t extra)
{
    if (b->n + extra <= b->cap) return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->n + extra)
        cap *= 2;
    uint32_t *w = (uint32_t *)realloc(b->w, cap * sizeof *w);
    if (!w) {
        fprintf(stderr, "modbuild: out of memory\n");
        abort();
    }
    b->w = w;
    b->cap = cap;
}

void mb_free(mb *b)
{
    free(b->w);
    b->w = NULL;
    b->n = b->cap = 0;
}

size_t mb_word(mb *b, uint32_t v)
{
    mb_reserve(b, 1);
    b->w[b->n] = v;
    return b->n++;
}

void mb_header(mb *b, uint32_t version, uint32_t bound)
{
    mb_word(b, SpvMagicNumber);
    mb_word(b, version);
    mb_word(b, 0);
    mb_word(b, bound);
    mb_word(b, 0);
}

size_t mb_opn(mb *b, uint32_t opcode, const uint32_t *ops, size_t nops)
{
    return mb_inst(b, opcode, ops, nops, NULL, NULL, 0);
}

size_t mb_inst(mb *b, uint32_t opcode, const uint32_t *pre, size_t npre, const char *str,
               const uint32_t *post, size_t npost)
{
    size_t len = str ? strlen(str) + 1 : 0, sw = (len + 3) / 4;
    mb_reserve(b, 1 + npre + sw + npost);
    size_t at = b->n;
    b->w[b->n++] = (uint32_t)((1 + npre + sw + npost) << 16) | opcode;
    if (npre) memcpy(b->w + b->n, pre, npre * sizeof(uint32_t));
    b->n += npre;
    if (str) mb_str_words(b->w, &b->n, str);
    if (npost) memcpy(b->w + b->n, post, npost * sizeof(uint32_t));
    b->n += npost;
    return at;
}

size_t mb_op0(mb *b, uint32_t opcode)
{
    return mb_opn(b, opcode, NULL, 0);
}

void mb_str_words(uint32_t *ops, size_t *n, const char *s)
{
    size_t len = strlen(s) + 1;
    for (size_t i = 0; i < len; i += 4) {
        uint32_t w = 0;
        for (size_t j = 0; j < 4 && i + j < len; ++j)
            w |= (uint32_t)(unsigned char)s[i + j] << (8 * j);
        ops[(*n)++] = w;
    }
}

/* Op `op` with the `nlead` operand words `lead`, then the literal string `s`. */
static size_t mb_str_op(mb *b, uint32_t op, const uint32_t *lead, size_t nlead, const char *s)
{
    return mb_inst(b, op, lead, nlead, s, NULL, 0);
}

size_t mb_entry(mb *b, uint32_t model, uint32_t fn, const char *name)
{
    const uint32_t lead[2] = {model, fn};
    return mb_str_op(b, SpvOpEntryPoint, lead, 2, name);
}

size_t mb_name(mb *b, uint32_t id, const char *name)
{
    return mb_str_op(b, SpvOpName, &id, 1, name);
}

size_t mb_string(mb *b, uint32_t id, const char *s)
{
    return mb_str_op(b, SpvOpString, &id, 1, s);
}

size_t mb_extension(mb *b, const char *name)
{
    return mb_str_op(b, SpvOpExtension, NULL, 0, name);
}

void mb_append(mb *b, const mb *src)
{
    mb_reserve(b, src->n);
    if (src->n) memcpy(b->w + b->n, src->w, src->n * sizeof(uint32_t));
    b->n += src->n;
}

uint32_t mb_bswap(uint32_t v)
{
    return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
}

void mb_kernel_head_caps(mb *b, uint32_t version, uint32_t bound, uint32_t fn,
                         const uint32_t *extra, size_t n_extra)
{
    b->n = 0;
    mb_header(b, version, bound);
    MB(b, SpvOpCapability, SpvCapabilityKernel);
    MB(b, SpvOpCapability, SpvCapabilityAddresses);
    for (size_t i = 0; i < n_extra; ++i)
        MB(b, SpvOpCapability, extra[i]);
    MB(b, SpvOpMemoryModel, SpvAddressingModelPhysical64, SpvMemoryModelOpenCL);
    mb_entry(b, SpvExecutionModelKernel, fn, "k");
}

void mb_kernel_head(mb *b, uint32_t version, uint32_t bound, uint32_t fn)
{
    mb_kernel_head_caps(b, version, bound, fn, NULL, 0);
}

void mb_shader_head(mb *b, uint32_t bound, const uint32_t *caps, size_t n, const char *const *ext,
                    size_t n_ext)
{
    b->n = 0;
    mb_header(b, 0x00010600u, bound);
    MB(b, SpvOpCapability, SpvCapabilityShader);
    for (size_t i = 0; i < n; ++i)
        MB(b, SpvOpCapability, caps[i]);
    for (size_t i = 0; i < n_ext; ++i)
        mb_extension(b, ext[i]);
    MB(b, SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450);
    mb_entry(b, SpvExecutionModelGLCompute, 1, "main");
    MB(b, SpvOpExecutionMode, 1, SpvExecutionModeLocalSize, 1, 1, 1);
    mb_void_fn_type(b, 2, 3);
}

void mb_coopmat_head(mb *b, uint32_t bound)
{
    b->n = 0;
    mb_header(b, 0x00010600u, bound);
    MB(b, SpvOpCapability, SpvCapabilityShader);
    MB(b, SpvOpCapability, CAP_COOPERATIVE_MATRIX_KHR);
    mb_extension(b, "SPV_KHR_cooperative_matrix");
    MB(b, SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450);
    mb_entry(b, SpvExecutionModelGLCompute, 1, "main");
}

void mb_void_fn_type(mb *b, uint32_t void_id, uint32_t fnty)
{
    MB(b, SpvOpTypeVoid, void_id);
    MB(b, SpvOpTypeFunction, fnty, void_id);
}

size_t mb_fn_begin(mb *b, uint32_t void_id, uint32_t fn, uint32_t fnty, uint32_t label)
{
    MB(b, SpvOpFunction, void_id, fn, 0, fnty);
    return MB(b, SpvOpLabel, label);
}

void mb_fn_end(mb *b)
{
    mb_op0(b, SpvOpReturn);
    mb_op0(b, SpvOpFunctionEnd);
}

uint32_t mb_type_chain(mb *b, uint32_t first, uint32_t depth, uint32_t c8, uint32_t len,
                       uint32_t storage)
{
    uint32_t prev = c8;
    for (uint32_t d = 0; d < depth; ++d) {
        uint32_t id = first + d;
        if (d % 3 == 0)
            MB(b, SpvOpTypeArray, id, prev, len);
        else if (d % 3 == 1)
            MB(b, SpvOpTypeStruct, id, prev, c8);
        else
            MB(b, SpvOpTypePointer, id, storage, prev);
        prev = id;
    }
    return prev;
}

void mb_coopvec_module(mb *b)
{
    const uint32_t caps[] = {CAP_COOPERATIVE_VECTOR_NV, CAP_LONG_VECTOR_EXT};
    const char *const ext[] = {"SPV_NV_cooperative_vector", "SPV_EXT_long_vector"};
    mb_shader_head(b, 15, caps, 2, ext, 2);
    MB(b, SpvOpTypeInt, 4, 32, 0);
    MB(b, SpvOpConstant, 4, 5, 4);
    MB(b, SpvOpSpecConstant, 4, 6, 4);
    MB(b, OP_TYPE_COOPERATIVE_VECTOR_NV, 7, 4, 5); /* 4 x uint */
    MB(b, OP_TYPE_COOPERATIVE_VECTOR_NV, 8, 4, 6); /* a specialization constant's count */
    MB(b, SpvOpTypeVector, 9, 4, 4);
    mb_fn_begin(b, 2, 1, 3, 10);
    MB(b, SpvOpUndef, 7, 11);
    MB(b, SpvOpBitcast, 9, 12, 11);
    MB(b, SpvOpBitcast, 4, 13, 11);
    MB(b, SpvOpBitcast, 8, 14, 11);
    mb_fn_end(b);
}

int mb_write_stop(void *user, const uint32_t *words, size_t count)
{
    (void)user;
    (void)words;
    (void)count;
    return 1;
}

void sm_cap(sm *s, uint32_t cap)
{
    if (cap < 64) {
        s->caps |= (uint64_t)1 << cap;
        return;
    }
    for (size_t i = 0; i < s->extra_cap_count; ++i)
        if (s->extra_caps[i] == cap) return;
    if (s->extra_cap_count < 8) s->extra_caps[s->extra_cap_count++] = cap;
}

uint32_t sm_id(sm *s)
{
    return s->next_id++;
}

void sm_init(sm *s, int shader, uint32_t version)
{
    memset(s, 0, sizeof *s);
    s->shader = shader;
    s->version = version;
    s->next_id = 1;
    s->fn_id = sm_id(s);
    sm_cap(s, shader ? SpvCapabilityShader : SpvCapabilityKernel);
    if (!shader) sm_cap(s, SpvCapabilityAddresses);
}

uint32_t sm_find(sm *s, uint32_t op, uint32_t a, uint32_t b, uint32_t c)
{
    for (size_t i = 0; i < s->nt; ++i)
        if (s->t[i].op == op && s->t[i].a == a && s->t[i].b == b && s->t[i].c == c)
            return s->t[i].id;
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

uint32_t sm_type(sm *s, spvbc_type_desc d)
{
    uint32_t scalar;
    int small = 0;
    switch (d.kind) {
    case SPVBC_SCALAR_INT:
        if (s->shader)
            d.is_signed = d.is_signed ? 1u : 0u;
        else
            d.is_signed = 0; /* Kernel integers are signless */
        scalar = sm_find(s, SpvOpTypeInt, d.width, d.is_signed ? 1u : 0u, 0);
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
            sm_cap(s, small == 1   ? SpvCapabilityInt8
                      : small == 2 ? SpvCapabilityInt16
                                   : SpvCapabilityFloat16);
        }
    }
    if (d.count <= 1) return scalar;
    if (d.count > 4) sm_cap(s, SpvCapabilityVector16);
    return sm_find(s, SpvOpTypeVector, scalar, d.count, 0);
}

uint32_t sm_ptr(sm *s, uint32_t storage, uint32_t pointee)
{
    return sm_find(s, SpvOpTypePointer, storage, pointee, 0);
}

spvbc_type_desc sm_desc(spvbc_scalar_kind k, uint32_t width, uint32_t count)
{
    spvbc_type_desc d = {k, width, count, 0};
    return d;
}

void sm_begin(sm *s)
{
    s->void_id = sm_find(s, SpvOpTypeVoid, 0, 0, 0);
    uint32_t fnty = sm_id(s);
    MB(&s->types, SpvOpTypeFunction, fnty, s->void_id);
    s->fnty_id = fnty;
    MB(&s->body, SpvOpFunction, s->void_id, s->fn_id, 0, fnty);
    MB(&s->body, SpvOpLabel, sm_id(s));
    s->in_fn = 1;
}

uint32_t sm_string(sm *s, const char *str)
{
    uint32_t id = sm_id(s);
    mb_string(&s->debug, id, str);
    return id;
}

void sm_name(sm *s, uint32_t id, const char *name)
{
    mb_name(&s->debug, id, name);
}

void sm_line(sm *s, uint32_t file, uint32_t line, uint32_t col)
{
    MB(&s->body, SpvOpLine, file, line, col);
}

uint32_t sm_undef(sm *s, uint32_t type)
{
    uint32_t id = sm_id(s);
    MB(&s->body, SpvOpUndef, type, id);
    return id;
}

uint32_t sm_null(sm *s, uint32_t type)
{
    uint32_t id = sm_id(s);
    MB(&s->types, SpvOpConstantNull, type, id);
    return id;
}

uint32_t sm_bitcast(sm *s, uint32_t type, uint32_t operand)
{
    uint32_t id = sm_id(s);
    MB(&s->body, SpvOpBitcast, type, id, operand);
    return id;
}

void sm_finish(sm *s, mb *out)
{
    if (!s->in_fn) sm_begin(s);
    mb_op0(&s->body, SpvOpReturn);
    mb_op0(&s->body, SpvOpFunctionEnd);
    out->n = 0;
    mb_header(out, s->version, s->next_id);
    for (uint32_t c = 0; c < 64; ++c)
        if (s->caps & ((uint64_t)1 << c)) MB(out, SpvOpCapability, c);
    for (size_t i = 0; i < s->extra_cap_count; ++i)
        MB(out, SpvOpCapability, s->extra_caps[i]);
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

void sm_cast_module(mb *out, int shader, uint32_t version, spvbc_type_desc src, spvbc_type_desc dst,
                    size_t n)
{
    sm s;
    sm_init(&s, shader, version);
    uint32_t st = sm_type(&s, src), dt = sm_type(&s, dst);
    sm_begin(&s);
    for (size_t i = 0; i < n; ++i)
        sm_bitcast(&s, dt, sm_undef(&s, st));
    sm_finish(&s, out);
}

void sm_casts(sm *s, const spvbc_type_desc (*casts)[2], size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        sm_type(s, casts[i][0]);
        sm_type(s, casts[i][1]);
    }
    sm_begin(s);
    for (size_t i = 0; i < n; ++i)
        sm_bitcast(s, sm_type(s, casts[i][1]), sm_undef(s, sm_type(s, casts[i][0])));
}

uint32_t sm_spec_const(sm *s, uint32_t type, uint32_t value)
{
    uint32_t id = sm_id(s);
    MB(&s->types, SpvOpSpecConstant, type, id, value);
    return id;
}

uint32_t sm_spec_splat(sm *s, uint32_t type, uint32_t part, uint32_t n)
{
    uint32_t ops[20];
    uint32_t id = sm_id(s);
    ops[0] = type;
    ops[1] = id;
    for (uint32_t i = 0; i < n && i < 16; ++i)
        ops[2 + i] = part;
    mb_opn(&s->types, SpvOpSpecConstantComposite, ops, 2 + (n < 16 ? n : 16));
    return id;
}

uint32_t sm_spec_bitcast(sm *s, uint32_t type, uint32_t operand)
{
    uint32_t id = sm_id(s);
    MB(&s->types, SpvOpSpecConstantOp, type, id, SpvOpBitcast, operand);
    return id;
}

int mb_sample_module(int which, mb *out)
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
        const spvbc_type_desc casts[][2] = {{SM_F32(4), SM_F32(3)},
                                            {SM_F32(3), SM_I64(2)},
                                            {SM_I64(2), SM_I32(3)},
                                            {SM_I8(3), SM_I32(1)},
                                            {SM_I32(2), SM_I64(1)}};
        sm_casts(&s, casts, 5);
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
        const spvbc_type_desc casts[][2] = {
            {SM_F16(3), SM_I16(4)}, {SM_F64(1), SM_F32(2)}, {SM_I16(4), SM_F16(3)}};
        sm_casts(&s, casts, 3);
        break;
    }
    default: return 0;
    }
    sm_finish(&s, out);
    return 1;
}
