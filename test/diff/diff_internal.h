/*
 * diff_internal.h - what the rooms of the differential test (test/diff) share: the generator's
 * types, the model's rules, the categories and their counters, and each room's entry points.
 * diff.c says what the test does.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_DIFF_INTERNAL_H
#define SPVBC_DIFF_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "astype_gen.h"
#include "spirv_bitcast.h"
#include "test_rng.h"

#undef R_OK /* unistd.h access() mode; the rules below use the name */

/* ---- generator types -------------------------------------------------------------------- */

typedef enum { GT_INT, GT_FLOAT, GT_BOOL, GT_PTR } gkind;

enum { SC_FUNCTION, SC_CROSS, SC_WORKGROUP, SC_STORAGE_BUFFER, SC_PSB };

typedef struct gtype {
    gkind kind;
    uint32_t width; /* int/float */
    uint32_t count; /* 1: scalar */
    int is_signed;
    int sc; /* pointers */
    gkind pk; /* pointee: int/float/bool scalar or vector */
    uint32_t pw, pc;
    int ps;
} gtype;

enum { ADDR_LOGICAL, ADDR_PHYS32, ADDR_PHYS64, ADDR_PSB64 };

typedef struct gmod {
    int minor; /* SPIR-V 1.<minor> */
    int kernel; /* Kernel (OpenCL) module, else Shader */
    int addressing;
    int psb_ext; /* OpExtension "SPV_KHR_physical_storage_buffer" */
    int int8, int16, float16; /* Shader: arithmetic capabilities declared */
    int use8, use16i, use16f, use64i, use64f, use_vec16, use_sb;
    spvbc_gen_text decls; /* types, constants, global variables in dependency order */
    spvbc_gen_text annots; /* decorations */
    spvbc_gen_text debug; /* OpString */
    spvbc_gen_text vars; /* function-scope OpVariable (first block) */
    spvbc_gen_text body; /* other function instructions before the bitcast */
    char params[8][64]; /* parameter type names */
    char param_ids[8][16];
    size_t nparams;
    char globals[512]; /* interface list (SPIR-V 1.4+) */
    spvbc_gen_names declared;
    unsigned next_id;
    unsigned next_binding;
} gmod;

/* ---- the model: the rules sheet, section 1 ------------------------------------------------ */

typedef enum {
    R_OK,
    R_V0,
    R_V1,
    R_V2,
    R_V3,
    R_V8,
    R_V9,
    R_V10,
    R_V11,
    R_V12,
    R_V13,
    R_S7,
    R_COOPVEC,
    R_COOPVEC_DIM,
    R_COOPMAT,
    R_COOPMAT_SHAPE,
    R_LOGICAL_PTR, /* "Instruction may not have a logical pointer operand" (2025.5 and later) */
    R_EXTRACT_DIM, /* OpBitcastExtractEXT (2026.4) */
    R_EXTRACT_WIDTH,
    R_EXTRACT_OFFSET,
    R_COUNT
} rule;

/* ---- the categories and their counters -------------------------------------------------- */

enum {
    CAT_NUM_KERNEL,
    CAT_NUM_SHADER,
    CAT_PTR_KERNEL,
    CAT_PTR_PSB,
    CAT_PTR_LOGICAL,
    CAT_BOOL,
    CAT_OPERAND_KIND,
    CAT_MULTI,
    CAT_SPEC_SHADER,
    CAT_SPEC_KERNEL,
    CAT_COOPMAT, /* the rest need SPIRV-Tools 2025.1 (--spirv-tools-2025) */
    CAT_COOPVEC,
    CAT_UNTYPED,
    CAT_ENCODED, /* the rest need SPIRV-Tools 2026.4 (--spirv-tools-2026) */
    CAT_LONG_VECTOR,
    CAT_COOPVEC_LONG,
    CAT_EXTRACT,
    CAT_COUNT
};

typedef struct cat_stats {
    size_t cases, skipped, errors_expected, passed, failed;
    size_t rule_hist[R_COUNT];
    size_t spirv_val_misses; /* spec-constant-kernel: W-SPEC-BITCAST, which spirv-val accepts */
} cat_stats;

/* The library's verdict, with the first error's rule in the model's terms. */
typedef struct lib_verdict {
    spvbc_result parse;
    spvbc_result verdict;
    size_t error_count;
    size_t lowerable_count; /* errors the library says spvbc_module_lower() can fix */
    size_t logical_count; /* W-LOGICAL-PTR errors (which the lowering leaves alone) */
    rule first_error;
    char errors[512]; /* "rule: message" of each error */
} lib_verdict;

/* The library's W-SPEC-BITCAST findings under some SPVBC_VALIDATE_* flags. */
typedef struct spec_findings {
    int failed; /* parse or validate failed */
    size_t count, errors, lowerable;
    rule rule; /* the OpBitcast rule the first one names */
    char message[512]; /* the first one's */
} spec_findings;

typedef struct lower_stats {
    size_t runs, rewritten, refused, untouched, spirv_val_runs, failed;
} lower_stats;

/* ---- the generator (diff_gen.c) ------------------------------------------------------- */

int coin(void);
void ensure_type(gmod *m, const gtype *t, char *buf, size_t size);
extern test_rng g_rng;
void gmod_free(gmod *m);
void make_value(gmod *m, const gtype *t, char *id, size_t size);
void new_id(gmod *m, char *buf, size_t size, const char *prefix);
gtype num(gkind k, uint32_t w, uint32_t c, int s);
gtype ptr(int sc, gtype pointee);
uint32_t rnd(uint32_t n);
int storage_only(const gmod *m, const gtype *t);
void write_module(gmod *m, const char *bitcast_line, int global_line, spvbc_gen_text *out);

/* ---- the model (diff_model.c) --------------------------------------------------------- */

extern const char *const k_rule_id[];
int message_matches(rule r, const char *msg);
rule model(const gmod *m, const gtype *d, const gtype *s);
int numeric(const gtype *t);
rule rule_from_id(const char *id);

/* ---- the oracles and running one case (diff_oracle.c) ---------------------------------- */

int check_lowering(const uint32_t *w, size_t n, int env, const lib_verdict *lv, char *why,
                   size_t why_size);
void cleanup_tmp(void);
int find_tree(const char *root);
void judge_case(int cat, int minor, const char *text, const uint32_t *w, size_t n,
                const char *val_msg, rule expected);
extern cat_stats g_cat[CAT_COUNT];
extern lower_stats g_lower;
extern int g_new; /* a tree's tools are the oracle (2025.1 or 2026.4) */
extern int g_2026; /* the tree is SPIRV-Tools 2026.4's */
extern uint32_t g_generation; /* SPVBC_GENERATION_* the library is asked for */
extern const char *g_show;
extern size_t g_tool_runs;
extern int g_verbose;
extern const char *const k_cat_name[CAT_COUNT];
void library_verdict(const uint32_t *w, size_t n, lib_verdict *v);
int new_assemble(const char *text, int minor, uint32_t **w, size_t *n);
int new_validate(const uint32_t *w, size_t n, int minor, char *msg, size_t size);
void print_failure(const char *what, int cat, const char *text, const uint32_t *w, size_t n,
                   int env, const char *val_msg, const lib_verdict *lv, rule expected);
void run_case(int cat, gmod *m, const char *bitcast_line, int global_line, rule expected);
void spec_findings_of(const uint32_t *w, size_t n, uint32_t flags, spec_findings *f);

/* ---- case generators, SPIRV-Tools 2023.1 types (diff_cases.c) ------------------------ */

void case_bool(void);
void case_multi(void);
void case_numeric(int kernel);
void case_operand_kind(void);
void case_pointer(int cat);
void case_spec(int kernel);

/* ---- case generators, types only 2025.1 knows (diff_cases2025.c) --------------------- */

void case_coop(int vectors);
void run_new_case(int cat, int minor, const char *text, const char *twin, rule expected);
void case_untyped(int shader);

/* ---- case generators, types only 2026.4 knows (diff_cases2026.c) --------------------- */

void case_encoded(int kernel);
void case_long_vector(int kernel);
void case_coopvec_long(void);
void case_extract(int kernel);

#endif /* SPVBC_DIFF_INTERNAL_H */
