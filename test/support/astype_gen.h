/*
 * astype_gen.h - test support: SPIR-V of a *naive* OpenCL as_type kernel.
 *
 * A naive front end maps `as_<dst>(<src> x)` 1:1 onto `%y = OpBitcast %dst %x`, which is invalid
 * SPIR-V whenever a 3-component side makes the total bit widths differ.  This library writes the
 * SPIR-V assembly of such a kernel for any pair of OpenCL scalar/vector types, in two flavours,
 * and wraps SPIRV-Tools' C API (assemble, validate, disassemble) for the tests.
 *
 * Ids every generated module has (the tests rely on them; they survive assembly as OpNames):
 *   %x       the loaded as_type operand (OpLoad of the source type)
 *   %y       the naive `OpBitcast %dst %x` (OpName "y": after lowering it names the final value)
 *   %main    the entry point function
 * Type ids are spelled as spirv-dis' friendly names spell them ("%float", "%v4uint", "%v3half",
 * "%uchar", "%char" for signed 8-bit, ...), so generated text and disassembly look alike.
 *
 * KERNEL flavour (target env SPV_ENV_UNIVERSAL_1_0, header version 1.0):
 *   OpCapability Addresses, Kernel, and Int8/Int16/Int64/Float16/Float64/Vector16 for the
 *   element types and counts used; OpMemoryModel Physical64 OpenCL;
 *   OpEntryPoint Kernel %main "astype" with parameters
 *     %in  : OpTypePointer CrossWorkgroup <src>,  %out : OpTypePointer CrossWorkgroup <dst>;
 *   body: %x = OpLoad <src> %in Aligned A;  %y = OpBitcast <dst> %x;  OpStore %out %y Aligned A.
 *   Integers are signless (OpTypeInt N 0): int/uint, char/uchar ... share one SPIR-V type, so
 *   as_uint(int) gives an OpBitcast whose operand already has the result type (identity class).
 *
 * VULKAN flavour (target env SPV_ENV_VULKAN_1_2, header version SPIR-V 1.5):
 *   OpCapability Shader; Int8/Int16/Int64/Float16/Float64 for the element types used (the
 *   arithmetic capabilities, so OpBitcast and OpVectorShuffle of them are allowed), plus
 *   StorageBuffer8BitAccess (8-bit ints) and StorageBuffer16BitAccess (16-bit ints or half);
 *   no extensions are needed at SPIR-V 1.5.  OpMemoryModel Logical GLSL450;
 *   OpEntryPoint GLCompute %main "main" %gid %in_buf %out_buf; LocalSize 64 1 1.
 *   Buffers (std430, descriptor set 0):
 *     binding 0: StorageBuffer block { <src> data[]; }  (member 0 NonWritable = readonly)
 *     binding 1: StorageBuffer block { <dst> data[]; }
 *   each runtime array has ArrayStride = spvbc_gen_vulkan_stride(type) bytes:
 *     scalar: w/8;  2 lanes: 2*w/8;  3 lanes: 4*w/8 (a vec3 occupies 4 lanes, its 4th lane
 *     is never read or written);  4 lanes: 4*w/8   (w = element width in bits).
 *   Invocation i = gl_GlobalInvocationID.x computes out.data[i] = bitcast(in.data[i]); the
 *   runner must dispatch ceil(n/64) groups over buffers of at least 64*ceil(n/64) elements.
 *   Signed ints use OpTypeInt N 1 (char/short/int/long), the u- types OpTypeInt N 0.
 *   Counts 8 and 16 do not exist in Vulkan (no Vector16): the generator returns NULL.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_TEST_ASTYPE_GEN_H_
#define SPVBC_TEST_ASTYPE_GEN_H_

#include <stddef.h>
#include <stdint.h>

#include "spirv_bitcast.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { SPVBC_GEN_KERNEL = 0, SPVBC_GEN_VULKAN = 1 } spvbc_gen_flavour;

#define SPVBC_GEN_OPENCL_TYPE_COUNT 66

/** A malloc'd NUL-terminated spvasm text of the naive kernel for as_<dst>(<src>), or NULL if the
 *  pair cannot be expressed in `flavour` (bool/void, bad width/count, 8/16 lanes in Vulkan) or
 *  on allocation failure.  The pair need not be as_type-legal (size errors are generated too). */
char *spvbc_gen_astype_text(const spvbc_type_desc *src, const spvbc_type_desc *dst,
                            spvbc_gen_flavour flavour);

/** Why an OpenCL device with these features (each 0 or 1: cl_khr_fp16, cl_khr_fp64, the full
 *  profile's 64-bit integers) cannot run type `t`, e.g. "half: no cl_khr_fp16"; NULL when it can.
 */
const char *spvbc_gen_cl_missing_feature(const spvbc_type_desc *t, int fp16, int fp64, int int64);

/** The spv_target_env (as an int) to assemble and validate `flavour` with. */
int spvbc_gen_target_env(spvbc_gen_flavour flavour);

/** The spv_target_env (as an int) SPV_ENV_UNIVERSAL_1_<minor> for `minor` 0..6, -1 otherwise.
 *  (Only one C translation unit of a program may include <spirv-tools/libspirv.h>: in C it
 *  defines a const object with external linkage.  Tests use these helpers instead.) */
int spvbc_gen_universal_env(int minor);

/** The byte stride of one buffer element of `type` in the Vulkan flavour (a vec3 occupies 4
 *  lanes); 0 if the type cannot appear in a Vulkan-flavour module. */
size_t spvbc_gen_vulkan_stride(const spvbc_type_desc *type);

/** Assembles `text` for `target_env`; returns 0 and a malloc'd word array (free() it) on
 *  success, non-zero on failure after printing SPIRV-Tools' message to stderr. */
int spvbc_gen_assemble(const char *text, int target_env, uint32_t **words, size_t *word_count);

/** Validates `words` with SPIRV-Tools' validator for `target_env`; returns 0 if valid.  If `msg`
 *  and `msg_size` are given, copies the diagnostic there (empty string when valid). */
int spvbc_gen_validate(const uint32_t *words, size_t word_count, int target_env, char *msg,
                       size_t msg_size);

/** Disassembles `words` into a malloc'd string (friendly names, no header); NULL on failure. */
char *spvbc_gen_disassemble(const uint32_t *words, size_t word_count, int target_env);

/** Writes the 66 OpenCL types into `out` in a fixed order: base types char uchar short ushort
 *  half int uint float long ulong double (outer loop) x counts 1 2 3 4 8 16 (inner loop), with
 *  is_signed 1 for char/short/int/long.  Returns 66. */
size_t spvbc_gen_opencl_types(spvbc_type_desc *out);

/** The OpenCL spelling of `type` ("float4", "uchar3") into `buf`; "?" if it has none. */
void spvbc_gen_type_name(const spvbc_type_desc *type, char *buf, size_t size);

/** The spirv-dis friendly name of `type` in `flavour` ("v4float", "uint", "v3char") into `buf`,
 *  without the '%'; Kernel integers are always unsigned (signless) names. */
void spvbc_gen_spirv_type_name(const spvbc_type_desc *type, spvbc_gen_flavour flavour, char *buf,
                               size_t size);

/** Total storage bytes of `type` under the OpenCL rule (vec3 occupies 4 lanes). */
size_t spvbc_gen_opencl_size(const spvbc_type_desc *type);

/* ---- generating SPIR-V assembly text (shared with test/diff and test/matrix) --------------- */

/** A growable NUL-terminated text.  Zero-initialise it; printing stops and sets `failed` on
 *  allocation or format failure; spvbc_gen_text_free() releases it. */
typedef struct spvbc_gen_text {
    char *data;
    size_t len;
    size_t cap;
    int failed;
} spvbc_gen_text;

#if defined(__MINGW32__) /* built with __USE_MINGW_ANSI_STDIO=1: C99 printf */
__attribute__((format(gnu_printf, 2, 3)))
#elif defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
/** Appends printf(`fmt`, ...) to `text`. */
void spvbc_gen_printf(spvbc_gen_text *text, const char *fmt, ...);

/** The text so far ("" when nothing was printed). */
const char *spvbc_gen_text_str(const spvbc_gen_text *text);

/** Frees `text` and zeroes it. */
void spvbc_gen_text_free(spvbc_gen_text *text);

/** A set of up to 64 names of up to 63 characters (the ids a generator has declared). */
typedef struct spvbc_gen_names {
    char names[64][64];
    size_t count;
} spvbc_gen_names;

/** Whether `name` is in `set`. */
int spvbc_gen_names_has(const spvbc_gen_names *set, const char *name);

/** Adds `name` to `set` (silently ignored when the set is full). */
void spvbc_gen_names_add(spvbc_gen_names *set, const char *name);

/* ---- the library's verdict on a module ------------------------------------------------------ */

/** What spvbc_module_parse() and spvbc_module_validate() (default options) say about a module. */
typedef struct spvbc_gen_verdict {
    spvbc_result parse; /* SPVBC_ERROR_OUT_OF_MEMORY when no context could be made */
    spvbc_result verdict; /* validate's result; SPVBC_ERROR_OUT_OF_MEMORY if it did not run */
    spvbc_validate_summary summary;
    size_t error_count; /* error diagnostics */
    size_t lowerable_count; /* errors the library says spvbc_module_lower() can fix */
    char first_rule[32]; /* rule id of the first error ("" when none) */
    char rules[256]; /* rule ids of the errors, blank-separated */
    char errors[512]; /* "[rule] message" of each error, "; "-separated (parse failure:
                         the parse diagnostic) */
} spvbc_gen_verdict;

/** The generation (SPVBC_GENERATION_*) whose verdicts spvbc_gen_library_verdict() asks for:
 *  0, the newest, unless a test compares with an older spirv-val. */
extern uint32_t spvbc_gen_generation;

/** Parses and validates `n` words at `words` with the library (generation
 *  spvbc_gen_generation); fills `v`. */
void spvbc_gen_library_verdict(const uint32_t *words, size_t n, spvbc_gen_verdict *v);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SPVBC_TEST_ASTYPE_GEN_H_ */
