/*
 * cl_layer_exec.c - the OpenCL layer on a real driver that ingests SPIR-V (rusticl, PoCL 6.0),
 * run by cmake/opencl-trixie.sh with the driver named by SPVBC_EXPECT_CL_PLATFORM.
 *
 *   spvbc_cl_layer_exec <with|without> <log> <examples dir>
 *
 * The application passes examples/astype_invalid.spvasm (SPIR-V 1.0, as_type bitcasts that are
 * invalid SPIR-V) to clCreateProgramWithIL unchanged.
 *   without  no layer: the driver refuses it (clCreateProgramWithIL or clBuildProgram fails)
 *   with     through OPENCL_LAYERS: it builds, and every kernel of the module runs bit-exact on
 *            1,024 elements: the lanes as_type defines equal the input's bits (a padded lane is
 *            0 under SPVBC_LAYER_PAD=zero, anything under undef); CL_PROGRAM_IL still returns the
 *            application's words; the layer logged the lowering and freed what it kept
 * The scenario runs in a child process so that the parent can read the layer's unload line.
 *
 * Exit status: 0 pass, 1 failure, 77 the driver is not there.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "layer_test_util.h"
#include "spirv-tools/libspirv.h"

#define ELEMS 1024u

/* One kernel of astype_invalid.spvasm: element strides of its two buffers (a 3-component
 * vector is stored as 4), the bytes of each output element as_type defines (lane 3 of a padded
 * source is not among them), and whether the padded byte range [pad_from, stride) must be zero
 * under SPVBC_LAYER_PAD=zero (0: no padding). */
typedef struct kernel_case {
    const char *name;
    size_t in_stride, out_stride, defined, pad_from;
    int mask_sign; /* sign_mask: out = as_int4(in) & 0x7fffffff */
} kernel_case;

static const kernel_case g_cases[] = {
    {"unpack_rgb", 16, 16, 12, 0, 0}, /* as_float3(float4) */
    {"widen", 16, 16, 12, 12, 0}, /* as_float4(float3): lane 3 padded */
    {"float_bits", 16, 16, 12, 12, 0}, /* as_int4(float3) */
    {"split_longs", 16, 16, 12, 0, 0}, /* as_int3(long2) */
    {"pixel_bytes", 4, 4, 3, 0, 0}, /* as_char3(int) */
    {"pack_pixel", 4, 4, 3, 3, 0}, /* as_float(char3): byte 3 padded */
    {"sign_mask", 16, 16, 16, 0, 1}, /* as_int4(float4), already valid */
};

static uint32_t *assemble(const char *dir, size_t *bytes)
{
    char path[1024];
    (void)snprintf(path, sizeof path, "%s/astype_invalid.spvasm", dir);
    char *text = spvbc_test_read_file(path);
    uint32_t *w = NULL;
    spv_context ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_0);
    spv_binary bin = NULL;
    if (text != NULL && text[0] != '\0' && ctx != NULL &&
        spvTextToBinary(ctx, text, strlen(text), &bin, NULL) == SPV_SUCCESS &&
        (w = malloc(bin->wordCount * 4u)) != NULL) {
        memcpy(w, bin->code, bin->wordCount * 4u);
        *bytes = bin->wordCount * 4u;
    }
    spvBinaryDestroy(bin);
    spvContextDestroy(ctx);
    free(text);
    return w;
}

/* The platform whose name contains $SPVBC_EXPECT_CL_PLATFORM and whose device's driver version
 * contains $SPVBC_EXPECT_CL_DRIVER, or NULL (with the reason printed). */
static cl_device_id find_device(void)
{
    const char *want = getenv("SPVBC_EXPECT_CL_PLATFORM");
    const char *driver = getenv("SPVBC_EXPECT_CL_DRIVER");
    cl_platform_id ps[8];
    cl_uint np = 0;
    if (clGetPlatformIDs(8, ps, &np) != CL_SUCCESS) np = 0;
    for (cl_uint i = 0; i < np && i < 8; ++i) {
        char name[256] = "", version[256] = "";
        (void)clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (want != NULL && strstr(name, want) == NULL) continue;
        cl_device_id dev = NULL;
        if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) continue;
        (void)clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof version, version, NULL);
        printf("  platform %s, driver %s\n", name, version);
        if (driver != NULL && strstr(version, driver) == NULL) {
            printf("FAIL: the driver is not %s\n", driver);
            return NULL;
        }
        return dev;
    }
    printf("  no platform named '%s' (%u platforms)\n", want != NULL ? want : "", np);
    return NULL;
}

/* Runs case `k` of `program`; returns 1 if every element is bit-exact. */
static int run_case(cl_context ctx, cl_command_queue q, cl_program program, const kernel_case *k,
                    const unsigned char *in, int pad_zero)
{
    cl_int err = CL_SUCCESS;
    cl_kernel kern = clCreateKernel(program, k->name, &err);
    cl_mem bin = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, ELEMS * k->in_stride,
                                (void *)(uintptr_t)in, &err);
    cl_mem bout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, ELEMS * k->out_stride, NULL, &err);
    unsigned char *out = malloc(ELEMS * k->out_stride);
    int ok = kern != NULL && bin != NULL && bout != NULL && out != NULL;
    size_t global = ELEMS;
    if (ok) {
        memset(out, 0xa5, ELEMS * k->out_stride);
        ok = clSetKernelArg(kern, 0, sizeof bin, &bin) == CL_SUCCESS &&
             clSetKernelArg(kern, 1, sizeof bout, &bout) == CL_SUCCESS &&
             clEnqueueWriteBuffer(q, bout, CL_TRUE, 0, ELEMS * k->out_stride, out, 0, NULL, NULL) ==
                 CL_SUCCESS &&
             clEnqueueNDRangeKernel(q, kern, 1, NULL, &global, NULL, 0, NULL, NULL) == CL_SUCCESS &&
             clEnqueueReadBuffer(q, bout, CL_TRUE, 0, ELEMS * k->out_stride, out, 0, NULL, NULL) ==
                 CL_SUCCESS;
    }
    size_t wrong = 0;
    for (size_t e = 0; ok && e < ELEMS; ++e) {
        const unsigned char *i = in + e * k->in_stride, *o = out + e * k->out_stride;
        if (k->mask_sign) {
            for (size_t w = 0; w < 4; ++w) {
                uint32_t a, b;
                memcpy(&a, i + 4 * w, 4);
                memcpy(&b, o + 4 * w, 4);
                if (b != (a & 0x7fffffffu)) ++wrong;
            }
            continue;
        }
        if (memcmp(i, o, k->defined) != 0) ++wrong;
        if (pad_zero && k->pad_from != 0)
            for (size_t b = k->pad_from; b < k->out_stride; ++b)
                if (o[b] != 0) ++wrong;
    }
    CHECK(ok && wrong == 0, "%s: %s, %zu of %u elements wrong", k->name, ok ? "ran" : "did not run",
          wrong, ELEMS);
    free(out);
    if (bout != NULL) (void)clReleaseMemObject(bout);
    if (bin != NULL) (void)clReleaseMemObject(bin);
    if (kern != NULL) (void)clReleaseKernel(kern);
    return ok && wrong == 0;
}

static int run_child(int with, const uint32_t *words, size_t bytes)
{
    cl_device_id dev = find_device();
    if (dev == NULL) return getenv("SPVBC_EXPECT_CL_DRIVER") != NULL ? 1 : 77;
    cl_int err = CL_SUCCESS;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q =
        ctx != NULL ? clCreateCommandQueueWithProperties(ctx, dev, NULL, &err) : NULL;
    if (q == NULL) {
        printf("FAIL: no context or queue (%d)\n", (int)err);
        return 1;
    }
    cl_program p = clCreateProgramWithIL(ctx, words, bytes, &err);
    cl_int built = p != NULL ? clBuildProgram(p, 1, &dev, "", NULL, NULL) : err;
    if (!with) {
        CHECK(built != CL_SUCCESS, "without the layer the driver refuses the module (%d)",
              (int)built);
    } else {
        CHECK(built == CL_SUCCESS, "through the layer the module builds (%d)", (int)built);
        size_t il = 0;
        unsigned char *back = malloc(bytes);
        CHECK(back != NULL && clGetProgramInfo(p, CL_PROGRAM_IL, bytes, back, &il) == CL_SUCCESS &&
                  il == bytes && memcmp(back, words, bytes) == 0,
              "CL_PROGRAM_IL returns the application's %zu bytes", bytes);
        free(back);
        const char *pad = getenv("SPVBC_LAYER_PAD");
        int pad_zero = pad != NULL && strcmp(pad, "zero") == 0;
        unsigned char *in = malloc(ELEMS * 16u);
        if (built == CL_SUCCESS && in != NULL) {
            uint32_t x = 0x9e3779b9u;
            for (size_t i = 0; i < ELEMS * 4u; ++i) {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                uint32_t v = x & ~0x40000000u; /* a finite float whatever the lane */
                memcpy(in + 4 * i, &v, 4);
            }
            unsigned passed = 0;
            for (size_t c = 0; c < sizeof g_cases / sizeof g_cases[0]; ++c)
                passed += (unsigned)run_case(ctx, q, p, &g_cases[c], in, pad_zero);
            printf("  %u of %zu kernels bit-exact (pad %s)\n", passed,
                   sizeof g_cases / sizeof g_cases[0], pad_zero ? "zero" : "undef");
        }
        free(in);
    }
    if (p != NULL) (void)clReleaseProgram(p);
    (void)clReleaseCommandQueue(q);
    (void)clReleaseContext(ctx);
    return lt_failed ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (lt_start(argc, argv, 3, "with|without <log> <examples dir>") != 0) return 2;
    lt_verbose = 1;
    int with = strcmp(argv[1], "with") == 0;
    const char *log = argv[2];
    (void)remove(log);
    size_t bytes = 0;
    uint32_t *words = assemble(argv[3], &bytes);
    if (words == NULL) {
        printf("FAIL: cannot assemble %s/astype_invalid.spvasm\n", argv[3]);
        return 1;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int st = run_child(with, words, bytes);
        fflush(stdout);
        exit(st);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
        printf("FAIL: the scenario did not exit normally\n");
        free(words);
        return 1;
    }
    int st = WEXITSTATUS(status);
    if (st == 77) {
        printf("SKIP: the driver is not there\n");
        free(words);
        return 77;
    }
    if (with) {
        char want[256];
        lt_verdict(want, sizeof want, "clCreateProgramWithIL", words, bytes / 4u, "lowered 6");
        CHECK(lt_log_has(log, want), "log: '%s'", want);
        CHECK(!lt_log_has(log, "never released"), "the layer freed what it kept");
    } else {
        CHECK(!lt_log_has(log, "spvbc-layer"), "nothing logged without the layer");
    }
    free(words);
    int failed = st != 0 || lt_failed != 0;
    printf("cl_layer.exec.%s: %s\n", argv[1], failed ? "FAIL" : "PASS");
    return failed ? 1 : 0;
}
