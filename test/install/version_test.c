/* The version macros of spirv_bitcast.h, the runtime getters of the library linked in, and the
 * CMake project version (SPVBC_EXPECT_VERSION) all agree.
 * SPDX-License-Identifier: Apache-2.0 */
#include "spirv_bitcast.h"

#include <stdio.h>
#include <string.h>

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "FAIL: %s\n", what);
        ++failures;
    }
}

int main(void)
{
    char composed[64];
    const char *runtime = spvbc_version_string();

    snprintf(composed, sizeof composed, "%d.%d.%d", SPVBC_VERSION_MAJOR, SPVBC_VERSION_MINOR,
             SPVBC_VERSION_PATCH);
    check(strcmp(composed, SPVBC_VERSION_STRING) == 0,
          "SPVBC_VERSION_STRING is MAJOR.MINOR.PATCH");
    check(SPVBC_VERSION_MINOR >= 0 && SPVBC_VERSION_MINOR < 100 && SPVBC_VERSION_PATCH >= 0 &&
              SPVBC_VERSION_PATCH < 100,
          "minor and patch fit the two decimal digits SPVBC_VERSION_NUMBER gives them");
    check(SPVBC_VERSION_NUMBER ==
              SPVBC_VERSION_MAJOR * 10000 + SPVBC_VERSION_MINOR * 100 + SPVBC_VERSION_PATCH,
          "SPVBC_VERSION_NUMBER is MAJOR * 10000 + MINOR * 100 + PATCH");
    check(spvbc_version_number() == (unsigned)SPVBC_VERSION_NUMBER,
          "spvbc_version_number() == SPVBC_VERSION_NUMBER");
    check(runtime != NULL && strcmp(runtime, SPVBC_VERSION_STRING) == 0,
          "spvbc_version_string() == SPVBC_VERSION_STRING");
    check(runtime == spvbc_version_string(), "spvbc_version_string() is one static string");
    check(strcmp(SPVBC_VERSION_STRING, SPVBC_EXPECT_VERSION) == 0,
          "the header's version is the CMake project version " SPVBC_EXPECT_VERSION);
    printf("header %s (%d), library %s (%u), project %s\n", SPVBC_VERSION_STRING,
           SPVBC_VERSION_NUMBER, runtime ? runtime : "(null)", spvbc_version_number(),
           SPVBC_EXPECT_VERSION);
    return failures == 0 ? 0 : 1;
}
