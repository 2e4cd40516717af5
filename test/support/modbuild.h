/*
 * modbuild.h - test support: a tiny SPIR-V word-array builder for the robustness tests, the
 * fuzz seed corpus generator, the pathological-size test and the benchmark (bench/: its
 * generated inputs and the modules it builds in memory).  C11, no dependency on the library
 * under test beyond the public header's type descriptions (so the ThreadSanitizer build of the
 * threads test can link it beside its own build of the library).
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

#include <stddef.h>
#include <stdint.h>

#include <spirv/unified1/spirv.h>

#include "spirv_bitcast.h"

/* ---- raw words ----------------------------------------------------------------------- */

typedef struct mb {
    uint32_t *w;
    size_t n, cap;
} mb;

void mb_reserve(mb *b, size_t extra);

void mb_free(mb *b);

size_t mb_word(mb *b, uint32_t v);

/** Appends the 5-word header. */
void mb_header(mb *b, uint32_t version, uint32_t bound);

/** Appends an instruction of `nops` operand words; returns its word offset. */
size_t mb_opn(mb *b, uint32_t opcode, const uint32_t *ops, size_t nops);

/** Appends instruction `opcode`: the `npre` words of `pre`, the literal string `str` (if not
 *  NULL: NUL-terminated, zero-padded, low byte first), then the `npost` words of `post`;
 *  returns its word offset. */
size_t mb_inst(mb *b, uint32_t opcode, const uint32_t *pre, size_t npre, const char *str,
               const uint32_t *post, size_t npost);

size_t mb_op0(mb *b, uint32_t opcode);

/** MB(b, SpvOpX, operands...): at least one operand (use mb_op0 for none). */
#define MB(b, opcode, ...)                                                                         \
    mb_opn((b), (opcode), (const uint32_t[]){__VA_ARGS__},                                         \
           sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t))

/** Words of a literal string (NUL-terminated, zero-padded), appended to `ops` at `*n`. */
void mb_str_words(uint32_t *ops, size_t *n, const char *s);

/** OpEntryPoint `model` `fn` "name" (no interface ids). */
size_t mb_entry(mb *b, uint32_t model, uint32_t fn, const char *name);

/** OpName `id` "name". */
size_t mb_name(mb *b, uint32_t id, const char *name);

/** OpString `id` "s". */
size_t mb_string(mb *b, uint32_t id, const char *s);

/** OpExtension "name". */
size_t mb_extension(mb *b, const char *name);

void mb_append(mb *b, const mb *src);

uint32_t mb_bswap(uint32_t v);

/** Values of SPIRV-Headers 1.4.363 that Debian 12's headers (and SPIRV-Tools 2023.1) do not
 *  know, for the modules the tests build as words. */
enum {
    CAP_FLOAT8_EXT = 4212,
    CAP_BITCAST_EXTRACT_EXT = 4232,
    FP_FLOAT8_E4M3_EXT = 4214,
    FP_FLOAT8_E5M2_EXT = 4215,
    OP_BITCAST_EXTRACT_EXT = 4195,
    CAP_COOPERATIVE_VECTOR_NV = 5394,
    CAP_LONG_VECTOR_EXT = 5425,
    CAP_COOPERATIVE_MATRIX_KHR = 6022,
    CAP_UNTYPED_POINTERS_KHR = 4473,
    OP_TYPE_COOPERATIVE_VECTOR_NV = 5288,
    OP_TYPE_UNTYPED_POINTER_KHR = 4417,
    OP_TYPE_COOPERATIVE_MATRIX_KHR = 4456
};

/** Resets `b` to a Kernel module's head: the header (`version`, `bound`), Capability Kernel and
 *  Addresses, the `n_extra` capabilities `extra`, MemoryModel Physical64 OpenCL and
 *  OpEntryPoint Kernel `fn` "k" (instructions 0..3 when `n_extra` is 0, words 5..15). */
void mb_kernel_head_caps(mb *b, uint32_t version, uint32_t bound, uint32_t fn,
                         const uint32_t *extra, size_t n_extra);

/** mb_kernel_head_caps() without extra capabilities. */
void mb_kernel_head(mb *b, uint32_t version, uint32_t bound, uint32_t fn);

/** Resets `b` to a Shader module's head (SPIR-V 1.6, `bound`): Shader, the `n` capabilities
 *  `caps`, the `n_ext` extensions `ext`, Logical GLSL450, GLCompute %1 "main" of LocalSize 1 1 1,
 *  void %2 and void() %3. */
void mb_shader_head(mb *b, uint32_t bound, const uint32_t *caps, size_t n, const char *const *ext,
                    size_t n_ext);

/** Resets `b` to the head of a Shader module (SPIR-V 1.6, `bound`) of CooperativeMatrixKHR
 *  that declares no type: its capabilities, extension, Logical GLSL450 and GLCompute %1. */
void mb_coopmat_head(mb *b, uint32_t bound);

/** OpTypeVoid `void_id` and OpTypeFunction `fnty` (void()). */
void mb_void_fn_type(mb *b, uint32_t void_id, uint32_t fnty);

/** OpFunction `void_id` `fn` None `fnty`, then OpLabel `label`; returns the OpLabel's offset. */
size_t mb_fn_begin(mb *b, uint32_t void_id, uint32_t fn, uint32_t fnty, uint32_t label);

/** OpReturn, OpFunctionEnd. */
void mb_fn_end(mb *b);

/** `depth` nested types with ids `first`, `first` + 1, ...: in turn an OpTypeArray of the
 *  previous type with length id `len`, an OpTypeStruct {previous, `c8`}, an OpTypePointer
 *  `storage` to the previous type, starting from `c8`; returns the last id. */
uint32_t mb_type_chain(mb *b, uint32_t first, uint32_t depth, uint32_t c8, uint32_t len,
                       uint32_t storage);

/** Resets `b` to a Shader module (bound 15) of cooperative vectors under LongVectorEXT
 *  (SPV_NV_cooperative_vector, SPV_EXT_long_vector): uint %4, the constant 4 %5 and the
 *  specialization constant 4 %6, OpTypeCooperativeVectorNV %7 of four uints and %8 of %6
 *  uints, uint4 %9; in function %1 (label %10) the undef %11 of %7 bitcast to uint4 (%12), to
 *  uint (%13) and to %8 (%14). */
void mb_coopvec_module(mb *b);

/** A spvbc_module_write() callback that stops at the first span (returns nonzero). */
int mb_write_stop(void *user, const uint32_t *words, size_t count);

/* ---- a structured module ------------------------------------------------------------- */

#define SM_MAX_TYPES 64

typedef struct sm_typeent {
    uint32_t op; /* SpvOpTypeInt / Float / Bool / Vector / Pointer / Void */
    uint32_t a, b,
        c; /* int: width, signed; float: width; vector: comp id, count; ptr: sc, pointee */
    uint32_t id;
} sm_typeent;

typedef struct sm {
    int shader; /* 1: Shader, Logical GLSL450, GLCompute; 0: Kernel, Physical64 OpenCL */
    uint32_t version;
    uint32_t next_id;
    uint64_t caps; /* bit i: SpvCapability i for i < 64 */
    uint32_t extra_caps[8];
    size_t extra_cap_count;
    int storage_only_small; /* Shader: declare 8/16-bit types with storage capabilities only */
    int psb_ext; /* add OpExtension "SPV_KHR_physical_storage_buffer" */
    mb debug, types, body;
    sm_typeent t[SM_MAX_TYPES];
    size_t nt;
    uint32_t void_id, fnty_id, fn_id;
    int in_fn;
} sm;

void sm_cap(sm *s, uint32_t cap);

uint32_t sm_id(sm *s);

void sm_init(sm *s, int shader, uint32_t version);

uint32_t sm_find(sm *s, uint32_t op, uint32_t a, uint32_t b, uint32_t c);

/** Declares (once) the scalar or vector type `d` and the capabilities it needs. */
uint32_t sm_type(sm *s, spvbc_type_desc d);

uint32_t sm_ptr(sm *s, uint32_t storage, uint32_t pointee);

spvbc_type_desc sm_desc(spvbc_scalar_kind k, uint32_t width, uint32_t count);

/** Starts the one function (void()): declares void and the function type. */
void sm_begin(sm *s);

/** OpString "s" in the debug section; returns its id. */
uint32_t sm_string(sm *s, const char *str);

/** OpName `id` "name" in the debug section. */
void sm_name(sm *s, uint32_t id, const char *name);

/** OpLine `file` `line` `col` in the function body. */
void sm_line(sm *s, uint32_t file, uint32_t line, uint32_t col);

/** A value of type id `type` in the function (OpUndef). */
uint32_t sm_undef(sm *s, uint32_t type);

/** A global OpConstantNull of `type`. */
uint32_t sm_null(sm *s, uint32_t type);

/** OpBitcast `type` `operand` in the function; returns the result id. */
uint32_t sm_bitcast(sm *s, uint32_t type, uint32_t operand);

/** Finishes the function and writes the whole module into `out` (which it resets). */
void sm_finish(sm *s, mb *out);

/** A module with `n` OpBitcast from `src` to `dst` (each of its own OpUndef operand). */
void sm_cast_module(mb *out, int shader, uint32_t version, spvbc_type_desc src, spvbc_type_desc dst,
                    size_t n);

/** Declares the types of the `n` pairs {source, destination} in `casts` (in that order), starts
 *  the function and adds one OpBitcast per pair, each of its own OpUndef operand. */
void sm_casts(sm *s, const spvbc_type_desc (*casts)[2], size_t n);

/** OpSpecConstant `type` `value` (32-bit literal) in the types section. */
uint32_t sm_spec_const(sm *s, uint32_t type, uint32_t value);

/** OpSpecConstantComposite `type` with `n` copies of `part`. */
uint32_t sm_spec_splat(sm *s, uint32_t type, uint32_t part, uint32_t n);

/** OpSpecConstantOp `type` Bitcast `operand`. */
uint32_t sm_spec_bitcast(sm *s, uint32_t type, uint32_t operand);

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

int mb_sample_module(int which, mb *out);

#endif /* SPVBC_TEST_MODBUILD_H_ */
