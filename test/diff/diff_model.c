/*
 * diff_model.c - the differential test's model: the rules sheet, section 1.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include "diff_internal.h"

const char *const k_rule_id[] = {"OK",
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
                                 "S7",
                                 "V-COOPVEC",
                                 "V-COOPVEC-DIM",
                                 "V-COOPMAT",
                                 "V-COOPMAT-SHAPE",
                                 "W-LOGICAL-PTR",
                                 "V-EXTRACT-DIM",
                                 "V-EXTRACT-WIDTH",
                                 "V-EXTRACT-OFFSET"};

/* The part of spirv-val's message each rule is reported with (V1 has two spellings; 2026.4
 * prefixes V8-V11 with the gate, "In SPIR-V 1.4 or earlier ..., expected input ..."). */
static const char *const k_rule_message[][2] = {
    [R_V0] = {"cannot be a type", NULL},
    [R_V1] = {"requires a type", "Expected input to have a type"},
    [R_V2] = {"Expected Result Type to be a pointer or int or float vector or scalar type", NULL},
    [R_V3] = {"Expected input to be a pointer or int or float vector or scalar", NULL},
    [R_V8] = {"Expected input to be a pointer, int scalar or 32-bit int vector if Result Type is "
              "pointer",
              "expected input to be a pointer, int scalar or 32-bit int vector if Result Type is "
              "pointer"},
    [R_V9] = {"Pointer can only be converted to another pointer, int scalar or 32-bit int vector",
              "pointer can only be converted to another pointer, int scalar or 32-bit int vector"},
    [R_V10] = {"Expected input to be a pointer or int scalar if Result Type is pointer",
               "expected input to be a pointer or int scalar if Result Type is pointer"},
    [R_V11] = {"Pointer can only be converted to another pointer or int scalar",
               "pointer can only be converted to another pointer or int scalar"},
    [R_V12] = {"Expected input to have the same total bit width as Result Type", NULL},
    [R_V13] = {"8- or 16-bit types can only be used with width-only conversions", NULL},
    [R_S7] = {"Specialization constant operation Bitcast requires Kernel capability", NULL},
    [R_COOPVEC] = {"Cooperative vector can only be cast to another cooperative vector", NULL},
    [R_COOPVEC_DIM] = {"Expected number of components to be identical", NULL},
    [R_COOPMAT] = {"Cooperative matrix can only be cast to another cooperative matrix", NULL},
    [R_COOPMAT_SHAPE] = {"Expected cooperative matrix types",
                         "of Matrix type and Result Type to be identical"},
    [R_LOGICAL_PTR] = {"Instruction may not have a logical pointer operand",
                       "Instruction may not return a logical pointer"},
    [R_EXTRACT_DIM] = {"Expected Base to have the same dimension as Result Type", NULL},
    [R_EXTRACT_WIDTH] = {"Expected Base component bit width to be greater than Result Type "
                         "component bit width",
                         NULL},
    [R_EXTRACT_OFFSET] = {"Expected Offset to be a scalar integer type", NULL},
};

int message_matches(rule r, const char *msg)
{
    if (r == R_OK || r >= R_COUNT) return 0;
    if (r == R_COOPMAT_SHAPE && strstr(msg, "Expected scopes of Matrix and Result Type")) return 1;
    for (size_t i = 0; i < 2; ++i) {
        const char *part = k_rule_message[r][i];
        if (part != NULL && strstr(msg, part) != NULL) return 1;
    }
    return 0;
}

rule rule_from_id(const char *id)
{
    for (size_t i = 1; i < sizeof k_rule_id / sizeof k_rule_id[0]; ++i) {
        if (strcmp(id, k_rule_id[i]) == 0) {
            return (rule)i;
        }
    }
    return R_OK;
}

int numeric(const gtype *t)
{
    return t->kind == GT_INT || t->kind == GT_FLOAT;
}

/* The expected first error of `OpBitcast D S` in module `m` (current SPIRV-Tools behaviour). */
rule model(const gmod *m, const gtype *d, const gtype *s)
{
    int gate = m->minor >= 5 || m->psb_ext;
    int rp = d->kind == GT_PTR, op = s->kind == GT_PTR;
    if (!rp && !numeric(d)) return R_V2;
    if (!op && !numeric(s)) return R_V3;
    if (gate) {
        if (rp && !(op || (s->kind == GT_INT && (s->count == 1 || s->width == 32)))) return R_V8;
        if (op && !(rp || (d->kind == GT_INT && (d->count == 1 || d->width == 32)))) return R_V9;
    } else {
        if (rp && !(op || (s->kind == GT_INT && s->count == 1))) return R_V10;
        if (op && !(rp || (d->kind == GT_INT && d->count == 1))) return R_V11;
    }
    if (!rp && !op && d->width * d->count != s->width * s->count) return R_V12;
    if (!m->kernel && (storage_only(m, d) || storage_only(m, s))) return R_V13;
    /* 2025.5 and later: "Instruction may not have a logical pointer operand" in Logical and
     * PhysicalStorageBuffer64 addressing (a pointer outside PhysicalStorageBuffer). */
    if (g_2026 && (m->addressing == ADDR_LOGICAL || m->addressing == ADDR_PSB64) &&
        ((rp && d->sc != SC_PSB) || (op && s->sc != SC_PSB)))
        return R_LOGICAL_PTR;
    return R_OK;
}
