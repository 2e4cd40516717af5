/*
 * test_api.h - what the rooms of the public API test share: the Kernel test module and its
 * checks, and the cases that main() in test_api.c runs.
 *
 *   test_api.c       the helpers below; diagnostics' fields, lowering properties, options,
 *                    warnings and notes, copied words
 *   test_api_spec.c  OpSpecConstantOp bitcasts
 *   test_api_abi.c   what an embedder relies on: growable structs, the allocator contract,
 *                    the lifetime of diagnostics and of the caller's words, the parse's
 *                    progress callback
 */
#ifndef SPVBC_TEST_API_H_
#define SPVBC_TEST_API_H_

#include <stddef.h>
#include <stdint.h>

#include "modbuild.h"
#include "spirv_bitcast.h"

/* Ids of the Kernel test module. */
enum {
    ID_FILE = 1,
    ID_VOID,
    ID_FLOAT,
    ID_INT,
    ID_V4F,
    ID_V3F,
    ID_V3I,
    ID_PTR4,
    ID_FN,
    ID_F,
    ID_P,
    ID_L,
    ID_X,
    ID_Y,
    ID_Z,
    ID_BOUND
};

typedef struct kmod {
    mb b;
    size_t y_offset, z_offset, float_decl, y_index;
} kmod;

/* OpenCL-style module: %y = as_float3(%x) (4->3, same element), %z = as_int3(%x) (4->3,
 * element change: needs a v4int the module lacks). */
void build_kernel(kmod *k);

/* A Kernel library (Kernel, Addresses, Linkage; OpenCL memory model under `addressing`) of
 * SPIR-V `version` and `bound` ids: its header, capabilities and memory model. */
void library_head(mb *b, uint32_t version, uint32_t bound, uint32_t addressing);

/* Appends the function `fn` of type `fnty` (void(`ptr`)), its parameter `p`, its label `l`, and
 * `x` = OpLoad `type` of `p`. */
void load_param_fn(mb *b, uint32_t void_id, uint32_t fnty, uint32_t ptr, uint32_t fn, uint32_t p,
                   uint32_t l, uint32_t type, uint32_t x);

/* spvval_check() (for the module's own SPIR-V version), printing SPIRV-Tools' message when it
 * rejects the module.  (spvval.h goes into test_api.c only: SPIRV-Tools' libspirv.h defines a
 * constant when compiled as C.) */
int spirv_val(const uint32_t *w, size_t n);

/* A new context `*ctx` and the module `b` parsed in it (asserts that both succeed). */
spvbc_module parse_new(const mb *b, spvbc_context *ctx);

/* build_kernel(`k`), then parse_new() of its module. */
spvbc_module parse_kernel(kmod *k, spvbc_context *ctx);

/* Word offset of the instruction defining `id` (result id at word 1 or 2), or 0. */
size_t def_offset(const uint32_t *w, size_t n, uint32_t id, int at);

/* The cases, in the order main() runs them: X(name) for each, by room. */
#define API_CASES(X)                                                                               \
    /* test_api.c */                                                                               \
    X(test_version)                                                                                \
    X(test_validate_fields) X(test_lower_properties)                                               \
        X(test_lower_only_and_pad) /* test_api_spec.c */                                           \
        X(test_lower_spec_constant) X(test_spec_constant_type_order)                               \
            X(test_shader_spec_constant_refused) X(test_bytes_may_lower) /* test_api.c */          \
        X(test_warnings_and_notes) X(test_copy_words_and_bytes)                                    \
            X(test_generation_argument) /* test_api_abi.c */                                       \
        X(test_abi_struct_size) X(test_allocator_alignment)                                        \
            X(test_diagnostic_pointers_survive_oom) X(test_destroy_reads_no_words)                 \
                X(test_names_follow_their_module) X(test_parse_progress)
#define API_CASES_DECLARE(name) void name(void **state);
API_CASES(API_CASES_DECLARE)

#endif /* SPVBC_TEST_API_H_ */
