/* spv_assemble.h - SPIR-V assembly to words for the unit tests (SPIRV-Tools' C API, cmocka).
 * Header-only, like spvval.h: SPIRV-Tools' C header defines a constant in each file that
 * includes it, so only one file of a program may.  Shared by test_analysis.c and
 * test_lower_edges.c; include after cmocka.h.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_TEST_SPV_ASSEMBLE_H_
#define SPVBC_TEST_SPV_ASSEMBLE_H_

#include <stdio.h>
#include <string.h>

#include <spirv-tools/libspirv.h>

/* The assembly `text` assembled for `env`, its ids kept as numbered (fails the test where it
 * does not assemble, saying why); the caller destroys it with spvBinaryDestroy(). */
static inline spv_binary assemble(const char *text, spv_target_env env)
{
    spv_context sc = spvContextCreate(env);
    spv_binary bin = NULL;
    spv_diagnostic d = NULL;
    spv_result_t r = spvTextToBinaryWithOptions(
        sc, text, strlen(text), SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS, &bin, &d);
    if (r != SPV_SUCCESS) fprintf(stderr, "does not assemble: %s\n", d ? d->error : "?");
    spvDiagnosticDestroy(d);
    spvContextDestroy(sc);
    assert_int_equal(r, SPV_SUCCESS);
    return bin;
}

#endif /* SPVBC_TEST_SPV_ASSEMBLE_H_ */
