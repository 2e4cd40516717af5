/*
 * spvval.h - run SPIRV-Tools' validator (the library C API, static libSPIRV-Tools.a) on a
 * word array.  Header-only; link spvbc::spirv_tools and give the target LINKER_LANGUAGE CXX.
 */
#ifndef SPVBC_TEST_SPVVAL_H_
#define SPVBC_TEST_SPVVAL_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <spirv-tools/libspirv.h>

#if defined(__GNUC__)
#define SPVVAL_UNUSED __attribute__((unused))
#else
#define SPVVAL_UNUSED
#endif

/** The universal environment of the module's header version (1.0 .. 1.6), 1.6 otherwise. */
static SPVVAL_UNUSED spv_target_env spvval_env(const uint32_t *words, size_t n)
{
    uint32_t v = 0;
    if (n >= 2) {
        v = words[1];
        if (words[0] == 0x03022307u) /* byte-swapped magic */
            v = (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
    }
    switch (v) {
    case 0x00010000u: return SPV_ENV_UNIVERSAL_1_0;
    case 0x00010100u: return SPV_ENV_UNIVERSAL_1_1;
    case 0x00010200u: return SPV_ENV_UNIVERSAL_1_2;
    case 0x00010300u: return SPV_ENV_UNIVERSAL_1_3;
    case 0x00010400u: return SPV_ENV_UNIVERSAL_1_4;
    case 0x00010500u: return SPV_ENV_UNIVERSAL_1_5;
    default: return SPV_ENV_UNIVERSAL_1_6;
    }
}

/**
 * Validates `n` words at `words`.  Returns 1 if SPIRV-Tools accepts the module, 0 if not (the
 * message goes to `msg`, which may be NULL), -1 if the validator could not run.
 */
static SPVVAL_UNUSED int spvval_check(const uint32_t *words, size_t n, char *msg, size_t msg_size)
{
    if (msg && msg_size) msg[0] = '\0';
    spv_context ctx = spvContextCreate(spvval_env(words, n));
    if (!ctx) return -1;
    spv_diagnostic diag = NULL;
    spv_const_binary_t bin = {words, n};
    spv_result_t r = spvValidate(ctx, &bin, &diag);
    if (r != SPV_SUCCESS && msg && msg_size && diag && diag->error)
        snprintf(msg, msg_size, "%s", diag->error);
    spvDiagnosticDestroy(diag);
    spvContextDestroy(ctx);
    return r == SPV_SUCCESS ? 1 : 0;
}

#endif /* SPVBC_TEST_SPVVAL_H_ */
