/* Internal declarations shared by the library's modules.  Not installed. */
#ifndef SPVBC_INTERNAL_H_
#define SPVBC_INTERNAL_H_

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spirv_bitcast.h"

#ifndef SPV_ENABLE_UTILITY_CODE
#define SPV_ENABLE_UTILITY_CODE
#endif
/* spirv.h defines SpvHasResultAndType() as a C99 inline function and opcode.c emits its one
 * external definition: give it our prefix so the static library never clashes with another
 * user of SPIRV-Headers. */
#define SpvHasResultAndType spvbc__SpvHasResultAndType
#include <spirv/unified1/spirv.h>

#if defined(__GNUC__)
#define SPVBC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SPVBC_PRINTF(a, b)
#endif

/* ---- opcode facts (context.c), from SPIRV-Headers' SpvHasResultAndType ------------------ */

#define SPVBC__OPF_RESULT 0x01u /* has a result id */
#define SPVBC__OPF_TYPE 0x02u /* has a result type */
#define SPVBC__OPF_DECL 0x04u /* declares a type */
#define SPVBC__OPF_SPECIAL 0x08u /* the reader looks at it (capabilities, bitcasts, ...) */
#define SPVBC__OPF_LINE 0x10u /* affects the source position in force */
#define SPVBC__OPF_UNKNOWN 0xFFu /* table entry not computed yet */
#define SPVBC__OPTAB_SIZE 8192u
/** The flags of `op`, for any opcode (the context caches those below SPVBC__OPTAB_SIZE). */
uint8_t spvbc__opcode_flags(uint32_t op);
/** The context's cache of spvbc__opcode_flags() for opcodes below SPVBC__OPTAB_SIZE; entries
 *  are SPVBC__OPF_UNKNOWN until the reader first meets the opcode. */
uint8_t *spvbc__context_optab(spvbc_context ctx);

/* ---- memory (context.c) ---------------------------------------------------------------- */

void *spvbc__alloc(spvbc_context ctx, size_t size);
void spvbc__free(spvbc_context ctx, void *ptr, size_t size);
/** Grows `*array` (of `*cap` elements of `elem` bytes) to hold at least `need` elements, by
 *  doubling; returns false on overflow or allocation failure, leaving the array as it was. */
bool spvbc__grow(spvbc_context ctx, void **array, size_t *cap, size_t elem, size_t need);

/* Large per-module tables the context keeps for reuse by the next parse. */
enum { SPVBC__SPARE_IDS, SPVBC__SPARE_SITES, SPVBC__SPARE_OUT, SPVBC__SPARE_KINDS };
/** Takes the context's spare block of `kind` if it has at least `min_bytes` (its size in
 *  `*bytes`), else NULL. */
void *spvbc__take_spare(spvbc_context ctx, int kind, size_t min_bytes, size_t *bytes);
/** Gives a block of `bytes` back: the context keeps the larger of it and its spare. */
void spvbc__give_spare(spvbc_context ctx, int kind, void *ptr, size_t bytes);

/* ---- diagnostics (context.c) ----------------------------------------------------------- */

void spvbc__diag_clear(spvbc_context ctx);
/** Diagnostic `index` of `ctx` (mutable, for the name and source-line pass), or NULL. */
spvbc_diagnostic *spvbc__diag_at(spvbc_context ctx, size_t index);
size_t spvbc__diag_count(spvbc_context ctx);
/** Adds `m` to / removes it from the context's list of live modules. */
void spvbc__module_link(spvbc_context ctx, struct spvbc_module_s *m);
void spvbc__module_unlink(spvbc_context ctx, struct spvbc_module_s *m);
/** Copies `len` bytes of `s` into the context's string arena; NULL on allocation failure. */
const char *spvbc__strndup(spvbc_context ctx, const char *s, size_t len);
const char *spvbc__sprintf(spvbc_context ctx, const char *fmt, ...) SPVBC_PRINTF(2, 3);
/** Appends a diagnostic (copied; its strings must already live in the arena or be static).
 *  Returns the stored copy, or NULL on allocation failure. */
spvbc_diagnostic *spvbc__diag_add(spvbc_context ctx, const spvbc_diagnostic *d);
/** A diagnostic with only a position, a rule and a formatted message (parse errors). */
spvbc_diagnostic *spvbc__diag_simple(spvbc_context ctx, spvbc_severity sev, const char *rule,
                                     size_t word_offset, size_t instruction_index, uint32_t opcode,
                                     const char *fmt, ...) SPVBC_PRINTF(7, 8);
/** Extra per-diagnostic data kept for the name and source-line resolution pass. */
typedef struct spvbc__diag_pending {
    size_t diag_index;
    uint32_t line_offset; /* word offset of the OpLine / DebugLine in force, 0 if none */
} spvbc__diag_pending;

/* ---- module ---------------------------------------------------------------------------- */

enum {
    SPVBC__T_OTHER = 0,
    SPVBC__T_VOID,
    SPVBC__T_BOOL,
    SPVBC__T_INT,
    SPVBC__T_FLOAT,
    SPVBC__T_VECTOR,
    SPVBC__T_POINTER
};

/* Storage-only ("limited use") scalar contents, for rule S9 / check V13. */
#define SPVBC__SMALL_INT8 0x1u
#define SPVBC__SMALL_INT16 0x2u
#define SPVBC__SMALL_FLOAT16 0x4u

typedef struct spvbc__type {
    uint32_t id;
    uint32_t kind; /* SPVBC__T_* */
    uint32_t width; /* int/float width; for vectors the component width */
    uint32_t count; /* vector component count; 1 for scalars */
    uint32_t is_signed; /* int signedness; for vectors that of the component */
    uint32_t comp_kind; /* for vectors: SPVBC__T_INT/FLOAT/BOOL of the component */
    uint32_t elem; /* vector component type id / pointer pointee type id */
    uint32_t storage; /* pointer storage class */
    uint32_t small; /* SPVBC__SMALL_* contained, through vectors/arrays/structs/pointees */
    uint32_t decl_offset; /* word offset of the declaration */
    uint32_t decl_words; /* its word count */
    uint32_t vec4_id; /* scalars: an existing OpTypeVector of 4 of this type, else 0 */
    uint32_t null_id; /* an existing OpConstantNull of this type, else 0 */
    uint32_t null_offset; /* its word offset */
    uint32_t forward; /* pointer declared through OpTypeForwardPointer */
} spvbc__type;

/* Encoding of the per-id table. */
#define SPVBC__ID_UNDEF 0u
#define SPVBC__ID_NOTYPE 0xFFFFFFFFu /* defined, has no result type */
#define SPVBC__ID_FORWARD 0xFFFFFFFEu /* named by OpTypeForwardPointer, not yet declared */
#define SPVBC__ID_TYPE_BIT 0x80000000u /* a type: low bits index module->types */
#define SPVBC__MAX_BOUND_CAP 0x7FFFFFF0u

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
    uint16_t spec; /* 1 for OpSpecConstantOp Bitcast */
} spvbc__site;

/* One edit of the output: at word `offset` of the input, drop `remove` words and emit
 * `count` words from the module's edit word buffer starting at `first`. */
typedef struct spvbc__edit {
    uint32_t offset;
    uint32_t remove;
    size_t first;
    size_t count;
} spvbc__edit;

struct spvbc_module_s {
    spvbc_context ctx;
    struct spvbc_module_s *prev, *next; /* the context's list of live modules */

    const uint32_t *words;
    size_t word_count;
    uint32_t *owned; /* copy (copy_words, swapped or misaligned input), else NULL */
    size_t owned_count;

    uint32_t version, generator, bound;
    uint32_t max_bound; /* the parse cap; the lowering keeps its output bound within it */
    bool refs_above_bound; /* a bitcast operand names an id >= bound: new ids would alias it */
    size_t instruction_count;
    uint32_t *ids; /* `bound` entries, SPVBC__ID_* encoding */
    size_t ids_bytes; /* its allocation (a reused spare may be larger) */
    spvbc__type *types;
    size_t type_count, type_cap;
    spvbc__site *sites;
    size_t site_count, site_cap;

    uint32_t caps_features; /* SPVBC_FEATURE_* granted by capabilities */
    bool is_kernel, is_shader, has_psb_ext, byte_swapped;
    uint32_t addressing; /* SpvAddressingModel, or ~0u if no OpMemoryModel */
    uint32_t debuginfo_set; /* id of OpExtInstImport "NonSemantic.Shader.DebugInfo.100" */
    uint32_t functions_offset; /* first OpFunction, or word_count */

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
    if (e == SPVBC__ID_NOTYPE || e == SPVBC__ID_FORWARD || !(e & SPVBC__ID_TYPE_BIT)) return NULL;
    return &m->types[e & ~SPVBC__ID_TYPE_BIT];
}

/* ---- rules (rules.c): pure functions ---------------------------------------------------- */

/** The outcome of the SPIR-V OpBitcast checks of bitcast-rules.md section 1. */
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
    SPVBC__VUNDEF /* operand id not defined */
} spvbc__vrule;

typedef struct spvbc__rule_env {
    uint32_t version;
    bool psb_gate; /* version >= 1.5 or SPV_KHR_physical_storage_buffer */
    bool shader;
    uint32_t features; /* SPVBC_FEATURE_* */
} spvbc__rule_env;

spvbc__vrule spvbc__check_bitcast(const spvbc__rule_env *env, const spvbc__type *result,
                                  const spvbc__type *operand);
const char *spvbc__vrule_id(spvbc__vrule r);
/** spirv-val's sentence for `r` (without the ": Bitcast" suffix). */
const char *spvbc__vrule_text(spvbc__vrule r);
/** Total bits of an int/float scalar or vector type, 0 otherwise. */
uint32_t spvbc__type_bits(const spvbc__type *t);
/** Fills `desc` from an int/float/bool scalar or vector; false for other types. */
bool spvbc__type_desc(const spvbc__type *t, spvbc_type_desc *desc);
/** Writes the SPIR-V spelling of type `t` ("OpTypeVector 4 x OpTypeFloat 32") into `buf`. */
void spvbc__type_spelling(const struct spvbc_module_s *m, const spvbc__type *t, char *buf,
                          size_t size);
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

/* ---- analysis shared by validate and lower (validate.c) --------------------------------- */

typedef struct spvbc__site_info {
    uint32_t opcode; /* SpvOpBitcast or SpvOpSpecConstantOp */
    bool spec;
    uint32_t result_type_id, result_id, operand_id;
    const spvbc__type *rtype, *otype; /* NULL when not a type */
    spvbc__vrule vrule;
    bool spec_needs_kernel; /* OpSpecConstantOp Bitcast outside Kernel */
    bool operand_later; /* the operand is defined after the site (invalid order) */
    bool has_astype; /* both sides int/float scalar or vector */
    spvbc_type_desc src, dst;
    spvbc_plan plan; /* valid when has_astype */
} spvbc__site_info;

/** Why `info`'s plan was refused, naming missing capabilities, into `buf`. */
void spvbc__refusal_text(const struct spvbc_module_s *m, const spvbc__site_info *info, char *buf,
                         size_t size);

/** Applies the rules to `site`; the as_type plan (with `pad`) is computed for invalid sites,
 *  and for valid ones too when `want_plan`. */
void spvbc__analyze_site(const struct spvbc_module_s *m, const spvbc__site *site,
                         spvbc_pad_policy pad, bool want_plan, spvbc__site_info *out);
/** Adds a diagnostic about a site.  With `details`, `text` is followed by both types, their
 *  bits and the as_type classification; without, `text` is a printf format whose one %s is
 *  the as_type spelling. */
bool spvbc__report_site(struct spvbc_module_s *m, const spvbc__site *site,
                        const spvbc__site_info *info, spvbc_severity sev, const char *rule,
                        const char *text, bool lowerable, bool details,
                        spvbc__diag_pending **pending, size_t *pending_count, size_t *pending_cap);
/** Fills result names and source positions of the pending diagnostics (one pass over the
 *  module's preamble).  Frees `pending`. */
bool spvbc__resolve_pending(struct spvbc_module_s *m, spvbc__diag_pending *pending,
                            size_t pending_count, size_t pending_cap);

/** Whether lower can rewrite the site at `site_offset` described by `info`. */
bool spvbc__site_lowerable(const struct spvbc_module_s *m, const spvbc__site_info *info,
                           uint32_t site_offset);
/** Same SPIR-V element type (kind, width and, for integers, signedness). */
bool spvbc__same_element(const spvbc_type_desc *a, const spvbc_type_desc *b);
/** The scalar type a plan intermediate `d` is built from: the source's or destination's. */
const spvbc__type *spvbc__plan_component(const struct spvbc_module_s *m,
                                         const spvbc__site_info *info, const spvbc_type_desc *d);

spvbc_result spvbc__oom(spvbc_context ctx);

#endif /* SPVBC_INTERNAL_H_ */
