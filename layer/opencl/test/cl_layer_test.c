/*
 * cl_layer_test.c - the OpenCL layer through a real ICD loader, on the recording test ICD.
 *
 *   spvbc_cl_layer_test <scenario> <log> <examples dir> <test ICD library>
 *
 * The environment names the loader's ICD (OCL_ICD_VENDORS / OCL_ICD_FILENAMES) and, except for
 * `without`, the layer (OPENCL_LAYERS).  The modules are examples/astype_valid.spvasm (valid
 * SPIR-V) and examples/astype_invalid.spvasm (as_type bitcasts that are invalid SPIR-V, all
 * lowerable), assembled for SPIR-V 1.0.  The scenario runs in a child process; the parent then
 * reads the log the layer wrote at unload, so what the layer frees is checked too.
 *   without     no layer: the ICD gets every module byte-identical, and nothing is logged
 *   lower       valid and unparsable modules reach the ICD byte-identical; the invalid one
 *               reaches it lowered (spirv-val and the library accept it), through
 *               clCreateProgramWithIL and through the clCreateProgramWithILKHR that
 *               clGetExtensionFunctionAddressForPlatform hands out; CL_PROGRAM_IL returns the
 *               application's words; a driver that refuses the lowered module gets the
 *               application's; programs released directly and through their last kernel
 *               leave nothing kept at unload
 *   leak        as lower, but one lowered program is never released: the unload line says so
 *   validate    SPVBC_LAYER_MODE=validate: the invalid module reaches the ICD unchanged
 *   pad_error   SPVBC_LAYER_PAD=error: the invalid module, three of whose six bitcasts have a
 *               3-component source, reaches the ICD unchanged (not half lowered), and its
 *               verdict says why
 *   off         SPVBC_LAYER_MODE=off: unchanged, and nothing logged
 *   threads     16 threads create, query and release programs through the layer at once
 * The test ICD may refuse clSetProgramReleaseCallback (SPVBC_TEST_ICD_RELEASE_CALLBACK=0): the
 * layer then frees at the last clReleaseProgram / clReleaseKernel instead.
 *
 * Exit status: 0 pass, 1 failure, 77 no loader with layer support.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "layer_core.h"
#include "layer_test_util.h"
#include "spirv_bitcast.h"
#include "spvval.h"
#include "test_icd.h"

#define THREADS 16
#define PER_THREAD 40

typedef struct module {
    uint32_t *words;
    size_t bytes;
} module;

static module g_valid, g_invalid;
static const char *g_scenario, *g_log;
static cl_context g_context;
static clCreateProgramWithILKHR_fn g_khr;
static spvbc_test_icd_received_fn g_received;
static spvbc_test_icd_counts_fn g_counts;

/* Assembles `dir`/`name` for SPIR-V 1.0 (what rusticl takes). */
static module assemble(const char *dir, const char *name)
{
    module m = {NULL, 0};
    char path[1024];
    (void)snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = spvbc_test_read_file(path);
    if (text == NULL || text[0] == '\0') {
        free(text);
        return m;
    }
    spv_context ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_0);
    spv_binary bin = NULL;
    if (ctx != NULL && spvTextToBinary(ctx, text, strlen(text), &bin, NULL) == SPV_SUCCESS &&
        (m.words = malloc(bin->wordCount * 4u)) != NULL) {
        memcpy(m.words, bin->code, bin->wordCount * 4u);
        m.bytes = bin->wordCount * 4u;
    }
    spvBinaryDestroy(bin);
    spvContextDestroy(ctx);
    free(text);
    return m;
}

/* Library errors in `n` words (SIZE_MAX if it cannot say). */
static size_t library_errors(const uint32_t *w, size_t n)
{
    spvbc_context ctx = NULL;
    spvbc_module mod = NULL;
    spvbc_validate_summary s = SPVBC_VALIDATE_SUMMARY_INIT;
    size_t errors = SIZE_MAX;
    if (spvbc_context_create(NULL, &ctx) == SPVBC_SUCCESS &&
        spvbc_module_parse(ctx, w, n, NULL, &mod) == SPVBC_SUCCESS) {
        spvbc_result r = spvbc_module_validate(mod, NULL, &s);
        if (r == SPVBC_SUCCESS || r == SPVBC_ERROR_VALIDATION_FAILED) errors = s.errors;
    }
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    return errors;
}

static cl_program create(const module *m, int khr, cl_int *err)
{
    if (khr) return g_khr(g_context, m->words, m->bytes, err);
    return clCreateProgramWithIL(g_context, m->words, m->bytes, err);
}

/* 1 if the ICD got exactly `m`'s bytes for `p` (through the KHR entry point if `khr`). */
static int received_same(cl_program p, const module *m, int khr)
{
    const void *il = NULL;
    size_t size = 0;
    int via_khr = -1;
    return g_received(p, &il, &size, &via_khr) && via_khr == khr && size == m->bytes &&
           memcmp(il, m->words, size) == 0;
}

/* 1 if CL_PROGRAM_IL of `p` returns `m`'s bytes. */
static int il_is(cl_program p, const module *m)
{
    size_t size = 0;
    if (clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &size) != CL_SUCCESS || size != m->bytes)
        return 0;
    unsigned char *buf = malloc(size);
    int same = buf != NULL && clGetProgramInfo(p, CL_PROGRAM_IL, size, buf, NULL) == CL_SUCCESS &&
               memcmp(buf, m->words, size) == 0;
    free(buf);
    return same;
}

/* The lowered module the ICD got for `p` checked: different from the application's, accepted by
 * spirv-val and by the library.  Returns its size in bytes (0 on failure). */
static size_t check_lowered(cl_program p, const char *what)
{
    const void *il = NULL;
    size_t size = 0;
    int khr = 0;
    if (!g_received(p, &il, &size, &khr)) {
        CHECK(0, "%s: the ICD has the program", what);
        return 0;
    }
    int changed = size != g_invalid.bytes || memcmp(il, g_invalid.words, size) != 0;
    CHECK(changed, "%s: the ICD got a module other than the application's", what);
    uint32_t *w = malloc(size + 4u);
    if (w == NULL) return 0;
    memcpy(w, il, size);
    char msg[512];
    int val = spvval_check(w, size / 4u, msg, sizeof msg);
    CHECK(val == 1, "%s: spirv-val accepts what the ICD got%s%s", what, val == 1 ? "" : ": ",
          val == 1 ? "" : msg);
    size_t errors = library_errors(w, size / 4u);
    CHECK(errors == 0, "%s: the library finds %zu errors in it", what, errors);
    free(w);
    return changed ? size : 0;
}

static void scenario_lower(void)
{
    char want[512];
    int layered = strcmp(g_scenario, "lower") == 0 || strcmp(g_scenario, "leak") == 0;
    cl_int err = CL_SUCCESS;
    /* Valid: passed on byte-identical, CL_PROGRAM_IL the same. */
    for (int khr = 0; khr <= 1; ++khr) {
        cl_program p = create(&g_valid, khr, &err);
        CHECK(p != NULL && err == CL_SUCCESS, "valid module created (%s): %d", khr ? "KHR" : "core",
              (int)err);
        if (p == NULL) continue;
        CHECK(received_same(p, &g_valid, khr), "valid module reached the ICD byte-identical (%s)",
              khr ? "KHR" : "core");
        CHECK(il_is(p, &g_valid), "CL_PROGRAM_IL of the valid module is the application's");
        CHECK(clReleaseProgram(p) == CL_SUCCESS, "released");
    }
    if (strcmp(g_scenario, "without") != 0 && strcmp(g_scenario, "off") != 0) {
        lt_verdict(want, sizeof want, "clCreateProgramWithIL", g_valid.words, g_valid.bytes / 4u,
                   "unchanged (valid");
        CHECK(lt_log_has(g_log, want), "log: '%s'", want);
    }

    /* Not SPIR-V at all: byte-identical, the driver's answer stands. */
    static const uint32_t junk[4] = {0x12345678u, 1u, 2u, 3u};
    module mj = {(uint32_t *)(uintptr_t)junk, sizeof junk};
    cl_program pj = create(&mj, 0, &err);
    CHECK(pj != NULL && received_same(pj, &mj, 0), "an unparsable module reached the ICD as given");
    if (pj != NULL) (void)clReleaseProgram(pj);

    /* Invalid: lowered (or not, without the layer / in validate and off modes). */
    for (int khr = 0; khr <= 1; ++khr) {
        const char *api = khr ? "clCreateProgramWithILKHR" : "clCreateProgramWithIL";
        cl_program p = create(&g_invalid, khr, &err);
        CHECK(p != NULL && err == CL_SUCCESS, "invalid module created through %s: %d", api,
              (int)err);
        if (p == NULL) continue;
        if (layered) {
            (void)check_lowered(p, api);
            lt_verdict(want, sizeof want, api, g_invalid.words, g_invalid.bytes / 4u, "lowered ");
            CHECK(lt_log_has(g_log, want), "log: '%s'", want);
        } else {
            CHECK(received_same(p, &g_invalid, khr), "%s: the ICD got the module unchanged", api);
        }
        CHECK(il_is(p, &g_invalid), "%s: CL_PROGRAM_IL returns the application's words", api);
        if (layered) {
            unsigned char small[8];
            size_t ret = 0;
            CHECK(clGetProgramInfo(p, CL_PROGRAM_IL, sizeof small, small, &ret) == CL_INVALID_VALUE,
                  "%s: CL_PROGRAM_IL into too small a buffer is CL_INVALID_VALUE", api);
        }
        cl_uint refs = 0;
        cl_int qr = clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, NULL);
        CHECK(qr == CL_SUCCESS && refs == 1,
              "%s: other queries reach the driver (reference count %u)", api, refs);
        /* Released through its last kernel, after the application's own release. */
        cl_kernel k = clCreateKernel(p, "unpack_rgb", &err);
        CHECK(k != NULL, "kernel created");
        CHECK(clRetainProgram(p) == CL_SUCCESS && clReleaseProgram(p) == CL_SUCCESS,
              "retain and release");
        CHECK(clReleaseProgram(p) == CL_SUCCESS, "the application released the program");
        if (k != NULL) {
            cl_program kp = NULL;
            CHECK(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof kp, &kp, NULL) == CL_SUCCESS &&
                      kp == p && il_is(kp, &g_invalid),
                  "%s: CL_PROGRAM_IL through the kernel's program is still the application's", api);
            CHECK(clReleaseKernel(k) == CL_SUCCESS, "kernel released");
        }
    }
    if (layered) {
        /* A driver that refuses the call for its own reasons (no context): its answer stands,
         * and the log does not blame the lowered module. */
        cl_program p = clCreateProgramWithIL(NULL, g_invalid.words, g_invalid.bytes, &err);
        CHECK(p == NULL && err == CL_INVALID_CONTEXT, "a NULL context: CL_INVALID_CONTEXT (%d)",
              (int)err);
        CHECK(!lt_log_has(g_log, "refused the lowered module"),
              "a NULL context: the log does not blame the lowered module");
        CHECK(lt_log_has(g_log, "clCreateProgramWithIL: the driver refused the call (-34), the "
                                "application's words too (-34)"),
              "a NULL context: the log says the driver refused the call");
    }
    if (layered) {
        /* A driver that refuses the lowered module: the application's words are passed on. */
        cl_program p = create(&g_invalid, 0, &err);
        size_t lowered = p != NULL ? check_lowered(p, "again") : 0;
        if (p != NULL) (void)clReleaseProgram(p);
        char n[32];
        (void)snprintf(n, sizeof n, "%zu", lowered);
        (void)setenv("SPVBC_TEST_ICD_REFUSE", n, 1);
        p = create(&g_invalid, 0, &err);
        CHECK(p != NULL && err == CL_SUCCESS && received_same(p, &g_invalid, 0),
              "a driver refusing the lowered module gets the application's (%d)", (int)err);
        CHECK(lt_log_has(g_log, "clCreateProgramWithIL: the driver refused the lowered module"),
              "log: the driver refused the lowered module");
        if (p != NULL) (void)clReleaseProgram(p);
        (void)unsetenv("SPVBC_TEST_ICD_REFUSE");
    }
    if (strcmp(g_scenario, "pad_error") == 0) {
        for (int khr = 0; khr <= 1; ++khr) {
            cl_program p = create(&g_invalid, khr, &err);
            CHECK(p != NULL && received_same(p, &g_invalid, khr),
                  "pad error: the ICD got the application's module unchanged (%s)",
                  khr ? "KHR" : "core");
            if (p != NULL) (void)clReleaseProgram(p);
        }
        lt_verdict(want, sizeof want, "clCreateProgramWithILKHR", g_invalid.words,
                   g_invalid.bytes / 4u, "unchanged (6 errors, 3 refused)");
        CHECK(lt_log_has(g_log, want), "log: '%s'", want);
        CHECK(!lt_log_has(g_log, "lowered "), "pad error: nothing lowered");
    }
    if (strcmp(g_scenario, "leak") == 0) {
        cl_program p = create(&g_invalid, 0, &err);
        CHECK(p != NULL, "one program the application never releases");
    }
    long live = -1;
    unsigned long il_calls = 0, khr_calls = 0;
    g_counts(&live, &il_calls, &khr_calls);
    CHECK(live == (strcmp(g_scenario, "leak") == 0 ? 1 : 0), "%ld programs alive in the ICD", live);
}

static void *thread_main(void *arg)
{
    unsigned id = (unsigned)(uintptr_t)arg;
    unsigned bad = 0;
    for (unsigned i = 0; i < PER_THREAD; ++i) {
        const module *m = ((id + i) & 1u) ? &g_invalid : &g_valid;
        int khr = (int)((i >> 1) & 1u);
        cl_int err = CL_SUCCESS;
        cl_program p = create(m, khr, &err);
        if (p == NULL) {
            ++bad;
            continue;
        }
        const void *il = NULL;
        size_t size = 0;
        int via = 0;
        if (!g_received(p, &il, &size, &via) || via != khr) ++bad;
        if (m == &g_valid && !received_same(p, m, khr)) ++bad;
        if (m == &g_invalid && size == m->bytes && memcmp(il, m->words, size) == 0) ++bad;
        if (!il_is(p, m)) ++bad;
        if (clReleaseProgram(p) != CL_SUCCESS) ++bad;
    }
    CHECK(bad == 0, "thread %u: %u of %u programs went wrong", id, bad, PER_THREAD);
    return NULL;
}

static void scenario_threads(void)
{
    pthread_t t[THREADS];
    int started[THREADS];
    for (unsigned i = 0; i < THREADS; ++i)
        started[i] = pthread_create(&t[i], NULL, thread_main, (void *)(uintptr_t)i) == 0;
    for (unsigned i = 0; i < THREADS; ++i)
        if (started[i]) (void)pthread_join(t[i], NULL);
    long live = -1;
    unsigned long il_calls = 0, khr_calls = 0;
    g_counts(&live, &il_calls, &khr_calls);
    CHECK(live == 0 && il_calls + khr_calls == THREADS * PER_THREAD,
          "%u threads: %lu programs created in the ICD, %ld alive", THREADS, il_calls + khr_calls,
          live);
    char want[512];
    lt_verdict(want, sizeof want, "clCreateProgramWithILKHR", g_invalid.words, g_invalid.bytes / 4u,
               "lowered ");
    size_t n = lt_log_count(g_log, want);
    CHECK(n == THREADS * PER_THREAD / 4u, "%zu KHR modules lowered (log '%s')", n, want);
}

/* The scenario, in the child.  Returns the exit status. */
static int run_child(const char *icd_path)
{
    cl_platform_id platform = NULL;
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(1, &platform, &np);
    if (err != CL_SUCCESS || np == 0) {
        printf("FAIL: the loader found no platform (%d): is the test ICD named in "
               "OCL_ICD_VENDORS?\n",
               (int)err);
        return 1;
    }
    void *icd = dlopen(icd_path, RTLD_NOW | RTLD_NOLOAD);
    if (icd != NULL) {
        *(void **)(&g_received) = dlsym(icd, "spvbc_test_icd_received");
        *(void **)(&g_counts) = dlsym(icd, "spvbc_test_icd_counts");
    }
    if (g_received == NULL || g_counts == NULL) {
        printf("FAIL: the loader did not load the test ICD %s\n", icd_path);
        return 1;
    }
    cl_device_id dev = NULL;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) {
        printf("FAIL: no device\n");
        return 1;
    }
    g_context = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    void *f = clGetExtensionFunctionAddressForPlatform(platform, "clCreateProgramWithILKHR");
    memcpy(&g_khr, &f, sizeof g_khr);
    if (g_context == NULL || g_khr == NULL) {
        printf("FAIL: context %d, clCreateProgramWithILKHR %p\n", (int)err, f);
        return 1;
    }
    if (strcmp(g_scenario, "threads") == 0) {
        scenario_threads();
    } else {
        scenario_lower();
    }
    (void)clReleaseContext(g_context);
    return lt_failed ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (lt_start(argc, argv, 4,
                 "without|lower|leak|validate|pad_error|off|threads <log> <examples dir> "
                 "<test ICD>") != 0)
        return 2;
    lt_verbose = 1;
    g_scenario = argv[1];
    g_log = argv[2];
    (void)remove(g_log);
    g_valid = assemble(argv[3], "astype_valid.spvasm");
    g_invalid = assemble(argv[3], "astype_invalid.spvasm");
    if (g_valid.words == NULL || g_invalid.words == NULL) {
        printf("FAIL: cannot assemble the examples in %s\n", argv[3]);
        return 1;
    }
    CHECK(library_errors(g_invalid.words, g_invalid.bytes / 4u) > 0 &&
              library_errors(g_valid.words, g_valid.bytes / 4u) == 0,
          "the examples are what the test needs (one invalid, one valid)");
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        printf("FAIL: fork\n");
        return 1;
    }
    if (pid == 0) {
        int st = run_child(argv[4]);
        fflush(stdout);
        exit(st); /* runs the layer's destructor: its unload line goes to the log */
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
        printf("FAIL: the scenario did not exit normally (status %d)\n", status);
        return 1;
    }
    int failed = WEXITSTATUS(status) != 0;
    /* What the layer says at unload. */
    int layered = strcmp(g_scenario, "without") != 0 && strcmp(g_scenario, "off") != 0;
    if (layered) {
        CHECK(lt_log_has(g_log, "CL_LAYER_SPVBC_bitcast active: mode="),
              "the layer announced itself");
        if (strcmp(g_scenario, "leak") == 0) {
            CHECK(lt_log_has(g_log, "unloaded with 1 lowered program never released"),
                  "the layer kept the one unreleased program until unload, and said so");
        } else {
            CHECK(!lt_log_has(g_log, "never released"),
                  "every program's words were freed at its release, none at unload");
        }
    } else {
        CHECK(!lt_log_has(g_log, "spvbc-layer"), "nothing logged");
    }
    free(g_valid.words);
    free(g_invalid.words);
    failed |= lt_failed != 0;
    printf("cl_layer.%s: %s\n", g_scenario, failed ? "FAIL" : "PASS");
    return failed ? 1 : 0;
}
