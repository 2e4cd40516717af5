/*
 * spirv_bitcast.h - validate and lower OpenCL C as_type() reinterpretations in SPIR-V.
 *
 * OpenCL C lets `as_float3(float4)` reinterpret 128 bits as a 3-component vector (a
 * 3-component vector occupies the storage of 4).  SPIR-V's OpBitcast needs equal total bit
 * widths, so a producer that maps as_type 1:1 onto OpBitcast emits invalid SPIR-V for every
 * case with a 3-component side.  This library
 *   - plans as_type onto core SPIR-V (OpBitcast and OpVectorShuffle only):  spvbc_astype_plan();
 *   - validates every OpBitcast against the SPIR-V and as_type rules: spvbc_module_validate();
 *   - lowers the as_type-legal but SPIR-V-invalid ones:                       spvbc_module_lower().
 *
 * Complete usage (a driver or an offline compiler):
 *
 *     spvbc_context ctx;
 *     spvbc_module mod;
 *     if (spvbc_context_create(NULL, &ctx) != SPVBC_SUCCESS) return -1;
 *     spvbc_result r = spvbc_module_parse(ctx, words, word_count, NULL, &mod);
 *     if (r == SPVBC_SUCCESS) {
 *         spvbc_lower_summary sum = SPVBC_LOWER_SUMMARY_INIT;
 *         r = spvbc_module_lower(mod, NULL, &sum);   // SPVBC_PARTIAL: some refused (sum.refused)
 *         if (r == SPVBC_SUCCESS) {
 *             const uint32_t *out; size_t out_count;
 *             r = spvbc_module_get_words(mod, &out, &out_count); // == words if nothing changed
 *             if (r == SPVBC_SUCCESS) hand_to_driver(out, out_count);
 *         }
 *         spvbc_module_destroy(mod);
 *     }
 *     for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i) {
 *         const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
 *         fprintf(stderr, "word %zu: %s [%s]\n", d->word_offset, d->message, d->rule);
 *     }
 *     spvbc_context_destroy(ctx);
 *
 * Conventions for every declaration below:
 *   - Every call that can fail returns spvbc_result; out-parameters are written only on
 *     SPVBC_SUCCESS (and, where stated, on SPVBC_PARTIAL or SPVBC_ERROR_VALIDATION_FAILED).
 *   - A context owns its diagnostics and all memory of the modules created from it.  A context
 *     and its modules may be used by one thread at a time; distinct contexts are independent and
 *     may be used concurrently (the library's one global, a cache of opcode facts, needs no
 *     set-up and is safe to fill from any thread).
 *   - Each call on a module (parse, validate, lower) first clears the context's diagnostics, then
 *     appends its own, made before it returns (see spvbc_diagnostic_policy): reading them
 *     allocates nothing and needs neither the module nor its words.  Diagnostic pointers stay
 *     valid until the next such call or the context's destruction, also after the module is
 *     destroyed and after a later call (spvbc_module_get_words()) adds the R-MEMORY diagnostic.
 *     Every call that returns SPVBC_ERROR_OUT_OF_MEMORY leaves that diagnostic last (once per
 *     call; recording it needs no memory).
 *   - Words are in host byte order.  A module in the opposite byte order is detected by its magic
 *     number and swapped into memory owned by the module.
 *   - Growable structs: every struct the caller fills in (options, the allocator) or the library
 *     writes into the caller's memory (summaries, module info, a plan) starts with `size_t
 *     struct_size`, sizeof the struct the caller was compiled with (the SPVBC_*_INIT macros set
 *     it, and every other field to its default).  Later versions only append fields; the library
 *     reads and writes the first struct_size bytes: a field the caller's struct lacks keeps its
 *     default; one the library does not know must be zero in an input struct (else
 *     SPVBC_ERROR_UNSUPPORTED) and is left as the caller set it (zero with the INIT macros) in an
 *     output struct.  struct_size must be the struct's true size; below 0.2.0's (the first
 *     growable version) it is SPVBC_ERROR_INVALID_ARGUMENT.  spvbc_diagnostic, owned by the
 *     library and read through its pointer, grows at its end without a size; spvbc_type_desc and
 *     spvbc_plan_op are fixed (a new kind of type gets a new struct).  Each struct says which
 *     version its fields date from, and a field added later says "Since X.Y.Z": a library older
 *     than that leaves it as the caller set it in a growable struct, and spvbc_diagnostic has
 *     no such field there (check spvbc_version_number() before reading one).
 *   - Booleans are spvbc_bool (int: 0 false, 1 true when the library writes one; any non-zero
 *     value is true when the caller sets one).
 *   - Names: functions are spvbc_<object>_<verb>; an enum's values begin with a prefix of its
 *     type's name and its SPVBC_<TYPE>_MAX_ENUM carries the whole name.  Names that 0.3.0
 *     replaced are kept as macros for one release, listed under "Deprecated names" at the end:
 *     they compile to the new ones and go in 0.4.0.
 *
 * C11; compiles as C++ too.  SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPIRV_BITCAST_H_
#define SPIRV_BITCAST_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(SPVBC_STATIC)
#define SPVBC_API
#elif defined(_WIN32)
#if defined(SPVBC_BUILDING)
#define SPVBC_API __declspec(dllexport)
#else
#define SPVBC_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) && defined(SPVBC_BUILDING)
#define SPVBC_API __attribute__((visibility("default")))
#else
#define SPVBC_API
#endif

/* ---------------------------------------------------------------------------------------- */
/* Version                                                                                  */

#define SPVBC_VERSION_MAJOR 0
#define SPVBC_VERSION_MINOR 3
#define SPVBC_VERSION_PATCH 0
#define SPVBC_VERSION_NUMBER                                                                       \
    (SPVBC_VERSION_MAJOR * 10000 + SPVBC_VERSION_MINOR * 100 + SPVBC_VERSION_PATCH)
#define SPVBC_VERSION_STRING "0.3.0"

/** The library's version as SPVBC_VERSION_NUMBER computes it (the macro it was built with). */
SPVBC_API unsigned spvbc_version_number(void);
/** The library's version as "MAJOR.MINOR.PATCH"; a static string, never NULL. */
SPVBC_API const char *spvbc_version_string(void);

/* ---------------------------------------------------------------------------------------- */
/* Results                                                                                  */

/* SPVBC_SUCCESS means everything asked was done; a positive result means the call did what it
 * could and says what it could not.  Negative results are errors: no module was made, none was
 * changed and nothing was written for the caller (out-parameters are untouched unless stated),
 * and the diagnostics say why.  The one verdict among them, SPVBC_ERROR_VALIDATION_FAILED, is
 * the answer of a validation that was carried out: it writes its summary and its findings. */
typedef enum spvbc_result {
    SPVBC_SUCCESS = 0,
    /** spvbc_module_lower() rewrote what it could and refused at least one invalid bitcast (left
     *  as it was, with an error diagnostic; spvbc_lower_summary.refused counts them): the output
     *  is written and usable, but not valid SPIR-V.  Since 0.2.0. */
    SPVBC_PARTIAL = 1,
    /** A NULL handle or out-pointer, or an option out of range. */
    SPVBC_ERROR_INVALID_ARGUMENT = -1,
    /** The allocator returned NULL; nothing was leaked and inputs are untouched. */
    SPVBC_ERROR_OUT_OF_MEMORY = -2,
    /** Not a SPIR-V module: size, magic, version, header, word counts, truncation. */
    SPVBC_ERROR_INVALID_BINARY = -3,
    /** An id is 0, at or above the bound, defined twice, or used before its type is declared. */
    SPVBC_ERROR_INVALID_ID = -4,
    /** validate ran and found at least one error-severity finding (diagnostics say which);
     *  its summary is written as on success. */
    SPVBC_ERROR_VALIDATION_FAILED = -5,
    /** A valid request the library cannot carry out (e.g. an id bound above the cap), or a
     *  struct with a field set that this version does not know (see growable structs). */
    SPVBC_ERROR_UNSUPPORTED = -6,
    /** spvbc_module_write() (since 0.2.0), spvbc_module_parse() (since 0.2.2): the caller's
     *  callback returned non-zero. */
    SPVBC_ERROR_STOPPED = -7,
    SPVBC_RESULT_MAX_ENUM = 0x7fffffff
} spvbc_result;

/** A static English name for `result` ("success", "out of memory", ...); never NULL. */
SPVBC_API const char *spvbc_result_string(spvbc_result result);

/* ---------------------------------------------------------------------------------------- */
/* Allocator and context                                                                    */

/** The alignment, in bytes, that every block an allocator's `alloc` returns must have at least:
 *  the library keeps pointers, size_t and uint64_t in its blocks and needs no more (malloc's
 *  alignment is a multiple of it).  Since 0.2.0. */
#define SPVBC_ALLOCATOR_ALIGNMENT 8

/** An optional caller allocator.  `alloc(user, size)` returns at least `size` bytes (never asked
 *  for 0) aligned to SPVBC_ALLOCATOR_ALIGNMENT, or NULL (the call that needed it then returns
 *  SPVBC_ERROR_OUT_OF_MEMORY and leaks nothing).  `free(user, ptr, size)` receives a block `alloc`
 *  returned (never NULL) with the size asked for.  Both must be set; `user` is passed to each
 *  call.  No realloc: growth allocates, copies and frees.  Calls come from the thread using the
 *  context only.  Fields since 0.2.0 (the first growable version). */
typedef struct spvbc_allocator {
    size_t struct_size; /**< sizeof(spvbc_allocator) (see growable structs) */
    void *(*alloc)(void *user, size_t size);
    void (*free)(void *user, void *ptr, size_t size);
    void *user;
} spvbc_allocator;

/** An allocator made of `alloc_fn`, `free_fn` and `user`. */
#define SPVBC_ALLOCATOR_INIT(alloc_fn, free_fn, user)                                              \
    {                                                                                              \
        sizeof(spvbc_allocator), (alloc_fn), (free_fn), (user)                                     \
    }

typedef struct spvbc_context_s *spvbc_context;
typedef struct spvbc_module_s *spvbc_module;

/** Creates a context and writes its handle to `*out_context`.  `allocator` may be NULL
 *  (malloc/free); it is copied.  SPVBC_ERROR_INVALID_ARGUMENT if `out_context` is NULL or the
 *  allocator is incomplete, SPVBC_ERROR_OUT_OF_MEMORY if allocation fails. */
SPVBC_API spvbc_result spvbc_context_create(const spvbc_allocator *allocator,
                                            spvbc_context *out_context);
/** Destroys `context`, its diagnostics and every module still alive in it.  NULL is a no-op. */
SPVBC_API void spvbc_context_destroy(spvbc_context context);

/* ---------------------------------------------------------------------------------------- */
/* Diagnostics                                                                              */

/** The library's boolean, in every struct and out-parameter: 0 false, non-zero true.  Since 0.3.0
 *  (before, the same fields were int, and spvbc_type_desc.is_signed uint32_t: the same size). */
typedef int spvbc_bool;

typedef enum spvbc_severity {
    SPVBC_SEVERITY_ERROR = 0, /**< invalid SPIR-V (or invalid input) */
    SPVBC_SEVERITY_WARNING = 1, /**< a spec rule spirv-val does not check */
    SPVBC_SEVERITY_NOTE = 2, /**< as_type with an implementation-defined result */
    SPVBC_SEVERITY_MAX_ENUM = 0x7fffffff
} spvbc_severity;

#define SPVBC_NO_POSITION ((size_t)-1)

/** One finding.  Every pointer is owned by the context (see the conventions above); pointers
 *  that do not apply are NULL, numbers 0, and positions SPVBC_NO_POSITION when unknown.  Every
 *  field below is there since 0.1.1 (the first release); the library owns the struct and may
 *  append fields at its end, each marked "Since X.Y.Z" (no struct_size: a caller reads the
 *  fields its header has). */
typedef struct spvbc_diagnostic {
    spvbc_severity severity;
    /** Stable rule id: "V12", "S2", "S4", "W-LOGICAL-PTR", "R-MAGIC", ...  (docs/rules.md). */
    const char *rule;
    /** The full sentence, naming types, widths and the as_type spelling. */
    const char *message;
    /** Offset, in 32-bit words from the start of the module, of the instruction's first word. */
    size_t word_offset;
    /** 0-based index of the instruction in the module (the header is not an instruction). */
    size_t instruction_index;
    uint32_t opcode; /**< SpvOp of the instruction, 0 if none */
    uint32_t result_id; /**< its result id, 0 if none */
    const char *result_name; /**< the OpName of result_id, if any */
    const char *source_file; /**< from OpLine or DebugLine, if any */
    uint32_t source_line;
    uint32_t source_column;
    /** For bitcast findings: the SPIR-V spellings ("%v4float"-style: "vec4 of float32"). */
    const char *operand_type;
    const char *result_type;
    uint32_t operand_bits; /**< total bits of the operand type, 0 for pointers/unknown */
    uint32_t result_bits;
    /** "as_float3(float4)" when both sides are OpenCL scalar/vector types, else NULL. */
    const char *astype;
    /** 1 if spvbc_module_lower() can rewrite this instruction into valid SPIR-V, else 0. */
    spvbc_bool lowerable;
} spvbc_diagnostic;

/** The number of diagnostics held by `context` (0 for NULL). */
SPVBC_API size_t spvbc_context_diagnostic_count(spvbc_context context);
/** Diagnostic `index` of `context`, or NULL if out of range.  Allocates nothing: the call that
 *  found the diagnostics made them (a call that could not returned SPVBC_ERROR_OUT_OF_MEMORY,
 *  and its findings it had no memory to make read as the static "R-MEMORY" diagnostic). */
SPVBC_API const spvbc_diagnostic *spvbc_context_diagnostic(spvbc_context context, size_t index);
/** A static name for `severity` ("error", "warning", "note"). */
SPVBC_API const char *spvbc_severity_string(spvbc_severity severity);

/** Which findings a context keeps.  A finding is recorded as a compact record (a few dozen bytes,
 *  no text) when found; its sentence, type spellings, OpName and source line are made, for the
 *  kept findings only, when the validate or lower call that found them returns (a driver that
 *  reads none bounds that work with ..._KEEP_FIRST or ..._COUNT_ONLY).  The validate and lower
 *  summaries count exactly under every policy.  When findings were dropped, the last diagnostic
 *  of a call that succeeds is a note with rule "R-NOT-KEPT" saying how many; parse and limit
 *  errors are always kept.  The values were SPVBC_DIAGNOSTICS_* before 0.3.0. */
typedef enum spvbc_diagnostic_policy {
    SPVBC_DIAGNOSTIC_POLICY_KEEP_ALL = 0, /**< every finding (the default) */
    SPVBC_DIAGNOSTIC_POLICY_KEEP_FIRST = 1, /**< the first `limit` findings of each call */
    SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY = 2, /**< none: only the summary counts */
    SPVBC_DIAGNOSTIC_POLICY_MAX_ENUM = 0x7fffffff
} spvbc_diagnostic_policy;

/** Sets the policy of `context` for the calls that follow.  Under ..._KEEP_FIRST the findings'
 *  memory is bounded by `limit` whatever the module holds (a driver bounds the library's memory
 *  to the module's size plus a constant it chooses); the other policies ignore `limit`.
 *  SPVBC_ERROR_INVALID_ARGUMENT for a NULL context or an unknown policy.  Since 0.1.1. */
SPVBC_API spvbc_result spvbc_context_set_diagnostic_policy(spvbc_context context,
                                                           spvbc_diagnostic_policy policy,
                                                           size_t limit);

/* ---------------------------------------------------------------------------------------- */
/* Types and the as_type plan (pure functions: no allocation, no context)                   */

typedef enum spvbc_scalar_kind {
    SPVBC_SCALAR_INT = 0,
    SPVBC_SCALAR_FLOAT = 1,
    SPVBC_SCALAR_BOOL = 2,
    SPVBC_SCALAR_VOID = 3,
    SPVBC_SCALAR_KIND_MAX_ENUM = 0x7fffffff
} spvbc_scalar_kind;

/** A scalar (count 1) or vector type: `width` in bits, `is_signed` only for the spelling and for
 *  SPIR-V type identity (Kernel integers are signless: use 0 for both int and uint there).  Fixed
 *  since 0.1.1 (is_signed was uint32_t before 0.3.0: the same size). */
typedef struct spvbc_type_desc {
    spvbc_scalar_kind kind;
    uint32_t width;
    uint32_t count;
    spvbc_bool is_signed;
} spvbc_type_desc;

typedef enum spvbc_astype_class {
    SPVBC_ASTYPE_IDENTITY = 0, /**< same SPIR-V type: no instruction */
    SPVBC_ASTYPE_SAME_COUNT = 1, /**< n == m: one OpBitcast, exact */
    SPVBC_ASTYPE_4_TO_3 = 2, /**< n == 4, m == 3: exact on lanes 0..2 */
    SPVBC_ASTYPE_3_TO_4 = 3, /**< n == 3, m == 4: implementation-defined */
    SPVBC_ASTYPE_VEC3_SOURCE = 4, /**< n == 3, m not 3 or 4 */
    SPVBC_ASTYPE_VEC3_DEST = 5, /**< m == 3, n not 3 or 4 */
    SPVBC_ASTYPE_COUNT_CHANGE = 6, /**< n != m, neither 3: one OpBitcast */
    SPVBC_ASTYPE_SIZE_ERROR = 7, /**< byte sizes differ */
    SPVBC_ASTYPE_EXCLUDED = 8, /**< bool, void, or a type the module's capabilities lack */
    SPVBC_ASTYPE_CLASS_MAX_ENUM = 0x7fffffff
} spvbc_astype_class;

/** A static name: "identity", "same-count", "4->3", "3->4", "vec3-source", ... */
SPVBC_API const char *spvbc_astype_class_string(spvbc_astype_class cls);

/** Bits of spvbc_plan_options.features (what the target has, for spvbc_astype_plan()) and of
 *  spvbc_module_info.features (what a parsed module's capabilities grant, SPVBC_FEATURE_SHADER
 *  for a Shader module).  spvbc_lower_options.classes takes the SPVBC_LOWER_* bits instead. */
#define SPVBC_FEATURE_FLOAT16 0x1u /**< half arithmetic (capability Float16) */
#define SPVBC_FEATURE_FLOAT64 0x2u /**< double (capability Float64) */
#define SPVBC_FEATURE_INT64 0x4u /**< 64-bit integers (capability Int64) */
#define SPVBC_FEATURE_INT8 0x8u /**< 8-bit integer arithmetic (capability Int8) */
#define SPVBC_FEATURE_INT16 0x10u /**< 16-bit integer arithmetic (capability Int16) */
#define SPVBC_FEATURE_VECTOR16 0x20u /**< 8- and 16-component vectors (capability Vector16) */
#define SPVBC_FEATURE_SHADER                                                                       \
    0x40u /**< a Shader module: 8/16-bit types are storage-only                                    \
               unless INT8/INT16/FLOAT16 is also set */
#define SPVBC_FEATURE_ALL_KERNEL 0x3fu /**< everything an OpenCL full-profile device has */

typedef enum spvbc_pad_policy {
    SPVBC_PAD_UNDEF = 0, /**< lane 3 from literal 0xFFFFFFFF (what clang emits) */
    SPVBC_PAD_ZERO = 1, /**< lane 3 from a null vector operand */
    SPVBC_PAD_ERROR = 2, /**< refuse as_type that must pad a 3-component source */
    SPVBC_PAD_POLICY_MAX_ENUM = 0x7fffffff
} spvbc_pad_policy;

/** A static name: "undef", "zero" or "error"; "unknown" for any other value. */
SPVBC_API const char *spvbc_pad_policy_string(spvbc_pad_policy pad);

/** The policy named `name` ("undef", "zero" or "error", as spvbc_pad_policy_string() spells it)
 *  in `*out`.  SPVBC_ERROR_INVALID_ARGUMENT, `*out` untouched, for NULL or any other name.
 *  The CLI's `--pad`, `opt`'s `--lower-astype=` and the layers' SPVBC_LAYER_PAD all read it. */
SPVBC_API spvbc_result spvbc_pad_policy_from_string(const char *name, spvbc_pad_policy *out);

/** Fields since 0.2.0 (the first growable version). */
typedef struct spvbc_plan_options {
    size_t struct_size; /**< sizeof(spvbc_plan_options) (see growable structs) */
    uint32_t features; /**< SPVBC_FEATURE_* bits; 0 means SPVBC_FEATURE_ALL_KERNEL */
    spvbc_pad_policy pad;
} spvbc_plan_options;

/** The defaults: all Kernel features, SPVBC_PAD_UNDEF. */
#define SPVBC_PLAN_OPTIONS_INIT                                                                    \
    {                                                                                              \
        sizeof(spvbc_plan_options), 0u, SPVBC_PAD_UNDEF                                            \
    }

typedef enum spvbc_plan_op_kind {
    SPVBC_PLAN_OP_BITCAST = 0, /**< OpBitcast result_type operand */
    SPVBC_PLAN_OP_SHUFFLE = 1, /**< OpVectorShuffle result_type operand second lanes... */
    SPVBC_PLAN_OP_KIND_MAX_ENUM = 0x7fffffff
} spvbc_plan_op_kind;

/** Where a shuffle's second vector operand comes from. */
typedef enum spvbc_plan_second {
    SPVBC_PLAN_SECOND_SAME = 0, /**< the first operand again */
    SPVBC_PLAN_SECOND_NULL = 1, /**< OpConstantNull of the first operand's type */
    SPVBC_PLAN_SECOND_MAX_ENUM = 0x7fffffff
} spvbc_plan_second;

#define SPVBC_LANE_UNDEF 0xFFFFFFFFu

/** One instruction of a plan.  Its operand is the as_type source for op 0 and the previous
 *  op's result for every later op.  Fields an op does not use are 0: a bitcast's second,
 *  lane_count and lanes, a shuffle's lanes past lane_count, and every field of the ops past
 *  spvbc_plan.op_count. */
typedef struct spvbc_plan_op {
    spvbc_plan_op_kind kind;
    spvbc_type_desc result_type;
    spvbc_plan_second second; /**< shuffles only */
    uint32_t lane_count; /**< shuffles only: equals result_type.count */
    uint32_t lanes[4]; /**< shuffles only; SPVBC_LANE_UNDEF = undefined */
} spvbc_plan_op;

/** Why a plan was refused (the values were SPVBC_REFUSE_* before 0.3.0). */
typedef enum spvbc_plan_refusal {
    SPVBC_PLAN_REFUSAL_NONE = 0,
    SPVBC_PLAN_REFUSAL_SIZE = 1, /**< byte sizes differ */
    SPVBC_PLAN_REFUSAL_BOOL_OR_VOID = 2, /**< as_type excludes bool and void */
    SPVBC_PLAN_REFUSAL_MISSING_FEATURE = 3, /**< half/double/long/8,16-component or storage-only */
    SPVBC_PLAN_REFUSAL_PAD_POLICY = 4, /**< padding needed under SPVBC_PAD_ERROR */
    SPVBC_PLAN_REFUSAL_BAD_TYPE = 5, /**< width/count not an OpenCL type */
    SPVBC_PLAN_REFUSAL_MAX_ENUM = 0x7fffffff
} spvbc_plan_refusal;

/** Fields since 0.2.0 (the first growable version). */
typedef struct spvbc_plan {
    size_t struct_size; /**< set by the caller: sizeof(spvbc_plan) (see growable structs) */
    spvbc_astype_class cls;
    /** 1 if OpenCL defines the result (identity, same-count, 4->3), else 0. */
    spvbc_bool defined_by_opencl;
    /** Bit i set: lane i of the result is fixed (by OpenCL or by SPIR-V's S6 mapping);
     *  lane 3 of a padded 3->4 result is clear under SPVBC_PAD_UNDEF. */
    uint32_t exact_lanes;
    /** 1 if a single direct OpBitcast would already be valid SPIR-V, else 0. */
    spvbc_bool direct_bitcast_valid;
    spvbc_plan_refusal refusal; /**< SPVBC_PLAN_REFUSAL_NONE when op_count ops implement it */
    uint32_t op_count; /**< 0 (identity or refused) to 3 */
    spvbc_plan_op ops[3];
} spvbc_plan;

/** A plan to be written by spvbc_astype_plan(). */
#define SPVBC_PLAN_INIT                                                                            \
    {                                                                                              \
        sizeof(spvbc_plan), SPVBC_ASTYPE_IDENTITY, 0, 0u, 0, SPVBC_PLAN_REFUSAL_NONE, 0u,          \
        {                                                                                          \
            {                                                                                      \
                SPVBC_PLAN_OP_BITCAST, {SPVBC_SCALAR_INT, 0u, 0u, 0u}, SPVBC_PLAN_SECOND_SAME, 0u, \
                {                                                                                  \
                    0u, 0u, 0u, 0u                                                                 \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }

/**
 * Plans `as_<dst>(<src> x)` onto core SPIR-V.  This is how a front end emits as_type without
 * ever producing invalid SPIR-V: emit plan->ops in order (declaring each result type if the
 * module lacks it), feeding each op the previous result, and use the last result (or `x`
 * itself when op_count is 0 and the class is identity).  `options` may be NULL (all Kernel
 * features, SPVBC_PAD_UNDEF).  Returns SPVBC_SUCCESS with refusal == SPVBC_PLAN_REFUSAL_NONE when
 * the plan is usable, SPVBC_SUCCESS with a refusal reason and op_count 0 when as_type is an error,
 * SPVBC_ERROR_INVALID_ARGUMENT for NULL pointers.  Thread-safe; allocates nothing.
 */
SPVBC_API spvbc_result spvbc_astype_plan(const spvbc_type_desc *src, const spvbc_type_desc *dst,
                                         const spvbc_plan_options *options, spvbc_plan *out_plan);

/** Parses an OpenCL C type name ("float4", "uchar3", "half", "ulong16") into `out`; anything
 *  else is SPVBC_ERROR_INVALID_ARGUMENT.  `is_signed` is 1 for char/short/int/long. */
SPVBC_API spvbc_result spvbc_type_desc_from_opencl(const char *name, spvbc_type_desc *out);

/** Writes the OpenCL spelling of `type` ("float4", "uchar3") into `buf` (NUL-terminated,
 *  truncated to `size`).  SPVBC_ERROR_INVALID_ARGUMENT if it has no OpenCL spelling. */
SPVBC_API spvbc_result spvbc_type_desc_opencl_name(const spvbc_type_desc *type, char *buf,
                                                   size_t size);

/* ---------------------------------------------------------------------------------------- */
/* Modules                                                                                  */

#define SPVBC_DEFAULT_MAX_ID_BOUND 4194303u

/** Fields since 0.2.0 (the first growable version) unless marked. */
typedef struct spvbc_parse_options {
    size_t struct_size; /**< sizeof(spvbc_parse_options) (see growable structs) */
    /** Largest id bound accepted; 0 means SPVBC_DEFAULT_MAX_ID_BOUND.  The module allocates
     *  4 bytes per id of the bound, so this caps memory use. */
    uint32_t max_id_bound;
    /** Non-zero: copy the words into module memory, so the caller may free them at once.
     *  Zero (default): the module reads the caller's words, which must outlive it. */
    spvbc_bool copy_words;
    /** When not NULL, called from the parse's walk over the instructions each time it has read
     *  SPVBC_PARSE_PROGRESS_WORDS more words (or up to an instruction's more), and once when the
     *  walk ends, with the offset of the first word it has not read yet (always an
     *  instruction's first word; at the end `word_count`), so that a caller can show progress,
     *  cancel, or let go of the pages of a large input the walk has passed (the words stay the
     *  module's to read: validate, lower and the diagnostics read some of them again, so they
     *  must still read the same, as from a file mapping whose pages come back).  Non-zero stops
     *  the parse: SPVBC_ERROR_STOPPED, no module and no diagnostic.  Not called when the header
     *  is invalid.  Since 0.2.2. */
    int (*progress)(void *user, size_t words_read);
    void *progress_user; /**< passed to `progress`.  Since 0.2.2. */
} spvbc_parse_options;

/** How many words the parse's walk reads between two calls of spvbc_parse_options.progress
 *  (4 MiB). */
#define SPVBC_PARSE_PROGRESS_WORDS ((size_t)1 << 20)

/** The defaults: SPVBC_DEFAULT_MAX_ID_BOUND, words not copied, no progress callback. */
#define SPVBC_PARSE_OPTIONS_INIT                                                                   \
    {                                                                                              \
        sizeof(spvbc_parse_options), 0u, 0, NULL, NULL                                             \
    }

/**
 * Parses `word_count` words at `words` (the caller keeps ownership; see copy_words) in one
 * linear pass: header, instruction bounds, ids, types, capabilities, bitcast sites.  `options`
 * may be NULL.  On success writes `*out_module`.  Failures: SPVBC_ERROR_INVALID_ARGUMENT (NULL),
 * SPVBC_ERROR_INVALID_BINARY, SPVBC_ERROR_INVALID_ID, SPVBC_ERROR_UNSUPPORTED (bound above the
 * cap), SPVBC_ERROR_OUT_OF_MEMORY; each with one error diagnostic giving the word offset.
 * SPVBC_ERROR_STOPPED (no diagnostic) when options->progress returned non-zero.
 */
SPVBC_API spvbc_result spvbc_module_parse(spvbc_context context, const uint32_t *words,
                                          size_t word_count, const spvbc_parse_options *options,
                                          spvbc_module *out_module);

/** As spvbc_module_parse(), from `size` bytes at `bytes` (any alignment; misaligned input is
 *  copied).  A size that is not a multiple of 4 is SPVBC_ERROR_INVALID_BINARY. */
SPVBC_API spvbc_result spvbc_module_parse_bytes(spvbc_context context, const void *bytes,
                                                size_t size, const spvbc_parse_options *options,
                                                spvbc_module *out_module);

/** Destroys `module` and its memory.  NULL is a no-op.  Reads none of the words it was parsed
 *  from (the caller may have freed them already) and allocates nothing; the diagnostics of its
 *  findings stay readable (they were made when the calls returned). */
SPVBC_API void spvbc_module_destroy(spvbc_module module);

/** Facts read by the parser.  Fields since 0.2.0 (the first growable version). */
typedef struct spvbc_module_info {
    size_t struct_size; /**< set by the caller: sizeof(spvbc_module_info) */
    uint32_t version; /**< header word 1, e.g. 0x00010500 */
    uint32_t generator;
    uint32_t id_bound;
    size_t instruction_count;
    size_t bitcast_count; /**< OpBitcast in functions plus OpSpecConstantOp Bitcast */
    spvbc_bool is_kernel; /**< declares Kernel */
    spvbc_bool is_shader; /**< declares Shader */
    uint32_t features; /**< SPVBC_FEATURE_* the capabilities grant (and SHADER for Shader) */
    spvbc_bool byte_swapped; /**< the input was in the opposite byte order */
} spvbc_module_info;

#define SPVBC_MODULE_INFO_INIT                                                                     \
    {                                                                                              \
        sizeof(spvbc_module_info), 0u, 0u, 0u, 0, 0, 0, 0, 0u, 0                                   \
    }

/** Writes the facts the parse read about `module` into `*out_info`, whose struct_size the caller
 *  set (SPVBC_MODULE_INFO_INIT).  Reads no word, allocates nothing and records no diagnostic.
 *  SPVBC_ERROR_INVALID_ARGUMENT (`*out_info` untouched) for a NULL module or `out_info`, or a
 *  struct_size below 0.2.0's. */
SPVBC_API spvbc_result spvbc_module_get_info(spvbc_module module, spvbc_module_info *out_info);

/* ---------------------------------------------------------------------------------------- */
/* Validation                                                                               */

#define SPVBC_VALIDATE_NOTES 0x1u /**< also report implementation-defined as_type */
/** Rules that SPIRV-Tools releases newer than 2025.1 check and 2023.1 and 2025.1 do not are
 *  errors, not warnings, also in the generations that give them as warnings: W-LOGICAL-PTR
 *  (before 2025.5) and W-SPEC-BITCAST (before 2026.2; docs/rules.md).  The newest generation,
 *  the default, gives both as errors without it. */
#define SPVBC_VALIDATE_STRICT 0x2u
#define SPVBC_VALIDATE_WARNINGS_AS_ERRORS 0x4u

/** Generations of verdicts: the SPIRV-Tools release (year and month, YYYYMM) whose verdicts a
 *  pass gives, for spvbc_validate_options.generation and spvbc_lower_options.generation; any
 *  value from SPVBC_GENERATION_OLDEST selects the rules of the newest generation not newer than
 *  it (docs/rules.md has the table of which rule changed when).  Since 0.3.0. */
#define SPVBC_GENERATION_NEWEST 0u /**< the default: the newest this library knows (2026.4) */
#define SPVBC_GENERATION_2023_1 202301u /**< SPIRV-Tools 2023.1 (Debian 12) */
#define SPVBC_GENERATION_2025_1 202501u /**< SPIRV-Tools 2025.1 (Debian 13) */
#define SPVBC_GENERATION_2026_4 202604u /**< SPIRV-Tools 2026.4 (Debian unstable, late 2026) */
#define SPVBC_GENERATION_OLDEST SPVBC_GENERATION_2023_1

/** The generation named `name` ("2023.1", "2025.1", "2026.4" or "newest"), into `*out`.
 *  SPVBC_ERROR_INVALID_ARGUMENT for NULL or any other name (`*out` untouched).  Since 0.3.0. */
SPVBC_API spvbc_result spvbc_generation_from_string(const char *name, uint32_t *out);

/** The name of generation `generation` as spvbc_generation_from_string() reads it ("2025.1"):
 *  that of the generation whose rules it selects; "unknown" below SPVBC_GENERATION_OLDEST.
 *  Static storage.  Since 0.3.0. */
SPVBC_API const char *spvbc_generation_string(uint32_t generation);

/** Fields since 0.2.0 (the first growable version) unless marked. */
typedef struct spvbc_validate_options {
    size_t struct_size; /**< sizeof(spvbc_validate_options) (see growable structs) */
    uint32_t flags; /**< SPVBC_VALIDATE_* */
    /** SPVBC_GENERATION_*: whose verdicts (0: the newest).  In generations before 2025.5,
     *  W-LOGICAL-PTR is a warning, before 2026.2 W-SPEC-BITCAST is (SPVBC_VALIDATE_STRICT makes
     *  both errors); below SPVBC_GENERATION_OLDEST: SPVBC_ERROR_INVALID_ARGUMENT.  Since 0.3.0. */
    uint32_t generation;
} spvbc_validate_options;

/** The defaults: no flags, the newest generation. */
#define SPVBC_VALIDATE_OPTIONS_INIT                                                                \
    {                                                                                              \
        sizeof(spvbc_validate_options), 0u, SPVBC_GENERATION_NEWEST                                \
    }

/** Fields since 0.2.0 (the first growable version). */
typedef struct spvbc_validate_summary {
    size_t struct_size; /**< set by the caller: sizeof(spvbc_validate_summary) */
    size_t bitcasts_checked;
    size_t errors;
    size_t warnings;
    size_t notes;
    size_t lowerable; /**< errors that spvbc_module_lower() can fix */
} spvbc_validate_summary;

#define SPVBC_VALIDATE_SUMMARY_INIT                                                                \
    {                                                                                              \
        sizeof(spvbc_validate_summary), 0, 0, 0, 0, 0                                              \
    }

/**
 * Checks every OpBitcast in function bodies and every OpSpecConstantOp Bitcast, collecting all
 * findings.  `options` may be NULL.  Returns SPVBC_SUCCESS when no error was found and
 * SPVBC_ERROR_VALIDATION_FAILED otherwise; `*out_summary` (may be NULL) is written in both
 * cases.  The verdict on each OpBitcast agrees with spirv-val of the generation selected
 * (SPIRV-Tools 2026.4 by default; 2025.1 and 2023.1 on request).
 */
SPVBC_API spvbc_result spvbc_module_validate(spvbc_module module,
                                             const spvbc_validate_options *options,
                                             spvbc_validate_summary *out_summary);

/* ---------------------------------------------------------------------------------------- */
/* Lowering                                                                                 */

/** Bits of spvbc_lower_options.classes: which as_type classes to rewrite. */
#define SPVBC_LOWER_4_TO_3 (1u << SPVBC_ASTYPE_4_TO_3)
#define SPVBC_LOWER_3_TO_4 (1u << SPVBC_ASTYPE_3_TO_4)
#define SPVBC_LOWER_VEC3_SOURCE (1u << SPVBC_ASTYPE_VEC3_SOURCE)
#define SPVBC_LOWER_VEC3_DEST (1u << SPVBC_ASTYPE_VEC3_DEST)
#define SPVBC_LOWER_ALL                                                                            \
    (SPVBC_LOWER_4_TO_3 | SPVBC_LOWER_3_TO_4 | SPVBC_LOWER_VEC3_SOURCE | SPVBC_LOWER_VEC3_DEST)

/** Fields since 0.2.0 (the first growable version) unless marked. */
typedef struct spvbc_lower_options {
    size_t struct_size; /**< sizeof(spvbc_lower_options) (see growable structs) */
    spvbc_pad_policy pad;
    uint32_t classes; /**< SPVBC_LOWER_* bits; 0 means SPVBC_LOWER_ALL */
    /** SPVBC_GENERATION_*: whose verdicts (0: the newest).  Before 2026.2 a Kernel
     *  OpSpecConstantOp Bitcast that breaks an OpBitcast rule and cannot be lowered is left alone
     *  with the warning W-SPEC-BITCAST; from 2026.2 it is refused.  Since 0.3.0. */
    uint32_t generation;
} spvbc_lower_options;

/** The defaults: SPVBC_PAD_UNDEF, all classes, the newest generation. */
#define SPVBC_LOWER_OPTIONS_INIT                                                                   \
    {                                                                                              \
        sizeof(spvbc_lower_options), SPVBC_PAD_UNDEF, 0u, SPVBC_GENERATION_NEWEST                  \
    }

/** Fields since 0.2.0 (the first growable version). */
typedef struct spvbc_lower_summary {
    size_t struct_size; /**< set by the caller: sizeof(spvbc_lower_summary) */
    size_t bitcasts_checked;
    size_t rewritten; /**< instructions replaced by a plan */
    size_t refused; /**< invalid bitcasts left alone (each has an error diagnostic) */
    size_t skipped; /**< lowerable bitcasts of classes not selected (a warning each) */
    size_t types_added; /**< new OpTypeVector declarations */
    size_t constants_added; /**< new OpConstantNull (pad zero) */
    uint32_t new_id_bound;
} spvbc_lower_summary;

#define SPVBC_LOWER_SUMMARY_INIT                                                                   \
    {                                                                                              \
        sizeof(spvbc_lower_summary), 0, 0, 0, 0, 0, 0, 0u                                          \
    }

/**
 * Rewrites, in one linear pass, every bitcast whose as_type pair is legal but whose direct
 * OpBitcast is invalid SPIR-V, following spvbc_astype_plan().  The rewritten instruction keeps
 * its result id; intermediate values and types get ids from the bound, which is raised.  Adds
 * no capability and no extension.  Instructions that cannot be fixed are left alone with an
 * error diagnostic (counted in `refused`).  The result is available from
 * spvbc_module_get_words() / spvbc_module_write(); validate and lower keep analysing the parsed
 * input, so lowering twice gives the same output.  `options` may be NULL (pad undef, all
 * classes, the newest generation).  Returns SPVBC_SUCCESS when every invalid bitcast of a
 * selected class was rewritten, SPVBC_PARTIAL when at least one was refused (the output holds
 * every rewrite that was possible), SPVBC_ERROR_OUT_OF_MEMORY, SPVBC_ERROR_INVALID_ARGUMENT, or
 * SPVBC_ERROR_UNSUPPORTED when the new ids would raise the id bound above the cap the module
 * was parsed with (max_id_bound): then nothing is lowered, so the output always parses again
 * with the same options.  `*out_summary` (may be NULL) is written on SPVBC_SUCCESS and
 * SPVBC_PARTIAL.
 */
SPVBC_API spvbc_result spvbc_module_lower(spvbc_module module, const spvbc_lower_options *options,
                                          spvbc_lower_summary *out_summary);

/** Whether lowering could change the module of `size` bytes at `bytes`, told without a parse or
 *  a diagnostic (for a driver, before it pays for a parse): `*out_maybe` = 0 when no OpBitcast /
 *  OpSpecConstantOp Bitcast has a 3-component vector as result type or operand type (every pair
 *  as_type allows and OpBitcast does not has one), so the module has nothing lowerable and
 *  spvbc_module_lower() rewrites nothing; 1 when one may have, and whenever the scan cannot tell
 *  (misaligned, byte-swapped, bound 0 or above SPVBC_DEFAULT_MAX_ID_BOUND, more than 8 such
 *  vector types).  No allocation up to id bound 32,768; above, bound / 4 bytes from `context`'s
 *  allocator, or none and the answer 1 when `context` is NULL or that memory cannot be had.
 *  Returns SPVBC_SUCCESS, or SPVBC_ERROR_INVALID_ARGUMENT (`*out_maybe` untouched) when
 *  `out_maybe` is NULL or `bytes` is NULL with a non-zero `size`; records no diagnostic.  Since
 *  0.2.1, named spvbc_bytes_may_lower before 0.3.0. */
SPVBC_API spvbc_result spvbc_bytes_scan_lowerable(spvbc_context context, const void *bytes,
                                                  size_t size, spvbc_bool *out_maybe);

/** The module's current words: the input itself if nothing was rewritten (same pointer when
 *  parsed without copy_words), otherwise the lowered module, materialised on first request and
 *  owned by the module until it is destroyed or lowered again.  SPVBC_ERROR_UNSUPPORTED (out-
 *  parameters untouched) if the lowering's edits are out of order or outside the input: a bug
 *  of the library that no input is known to reach, refused rather than written past the
 *  output. */
SPVBC_API spvbc_result spvbc_module_get_words(spvbc_module module, const uint32_t **out_words,
                                              size_t *out_word_count);

/** Receives a span of output words; returns non-zero to stop the write. */
typedef int (*spvbc_write_fn)(void *user, const uint32_t *words, size_t word_count);

/** Streams the module's current words to `fn` as spans (unchanged runs of the input, then new
 *  instructions) without materialising them.  SPVBC_ERROR_STOPPED if `fn` stopped the write (at
 *  the span it returned non-zero for: no later span is passed); SPVBC_ERROR_UNSUPPORTED, before
 *  any span, for edits out of order or outside the input (as spvbc_module_get_words()). */
SPVBC_API spvbc_result spvbc_module_write(spvbc_module module, spvbc_write_fn fn, void *user);

/* ---------------------------------------------------------------------------------------- */
/* Deprecated names                                                                         */

/* The names of 0.2, kept for one release so that code written for it compiles unchanged: each is
 * the new name under the old one (the same value, the same function).  Deprecated in 0.3.0,
 * removed in 0.4.0.  spvbc_bytes_may_lower is a macro, not an exported function: 0.3.0 has a new
 * SONAME, so no binary linked against 0.2 loads it, and source built against this header calls
 * spvbc_bytes_scan_lowerable.  Define SPVBC_NO_DEPRECATED_NAMES to leave them out (the
 * library, its tool and its tests build so). */
#ifndef SPVBC_NO_DEPRECATED_NAMES
#define spvbc_bytes_may_lower spvbc_bytes_scan_lowerable
#define SPVBC_REFUSE_NONE SPVBC_PLAN_REFUSAL_NONE
#define SPVBC_REFUSE_SIZE SPVBC_PLAN_REFUSAL_SIZE
#define SPVBC_REFUSE_BOOL_OR_VOID SPVBC_PLAN_REFUSAL_BOOL_OR_VOID
#define SPVBC_REFUSE_MISSING_FEATURE SPVBC_PLAN_REFUSAL_MISSING_FEATURE
#define SPVBC_REFUSE_PAD_POLICY SPVBC_PLAN_REFUSAL_PAD_POLICY
#define SPVBC_REFUSE_BAD_TYPE SPVBC_PLAN_REFUSAL_BAD_TYPE
#define SPVBC_REFUSE_MAX_ENUM SPVBC_PLAN_REFUSAL_MAX_ENUM
#define SPVBC_DIAGNOSTICS_KEEP_ALL SPVBC_DIAGNOSTIC_POLICY_KEEP_ALL
#define SPVBC_DIAGNOSTICS_KEEP_FIRST SPVBC_DIAGNOSTIC_POLICY_KEEP_FIRST
#define SPVBC_DIAGNOSTICS_COUNT_ONLY SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY
#define SPVBC_DIAGNOSTICS_POLICY_MAX_ENUM SPVBC_DIAGNOSTIC_POLICY_MAX_ENUM
#define SPVBC_SCALAR_MAX_ENUM SPVBC_SCALAR_KIND_MAX_ENUM
#define SPVBC_PAD_MAX_ENUM SPVBC_PAD_POLICY_MAX_ENUM
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SPIRV_BITCAST_H_ */
