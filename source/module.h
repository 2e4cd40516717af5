/* The module's data: the id table, the type records, the bitcast sites and the lowering's edit
 * list, as the reader builds them and every room above reads them.  Data and inline accessors
 * only: each function that changes these lives in the room named in its comment.  Not
 * installed. */
#ifndef SPVBC_MODULE_H_
#define SPVBC_MODULE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spirv_bitcast.h"

enum {
    SPVBC__T_OTHER = 0,
    SPVBC__T_VOID,
    SPVBC__T_BOOL,
    SPVBC__T_INT,
    SPVBC__T_FLOAT,
    SPVBC__T_VECTOR,
    SPVBC__T_POINTER, /* OpTypePointer, and OpTypeUntypedPointerKHR (`untyped`) */
    SPVBC__T_COOPMAT_KHR, /* OpTypeCooperativeMatrixKHR */
    SPVBC__T_COOPMAT_NV, /* OpTypeCooperativeMatrixNV */
    SPVBC__T_COOPVEC_NV /* OpTypeCooperativeVectorNV */
};

/* The shape operands of a cooperative type, indices of spvbc__type.shape: scope, rows, columns
 * and use of a matrix (NV matrices have no use: SPVBC__SHAPE_UNKNOWN); a cooperative vector's
 * component count is SPVBC__SHAPE_ROWS. */
enum { SPVBC__SHAPE_SCOPE, SPVBC__SHAPE_ROWS, SPVBC__SHAPE_COLS, SPVBC__SHAPE_USE };

/* Storage-only ("limited use") scalar contents, for rule S9 / check V13. */
#define SPVBC__SMALL_INT8 0x1u
#define SPVBC__SMALL_INT16 0x2u
#define SPVBC__SMALL_FLOAT16 0x4u

typedef struct spvbc__type {
    uint32_t id;
    uint32_t kind; /* SPVBC__T_* */
    uint32_t width; /* int/float width; for vectors and cooperative types the component width */
    uint32_t count; /* vector component count; 1 for scalars */
    uint32_t is_signed; /* int signedness; for vectors that of the component */
    uint32_t comp_kind; /* for vectors and cooperative types: SPVBC__T_INT/FLOAT/BOOL */
    uint32_t elem; /* vector / cooperative component type id / pointer pointee type id */
    uint32_t small; /* SPVBC__SMALL_* contained, through vectors/arrays/structs/pointees */
    uint32_t decl_offset; /* word offset of the declaration */
    uint32_t decl_words; /* its word count */
    union {
        struct {
            uint32_t storage; /* pointer storage class */
            uint32_t vec4_id; /* scalars: an existing OpTypeVector of 4 of this type, else 0 */
        };
        /* Cooperative types (which have neither): their shape by SPVBC__SHAPE_*, each the value
         * of an OpConstant (at most SPVBC__SHAPE_MAX), or SPVBC__SHAPE_UNKNOWN. */
        uint16_t shape[4];
    };
    uint32_t null_id; /* an existing OpConstantNull of this type, else 0 */
    uint32_t null_offset; /* its word offset */
    uint8_t forward; /* pointer declared through OpTypeForwardPointer */
    uint8_t untyped; /* OpTypeUntypedPointerKHR: a pointer with no pointee */
    uint16_t foreign_op; /* built on a result of an opcode this build does not know, else 0 */
    /* OpTypeFloat's Floating Point Encoding operand (SPV_KHR_bfloat16, SPV_EXT_float8,
     * SPV_EXT_ocp_microscaling_types), for floats and what is built of them (vectors,
     * cooperative types): `encoded` 1 and the SpvFPEncoding value (every one named so far is
     * below 0x10000; a larger one is kept as 0xFFFF), else 0 and 0.  Two bytes, so that the
     * record stays 64 bytes. */
    uint8_t encoded;
    uint16_t encoding;
} spvbc__type;

#define SPVBC__SHAPE_UNKNOWN 0xFFFFu /* a specialization constant's (or not yet resolved) */
#define SPVBC__SHAPE_MAX 0xFFFEu /* larger values are kept as this one (never a false error) */

/* Encoding of the per-id table. */
#define SPVBC__ID_UNDEF 0u
#define SPVBC__ID_NOTYPE 0xFFFFFFFFu /* defined, has no result type */
#define SPVBC__ID_FORWARD 0xFFFFFFFEu /* named by OpTypeForwardPointer, not yet declared */
#define SPVBC__ID_TYPE_BIT 0x80000000u /* a type: low bits index module->types */
/* The result of an instruction whose opcode this build does not know (a newer extension's):
 * SPVBC__ID_FOREIGN | opcode.  Reaches neither a type index (below SPVBC__MAX_TYPES) nor the
 * two marks above. */
#define SPVBC__ID_FOREIGN 0xFFFE0000u
#define SPVBC__MAX_TYPES 0x7FFE0000u
#define SPVBC__MAX_BOUND_CAP 0x7FFFFFF0u

/* The kinds of site (spvbc__site.spec). */
#define SPVBC__SITE_BITCAST 0u
#define SPVBC__SITE_SPEC 1u /* OpSpecConstantOp Bitcast */
#define SPVBC__SITE_EXTRACT 2u /* OpBitcastExtractEXT (SPV_EXT_ocp_microscaling_types) */
/* OpBitcastExtractEXT's opcode, by number (newer than Debian 13's SPIRV-Headers). */
#define SPVBC__OP_BITCAST_EXTRACT_EXT 4195u

/* A bitcast site, with what validate and lower need so they never re-read the module's words
 * (a cache miss per site on large modules). */
typedef struct spvbc__site {
    uint32_t offset; /* word offset of the OpBitcast / OpSpecConstantOp */
    uint32_t line_offset; /* OpLine / DebugLine in force, 0 if none */
    uint32_t index; /* instruction index */
    uint32_t result_type_id; /* the instruction's operands */
    uint32_t result_id;
    uint32_t operand_id;
    uint32_t operand_entry; /* ids[operand_id] when the site was read (0: look again) */
    uint16_t word_count; /* the instruction's word count (bitcasts are short) */
    uint16_t spec; /* SPVBC__SITE_*: 1 for OpSpecConstantOp Bitcast, 2 for OpBitcastExtractEXT */
} spvbc__site;

/* One edit of the output (made by lower.c, read by writer.c and report.c): at word `offset`
 * of the input, drop `remove` words and emit `count` words from the module's edit word buffer
 * starting at `first`. */
typedef struct spvbc__edit {
    uint32_t offset;
    uint32_t remove;
    size_t first;
    size_t count;
} spvbc__edit;

/* An entry of the context's list of live modules: the context destroys what is left in it
 * through `release`, without knowing what a module is. */
typedef struct spvbc__live {
    struct spvbc__live *prev, *next;
    void (*release)(struct spvbc__live *self);
} spvbc__live;

struct spvbc_module_s {
    spvbc__live live; /* first member: the context's list of live modules */
    spvbc_context ctx;

    const uint32_t *words;
    size_t word_count;
    uint32_t *owned; /* copy (copy_words, swapped or misaligned input), else NULL */
    size_t owned_count;

    uint32_t version, generator, bound;
    uint32_t max_bound; /* the parse cap; the lowering keeps its output bound within it */
    bool refs_above_bound; /* a bitcast operand (or what an unknown opcode's words may be read
                            * as) names an id >= bound: new ids would alias it */
    size_t instruction_count;
    uint32_t *ids; /* `bound` entries, SPVBC__ID_* encoding */
    size_t ids_bytes; /* its allocation (a reused spare may be larger) */
    spvbc__type *types;
    size_t type_count, type_cap;
    spvbc__site *sites;
    size_t site_count, site_cap;

    uint32_t caps_features; /* SPVBC_FEATURE_* granted by capabilities */
    bool is_kernel, is_shader, has_psb_ext, byte_swapped;
    bool long_vector; /* declares LongVectorEXT (SPV_EXT_long_vector): vectors of any count */
    uint32_t addressing; /* SpvAddressingModel, or ~0u if no OpMemoryModel */
    uint32_t debuginfo_set; /* id of OpExtInstImport "NonSemantic.Shader.DebugInfo.100" */
    uint32_t functions_offset; /* first OpFunction, or word_count */
    /* The generation of verdicts (SPVBC_GENERATION_*, resolved) of the pass running, or of the
     * last one: validate and lower set it, the analysis and the report read it. */
    uint32_t generation;

    /* lowering output */
    spvbc__edit *edits;
    size_t edit_count, edit_cap;
    uint32_t *edit_words;
    size_t edit_word_count, edit_word_cap;
    uint32_t out_bound;
    bool changed;
    uint32_t *out; /* materialised output, or NULL */
    size_t out_count;
    size_t out_bytes; /* its allocation (a reused spare may be larger) */
};

/** Type record of `id`, or NULL if `id` is not a declared type. */
static inline const spvbc__type *spvbc__type_of_id(const struct spvbc_module_s *m, uint32_t id)
{
    if (id >= m->bound) return NULL;
    uint32_t e = m->ids[id];
    /* SPVBC__ID_FOREIGN, SPVBC__ID_FORWARD and SPVBC__ID_NOTYPE are all at or above FOREIGN */
    if (!(e & SPVBC__ID_TYPE_BIT) || e >= SPVBC__ID_FOREIGN) return NULL;
    return &m->types[e & ~SPVBC__ID_TYPE_BIT];
}

/** The opcode of the unknown instruction that id table entry `e` records, or 0. */
static inline uint32_t spvbc__foreign_op_of(uint32_t e)
{
    /* OpNop (0) is known, so 0 never names a foreign opcode */
    return e >= SPVBC__ID_FOREIGN && e < SPVBC__ID_FORWARD ? e & 0xFFFFu : 0;
}

/* A memo of the type pairs (result type, operand type) at which a pass found nothing to say,
 * for one pass over one module's sites: a module repeats a few pairs at many sites, and what
 * validate or lower make of a site that is no OpSpecConstantOp depends on the two type records,
 * the module and the pass's options only.  Zero it before the pass. */
#define SPVBC__PAIR_SLOTS 64u
typedef struct spvbc__pair_memo {
    uint64_t key[SPVBC__PAIR_SLOTS];
} spvbc__pair_memo;

/** The memo key of `site`: its two types' id table entries, or 0 when the memo cannot answer
 *  for it (a spec constant, an operand defined later, a side that is no declared type). */
static inline uint64_t spvbc__pair_key(const struct spvbc_module_s *m, const spvbc__site *site)
{
    const uint32_t rt = site->result_type_id, ov = site->operand_entry;
    /* the operand's entry: the id of its type, which the reader checked to be below the bound */
    if (site->spec || rt >= m->bound || ov - 1u >= SPVBC__ID_TYPE_BIT - 1u || ov >= m->bound)
        return 0;
    const uint32_t re = m->ids[rt], oe = m->ids[ov];
    const uint32_t lo = SPVBC__ID_TYPE_BIT, span = SPVBC__ID_FOREIGN - SPVBC__ID_TYPE_BIT;
    if (re - lo >= span || oe - lo >= span) return 0;
    return (uint64_t)re << 32 | oe;
}

/** A hash of a pair key: take its top bits. */
static inline uint32_t spvbc__pair_hash(uint64_t key)
{
    return (uint32_t)(key >> 32) * 0x9E3779B1u ^ (uint32_t)key * 0x85EBCA77u;
}

static inline uint64_t *spvbc__pair_slot(spvbc__pair_memo *memo, uint64_t key)
{
    return &memo->key[spvbc__pair_hash(key) >> 26]; /* the top 6 bits: SPVBC__PAIR_SLOTS */
}

#endif /* SPVBC_MODULE_H_ */
