/*
 * astype_gen.c - the naive as_type kernel generator and SPIRV-Tools wrappers (see astype_gen.h).
 * SPDX-License-Identifier: Apache-2.0
 */
#include "astype_gen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv-tools/libspirv.h>

#include "spvval.h"

/* ---- a growable string ------------------------------------------------------------------ */

void spvbc_gen_printf(spvbc_gen_text *b, const char *fmt, ...)
{
    va_list ap;
    if (b->failed) {
        return;
    }
    for (;;) {
        size_t avail = b->cap - b->len;
        int n;
        va_start(ap, fmt);
        n = vsnprintf(b->data ? b->data + b->len : NULL, b->data ? avail : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->failed = 1;
            return;
        }
        if (b->data && (size_t)n < avail) {
            b->len += (size_t)n;
            return;
        }
        {
            size_t ncap = b->cap ? b->cap * 2 : 4096;
            char *nd;
            while (ncap < b->len + (size_t)n + 1) {
                ncap *= 2;
            }
            nd = (char *)realloc(b->data, ncap);
            if (!nd) {
                b->failed = 1;
                return;
            }
            b->data = nd;
            b->cap = ncap;
        }
    }
}

const char *spvbc_gen_text_str(const spvbc_gen_text *text)
{
    return text->data ? text->data : "";
}

void spvbc_gen_text_free(spvbc_gen_text *text)
{
    free(text->data);
    memset(text, 0, sizeof *text);
}

int spvbc_gen_names_has(const spvbc_gen_names *set, const char *name)
{
    for (size_t i = 0; i < set->count; ++i) {
        if (strcmp(set->names[i], name) == 0) {
            return 1;
        }
    }
    return 0;
}

void spvbc_gen_names_add(spvbc_gen_names *set, const char *name)
{
    if (set->count < sizeof set->names / sizeof set->names[0]) {
        snprintf(set->names[set->count++], sizeof set->names[0], "%s", name);
    }
}

/* ---- the library's verdict ---------------------------------------------------------------- */

static void append(char *buf, size_t size, const char *sep, const char *fmt, const char *a,
                   const char *b)
{
    size_t len = strlen(buf);
    if (len > 0 && len < size) {
        snprintf(buf + len, size - len, "%s", sep);
        len = strlen(buf);
    }
    if (len < size) {
        snprintf(buf + len, size - len, fmt, a, b);
    }
}

uint32_t spvbc_gen_generation = SPVBC_GENERATION_NEWEST;

void spvbc_gen_library_verdict(const uint32_t *words, size_t n, spvbc_gen_verdict *v)
{
    spvbc_validate_options vo = SPVBC_VALIDATE_OPTIONS_INIT;
    vo.generation = spvbc_gen_generation;
    spvbc_context ctx = NULL;
    spvbc_module mod = NULL;
    memset(v, 0, sizeof *v);
    v->parse = SPVBC_ERROR_OUT_OF_MEMORY;
    v->verdict = SPVBC_ERROR_OUT_OF_MEMORY;
    if (spvbc_context_create(NULL, &ctx) != SPVBC_SUCCESS) {
        return;
    }
    v->parse = spvbc_module_parse(ctx, words, n, NULL, &mod);
    if (v->parse == SPVBC_SUCCESS) {
        v->summary.struct_size = sizeof v->summary;
        v->verdict = spvbc_module_validate(mod, &vo, &v->summary);
        for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i) {
            const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
            if (!d || d->severity != SPVBC_SEVERITY_ERROR) {
                continue;
            }
            const char *rule = d->rule ? d->rule : "?";
            if (v->error_count++ == 0) {
                snprintf(v->first_rule, sizeof v->first_rule, "%s", d->rule ? d->rule : "");
            }
            v->lowerable_count += d->lowerable != 0;
            append(v->rules, sizeof v->rules, " ", "%s%s", rule, "");
            append(v->errors, sizeof v->errors, "; ", "[%s] %s", rule,
                   d->message ? d->message : "");
        }
        spvbc_module_destroy(mod);
    } else if (spvbc_context_diagnostic_count(ctx) > 0) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
        snprintf(v->errors, sizeof v->errors, "[%s] %s", d->rule ? d->rule : "?",
                 d->message ? d->message : "");
    }
    spvbc_context_destroy(ctx);
}

/* ---- type naming ------------------------------------------------------------------------ */

static int type_ok(const spvbc_type_desc *t)
{
    if (!t) {
        return 0;
    }
    if (t->kind == SPVBC_SCALAR_INT) {
        if (t->width != 8 && t->width != 16 && t->width != 32 && t->width != 64) {
            return 0;
        }
    } else if (t->kind == SPVBC_SCALAR_FLOAT) {
        if (t->width != 16 && t->width != 32 && t->width != 64) {
            return 0;
        }
    } else {
        return 0;
    }
    switch (t->count) {
    case 1:
    case 2:
    case 3:
    case 4:
    case 8:
    case 16: return 1;
    default: return 0;
    }
}

static const char *scalar_base_name(spvbc_scalar_kind kind, uint32_t width, int is_signed)
{
    if (kind == SPVBC_SCALAR_FLOAT) {
        return width == 16 ? "half" : width == 32 ? "float" : "double";
    }
    switch (width) {
    case 8: return is_signed ? "char" : "uchar";
    case 16: return is_signed ? "short" : "ushort";
    case 32: return is_signed ? "int" : "uint";
    default: return is_signed ? "long" : "ulong";
    }
}

void spvbc_gen_type_name(const spvbc_type_desc *type, char *buf, size_t size)
{
    if (!buf || size == 0) {
        return;
    }
    if (!type_ok(type)) {
        snprintf(buf, size, "?");
        return;
    }
    if (type->count == 1) {
        snprintf(buf, size, "%s", scalar_base_name(type->kind, type->width, type->is_signed != 0));
    } else {
        snprintf(buf, size, "%s%u", scalar_base_name(type->kind, type->width, type->is_signed != 0),
                 (unsigned)type->count);
    }
}

void spvbc_gen_spirv_type_name(const spvbc_type_desc *type, spvbc_gen_flavour flavour, char *buf,
                               size_t size)
{
    int is_signed;
    const char *base;
    if (!buf || size == 0) {
        return;
    }
    if (!type_ok(type)) {
        snprintf(buf, size, "?");
        return;
    }
    is_signed = flavour == SPVBC_GEN_VULKAN && type->is_signed != 0;
    base = scalar_base_name(type->kind, type->width, is_signed);
    if (type->count == 1) {
        snprintf(buf, size, "%s", base);
    } else {
        snprintf(buf, size, "v%u%s", (unsigned)type->count, base);
    }
}

size_t spvbc_gen_opencl_size(const spvbc_type_desc *type)
{
    if (!type_ok(type)) {
        return 0;
    }
    return (size_t)(type->count == 3 ? 4 : type->count) * (type->width / 8);
}

size_t spvbc_gen_vulkan_stride(const spvbc_type_desc *type)
{
    if (!type_ok(type) || type->count > 4) {
        return 0;
    }
    return spvbc_gen_opencl_size(type);
}

size_t spvbc_gen_opencl_types(spvbc_type_desc *out)
{
    static const struct {
        spvbc_scalar_kind kind;
        uint32_t width;
        spvbc_bool is_signed;
    } bases[11] = {
        {SPVBC_SCALAR_INT, 8, 1},  {SPVBC_SCALAR_INT, 8, 0},    {SPVBC_SCALAR_INT, 16, 1},
        {SPVBC_SCALAR_INT, 16, 0}, {SPVBC_SCALAR_FLOAT, 16, 0}, {SPVBC_SCALAR_INT, 32, 1},
        {SPVBC_SCALAR_INT, 32, 0}, {SPVBC_SCALAR_FLOAT, 32, 0}, {SPVBC_SCALAR_INT, 64, 1},
        {SPVBC_SCALAR_INT, 64, 0}, {SPVBC_SCALAR_FLOAT, 64, 0},
    };
    static const uint32_t counts[6] = {1, 2, 3, 4, 8, 16};
    size_t n = 0;
    for (size_t b = 0; b < 11; ++b) {
        for (size_t c = 0; c < 6; ++c) {
            if (out) {
                out[n].kind = bases[b].kind;
                out[n].width = bases[b].width;
                out[n].count = counts[c];
                out[n].is_signed = bases[b].is_signed;
            }
            ++n;
        }
    }
    return n;
}

/* ---- module text ------------------------------------------------------------------------ */

static void declare_type(spvbc_gen_text *b, spvbc_gen_names *d, const spvbc_type_desc *t,
                         spvbc_gen_flavour flavour)
{
    spvbc_type_desc scalar = *t;
    char sname[32];
    char vname[32];
    scalar.count = 1;
    spvbc_gen_spirv_type_name(&scalar, flavour, sname, sizeof sname);
    if (!spvbc_gen_names_has(d, sname)) {
        if (t->kind == SPVBC_SCALAR_FLOAT) {
            spvbc_gen_printf(b, "%%%s = OpTypeFloat %u\n", sname, (unsigned)t->width);
        } else {
            spvbc_gen_printf(b, "%%%s = OpTypeInt %u %d\n", sname, (unsigned)t->width,
                             flavour == SPVBC_GEN_VULKAN && t->is_signed ? 1 : 0);
        }
        spvbc_gen_names_add(d, sname);
    }
    if (t->count > 1) {
        spvbc_gen_spirv_type_name(t, flavour, vname, sizeof vname);
        if (!spvbc_gen_names_has(d, vname)) {
            spvbc_gen_printf(b, "%%%s = OpTypeVector %%%s %u\n", vname, sname, (unsigned)t->count);
            spvbc_gen_names_add(d, vname);
        }
    }
}

typedef struct caps {
    int int8, int16, int64, float16, float64, vector16;
} caps;

static void add_caps(caps *c, const spvbc_type_desc *t)
{
    if (t->kind == SPVBC_SCALAR_INT) {
        c->int8 |= t->width == 8;
        c->int16 |= t->width == 16;
        c->int64 |= t->width == 64;
    } else {
        c->float16 |= t->width == 16;
        c->float64 |= t->width == 64;
    }
    c->vector16 |= t->count >= 8;
}

/* The arithmetic capabilities of the element types in `c`; with `storage8`, Int8 is followed by
 * StorageBuffer8BitAccess (the Vulkan flavour's buffers hold the 8-bit values). */
static void element_caps(spvbc_gen_text *b, const caps *c, int storage8)
{
    static const char *const names[5] = {"Int8", "Int16", "Int64", "Float16", "Float64"};
    const int used[5] = {c->int8, c->int16, c->int64, c->float16, c->float64};
    for (int i = 0; i < 5; ++i) {
        if (used[i]) spvbc_gen_printf(b, "OpCapability %s\n", names[i]);
        if (i == 0 && used[0] && storage8)
            spvbc_gen_printf(b, "OpCapability StorageBuffer8BitAccess\n");
    }
}

static void kernel_text(spvbc_gen_text *b, const spvbc_type_desc *src, const spvbc_type_desc *dst)
{
    caps c = {0, 0, 0, 0, 0, 0};
    spvbc_gen_names d;
    memset(&d, 0, sizeof d);
    char sname[32], dname[32], sp[64], dp[64];
    add_caps(&c, src);
    add_caps(&c, dst);
    spvbc_gen_spirv_type_name(src, SPVBC_GEN_KERNEL, sname, sizeof sname);
    spvbc_gen_spirv_type_name(dst, SPVBC_GEN_KERNEL, dname, sizeof dname);
    snprintf(sp, sizeof sp, "_ptr_CrossWorkgroup_%s", sname);
    snprintf(dp, sizeof dp, "_ptr_CrossWorkgroup_%s", dname);

    spvbc_gen_printf(b, "OpCapability Addresses\nOpCapability Kernel\n");
    element_caps(b, &c, 0);
    if (c.vector16) spvbc_gen_printf(b, "OpCapability Vector16\n");
    spvbc_gen_printf(b, "OpMemoryModel Physical64 OpenCL\n"
                        "OpEntryPoint Kernel %%main \"astype\"\n"
                        "OpName %%main \"astype\"\n"
                        "OpName %%in \"in\"\nOpName %%out \"out\"\n"
                        "OpName %%x \"x\"\nOpName %%y \"y\"\n");
    spvbc_gen_printf(b, "%%void = OpTypeVoid\n");
    declare_type(b, &d, src, SPVBC_GEN_KERNEL);
    declare_type(b, &d, dst, SPVBC_GEN_KERNEL);
    spvbc_gen_printf(b, "%%%s = OpTypePointer CrossWorkgroup %%%s\n", sp, sname);
    if (strcmp(sp, dp) != 0) {
        spvbc_gen_printf(b, "%%%s = OpTypePointer CrossWorkgroup %%%s\n", dp, dname);
    }
    spvbc_gen_printf(b, "%%fn = OpTypeFunction %%void %%%s %%%s\n", sp, dp);
    spvbc_gen_printf(b,
                     "%%main = OpFunction %%void None %%fn\n"
                     "%%in = OpFunctionParameter %%%s\n"
                     "%%out = OpFunctionParameter %%%s\n"
                     "%%entry = OpLabel\n",
                     sp, dp);
    spvbc_gen_printf(b, "%%x = OpLoad %%%s %%in Aligned %zu\n", sname, spvbc_gen_opencl_size(src));
    spvbc_gen_printf(b, "%%y = OpBitcast %%%s %%x\n", dname);
    spvbc_gen_printf(b, "OpStore %%out %%y Aligned %zu\n", spvbc_gen_opencl_size(dst));
    spvbc_gen_printf(b, "OpReturn\nOpFunctionEnd\n");
}

static void vulkan_text(spvbc_gen_text *b, const spvbc_type_desc *src, const spvbc_type_desc *dst)
{
    caps c = {0, 0, 0, 0, 0, 0};
    spvbc_gen_names d;
    memset(&d, 0, sizeof d);
    char sname[32], dname[32];
    const spvbc_type_desc u32 = {SPVBC_SCALAR_INT, 32, 1, 0};
    const spvbc_type_desc v3u32 = {SPVBC_SCALAR_INT, 32, 3, 0};
    const spvbc_type_desc s32 = {SPVBC_SCALAR_INT, 32, 1, 1};
    add_caps(&c, src);
    add_caps(&c, dst);
    spvbc_gen_spirv_type_name(src, SPVBC_GEN_VULKAN, sname, sizeof sname);
    spvbc_gen_spirv_type_name(dst, SPVBC_GEN_VULKAN, dname, sizeof dname);

    spvbc_gen_printf(b, "OpCapability Shader\n");
    element_caps(b, &c, 1);
    if (c.int16 || c.float16) spvbc_gen_printf(b, "OpCapability StorageBuffer16BitAccess\n");
    spvbc_gen_printf(b,
                     "OpMemoryModel Logical GLSL450\n"
                     "OpEntryPoint GLCompute %%main \"main\" %%gid %%in_buf %%out_buf\n"
                     "OpExecutionMode %%main LocalSize 64 1 1\n"
                     "OpName %%main \"main\"\n"
                     "OpName %%in_buf \"in_buf\"\nOpName %%out_buf \"out_buf\"\n"
                     "OpName %%x \"x\"\nOpName %%y \"y\"\n"
                     "OpDecorate %%gid BuiltIn GlobalInvocationId\n"
                     "OpDecorate %%in_arr ArrayStride %zu\n"
                     "OpMemberDecorate %%in_blk 0 Offset 0\n"
                     "OpMemberDecorate %%in_blk 0 NonWritable\n"
                     "OpDecorate %%in_blk Block\n"
                     "OpDecorate %%in_buf DescriptorSet 0\n"
                     "OpDecorate %%in_buf Binding 0\n"
                     "OpDecorate %%out_arr ArrayStride %zu\n"
                     "OpMemberDecorate %%out_blk 0 Offset 0\n"
                     "OpDecorate %%out_blk Block\n"
                     "OpDecorate %%out_buf DescriptorSet 0\n"
                     "OpDecorate %%out_buf Binding 1\n",
                     spvbc_gen_vulkan_stride(src), spvbc_gen_vulkan_stride(dst));
    spvbc_gen_printf(b, "%%void = OpTypeVoid\n");
    declare_type(b, &d, &u32, SPVBC_GEN_VULKAN);
    declare_type(b, &d, &v3u32, SPVBC_GEN_VULKAN);
    declare_type(b, &d, &s32, SPVBC_GEN_VULKAN);
    declare_type(b, &d, src, SPVBC_GEN_VULKAN);
    declare_type(b, &d, dst, SPVBC_GEN_VULKAN);
    spvbc_gen_printf(b,
                     "%%int_0 = OpConstant %%int 0\n"
                     "%%_ptr_Input_v3uint = OpTypePointer Input %%v3uint\n"
                     "%%gid = OpVariable %%_ptr_Input_v3uint Input\n"
                     "%%in_arr = OpTypeRuntimeArray %%%s\n"
                     "%%in_blk = OpTypeStruct %%in_arr\n"
                     "%%_ptr_StorageBuffer_in_blk = OpTypePointer StorageBuffer %%in_blk\n"
                     "%%in_buf = OpVariable %%_ptr_StorageBuffer_in_blk StorageBuffer\n"
                     "%%out_arr = OpTypeRuntimeArray %%%s\n"
                     "%%out_blk = OpTypeStruct %%out_arr\n"
                     "%%_ptr_StorageBuffer_out_blk = OpTypePointer StorageBuffer %%out_blk\n"
                     "%%out_buf = OpVariable %%_ptr_StorageBuffer_out_blk StorageBuffer\n",
                     sname, dname);
    spvbc_gen_printf(b, "%%_ptr_StorageBuffer_%s = OpTypePointer StorageBuffer %%%s\n", sname,
                     sname);
    if (strcmp(sname, dname) != 0) {
        spvbc_gen_printf(b, "%%_ptr_StorageBuffer_%s = OpTypePointer StorageBuffer %%%s\n", dname,
                         dname);
    }
    spvbc_gen_printf(b,
                     "%%fn = OpTypeFunction %%void\n"
                     "%%main = OpFunction %%void None %%fn\n"
                     "%%entry = OpLabel\n"
                     "%%gidv = OpLoad %%v3uint %%gid\n"
                     "%%i = OpCompositeExtract %%uint %%gidv 0\n"
                     "%%in_p = OpAccessChain %%_ptr_StorageBuffer_%s %%in_buf %%int_0 %%i\n"
                     "%%x = OpLoad %%%s %%in_p\n"
                     "%%y = OpBitcast %%%s %%x\n"
                     "%%out_p = OpAccessChain %%_ptr_StorageBuffer_%s %%out_buf %%int_0 %%i\n"
                     "OpStore %%out_p %%y\n"
                     "OpReturn\nOpFunctionEnd\n",
                     sname, sname, dname, dname);
}

char *spvbc_gen_astype_text(const spvbc_type_desc *src, const spvbc_type_desc *dst,
                            spvbc_gen_flavour flavour)
{
    spvbc_gen_text b = {NULL, 0, 0, 0};
    if (!type_ok(src) || !type_ok(dst)) {
        return NULL;
    }
    if (flavour == SPVBC_GEN_KERNEL) {
        kernel_text(&b, src, dst);
    } else if (flavour == SPVBC_GEN_VULKAN) {
        if (src->count > 4 || dst->count > 4) {
            return NULL;
        }
        vulkan_text(&b, src, dst);
    } else {
        return NULL;
    }
    if (b.failed) {
        free(b.data);
        return NULL;
    }
    return b.data;
}

int spvbc_gen_target_env(spvbc_gen_flavour flavour)
{
    return flavour == SPVBC_GEN_VULKAN ? (int)SPV_ENV_VULKAN_1_2 : (int)SPV_ENV_UNIVERSAL_1_0;
}

const char *spvbc_gen_cl_missing_feature(const spvbc_type_desc *t, int fp16, int fp64, int int64)
{
    if (t->kind == SPVBC_SCALAR_FLOAT && t->width == 16 && !fp16) return "half: no cl_khr_fp16";
    if (t->kind == SPVBC_SCALAR_FLOAT && t->width == 64 && !fp64) return "double: no cl_khr_fp64";
    if (t->kind == SPVBC_SCALAR_INT && t->width == 64 && !int64) return "long: not full profile";
    return NULL;
}

int spvbc_gen_universal_env(int minor)
{
    static const spv_target_env envs[7] = {
        SPV_ENV_UNIVERSAL_1_0, SPV_ENV_UNIVERSAL_1_1, SPV_ENV_UNIVERSAL_1_2, SPV_ENV_UNIVERSAL_1_3,
        SPV_ENV_UNIVERSAL_1_4, SPV_ENV_UNIVERSAL_1_5, SPV_ENV_UNIVERSAL_1_6};
    return minor >= 0 && minor <= 6 ? (int)envs[minor] : -1;
}

/* ---- SPIRV-Tools wrappers --------------------------------------------------------------- */

int spvbc_gen_assemble(const char *text, int target_env, uint32_t **words, size_t *word_count)
{
    spv_context ctx;
    spv_binary bin = NULL;
    spv_diagnostic diag = NULL;
    spv_result_t r;
    if (!text || !words || !word_count || target_env < 0 || target_env >= (int)SPV_ENV_MAX) {
        return -1;
    }
    ctx = spvContextCreate((spv_target_env)target_env);
    if (!ctx) {
        return -1;
    }
    r = spvTextToBinary(ctx, text, strlen(text), &bin, &diag);
    if (r != SPV_SUCCESS) {
        fprintf(stderr, "spirv-as: %s (line %zu, column %zu)\n",
                diag && diag->error ? diag->error : "unknown error",
                diag ? diag->position.line + 1 : 0, diag ? diag->position.column + 1 : 0);
        spvDiagnosticDestroy(diag);
        spvBinaryDestroy(bin);
        spvContextDestroy(ctx);
        return -1;
    }
    *words = (uint32_t *)malloc(bin->wordCount * sizeof(uint32_t));
    if (!*words) {
        spvBinaryDestroy(bin);
        spvContextDestroy(ctx);
        return -1;
    }
    memcpy(*words, bin->code, bin->wordCount * sizeof(uint32_t));
    *word_count = bin->wordCount;
    spvDiagnosticDestroy(diag);
    spvBinaryDestroy(bin);
    spvContextDestroy(ctx);
    return 0;
}

int spvbc_gen_validate(const uint32_t *words, size_t word_count, int target_env, char *msg,
                       size_t msg_size)
{
    int v = spvval_check_env(words, word_count, target_env, msg, msg_size);
    return v < 0 ? -1 : v == 1 ? 0 : 1;
}

char *spvbc_gen_disassemble(const uint32_t *words, size_t word_count, int target_env)
{
    spv_context ctx;
    spv_text text = NULL;
    spv_diagnostic diag = NULL;
    char *out = NULL;
    if (!words || target_env < 0 || target_env >= (int)SPV_ENV_MAX) {
        return NULL;
    }
    ctx = spvContextCreate((spv_target_env)target_env);
    if (!ctx) {
        return NULL;
    }
    if (spvBinaryToText(ctx, words, word_count,
                        SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES |
                            SPV_BINARY_TO_TEXT_OPTION_NO_HEADER,
                        &text, &diag) == SPV_SUCCESS) {
        out = (char *)malloc(text->length + 1);
        if (out) {
            memcpy(out, text->str, text->length);
            out[text->length] = '\0';
        }
    } else {
        fprintf(stderr, "spirv-dis: %s\n", diag && diag->error ? diag->error : "unknown error");
    }
    spvDiagnosticDestroy(diag);
    spvTextDestroy(text);
    spvContextDestroy(ctx);
    return out;
}
