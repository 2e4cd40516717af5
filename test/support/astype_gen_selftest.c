/*
 * astype_gen_selftest.c - checks the naive as_type generator against spirv-val (SPIRV-Tools C API):
 * over all 66 x 66 ordered pairs of OpenCL types, in both flavours, a module whose direct
 * OpBitcast has equal total bits must assemble and validate; every other one must assemble and
 * fail with exactly spirv-val's "same total bit width" message.  Vulkan-flavour pairs with an 8-
 * or 16-component side must not be generated.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "astype_gen.h"

#define V12_MESSAGE "Expected input to have the same total bit width as Result Type: Bitcast"

int main(void)
{
    spvbc_type_desc types[SPVBC_GEN_OPENCL_TYPE_COUNT];
    size_t n = spvbc_gen_opencl_types(types);
    size_t passed = 0, failed = 0, valid = 0, invalid = 0, skipped = 0;
    if (n != SPVBC_GEN_OPENCL_TYPE_COUNT) {
        fprintf(stderr, "astype_gen: %zu OpenCL types, expected 66\n", n);
        return 1;
    }
    for (int f = 0; f < 2; ++f) {
        spvbc_gen_flavour flavour = f == 0 ? SPVBC_GEN_KERNEL : SPVBC_GEN_VULKAN;
        int env = spvbc_gen_target_env(flavour);
        for (size_t i = 0; i < n; ++i) {
            for (size_t j = 0; j < n; ++j) {
                const spvbc_type_desc *s = &types[i];
                const spvbc_type_desc *d = &types[j];
                char sn[16], dn[16], msg[1024];
                char *text = spvbc_gen_astype_text(s, d, flavour);
                uint32_t *words = NULL;
                size_t count = 0;
                int expect_valid = s->width * s->count == d->width * d->count;
                int ok;
                spvbc_gen_type_name(s, sn, sizeof sn);
                spvbc_gen_type_name(d, dn, sizeof dn);
                if (flavour == SPVBC_GEN_VULKAN && (s->count > 4 || d->count > 4)) {
                    if (text) {
                        fprintf(stderr, "FAIL vulkan as_%s(%s): generated, expected NULL\n", dn,
                                sn);
                        ++failed;
                    } else {
                        ++skipped;
                    }
                    free(text);
                    continue;
                }
                if (!text) {
                    fprintf(stderr, "FAIL %s as_%s(%s): not generated\n", f ? "vulkan" : "kernel",
                            dn, sn);
                    ++failed;
                    continue;
                }
                if (spvbc_gen_assemble(text, env, &words, &count) != 0) {
                    fprintf(stderr, "FAIL %s as_%s(%s): does not assemble:\n%s\n",
                            f ? "vulkan" : "kernel", dn, sn, text);
                    ++failed;
                    free(text);
                    continue;
                }
                ok = spvbc_gen_validate(words, count, env, msg, sizeof msg) == 0;
                if (expect_valid ? !ok : (ok || strstr(msg, V12_MESSAGE) == NULL)) {
                    fprintf(stderr, "FAIL %s as_%s(%s): expected %s, spirv-val says: %s\n%s\n",
                            f ? "vulkan" : "kernel", dn, sn,
                            expect_valid ? "valid" : "the V12 message", ok ? "valid" : msg, text);
                    ++failed;
                } else {
                    ++passed;
                    if (expect_valid) {
                        ++valid;
                    } else {
                        ++invalid;
                    }
                }
                free(words);
                free(text);
            }
        }
    }
    printf("astype_gen: %zu modules: %zu valid, %zu rejected with V12, %zu vulkan pairs not "
           "expressible; %zu passed, %zu failed\n",
           passed + failed, valid, invalid, skipped, passed, failed);
    return failed == 0 ? 0 : 1;
}
