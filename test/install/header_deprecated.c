/* The names 0.3.0 replaced still compile, as aliases of the new ones, until 0.4.0: each old
 * enumerator has its new one's value and spvbc_bytes_may_lower is spvbc_bytes_scan_lowerable
 * (install.header_deprecated_c89: strict C89; install.header_deprecated_names: built against the
 * shared library and run, so the old function name reaches the exported function).
 * SPDX-License-Identifier: Apache-2.0 */
/* The build leaves the old names out of everything else: this file is where they are used. */
#undef SPVBC_NO_DEPRECATED_NAMES
#include "spirv_bitcast.h"

/* A compile-time check that C89 accepts: an array of negative size when `cond` is false. */
#define SAME(old_name, new_name) typedef char same_##old_name[(old_name) == (new_name) ? 1 : -1]

SAME(SPVBC_REFUSE_NONE, SPVBC_PLAN_REFUSAL_NONE);
SAME(SPVBC_REFUSE_SIZE, SPVBC_PLAN_REFUSAL_SIZE);
SAME(SPVBC_REFUSE_BOOL_OR_VOID, SPVBC_PLAN_REFUSAL_BOOL_OR_VOID);
SAME(SPVBC_REFUSE_MISSING_FEATURE, SPVBC_PLAN_REFUSAL_MISSING_FEATURE);
SAME(SPVBC_REFUSE_PAD_POLICY, SPVBC_PLAN_REFUSAL_PAD_POLICY);
SAME(SPVBC_REFUSE_BAD_TYPE, SPVBC_PLAN_REFUSAL_BAD_TYPE);
SAME(SPVBC_REFUSE_MAX_ENUM, SPVBC_PLAN_REFUSAL_MAX_ENUM);
SAME(SPVBC_DIAGNOSTICS_KEEP_ALL, SPVBC_DIAGNOSTIC_POLICY_KEEP_ALL);
SAME(SPVBC_DIAGNOSTICS_KEEP_FIRST, SPVBC_DIAGNOSTIC_POLICY_KEEP_FIRST);
SAME(SPVBC_DIAGNOSTICS_COUNT_ONLY, SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY);
SAME(SPVBC_DIAGNOSTICS_POLICY_MAX_ENUM, SPVBC_DIAGNOSTIC_POLICY_MAX_ENUM);
SAME(SPVBC_SCALAR_MAX_ENUM, SPVBC_SCALAR_KIND_MAX_ENUM);
SAME(SPVBC_PAD_MAX_ENUM, SPVBC_PAD_POLICY_MAX_ENUM);

/* Code written for 0.2: the old function name, called as 0.2 called it. */
static spvbc_result scan(spvbc_context ctx, const void *bytes, size_t size, int *maybe)
{
    spvbc_plan_refusal none = SPVBC_REFUSE_NONE;
    spvbc_diagnostic_policy all = SPVBC_DIAGNOSTICS_KEEP_ALL;
    spvbc_result (*fn)(spvbc_context, const void *, size_t, int *) = spvbc_bytes_may_lower;
    if (none != SPVBC_PLAN_REFUSAL_NONE || all != SPVBC_DIAGNOSTIC_POLICY_KEEP_ALL)
        return fn(0, 0, 0, 0);
    return spvbc_bytes_may_lower(ctx, bytes, size, maybe);
}

int main(void)
{
    int maybe = 0;
    /* No words: the scan cannot tell, so "maybe" (1); a NULL out-pointer is an argument error. */
    if (scan(0, 0, 0, &maybe) != SPVBC_SUCCESS || maybe != 1) return 1;
    return scan(0, 0, 0, 0) == SPVBC_ERROR_INVALID_ARGUMENT ? 0 : 1;
}
