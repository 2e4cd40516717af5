/* Rules: the SPIR-V OpBitcast checks, the OpenCL as_type classification and the plan.  Pure
 * functions: no I/O, no allocation, no context.  The floor every other room stands on. */
#ifndef SPVBC_RULES_H_
#define SPVBC_RULES_H_

#include "base.h"
#include "module.h"

/** The outcome of the SPIR-V OpBitcast checks of docs/rules.md, sections 1 and 2. */
typedef enum spvbc__vrule {
    SPVBC__V_OK = 0,
    SPVBC__V0, /* operand is a type */
    SPVBC__V1, /* operand has no type */
    SPVBC__V2, /* result kind */
    SPVBC__V3, /* operand kind */
    SPVBC__V8, /* gate open: pointer result, bad operand */
    SPVBC__V9, /* gate open: pointer operand, bad result */
    SPVBC__V10, /* gate closed: pointer result, bad operand */
    SPVBC__V11, /* gate closed: pointer operand, bad result */
    SPVBC__V12, /* total bit width differs */
    SPVBC__V13, /* storage-only 8/16-bit type in a Shader module */
    SPVBC__VUNDEF, /* operand id not defined */
    SPVBC__VCV, /* cooperative vector cast to or from something else */
    SPVBC__VCV_DIM, /* cooperative vectors of different component counts */
    SPVBC__VCM, /* cooperative matrix cast to or from something else */
    SPVBC__VCM_SHAPE, /* cooperative matrices of different kinds, scopes, rows, columns or uses */
    /* Not a rule: a side cannot be sized (a cooperative vector whose component count is a
     * specialization constant, cast like a vector under LongVectorEXT), so no verdict; the
     * analysis turns it into a note (N-UNSIZED), never an error. */
    SPVBC__VUNSIZED,
    /* OpBitcastExtractEXT (SPV_EXT_ocp_microscaling_types), in SPIRV-Tools 2026.4's order: */
    SPVBC__VBX_RESULT, /* result not a numerical scalar or vector */
    SPVBC__VBX_BASE, /* base not a numerical scalar or vector */
    SPVBC__VBX_DIM, /* base and result of different component counts */
    SPVBC__VBX_WIDTH, /* base components not wider than the result's */
    SPVBC__VBX_OFFSET /* offset not an integer scalar */
} spvbc__vrule;

typedef struct spvbc__rule_env {
    uint32_t version;
    bool psb_gate; /* version >= 1.5 or SPV_KHR_physical_storage_buffer */
    bool shader;
    uint32_t features; /* SPVBC_FEATURE_* */
    bool long_vector; /* LongVectorEXT declared: cooperative vectors cast like vectors */
    uint32_t generation; /* SPVBC_GENERATION_* whose verdicts, resolved (never 0) */
} spvbc__rule_env;

/** The generation `g` selects (SPVBC_GENERATION_NEWEST: the newest), or 0 when `g` is below
 *  SPVBC_GENERATION_OLDEST. */
uint32_t spvbc__generation(uint32_t g);

/** Whether generation `g` (resolved) checks OpSpecConstantOp Bitcast as OpBitcast: SPIRV-Tools
 *  2026.2 and later (docs/rules.md); before, what it leaves unchecked is W-SPEC-BITCAST. */
static inline bool spvbc__spec_checked(uint32_t g)
{
    return g >= 202602u;
}

spvbc__vrule spvbc__check_bitcast(const spvbc__rule_env *env, const spvbc__type *result,
                                  const spvbc__type *operand);
/** The OpBitcastExtractEXT checks of a site with result type `result`, base type `base` (NULL:
 *  the base has no type) and offset type `offset` (NULL: not known, e.g. a result of an opcode
 *  this build does not know: never our error). */
spvbc__vrule spvbc__check_extract(const spvbc__type *result, const spvbc__type *base,
                                  const spvbc__type *offset, bool offset_known);
const char *spvbc__vrule_id(spvbc__vrule r);
/** spirv-val's sentence for `r` (without the ": Bitcast" suffix). */
const char *spvbc__vrule_text(spvbc__vrule r);
/** Total bits of an int/float scalar or vector type, 0 otherwise. */
uint32_t spvbc__type_bits(const spvbc__type *t);
/** Fills `desc` from an int/float/bool scalar or vector; false for other types. */
bool spvbc__type_desc(const spvbc__type *t, spvbc_type_desc *desc);
/** Same SPIR-V element type (kind, width and, for integers, signedness). */
bool spvbc__same_element(const spvbc_type_desc *a, const spvbc_type_desc *b);
/** OpenCL spelling, with Kernel signless integers spelled signed. */
bool spvbc__opencl_name(const spvbc_type_desc *d, bool kernel, char *buf, size_t size);

/** The SPVBC_FEATURE_* capabilities that `src` and `dst` need and `features` lacks. */
uint32_t spvbc__missing_features(const spvbc_type_desc *src, const spvbc_type_desc *dst,
                                 uint32_t features);
/** Writes the capability names of SPVBC_FEATURE_* `mask` ("Int16, Float16") into `buf`. */
void spvbc__feature_names(uint32_t mask, char *buf, size_t size);

/** spvbc_astype_plan() with explicit `features` (0 means none) and a checked `pad`. */
void spvbc__plan(const spvbc_type_desc *src, const spvbc_type_desc *dst, uint32_t features,
                 spvbc_pad_policy pad, spvbc_plan *out_plan);

/* ---- opcode facts (opcode.c), from SPIRV-Headers' SpvHasResultAndType -------------------- */

#define SPVBC__OPF_RESULT 0x01u /* has a result id */
#define SPVBC__OPF_TYPE 0x02u /* has a result type */
#define SPVBC__OPF_DECL 0x04u /* declares a type */
#define SPVBC__OPF_SPECIAL 0x08u /* the reader looks at it (capabilities, bitcasts, ...) */
#define SPVBC__OPF_LINE 0x10u /* affects the source position in force */
#define SPVBC__OPF_FOREIGN 0x20u /* an opcode this build's SPIRV-Headers do not know */
/* May set the source position (OpLine, OpExtInst): never tested by name, it keeps OpLine out of
 * the reader's exact-flag match that ends the position (branches, returns, OpNoLine). */
#define SPVBC__OPF_POSITION 0x40u
#define SPVBC__OPF_KNOWN 0x80u /* in the opcode cache: computed (0, its initial value: not yet) */
#define SPVBC__OPTAB_SIZE 65536u /* every 16-bit opcode: the reader tests no range */
/** The flags of `op`, for any opcode, without SPVBC__OPF_KNOWN (spvbc__optab caches them, with
 * it). */
uint8_t spvbc__opcode_flags(uint32_t op);

/* The process's cache of spvbc__opcode_flags() | SPVBC__OPF_KNOWN for every opcode (64 KiB of
 * zeroed static memory, whose pages only the opcodes met touch), 0 until the reader first meets
 * the opcode: shared by every context and thread, with no set-up, since each entry is filled
 * alone and always with the same value (relaxed atomics: a plain byte load in the reader's
 * loop).  Where the compiler has no C11 atomics, volatile bytes, whose loads and stores are
 * single instructions on every target such a compiler builds for. */
#if defined(__STDC_NO_ATOMICS__)
typedef volatile uint8_t spvbc__optab_entry;
#define SPVBC__OPTAB_GET(op) ((uint32_t)spvbc__optab[op])
#define SPVBC__OPTAB_SET(op, v) (spvbc__optab[op] = (uint8_t)(v))
#else
#include <stdatomic.h>
typedef atomic_uchar spvbc__optab_entry;
#define SPVBC__OPTAB_GET(op)                                                                       \
    ((uint32_t)atomic_load_explicit(&spvbc__optab[op], memory_order_relaxed))
#define SPVBC__OPTAB_SET(op, v)                                                                    \
    atomic_store_explicit(&spvbc__optab[op], (unsigned char)(v), memory_order_relaxed)
#endif
#if defined(__GNUC__)
__attribute__((visibility("hidden"))) /* so the reader's loop addresses it directly */
#endif
extern spvbc__optab_entry spvbc__optab[SPVBC__OPTAB_SIZE];

#endif /* SPVBC_RULES_H_ */
