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
 * Validates `n` words at `words` for SPIRV-Tools target environment `env` (an spv_target_env).
 * Returns 1 if SPIRV-Tools accepts the module, 0 if not (the message goes to `msg`, which may be
 * NULL), -1 if the validator could not run.  The one spirv-val call of the tests: spvval_check()
 * and astype_gen's spvbc_gen_validate() come here.
 */
static SPVVAL_UNUSED int spvval_check_env(const uint32_t *words, size_t n, int env, char *msg,
                                          size_t msg_size)
{
    if (msg && msg_size) msg[0] = '\0';
    if (!words || env < 0 || env >= (int)SPV_ENV_MAX) return -1;
    spv_context ctx = spvContextCreate((spv_target_env)env);
    if (!ctx) return -1;
    spv_diagnostic diag = NULL;
    spv_const_binary_t bin = {words, n};
    spv_result_t r = spvValidate(ctx, &bin, &diag);
    if (r != SPV_SUCCESS && msg && msg_size)
        snprintf(msg, msg_size, "%s", diag && diag->error ? diag->error : "invalid");
    spvDiagnosticDestroy(diag);
    spvContextDestroy(ctx);
    return r == SPV_SUCCESS ? 1 : 0;
}

/** spvval_check_env() in the universal environment of the module's own version. */
static SPVVAL_UNUSED int spvval_check(const uint32_t *words, size_t n, char *msg, size_t msg_size)
{
    return spvval_check_env(words, n, (int)spvval_env(words, n), msg, msg_size);
}

#endif /* SPVBC_TEST_SPVVAL_H_ */
