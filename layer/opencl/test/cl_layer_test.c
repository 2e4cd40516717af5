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
 *   deinit      no loader: the test loads the layer and the test ICD itself, initializes the
 *               layer with clInitLayerWithProperties(CL_LAYER_DEINITIALIZATION_FUNCTION) as the
 *               Khronos loader does, leaves one lowered program unreleased and calls
 *               clDeinitLayer: the layer says so once, then and not at exit, and a release
 *               callback the driver calls after it (the program released late) frees nothing
 * In every scenario but deinit, lowered programs also live on through kernels
 * (clCreateKernel, clCreateKernelsInProgram, clCloneKernel, clRetainKernel), carry an
 * application's own release callback (called once, at the program's end, with its handle), and
 * the layer never reads CL_PROGRAM_REFERENCE_COUNT or CL_KERNEL_REFERENCE_COUNT (the test ICD
 * counts who does).  The test ICD may refuse clSetProgramReleaseCallback
 * (SPVBC_TEST_ICD_RELEASE_CALLBACK=0): the layer then frees by its own count of references.
 *
 * Exit status: 0 pass, 1 failure, 77 no loader with layer support.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L
#include "cl_target.h" /* before any other OpenCL header */

#include <CL/cl_icd.h>
#include <CL/cl_layer.h>
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
static spvbc_test_icd_refcount_queries_fn g_refcount_queries;
static unsigned long g_own_refcount_queries; /* the test's own */

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

static int g_app_released;
static cl_program g_app_released_handle;

static void CL_CALLBACK app_released(cl_program program, void *user_data)
{
    g_app_released += user_data == &g_app_released;
    g_app_released_handle = program;
}

/* A lowered program (where the layer lowers) carries the application's own release callback,
 * which the driver calls once, at the program's end, with the application's handle; where the
 * driver refuses release callbacks, the application hears the same refusal with the layer. */
static void check_app_callback(void)
{
    const char *cb = getenv("SPVBC_TEST_ICD_RELEASE_CALLBACK");
    const int refused = cb != NULL && strcmp(cb, "0") == 0;
    cl_int err = CL_SUCCESS;
    cl_program p = create(&g_invalid, 0, &err);
    if (p == NULL) return;
    cl_int r = clSetProgramReleaseCallback(p, app_released, &g_app_released);
    CHECK(r == (refused ? CL_INVALID_OPERATION : CL_SUCCESS),
          "the application's release callback: %d, as the driver answers", (int)r);
    cl_kernel k = clCreateKernel(p, "unpack_rgb", &err);
    CHECK(clReleaseProgram(p) == CL_SUCCESS && g_app_released == 0,
          "the application's callback waits for the program's kernel");
    CHECK(il_is(p, &g_invalid), "CL_PROGRAM_IL while the kernel holds the program");
    if (k != NULL) (void)clReleaseKernel(k);
    if (!refused)
        CHECK(g_app_released == 1 && g_app_released_handle == p,
              "the application's callback called once, with its handle (%d)", g_app_released);
}

/* Kernels made by clCreateKernelsInProgram and clCloneKernel, retained and released, keep a
 * lowered program (and the layer's copy of the application's words) alive after the
 * application's own release, and let go of it with the last of them. */
static void check_kernels(void)
{
    cl_int err = CL_SUCCESS;
    cl_program p = create(&g_invalid, 1, &err);
    if (p == NULL) return;
    cl_kernel k = NULL, clone = NULL;
    cl_uint n = 0;
    CHECK(clCreateKernelsInProgram(p, 1, &k, &n) == CL_SUCCESS && k != NULL && n == 1,
          "clCreateKernelsInProgram");
    CHECK(clReleaseProgram(p) == CL_SUCCESS, "the application released the program");
    CHECK(k != NULL && clRetainKernel(k) == CL_SUCCESS && clReleaseKernel(k) == CL_SUCCESS,
          "kernel retained and released once");
    CHECK(il_is(p, &g_invalid), "CL_PROGRAM_IL while its kernel lives");
    clone = k != NULL ? clCloneKernel(k, &err) : NULL;
    CHECK(clone != NULL, "clCloneKernel: %d", (int)err);
    if (k != NULL) (void)clReleaseKernel(k);
    CHECK(il_is(p, &g_invalid), "CL_PROGRAM_IL while only the clone lives");
    if (clone != NULL) (void)clReleaseKernel(clone);
}

/* Where the driver refuses a call: for its own reasons (a NULL context), its answer stands and
 * the log blames no module; refusing the lowered module, it gets the application's. */
static void check_driver_refusals(void)
{
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithIL(NULL, g_invalid.words, g_invalid.bytes, &err);
    CHECK(p == NULL && err == CL_INVALID_CONTEXT, "a NULL context: CL_INVALID_CONTEXT (%d)",
          (int)err);
    CHECK(!lt_log_has(g_log, "refused the lowered module"),
          "a NULL context: the log does not blame the lowered module");
    CHECK(lt_log_has(g_log, "clCreateProgramWithIL: the driver refused the call (-34), the "
                            "application's words too (-34)"),
          "a NULL context: the log says the driver refused the call");
    p = create(&g_invalid, 0, &err);
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

/* Under SPVBC_LAYER_PAD=error the invalid module, half of whose bitcasts have a 3-component
 * source, reaches the ICD as the application gave it. */
static void check_pad_error(void)
{
    char want[512];
    cl_int err = CL_SUCCESS;
    for (int khr = 0; khr <= 1; ++khr) {
        cl_program p = create(&g_invalid, khr, &err);
        CHECK(p != NULL && received_same(p, &g_invalid, khr),
              "pad error: the ICD got the application's module unchanged (%s)",
              khr ? "KHR" : "core");
        if (p != NULL) (void)clReleaseProgram(p);
    }
    lt_verdict(want, sizeof want, "clCreateProgramWithILKHR", g_invalid.words, g_invalid.bytes / 4u,
               "unchanged (6 errors, 3 refused)");
    CHECK(lt_log_has(g_log, want), "log: '%s'", want);
    CHECK(!lt_log_has(g_log, "lowered "), "pad error: nothing lowered");
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
        ++g_own_refcount_queries;
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
    if (layered) check_driver_refusals();
    if (strcmp(g_scenario, "pad_error") == 0) check_pad_error();
    if (strcmp(g_scenario, "leak") == 0) {
        cl_program p = create(&g_invalid, 0, &err);
        CHECK(p != NULL, "one program the application never releases");
    }
    check_app_callback();
    check_kernels();
    long live = -1;
    unsigned long il_calls = 0, khr_calls = 0;
    g_counts(&live, &il_calls, &khr_calls);
    CHECK(live == (strcmp(g_scenario, "leak") == 0 ? 1 : 0), "%ld programs alive in the ICD", live);
    CHECK(g_refcount_queries() == g_own_refcount_queries,
          "reference counts read %lu times, by the test %lu", g_refcount_queries(),
          g_own_refcount_queries);
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
        /* Every fourth program lives on through a kernel after its own release. */
        cl_kernel k = (i & 3u) == 1u ? clCreateKernel(p, "unpack_rgb", &err) : NULL;
        if (clReleaseProgram(p) != CL_SUCCESS) ++bad;
        if (k != NULL && (!il_is(p, m) || clReleaseKernel(k) != CL_SUCCESS)) ++bad;
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
    CHECK(g_refcount_queries() == 0, "the layer read reference counts %lu times",
          g_refcount_queries());
}

typedef cl_int(CL_API_CALL *layer_info_fn)(cl_uint, size_t, void *, size_t *);
typedef cl_int(CL_API_CALL *init_with_properties_fn)(cl_uint, const cl_icd_dispatch *, cl_uint *,
                                                     const cl_icd_dispatch **, const intptr_t *);
typedef cl_int(CL_API_CALL *deinit_fn)(void);
typedef cl_int(CL_API_CALL *icd_platforms_fn)(cl_uint, cl_platform_id *, cl_uint *);

/* The deinit scenario, as the Khronos loader drives a layer that it ends with clDeinitLayer:
 * `ld` the layer's table, `icd` the driver's, over `platform`. */
static void deinit_programs(const cl_icd_dispatch *ld, const cl_icd_dispatch *icd,
                            cl_platform_id platform, deinit_fn deinit)
{
    cl_device_id dev = NULL;
    cl_int err = CL_SUCCESS;
    CHECK(ld->clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) == CL_SUCCESS, "device");
    cl_context ctx = ld->clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (ctx == NULL) {
        CHECK(0, "context: %d", (int)err);
        return;
    }
    cl_program p = ld->clCreateProgramWithIL(ctx, g_invalid.words, g_invalid.bytes, &err);
    CHECK(p != NULL && check_lowered(p, "deinit") != 0, "lowered through the layer's table");
    if (p != NULL) (void)ld->clReleaseProgram(p);
    cl_program kept = ld->clCreateProgramWithIL(ctx, g_invalid.words, g_invalid.bytes, &err);
    CHECK(kept != NULL, "a lowered program left unreleased");
    CHECK(deinit() == CL_SUCCESS, "clDeinitLayer");
    CHECK(lt_log_count(g_log, "unloaded with 1 lowered program never released") == 1,
          "clDeinitLayer said that one program was never released");
    /* The driver destroys it after the layer's end: its release callback frees nothing. */
    if (kept != NULL) CHECK(icd->clReleaseProgram(kept) == CL_SUCCESS, "released after the end");
    (void)icd->clReleaseContext(ctx);
}

/* The deinit scenario (no loader): returns the exit status. */
static int run_deinit(const char *icd_path)
{
    const char *layer_path = getenv("SPVBC_TEST_CL_LAYER");
    void *icd = dlopen(icd_path, RTLD_NOW | RTLD_LOCAL);
    void *layer = layer_path != NULL ? dlopen(layer_path, RTLD_NOW | RTLD_LOCAL) : NULL;
    icd_platforms_fn ids = NULL;
    layer_info_fn info = NULL;
    init_with_properties_fn init = NULL;
    deinit_fn deinit = NULL;
    if (icd != NULL && layer != NULL) {
        *(void **)(&ids) = dlsym(icd, "clIcdGetPlatformIDsKHR");
        *(void **)(&g_received) = dlsym(icd, "spvbc_test_icd_received");
        *(void **)(&info) = dlsym(layer, "clGetLayerInfo");
        *(void **)(&init) = dlsym(layer, "clInitLayerWithProperties");
        *(void **)(&deinit) = dlsym(layer, "clDeinitLayer");
    }
    cl_platform_id platform = NULL;
    if (ids == NULL || g_received == NULL || info == NULL || init == NULL || deinit == NULL ||
        ids(1, &platform, NULL) != CL_SUCCESS || platform == NULL) {
        printf("FAIL: cannot load the layer (%s) and the test ICD with their entry points\n",
               layer_path != NULL ? layer_path : "SPVBC_TEST_CL_LAYER unset");
        return 1;
    }
    cl_uint version = 0;
    cl_int vr = info(CL_LAYER_API_VERSION, sizeof version, &version, NULL);
    CHECK(vr == CL_SUCCESS && version == CL_LAYER_API_VERSION_100,
          "layer API version %u (every loader's)", version);
    const cl_icd_dispatch *icd_table = *(const cl_icd_dispatch *const *)(const void *)platform;
    const intptr_t props[] = {0x4242 /* CL_LAYER_DEINITIALIZATION */,
                              0x4244 /* CL_LAYER_DEINITIALIZATION_FUNCTION */, 0};
    const intptr_t bad[] = {0x4242, 0x1234, 0};
    const cl_icd_dispatch *ld = NULL;
    cl_uint n = 0;
    const cl_uint entries = (cl_uint)(sizeof(cl_icd_dispatch) / sizeof(void *));
    CHECK(init(entries, icd_table, &n, &ld, bad) == CL_INVALID_PROPERTY,
          "an unknown deinitialization is CL_INVALID_PROPERTY");
    if (init(entries, icd_table, &n, &ld, props) != CL_SUCCESS || ld == NULL) {
        printf("FAIL: clInitLayerWithProperties\n");
        return 1;
    }
    deinit_programs(ld, icd_table, platform, deinit);
    (void)dlclose(layer);
    CHECK(lt_log_count(g_log, "never released") == 1,
          "nothing more said when the layer is unloaded (no atexit after clDeinitLayer)");
    return lt_failed ? 1 : 0;
}

/* The scenario, in the child.  Returns the exit status. */
static int run_child(const char *icd_path)
{
    if (strcmp(g_scenario, "deinit") == 0) return run_deinit(icd_path);
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
        *(void **)(&g_refcount_queries) = dlsym(icd, "spvbc_test_icd_refcount_queries");
    }
    if (g_received == NULL || g_counts == NULL || g_refcount_queries == NULL) {
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
                 "without|lower|leak|validate|pad_error|off|threads|deinit <log> <examples dir> "
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
        if (strcmp(g_scenario, "leak") == 0 || strcmp(g_scenario, "deinit") == 0) {
            CHECK(lt_log_count(g_log, "unloaded with 1 lowered program never released") == 1,
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
