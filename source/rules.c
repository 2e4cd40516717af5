/* Rules: the SPIR-V OpBitcast checks, the OpenCL as_type classes and type names, the generation
 * and pad-policy names (plan.c makes the as_type plan).  Pure functions: no I/O, no allocation.
 * Rule ids (S1..S9, V0..V13) are those of docs/rules.md, which cites the SPIR-V and OpenCL C
 * specifications for each. */
#include <stdio.h>
#include <string.h>

#include "decimal.h"
#include "rules.h"

static bool is_num_scalar(const spvbc__type *t)
{
    return t && (t->kind == SPVBC__T_INT || t->kind == SPVBC__T_FLOAT);
}

static bool is_num_vector(const spvbc__type *t)
{
    return t && t->kind == SPVBC__T_VECTOR &&
           (t->comp_kind == SPVBC__T_INT || t->comp_kind == SPVBC__T_FLOAT);
}

static bool is_int_scalar(const spvbc__type *t)
{
    return t && t->kind == SPVBC__T_INT;
}

static bool is_int32_vector(const spvbc__type *t)
{
    return t && t->kind == SPVBC__T_VECTOR && t->comp_kind == SPVBC__T_INT && t->width == 32;
}

static bool is_pointer(const spvbc__type *t)
{
    return t && t->kind == SPVBC__T_POINTER;
}

static bool is_coopmat(const spvbc__type *t)
{
    return t && (t->kind == SPVBC__T_COOPMAT_KHR || t->kind == SPVBC__T_COOPMAT_NV);
}

static bool is_coopvec(const spvbc__type *t)
{
    return t && t->kind == SPVBC__T_COOPVEC_NV;
}

/* Whether shape operand `i` of cooperative types `a` and `b` differs: only where both are
 * constants (a specialization constant gets its value later, and passes). */
static bool shape_differs(const spvbc__type *a, const spvbc__type *b, uint32_t i)
{
    return a->shape[i] != SPVBC__SHAPE_UNKNOWN && b->shape[i] != SPVBC__SHAPE_UNKNOWN &&
           a->shape[i] != b->shape[i];
}

/* The rules of cooperative types, or SPVBC__V_OK when neither side is one.
 *
 * SPV_NV_cooperative_vector adds cooperative vectors to the types OpBitcast takes; SPIRV-Tools
 * 2025.1: "Cooperative vector can only be cast to another cooperative vector" and "Expected
 * number of components to be identical".
 * SPV_KHR_cooperative_matrix (and SPV_NV_cooperative_matrix before it) add cooperative
 * matrices: "Result Type must be an OpTypePointer, cooperative matrix, or a scalar or vector of
 * numerical-type", and a cooperative matrix casts only to one of the same shape - SPIRV-Tools
 * 2025.1: "Cooperative matrix can only be cast to another cooperative matrix", then scope, rows,
 * columns (and for KHR matrices use) must be identical, and a KHR matrix never meets an NV one
 * ("Expected cooperative matrix types").
 * Component widths: neither extension asks for equal total bits (a matrix's element count is
 * the implementation's, not the module's), and SPIRV-Tools 2025.1 compares none for these types
 * (it counts their dimension as 0): a 16-bit float matrix casts to a 32-bit integer one of the
 * same shape.  So do we.  The storage-only rule (V13) still looks through their components. */
static spvbc__vrule check_cooperative(const spvbc__type *result, const spvbc__type *operand)
{
    const bool rv = is_coopvec(result), ov = is_coopvec(operand);
    const bool rm = is_coopmat(result), om = is_coopmat(operand);
    if (rv != ov) return SPVBC__VCV;
    if (rm != om) return SPVBC__VCM;
    if (rv && shape_differs(result, operand, SPVBC__SHAPE_ROWS)) return SPVBC__VCV_DIM;
    if (rm) {
        if (result->kind != operand->kind) return SPVBC__VCM_SHAPE;
        for (uint32_t i = SPVBC__SHAPE_SCOPE; i <= SPVBC__SHAPE_USE; ++i)
            if (shape_differs(result, operand, i)) return SPVBC__VCM_SHAPE;
    }
    return SPVBC__V_OK;
}

/* The total bits of cooperative vector `t` cast like a vector (LongVectorEXT), 0 when its
 * component count is a specialization constant (or not known). */
static uint32_t coopvec_bits(const spvbc__type *t)
{
    const uint32_t n = t->shape[SPVBC__SHAPE_ROWS];
    return n == SPVBC__SHAPE_UNKNOWN ? 0u : t->width * n;
}

uint32_t spvbc__type_bits(const spvbc__type *t)
{
    if (is_num_scalar(t)) return t->width;
    if (is_num_vector(t)) return t->width * t->count;
    return 0;
}

spvbc__vrule spvbc__check_bitcast(const spvbc__rule_env *env, const spvbc__type *result,
                                  const spvbc__type *operand)
{
    /* S1 "Result Type must be an OpTypePointer, or a scalar or vector of numerical-type."
     * S2 "Operand must have a type of OpTypePointer, or a scalar or vector of numerical-type."
     * (SPIR-V 3.42.11 OpBitcast; spirv-val checks result then operand: V2, V3.) */
    if (!operand) return SPVBC__V1;
    /* SPIRV-Tools before 2025.1 did not list cooperative matrices among OpBitcast's types
     * (its V2/V3); the extensions and later releases do. */
    const bool old = env->generation < SPVBC_GENERATION_2025_1;
    /* `result` is NULL when the result type id names no type the library records (V2 below). */
    if (old && result && result->kind == SPVBC__T_COOPMAT_NV) return SPVBC__V2;
    const bool rp = is_pointer(result), op = is_pointer(operand);
    /* SPV_EXT_long_vector: with LongVectorEXT "OpBitcast ... may convert between a vector and a
     * cooperative vector" - SPIRV-Tools 2026.4 then treats a cooperative vector as a vector of
     * its component count: its total bits are compared like any vector's. */
    const bool rlv = env->long_vector && is_coopvec(result);
    const bool olv = env->long_vector && is_coopvec(operand);
    const bool rc = is_coopmat(result) || (is_coopvec(result) && !rlv);
    const bool oc = is_coopmat(operand) || (is_coopvec(operand) && !olv);
    if (!rp && !rc && !rlv && !is_num_scalar(result) && !is_num_vector(result)) return SPVBC__V2;
    if ((!op && !oc && !olv && !is_num_scalar(operand) && !is_num_vector(operand)) ||
        (old && operand->kind == SPVBC__T_COOPMAT_NV))
        return SPVBC__V3;
    if (rc || oc) {
        spvbc__vrule c = check_cooperative(result, operand);
        if (c != SPVBC__V_OK) return c;
    }
    /* S3 "If either Result Type or Operand is a pointer, the other must be a pointer or an
     * integer scalar" - from 1.5 (or SPV_KHR_physical_storage_buffer) also an integer vector,
     * which spirv-val requires to have 32-bit components. */
    if (env->psb_gate) {
        if (rp && !op && !is_int_scalar(operand) && !is_int32_vector(operand)) return SPVBC__V8;
        if (op && !rp && !is_int_scalar(result) && !is_int32_vector(result)) return SPVBC__V9;
    } else {
        if (rp && !op && !is_int_scalar(operand)) return SPVBC__V10;
        if (op && !rp && !is_int_scalar(result)) return SPVBC__V11;
    }
    /* S5/S6 "the total number of bits in Result Type must equal the total number of bits in
     * Operand" (width x component count when neither is a pointer). */
    /* SPIRV-Tools 2026.4 compares cooperative vectors' total bits too, also without
     * LongVectorEXT (2025.1 compares only their counts). */
    const bool cv_bits =
        is_coopvec(result) && is_coopvec(operand) && env->generation >= SPVBC_GENERATION_2026_4;
    if (!rp && !op && (rlv || olv || cv_bits)) {
        /* A count that is a specialization constant has no size yet: never our error (two
         * such vectors pass, as spirv-val counts both as 0 bits). */
        const uint32_t rb = is_coopvec(result) ? coopvec_bits(result) : spvbc__type_bits(result);
        const uint32_t ob = is_coopvec(operand) ? coopvec_bits(operand) : spvbc__type_bits(operand);
        if (!rb != !ob) return SPVBC__VUNSIZED;
        if (rb != ob) return SPVBC__V12;
    } else if (!rp && !op && !rc && spvbc__type_bits(result) != spvbc__type_bits(operand)) {
        return SPVBC__V12;
    }
    /* S9: in Shader modules 8/16-bit types without Int8/Int16/Float16 are storage-only; the
     * check looks through vectors, arrays, structs and pointee types. */
    if (env->shader) {
        uint32_t allowed = 0;
        if (env->features & SPVBC_FEATURE_INT8) allowed |= SPVBC__SMALL_INT8;
        if (env->features & SPVBC_FEATURE_INT16) allowed |= SPVBC__SMALL_INT16;
        if (env->features & SPVBC_FEATURE_FLOAT16) allowed |= SPVBC__SMALL_FLOAT16;
        if ((result->small | operand->small) & ~allowed) return SPVBC__V13;
    }
    return SPVBC__V_OK;
}

/* OpBitcastExtractEXT (SPV_EXT_ocp_microscaling_types) takes a narrower numerical value out of
 * each component of a wider Base at a bit Offset.  The extension's text is not in the SPIR-V
 * specification this project cites; its rules here are SPIRV-Tools 2026.4's, in its order and
 * with its sentences: "Expected Result Type to be a numerical scalar or vector type", "Expected
 * Base to be a numerical scalar or vector type", "Expected Base to have the same dimension as
 * Result Type", "Expected Base component bit width to be greater than Result Type component bit
 * width", "Expected Offset to be a scalar integer type". */
spvbc__vrule spvbc__check_extract(const spvbc__type *result, const spvbc__type *base,
                                  const spvbc__type *offset, bool offset_known)
{
    if (!base) return SPVBC__V1;
    if (!is_num_scalar(result) && !is_num_vector(result)) return SPVBC__VBX_RESULT;
    if (!is_num_scalar(base) && !is_num_vector(base)) return SPVBC__VBX_BASE;
    if (result->count != base->count) return SPVBC__VBX_DIM;
    if (base->width <= result->width) return SPVBC__VBX_WIDTH;
    if (offset_known && !is_int_scalar(offset)) return SPVBC__VBX_OFFSET;
    return SPVBC__V_OK;
}

const char *spvbc__vrule_id(spvbc__vrule r)
{
    static const char *const ids[] = {"OK",
                                      "V0",
                                      "V1",
                                      "V2",
                                      "V3",
                                      "V8",
                                      "V9",
                                      "V10",
                                      "V11",
                                      "V12",
                                      "V13",
                                      "R-UNDEF",
                                      "V-COOPVEC",
                                      "V-COOPVEC-DIM",
                                      "V-COOPMAT",
                                      "V-COOPMAT-SHAPE",
                                      "N-UNSIZED",
                                      "V-EXTRACT-RESULT",
                                      "V-EXTRACT-BASE",
                                      "V-EXTRACT-DIM",
                                      "V-EXTRACT-WIDTH",
                                      "V-EXTRACT-OFFSET"};
    return (unsigned)r < sizeof ids / sizeof ids[0] ? ids[r] : "?";
}

const char *spvbc__vrule_text(spvbc__vrule r)
{
    switch (r) {
    case SPVBC__V0: return "operand cannot be a type";
    case SPVBC__V1: return "expected input to have a type";
    case SPVBC__V2:
        return "expected Result Type to be a pointer or int or float vector or "
               "scalar type";
    case SPVBC__V3: return "expected input to be a pointer or int or float vector or scalar";
    case SPVBC__V8:
        return "expected input to be a pointer, int scalar or 32-bit int vector if "
               "Result Type is pointer (SPIR-V 1.5 or SPV_KHR_physical_storage_buffer)";
    case SPVBC__V9:
        return "pointer can only be converted to another pointer, int scalar or "
               "32-bit int vector (SPIR-V 1.5 or SPV_KHR_physical_storage_buffer)";
    case SPVBC__V10:
        return "expected input to be a pointer or int scalar if Result Type is "
               "pointer (SPIR-V 1.4 or earlier)";
    case SPVBC__V11:
        return "pointer can only be converted to another pointer or int scalar "
               "(SPIR-V 1.4 or earlier)";
    case SPVBC__V12: return "expected input to have the same total bit width as Result Type";
    case SPVBC__V13:
        return "8- or 16-bit types can only be used with width-only conversions "
               "(Shader module without Int8/Int16/Float16)";
    case SPVBC__VUNDEF: return "operand id is not defined";
    case SPVBC__VCV: return "cooperative vector can only be cast to another cooperative vector";
    case SPVBC__VCV_DIM: return "expected cooperative vectors with the same number of components";
    case SPVBC__VCM: return "cooperative matrix can only be cast to another cooperative matrix";
    case SPVBC__VCM_SHAPE:
        return "expected cooperative matrices of the same kind (KHR or NV), scope, rows, columns "
               "and use";
    case SPVBC__VBX_RESULT: return "expected Result Type to be a numerical scalar or vector type";
    case SPVBC__VBX_BASE: return "expected Base to be a numerical scalar or vector type";
    case SPVBC__VBX_DIM: return "expected Base to have the same dimension as Result Type";
    case SPVBC__VBX_WIDTH:
        return "expected Base component bit width to be greater than Result Type component bit "
               "width";
    case SPVBC__VBX_OFFSET: return "expected Offset to be a scalar integer type";
    case SPVBC__VUNSIZED:
        return "no verdict: a side has no size yet (a cooperative vector whose component count "
               "is a specialization constant, cast like a vector under LongVectorEXT)";
    default: return "valid";
    }
}

bool spvbc__type_desc(const spvbc__type *t, spvbc_type_desc *d)
{
    if (!t) return false;
    uint32_t kind = t->kind == SPVBC__T_VECTOR ? t->comp_kind : t->kind;
    switch (kind) {
    case SPVBC__T_INT: d->kind = SPVBC_SCALAR_INT; break;
    case SPVBC__T_FLOAT: d->kind = SPVBC_SCALAR_FLOAT; break;
    case SPVBC__T_BOOL: d->kind = SPVBC_SCALAR_BOOL; break;
    default: return false;
    }
    d->width = t->width;
    d->count = t->kind == SPVBC__T_VECTOR ? t->count : 1;
    d->is_signed = t->is_signed != 0;
    return true;
}

void spvbc__feature_names(uint32_t mask, char *buf, size_t size)
{
    static const struct {
        uint32_t bit;
        const char *name;
    } names[] = {{SPVBC_FEATURE_FLOAT16, "Float16"}, {SPVBC_FEATURE_FLOAT64, "Float64"},
                 {SPVBC_FEATURE_INT64, "Int64"},     {SPVBC_FEATURE_INT8, "Int8"},
                 {SPVBC_FEATURE_INT16, "Int16"},     {SPVBC_FEATURE_VECTOR16, "Vector16"}};
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        if (!(mask & names[i].bit)) continue;
        int n = snprintf(buf + len, size - len, "%s%s", len ? ", " : "", names[i].name);
        if (n < 0 || (size_t)n >= size - len) break;
        len += (size_t)n;
    }
}

bool spvbc__opencl_name(const spvbc_type_desc *d, bool kernel, char *buf, size_t size)
{
    const char *base = NULL;
    bool u = !kernel && !d->is_signed;
    if (d->kind == SPVBC_SCALAR_INT) {
        switch (d->width) {
        case 8: base = u ? "uchar" : "char"; break;
        case 16: base = u ? "ushort" : "short"; break;
        case 32: base = u ? "uint" : "int"; break;
        case 64: base = u ? "ulong" : "long"; break;
        default: return false;
        }
    } else if (d->kind == SPVBC_SCALAR_FLOAT) {
        switch (d->width) {
        case 16: base = "half"; break;
        case 32: base = "float"; break;
        case 64: base = "double"; break;
        default: return false;
        }
    } else if (d->kind == SPVBC_SCALAR_BOOL && d->width == 0) {
        base = "bool";
    } else {
        return false;
    }
    if (d->count != 1 && d->count != 2 && d->count != 3 && d->count != 4 && d->count != 8 &&
        d->count != 16)
        return false;
    if (size == 0) return true;
    /* base plus at most two digits, truncated to `size` (no snprintf: this runs per finding) */
    char tmp[8 + SPVBC__DECIMAL_MAX];
    size_t n = strlen(base);
    memcpy(tmp, base, n);
    if (d->count != 1) n += spvbc__decimal(tmp + n, d->count);
    if (n > size - 1) n = size - 1;
    memcpy(buf, tmp, n);
    buf[n] = '\0';
    return true;
}

spvbc_result spvbc_type_desc_opencl_name(const spvbc_type_desc *type, char *buf, size_t size)
{
    if (!type || !buf || size == 0) return SPVBC_ERROR_INVALID_ARGUMENT;
    spvbc_type_desc d = *type;
    if (d.kind == SPVBC_SCALAR_BOOL) return SPVBC_ERROR_INVALID_ARGUMENT;
    /* Spell with the caller's signedness (not the Kernel signless convention). */
    if (!spvbc__opencl_name(&d, false, buf, size)) return SPVBC_ERROR_INVALID_ARGUMENT;
    return SPVBC_SUCCESS;
}

spvbc_result spvbc_type_desc_from_opencl(const char *name, spvbc_type_desc *out)
{
    static const struct {
        const char *name;
        spvbc_scalar_kind kind;
        uint32_t width;
        spvbc_bool is_signed;
    } bases[] = {
        {"uchar", SPVBC_SCALAR_INT, 8, 0},     {"char", SPVBC_SCALAR_INT, 8, 1},
        {"ushort", SPVBC_SCALAR_INT, 16, 0},   {"short", SPVBC_SCALAR_INT, 16, 1},
        {"uint", SPVBC_SCALAR_INT, 32, 0},     {"int", SPVBC_SCALAR_INT, 32, 1},
        {"ulong", SPVBC_SCALAR_INT, 64, 0},    {"long", SPVBC_SCALAR_INT, 64, 1},
        {"half", SPVBC_SCALAR_FLOAT, 16, 0},   {"float", SPVBC_SCALAR_FLOAT, 32, 0},
        {"double", SPVBC_SCALAR_FLOAT, 64, 0},
    };
    if (!name || !out) return SPVBC_ERROR_INVALID_ARGUMENT;
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; ++i) {
        size_t len = strlen(bases[i].name);
        if (strncmp(name, bases[i].name, len) != 0) continue;
        const char *suffix = name + len;
        uint32_t count;
        if (*suffix == '\0')
            count = 1;
        else if (!strcmp(suffix, "2"))
            count = 2;
        else if (!strcmp(suffix, "3"))
            count = 3;
        else if (!strcmp(suffix, "4"))
            count = 4;
        else if (!strcmp(suffix, "8"))
            count = 8;
        else if (!strcmp(suffix, "16"))
            count = 16;
        else
            continue;
        out->kind = bases[i].kind;
        out->width = bases[i].width;
        out->count = count;
        out->is_signed = bases[i].is_signed;
        return SPVBC_SUCCESS;
    }
    return SPVBC_ERROR_INVALID_ARGUMENT;
}

/* The generations of verdicts, oldest first, and their names. */
static const struct {
    uint32_t value;
    const char *name;
} generations[] = {{SPVBC_GENERATION_2023_1, "2023.1"},
                   {SPVBC_GENERATION_2025_1, "2025.1"},
                   {SPVBC_GENERATION_2026_4, "2026.4"}};
#define GENERATION_COUNT (sizeof generations / sizeof generations[0])

uint32_t spvbc__generation(uint32_t g)
{
    if (g == SPVBC_GENERATION_NEWEST) return generations[GENERATION_COUNT - 1].value;
    /* the newest generation not newer than `g` */
    uint32_t found = 0;
    for (size_t i = 0; i < GENERATION_COUNT; ++i)
        if (generations[i].value <= g) found = generations[i].value;
    return found;
}

spvbc_result spvbc_generation_from_string(const char *name, uint32_t *out)
{
    if (name == NULL || out == NULL) return SPVBC_ERROR_INVALID_ARGUMENT;
    if (strcmp(name, "newest") == 0) {
        *out = SPVBC_GENERATION_NEWEST;
        return SPVBC_SUCCESS;
    }
    for (size_t i = 0; i < GENERATION_COUNT; ++i) {
        if (strcmp(name, generations[i].name) == 0) {
            *out = generations[i].value;
            return SPVBC_SUCCESS;
        }
    }
    return SPVBC_ERROR_INVALID_ARGUMENT;
}

const char *spvbc_generation_string(uint32_t generation)
{
    const uint32_t g = spvbc__generation(generation);
    for (size_t i = 0; i < GENERATION_COUNT; ++i)
        if (generations[i].value == g) return generations[i].name;
    return "unknown";
}

/* Indexed by the enumerators SPVBC_PAD_UNDEF, SPVBC_PAD_ZERO, SPVBC_PAD_ERROR. */
static const char *const pad_names[] = {"undef", "zero", "error"};

const char *spvbc_pad_policy_string(spvbc_pad_policy pad)
{
    return (unsigned)pad < sizeof pad_names / sizeof pad_names[0] ? pad_names[pad] : "unknown";
}

spvbc_result spvbc_pad_policy_from_string(const char *name, spvbc_pad_policy *out)
{
    if (name == NULL || out == NULL) return SPVBC_ERROR_INVALID_ARGUMENT;
    for (unsigned i = 0; i < sizeof pad_names / sizeof pad_names[0]; ++i) {
        if (strcmp(name, pad_names[i]) == 0) {
            *out = (spvbc_pad_policy)i;
            return SPVBC_SUCCESS;
        }
    }
    return SPVBC_ERROR_INVALID_ARGUMENT;
}

const char *spvbc_astype_class_string(spvbc_astype_class cls)
{
    switch (cls) {
    case SPVBC_ASTYPE_IDENTITY: return "identity";
    case SPVBC_ASTYPE_SAME_COUNT: return "same-count";
    case SPVBC_ASTYPE_4_TO_3: return "4->3";
    case SPVBC_ASTYPE_3_TO_4: return "3->4";
    case SPVBC_ASTYPE_VEC3_SOURCE: return "vec3-source";
    case SPVBC_ASTYPE_VEC3_DEST: return "vec3-destination";
    case SPVBC_ASTYPE_COUNT_CHANGE: return "count-change";
    case SPVBC_ASTYPE_SIZE_ERROR: return "size-error";
    case SPVBC_ASTYPE_EXCLUDED: return "excluded";
    default: return "unknown";
    }
}
