/*
 * layer_core_test.c - the layer's module handling without Vulkan: verdicts, log lines, and no
 * crash on any input (truncations, bit flips, random bytes, misalignment, byte swap).
 *
 *   spvbc_layer_core_test <scratch log path>
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L /* setenv, mkdtemp */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "astype_gen.h"
#include "layer_core.h"
#include "layer_test_util.h"
#include "vulkan_setup.h"

/* The naive modules every test uses: 4->3 and 3->4 (lowerable), a valid one, and a size error
 * as_type forbids too. */
static uint32_t *w43, *wvalid, *wsize, *w34;
static size_t n43, nvalid, nsize, n34;

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Runs the layer on `bytes`; if it replaced them, the replacement must pass spirv-val whenever
 * `must_be_valid` is set. */
static int process(const spvbc_layer_config *cfg, const void *bytes, size_t size, int must_be_valid)
{
    uint32_t *out = NULL;
    size_t out_size = 0;
    int replaced = spvbc_layer_process(cfg, "test", bytes, size, &out, &out_size);
    if (replaced) {
        CHECK(out != NULL && out_size % 4u == 0 && out_size >= 20u, "replacement malformed");
        if (must_be_valid && out != NULL) {
            char msg[512];
            int rc = spvbc_gen_validate(out, out_size / 4u, spvbc_gen_target_env(SPVBC_GEN_VULKAN),
                                        msg, sizeof msg);
            CHECK(rc == 0, "spirv-val rejects the layer's output: %s", msg);
        }
        free(out);
    }
    return replaced;
}

/* Under pad policy error, a module with a refused 3-component source is passed on as the
 * application gave it (no half-lowered module), with its verdict; under undef every bitcast is
 * lowered.  examples/astype_invalid.spvasm: 6 invalid bitcasts, 3 of them from a vec3. */
static void test_pad_error_whole(spvbc_layer_config cfg, const char *log)
{
    size_t n = 0;
    char want[256];
    uint32_t *w = spvbc_vk_assemble_file(SPVBC_TEST_EXAMPLES_DIR, "astype_invalid.spvasm", &n);
    CHECK(w != NULL, "cannot assemble examples/astype_invalid.spvasm");
    if (w == NULL) return;
    (void)remove(log);
    cfg.log_all = 0;
    cfg.pad = SPVBC_PAD_ERROR;
    CHECK(process(&cfg, w, n * 4u, 0) == 0,
          "pad error: a module with a refused bitcast is not replaced (no partial lowering)");
    lt_verdict(want, sizeof want, "test", w, n, "unchanged (6 errors, 3 refused)");
    CHECK(lt_log_has(log, want), "pad error: log '%s'", want);
    CHECK(lt_log_has(log, "[V12]"), "pad error: the refusals' diagnostics are logged");
    cfg.pad = SPVBC_PAD_UNDEF;
    CHECK(process(&cfg, w, n * 4u, 0) == 1, "pad undef: the same module lowered");
    lt_verdict(want, sizeof want, "test", w, n, "lowered 6 bitcasts -> out ");
    CHECK(lt_log_has(log, want) && lt_log_has(log, "(0 refused, 0 errors left)"),
          "pad undef: log '%s' ... (0 refused, 0 errors left)", want);
    free(w);
}

/* What the line says of code that is not there (NULL with a length: no hash of nothing) and
 * of a size no whole number of words (bytes, not a rounded-down word count); counts of one. */
static void test_line_wording(spvbc_layer_config cfg, const char *log)
{
    char want[256];
    (void)remove(log);
    cfg.log_all = 1;
    CHECK(process(&cfg, NULL, 100, 0) == 0, "NULL code with a length");
    CHECK(lt_log_has(log, "test: in NULL (100 bytes): unchanged (not parsed: no code)"),
          "NULL code: 'in NULL (100 bytes)'");
    CHECK(!lt_log_has(log, "xxh64=ef46db3751d8e999"), "NULL code: no hash of nothing");
    CHECK(process(&cfg, wvalid, 6, 0) == 0, "6 bytes");
    (void)snprintf(want, sizeof want, "test: in xxh64=%016llx 6 bytes: unchanged (not parsed",
                   (unsigned long long)spvbc_layer_hash(wvalid, 6));
    CHECK(lt_log_has(log, want), "6 bytes: '%s'", want);
    CHECK(process(&cfg, wvalid, 4, 0) == 0, "1 word");
    lt_verdict(want, sizeof want, "test", wvalid, 1, "unchanged (not parsed");
    CHECK(lt_log_has(log, want) && strstr(want, " 1 word: ") != NULL, "1 word: '%s'", want);
    CHECK(process(&cfg, wvalid, nvalid * 4u, 0) == 0, "valid");
    lt_verdict(want, sizeof want, "test", wvalid, nvalid, "unchanged (valid, 1 bitcast) [");
    CHECK(lt_log_has(log, want), "one bitcast: '%s'", want);
}

/* A log path that cannot be opened or written: the lines go to standard error (captured here
 * in `err_path`) after one line saying why, for a missing directory, a directory and a full
 * device (/dev/full, where it exists). */
static void test_log_fallback(spvbc_layer_config cfg, const char *err_path)
{
    char dir[] = "/tmp/spvbc_layer_core_XXXXXX";
    if (mkdtemp(dir) == NULL) {
        CHECK(0, "mkdtemp");
        return;
    }
    char missing[128], want[256];
    (void)snprintf(missing, sizeof missing, "%s/no/such/dir/layer.log", dir);
    const char *paths[3] = {missing, dir, "/dev/full"};
    const char *why[3] = {"No such file or directory", "Is a directory", "No space left"};
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    for (int i = 0; i < 3; ++i) {
        if (i == 2 && access("/dev/full", W_OK) != 0) {
            printf("  skip /dev/full: not writable here\n");
            continue;
        }
        int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || saved < 0) break;
        (void)dup2(fd, STDERR_FILENO);
        (void)close(fd);
        (void)snprintf(cfg.log_path, sizeof cfg.log_path, "%s", paths[i]);
        cfg.log_to_stderr = 0;
        cfg.log_all = 0;
        CHECK(process(&cfg, w43, n43 * 4u, 0) == 1 && process(&cfg, w43, n43 * 4u, 0) == 1,
              "lowered with an unwritable log (%s)", paths[i]);
        (void)dup2(saved, STDERR_FILENO);
        (void)snprintf(want, sizeof want, "spvbc-layer: cannot write the log file %s (%s", paths[i],
                       why[i]);
        CHECK(lt_log_count(err_path, want) == 1 &&
                  lt_log_count(err_path, "cannot write the log file") == 1,
              "one line on stderr says why: '%s...'", want);
        lt_verdict(want, sizeof want, "test", w43, n43, "lowered 1 bitcast ");
        CHECK(lt_log_count(err_path, want) == 2, "both modules' lines on stderr instead of %s",
              paths[i]);
    }
    if (saved >= 0) (void)close(saved);
    (void)remove(err_path);
    (void)rmdir(dir);
}

/* Verdicts and their log lines, at level all. */
static void test_verdicts(spvbc_layer_config cfg, const char *log)
{
    /* Verdicts. */
    CHECK(process(&cfg, w43, n43 * 4u, 1) == 1, "4->3 not lowered");
    CHECK(process(&cfg, w34, n34 * 4u, 1) == 1, "3->4 not lowered (pad undef)");
    CHECK(process(&cfg, wvalid, nvalid * 4u, 1) == 0, "valid module replaced");
    CHECK(process(&cfg, wsize, nsize * 4u, 1) == 0, "size error replaced");
    char *text = spvbc_test_read_file(log);
    char want[160];
    lt_verdict(want, sizeof want, "test", wvalid, nvalid, "unchanged (valid");
    CHECK(strstr(text, want) != NULL, "no '%s' in the log:\n%s", want, text);
    lt_verdict(want, sizeof want, "test", w43, n43, "lowered 1 bitcast");
    CHECK(strstr(text, want) != NULL, "no '%s' in the log:\n%s", want, text);
    lt_verdict(want, sizeof want, "test", wsize, nsize, "unchanged (");
    CHECK(strstr(text, want) != NULL && strstr(text, "[V12]") != NULL,
          "size error not logged as unchanged with its V12 diagnostic:\n%s", text);
    free(text);
}

/* Spec-constant bitcasts under the two layers' validation flags, in two generations. */
static void test_spec_constants(spvbc_layer_config cfg)
{
    /* A Kernel module whose only findings are OpSpecConstantOp Bitcast size mismatches that
     * as_type allows: in generation 2025.1 W-SPEC-BITCAST warnings, passed on under the Vulkan
     * layer's flags and lowered under the OpenCL layer's SPVBC_VALIDATE_STRICT; in the newest
     * (the default, SPIRV-Tools 2026.4) errors, lowered under both. */
    size_t nspec = 0;
    uint32_t *wspec =
        spvbc_vk_assemble_file(SPVBC_TEST_LIT_DIR, "lower/spec_constant.spvasm", &nspec);
    CHECK(wspec != NULL, "cannot assemble lower/spec_constant.spvasm");
    if (wspec != NULL) {
        cfg.generation = SPVBC_GENERATION_2025_1;
        CHECK(process(&cfg, wspec, nspec * 4u, 0) == 0,
              "spec-constant warnings lowered without STRICT (2025.1)");
        cfg.validate_flags = SPVBC_VALIDATE_STRICT;
        CHECK(process(&cfg, wspec, nspec * 4u, 0) == 1,
              "spec-constant mismatches not lowered under STRICT (2025.1)");
        cfg.validate_flags = 0;
        cfg.generation = SPVBC_GENERATION_NEWEST;
        CHECK(process(&cfg, wspec, nspec * 4u, 0) == 1,
              "spec-constant errors not lowered in the newest generation");
        free(wspec);
    }
}

/* The pad policies; validate and off modes. */
static void test_pads_and_modes(spvbc_layer_config cfg, const char *log)
{
    char *text;
    cfg.pad = SPVBC_PAD_ZERO;
    CHECK(process(&cfg, w34, n34 * 4u, 1) == 1, "3->4 not lowered (pad zero)");
    cfg.pad = SPVBC_PAD_ERROR;
    CHECK(process(&cfg, w34, n34 * 4u, 1) == 0, "3->4 lowered under pad error");
    CHECK(process(&cfg, w43, n43 * 4u, 1) == 1, "4->3 not lowered under pad error");
    cfg.pad = SPVBC_PAD_UNDEF;

    (void)remove(log);
    cfg.mode = SPVBC_LAYER_MODE_VALIDATE;
    CHECK(process(&cfg, w43, n43 * 4u, 1) == 0, "validate mode replaced a module");
    text = spvbc_test_read_file(log);
    CHECK(strstr(text, "validate mode: 1 error, 1 lowerable") != NULL, "validate log:\n%s", text);
    free(text);
    (void)remove(log);
    cfg.mode = SPVBC_LAYER_MODE_OFF;
    CHECK(process(&cfg, w43, n43 * 4u, 1) == 0, "off mode replaced a module");
    text = spvbc_test_read_file(log);
    CHECK(text[0] == '\0', "off mode logged:\n%s", text);
    free(text);
    cfg.mode = SPVBC_LAYER_MODE_LOWER;
}

/* Level changes: which modules have a line. */
static void test_level_changes(spvbc_layer_config cfg, const char *log)
{
    char *text;
    char want[160];
    /* Level changes (the default): a line for a lowered module and for a refused as_type-legal
     * bitcast, none for a valid module, a size error as_type forbids too, or garbage; in
     * validate mode a line for each module with errors. */
    (void)remove(log);
    cfg.log_all = 0;
    const uint32_t junk[6] = {0xdeadbeefu, 1u, 2u, 3u, 4u, 5u};
    CHECK(process(&cfg, wvalid, nvalid * 4u, 1) == 0, "valid module replaced at level changes");
    CHECK(process(&cfg, wsize, nsize * 4u, 1) == 0, "size error replaced at level changes");
    CHECK(process(&cfg, junk, sizeof junk, 1) == 0, "garbage replaced at level changes");
    FILE *quiet = fopen(log, "rb");
    CHECK(quiet == NULL, "level changes logged a module it did not change");
    if (quiet != NULL) (void)fclose(quiet);
    CHECK(process(&cfg, w43, n43 * 4u, 1) == 1, "4->3 not lowered at level changes");
    cfg.pad = SPVBC_PAD_ERROR;
    CHECK(process(&cfg, w34, n34 * 4u, 1) == 0, "3->4 lowered under pad error");
    cfg.pad = SPVBC_PAD_UNDEF;
    cfg.mode = SPVBC_LAYER_MODE_VALIDATE;
    CHECK(process(&cfg, wvalid, nvalid * 4u, 1) == 0, "validate mode replaced a module");
    CHECK(process(&cfg, wsize, nsize * 4u, 1) == 0, "validate mode replaced a module");
    cfg.mode = SPVBC_LAYER_MODE_LOWER;
    text = spvbc_test_read_file(log);
    size_t lines = 0;
    for (const char *c = text; *c; ++c)
        lines += *c == '\n' && c[1] != ' '; /* module lines, not their indented errors */
    lt_verdict(want, sizeof want, "test", w43, n43, "lowered 1 bitcast");
    CHECK(strstr(text, want) != NULL, "level changes: no '%s' in the log:\n%s", want, text);
    lt_verdict(want, sizeof want, "test", w34, n34, "unchanged (1 error, 1 refused)");
    CHECK(strstr(text, want) != NULL, "level changes: no '%s' in the log:\n%s", want, text);
    lt_verdict(want, sizeof want, "test", wsize, nsize,
               "unchanged (validate mode: 1 "
               "error, 0 lowerable)");
    CHECK(strstr(text, want) != NULL, "level changes: no '%s' in the log:\n%s", want, text);
    CHECK(lines == 3, "level changes: %zu module lines, want 3:\n%s", lines, text);
    free(text);
    cfg.log_all = 1;
    (void)remove(log);
}

/* SPVBC_LAYER_LOG=off. */
static void test_log_off(spvbc_layer_config cfg, const char *log)
{
    /* Log off: the same verdicts, and no line (not even an empty file). */
    cfg.log_off = 1;
    CHECK(process(&cfg, w43, n43 * 4u, 1) == 1, "4->3 not lowered with the log off");
    CHECK(process(&cfg, wvalid, nvalid * 4u, 1) == 0, "valid module replaced with the log off");
    CHECK(process(&cfg, wsize, nsize * 4u, 1) == 0, "size error replaced with the log off");
    FILE *nolog = fopen(log, "rb");
    CHECK(nolog == NULL, "the log was written with the log off");
    if (nolog != NULL) (void)fclose(nolog);
    cfg.log_off = 0;
}

static void test_hash(void)
{
    /* The log's hash is XXH64 with seed 0: values of the reference implementation
     * (libxxhash 0.8.1's XXH64, as xxh64sum prints them) for bytes (7 i + 1) mod 256 of every
     * length the algorithm treats apart (tails of 1-3, 4 and 8 bytes, the 32-byte stripes). */
    static const struct {
        size_t n;
        unsigned long long h;
    } xxh[] = {
        {0, 0xef46db3751d8e999ull},   {1, 0x8a4127811b21e730ull},  {3, 0xb6e6c910c2fd373aull},
        {4, 0x22eda2cf6af4c124ull},   {5, 0x1da48e4b4cafab76ull},  {8, 0xc6f1803a5e0b3222ull},
        {12, 0x9178b724dce384c0ull},  {31, 0x6ab1c40e29f50073ull}, {32, 0x5a0756fbe9ecd3d1ull},
        {33, 0xdc50cdc37bb9c183ull},  {64, 0x90083da9cdb9d795ull}, {100, 0xd248bfc5208b0b16ull},
        {1000, 0x6be03acbf959c413ull}};
    unsigned char pattern[1000];
    for (size_t i = 0; i < sizeof pattern; ++i)
        pattern[i] = (unsigned char)((i * 7u + 1u) & 0xffu);
    for (size_t i = 0; i < sizeof xxh / sizeof xxh[0]; ++i)
        CHECK(spvbc_layer_hash(pattern, xxh[i].n) == xxh[i].h,
              "XXH64 of %zu bytes: %016llx, want %016llx", xxh[i].n,
              (unsigned long long)spvbc_layer_hash(pattern, xxh[i].n), xxh[i].h);
}

/* Settings from the environment. */
static void test_env(const char *log)
{
    /* Configuration from the environment. */
    spvbc_layer_config env_cfg;
    (void)setenv("SPVBC_LAYER_MODE", "validate", 1);
    (void)setenv("SPVBC_LAYER_PAD", "zero", 1);
    (void)setenv("SPVBC_LAYER_LOG", log, 1);
    spvbc_layer_config_from_env(&env_cfg);
    CHECK(env_cfg.mode == SPVBC_LAYER_MODE_VALIDATE && env_cfg.pad == SPVBC_PAD_ZERO &&
              !env_cfg.log_to_stderr && strcmp(env_cfg.log_path, log) == 0,
          "config from the environment");
    (void)setenv("SPVBC_LAYER_LOG", "off", 1);
    spvbc_layer_config_from_env(&env_cfg);
    CHECK(env_cfg.log_off, "SPVBC_LAYER_LOG=off does not turn the log off");
    (void)setenv("SPVBC_LAYER_LOG", log, 1);
    spvbc_layer_config_from_env(&env_cfg);
    CHECK(!env_cfg.log_off, "SPVBC_LAYER_LOG=<path> turns the log off");
    (void)setenv("SPVBC_LAYER_MODE", "bogus", 1);
    (void)setenv("SPVBC_LAYER_PAD", "error", 1);
    spvbc_layer_config_from_env(&env_cfg);
    CHECK(env_cfg.mode == SPVBC_LAYER_MODE_LOWER && env_cfg.pad == SPVBC_PAD_ERROR,
          "unknown mode must fall back to lower");
    CHECK(!env_cfg.log_all, "level all without SPVBC_LAYER_LOG_LEVEL");
    (void)setenv("SPVBC_LAYER_LOG_LEVEL", "all", 1);
    spvbc_layer_config_from_env(&env_cfg);
    CHECK(env_cfg.log_all, "SPVBC_LAYER_LOG_LEVEL=all not read");
    (void)setenv("SPVBC_LAYER_LOG_LEVEL", "changes", 1);
    spvbc_layer_config_from_env(&env_cfg);
    CHECK(!env_cfg.log_all, "SPVBC_LAYER_LOG_LEVEL=changes not read");
    (void)unsetenv("SPVBC_LAYER_LOG_LEVEL");
    CHECK(env_cfg.generation == SPVBC_GENERATION_NEWEST, "the newest generation not the default");
    (void)setenv("SPVBC_LAYER_GENERATION", "2025.1", 1);
    spvbc_layer_config_from_env(&env_cfg);
    CHECK(env_cfg.generation == SPVBC_GENERATION_2025_1, "SPVBC_LAYER_GENERATION=2025.1 not read");
    (void)setenv("SPVBC_LAYER_GENERATION", "2024.1", 1);
    spvbc_layer_config_from_env(&env_cfg);
    CHECK(env_cfg.generation == SPVBC_GENERATION_NEWEST, "unknown generation must fall back");
    (void)unsetenv("SPVBC_LAYER_GENERATION");
}

/* No crash on anything; returns how many malformed inputs were tried. */
static unsigned long long test_no_crash(spvbc_layer_config cfg, const char *log)
{
    char *text;
    /* No crash on anything: NULL, tiny, odd sizes, misaligned, byte-swapped, truncated,
     * bit-flipped and random inputs.  A replacement, if any, must still be well-formed. */
    (void)remove(log);
    unsigned long long cases = 0;
    CHECK(spvbc_layer_process(&cfg, "test", NULL, 100, NULL, NULL) == 0, "NULL outputs");
    CHECK(process(&cfg, NULL, 0, 0) == 0, "NULL code");
    CHECK(process(&cfg, w43, 0, 0) == 0, "size 0");
    CHECK(process(&cfg, w43, 3, 0) == 0, "size 3");
    CHECK(process(&cfg, w43, n43 * 4u - 1u, 0) == 0, "size not a multiple of 4");
    unsigned char *mis = malloc(n43 * 4u + 1u);
    if (mis != NULL) {
        memcpy(mis + 1, w43, n43 * 4u);
        CHECK(process(&cfg, mis + 1, n43 * 4u, 1) == 1, "misaligned input not lowered");
        free(mis);
    }
    uint32_t *sw = malloc(n43 * 4u);
    if (sw != NULL) {
        for (size_t i = 0; i < n43; ++i) {
            uint32_t v = w43[i];
            sw[i] = (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
        }
        (void)process(&cfg, sw, n43 * 4u, 0);
        free(sw);
    }
    for (size_t len = 0; len <= n43; ++len, ++cases)
        (void)process(&cfg, w43, len * 4u, 0);
    uint32_t *m = malloc(n43 * 4u);
    uint64_t seed = 0x123456789abcdefull;
    for (int it = 0; it < 3000 && m != NULL; ++it, ++cases) {
        memcpy(m, w43, n43 * 4u);
        int flips = 1 + (int)(rng(&seed) % 4u);
        for (int k = 0; k < flips; ++k) {
            size_t wi = (size_t)(rng(&seed) % n43);
            if (rng(&seed) % 2u)
                m[wi] ^= 1u << (rng(&seed) % 32u);
            else
                m[wi] = (uint32_t)rng(&seed) % 64u;
        }
        (void)process(&cfg, m, n43 * 4u, 0);
    }
    free(m);
    unsigned char rnd[512];
    for (int it = 0; it < 500; ++it, ++cases) {
        size_t len = (size_t)(rng(&seed) % sizeof rnd);
        for (size_t i = 0; i < len; ++i)
            rnd[i] = (unsigned char)rng(&seed);
        if (len >= 4 && it % 2 == 0) memcpy(rnd, w43, 20 < len ? 20 : len); /* a real header */
        (void)process(&cfg, rnd, len, 0);
    }
    text = spvbc_test_read_file(log);
    CHECK(strstr(text, "not parsed") != NULL, "garbage never logged as 'not parsed'");
    free(text);
    return cases;
}

int main(int argc, char **argv)
{
    if (lt_start(argc, argv, 1, "<log path>") != 0) return 2;
    const char *log = argv[1];
    spvbc_layer_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.mode = SPVBC_LAYER_MODE_LOWER;
    cfg.pad = SPVBC_PAD_UNDEF;
    cfg.log_all = 1; /* level all until the block that checks level changes */
    (void)snprintf(cfg.log_path, sizeof cfg.log_path, "%s", log);
    (void)remove(log);

    w43 = spvbc_vk_naive_module("float4", "float3", &n43);
    wvalid = spvbc_vk_naive_module("float4", "int4", &nvalid);
    wsize = spvbc_vk_naive_module("float4", "double4", &nsize);
    w34 = spvbc_vk_naive_module("float3", "float4", &n34);
    if (w43 == NULL || wvalid == NULL || wsize == NULL || w34 == NULL) {
        printf("FAIL: the generator gave no module\n");
        return 1;
    }

    test_verdicts(cfg, log);
    test_spec_constants(cfg);
    test_pads_and_modes(cfg, log);
    test_level_changes(cfg, log);
    test_log_off(cfg, log);
    test_hash();
    test_env(log);
    unsigned long long cases = test_no_crash(cfg, log);

    test_pad_error_whole(cfg, log);
    test_line_wording(cfg, log);
    char err_path[1100];
    (void)snprintf(err_path, sizeof err_path, "%s.stderr", log);
    test_log_fallback(cfg, err_path);

    free(w43);
    free(wvalid);
    free(wsize);
    free(w34);
    printf("layer core: %llu malformed inputs survived; %s\n", cases,
           lt_failed == 0 ? "all checks passed" : "FAILED");
    return lt_failed == 0 ? 0 : 1;
}
