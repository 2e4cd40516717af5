/*
 * test_file.h - the one way the test programs read a whole file (a log, SPIR-V assembly) into
 * memory.  Header-only, like test_rng.h: the sanitizer builds compile it into their own
 * programs; no dependency but the C library.
 *
 * Users: the layers' tests (layer/core/test/layer_test_util.c, the OpenCL layer's tests) and
 * the Vulkan set-up (vulkan_setup.c, for the .spvasm it assembles).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_TEST_FILE_H_
#define SPVBC_TEST_FILE_H_

#include <stdio.h>
#include <stdlib.h>

/** The bytes of file `path` plus a terminating NUL, or "" (allocated) if it cannot be read;
 *  NULL only when out of memory.  The caller frees it with free(). */
static inline char *spvbc_test_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return calloc(1, 1);
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    (void)fseek(f, 0, SEEK_SET);
    char *buf = calloc((size_t)(n > 0 ? n : 0) + 1u, 1);
    if (buf != NULL && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) buf[0] = '\0';
    (void)fclose(f);
    return buf;
}

#endif /* SPVBC_TEST_FILE_H_ */
