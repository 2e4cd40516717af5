/*
 * exec_opencl.c - the Kernel flavour of the as_type matrix, run on an OpenCL device (PoCL).
 *
 *   spvbc_exec_opencl <llvm-spirv> <scratch dir> [--all] [-v]
 *
 * For every as_type pair of the 66 OpenCL types (identity pairs aside: Kernel integers are
 * signless, so as_uint(int) is no instruction), the naive Kernel module (one OpBitcast) is
 * lowered by the library, checked by spirv-val, translated back to LLVM bitcode with
 * `llvm-spirv -r` (the Khronos translator that OpenCL stacks use), handed to the OpenCL
 * platform as a SPIR 1.2 binary (cl_khr_spir: clCreateProgramWithBinary, "-x spir"), run on
 * REF_ELEMS input values and compared bit for bit with the C reference (astype_ref.h).  Pairs
 * with a 3-component source run under both padding policies, the others once (their lowering
 * does not depend on the policy).  The generated kernel handles one value per launch (its
 * parameters are plain pointers), so each value is one launch with shared-virtual-memory
 * pointers into the input and output arrays.
 *
 * Each pair costs a process (llvm-spirv) and a program build, about a quarter of a second, so
 * by default (ctest) a fixed sample runs: every 4th pair of each lowering class (4->3, 3->4,
 * vec3-source, vec3-dest) and every 16th of the others; --all runs every pair.
 *
 * Exit status: 0 pass, 1 failure, 77 when no PoCL platform / cl_khr_spir device exists.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L /* popen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "astype_gen.h"
#include "astype_ref.h"
#include "cl_setup.h"

#define EXIT_SKIP 77

static int g_verbose;

typedef struct cl_env {
    spvbc_cl_env cl; /* the device, its context and queue */
    uint8_t *in, *out; /* coarse-grained SVM */
    char desc[512];
} cl_env;

/* Finds PoCL's platform and a device with cl_khr_spir; returns 0, EXIT_SKIP or 1. */
static int open_pocl(cl_env *env)
{
    cl_platform_id ps[SPVBC_CL_MAX_PLATFORMS];
    cl_int e;
    int np = spvbc_cl_platforms(ps, &e);
    if (np < 0) return 1;
    if (np == 0) {
        printf("opencl: SKIP: no OpenCL platform (clGetPlatformIDs: %d); PoCL is in Debian's "
               "pocl-opencl-icd\n",
               (int)e);
        return EXIT_SKIP;
    }
    for (int i = 0; i < np; ++i) {
        char name[256] = "", version[256] = "";
        (void)clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        (void)clGetPlatformInfo(ps[i], CL_PLATFORM_VERSION, sizeof version, version, NULL);
        if (strstr(name, "Portable Computing Language") == NULL) continue;
        cl_device_id dev;
        if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) continue;
        spvbc_cl_describe(dev, &env->cl.dev);
        (void)snprintf(env->desc, sizeof env->desc, "%.120s [%.200s, driver %.100s]",
                       env->cl.dev.name, version, env->cl.dev.driver);
        if (!spvbc_cl_has_word(env->cl.dev.extensions, "cl_khr_spir")) {
            printf("opencl: SKIP: %s lacks cl_khr_spir (extensions: %s)\n", env->desc,
                   env->cl.dev.extensions);
            return EXIT_SKIP;
        }
        if (spvbc_cl_open(ps[i], &env->cl) != 0) return 1;
        env->in = clSVMAlloc(env->cl.context, CL_MEM_READ_WRITE,
                             REF_ELEMS * SPVBC_CL_MAX_TYPE_BYTES, SPVBC_CL_MAX_TYPE_BYTES);
        env->out = clSVMAlloc(env->cl.context, CL_MEM_READ_WRITE,
                              REF_ELEMS * SPVBC_CL_MAX_TYPE_BYTES, SPVBC_CL_MAX_TYPE_BYTES);
        if (env->in == NULL || env->out == NULL) {
            printf("opencl: SKIP: %s: clSVMAlloc failed (no shared virtual memory)\n", env->desc);
            return EXIT_SKIP;
        }
        printf("opencl: %s: cl_khr_spir, fp16=%d fp64=%d int64=%d\n", env->desc, env->cl.dev.fp16,
               env->cl.dev.fp64, env->cl.dev.int64);
        return 0;
    }
    printf("opencl: SKIP: no PoCL platform among %d OpenCL platform(s)\n", np);
    return EXIT_SKIP;
}

static void close_pocl(cl_env *env)
{
    if (env->in != NULL) clSVMFree(env->cl.context, env->in);
    if (env->out != NULL) clSVMFree(env->cl.context, env->out);
    spvbc_cl_close(&env->cl);
}

static int write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL) return 1;
    size_t k = fwrite(data, 1, size, f);
    return (fclose(f) != 0 || k != size) ? 1 : 0;
}

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    (void)fseek(f, 0, SEEK_END);
    long n = ftell(f);
    (void)fseek(f, 0, SEEK_SET);
    unsigned char *buf = n > 0 ? malloc((size_t)n) : NULL;
    if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    (void)fclose(f);
    *size = (size_t)n;
    return buf;
}

/* spv -> bc with `llvm-spirv -r`; returns 0 on success, printing its output otherwise. */
static int reverse_translate(const char *llvm_spirv, const char *spv, const char *bc)
{
    char cmd[4096];
    (void)snprintf(cmd, sizeof cmd, "'%s' -r '%s' -o '%s' 2>&1", llvm_spirv, spv, bc);
    FILE *p = popen(cmd, "r");
    if (p == NULL) return 1;
    char line[512];
    int printed = 0;
    while (fgets(line, sizeof line, p) != NULL)
        if (printed++ < 5) printf("    llvm-spirv: %s", line);
    int rc = pclose(p);
    return rc == 0 ? 0 : 1;
}

/* Builds the bitcode as a SPIR binary and runs one launch per value; 0 on success. */
static int run_spir(cl_env *env, const char *label, const unsigned char *bc, size_t bc_size,
                    const spvbc_type_desc *s, const spvbc_type_desc *d, size_t sstride,
                    size_t dstride, reasons *failures)
{
    cl_int e, bs;
    cl_program prog =
        clCreateProgramWithBinary(env->cl.context, 1, &env->cl.dev.id, &bc_size, &bc, &bs, &e);
    if (e != CL_SUCCESS) {
        printf("  FAIL %s: clCreateProgramWithBinary: %d (binary status %d)\n", label, (int)e,
               (int)bs);
        ref_reasons_add(failures, "clCreateProgramWithBinary");
        return 1;
    }
    const char *step = NULL;
    cl_kernel k = spvbc_cl_build_kernel(prog, env->cl.dev.id, "-x spir -spir-std=1.2", "astype",
                                        label, &step);
    if (k == NULL) {
        ref_reasons_add(failures, step);
        return 1;
    }
    int rc = 0;
    (void)clEnqueueSVMUnmap(env->cl.queue, env->in, 0, NULL, NULL);
    (void)clEnqueueSVMUnmap(env->cl.queue, env->out, 0, NULL, NULL);
    for (uint32_t i = 0; i < REF_ELEMS && rc == 0; ++i) {
        size_t one = 1;
        if (clSetKernelArgSVMPointer(k, 0, env->in + i * sstride) != CL_SUCCESS ||
            clSetKernelArgSVMPointer(k, 1, env->out + i * dstride) != CL_SUCCESS ||
            (e = clEnqueueNDRangeKernel(env->cl.queue, k, 1, NULL, &one, NULL, 0, NULL, NULL)) !=
                CL_SUCCESS) {
            printf("  FAIL %s: launch %u: %d\n", label, i, (int)e);
            ref_reasons_add(failures, "clEnqueueNDRangeKernel");
            rc = 1;
        }
    }
    if (clFinish(env->cl.queue) != CL_SUCCESS) rc = 1;
    (void)clEnqueueSVMMap(env->cl.queue, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, env->in,
                          REF_ELEMS * SPVBC_CL_MAX_TYPE_BYTES, 0, NULL, NULL);
    (void)clEnqueueSVMMap(env->cl.queue, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, env->out,
                          REF_ELEMS * SPVBC_CL_MAX_TYPE_BYTES, 0, NULL, NULL);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    (void)s;
    (void)d;
    return rc;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 3) {
        fprintf(stderr, "usage: %s <llvm-spirv> <scratch dir> [-v]\n", argv[0]);
        return 2;
    }
    const char *llvm_spirv = argv[1], *dir = argv[2];
    int all = 0;
    for (int a = 3; a < argc; ++a) {
        if (strcmp(argv[a], "-v") == 0) g_verbose = 1;
        if (strcmp(argv[a], "--all") == 0) all = 1;
    }
    cl_env env;
    memset(&env, 0, sizeof env);
    int rc = open_pocl(&env);
    if (rc != 0) {
        close_pocl(&env);
        return rc;
    }
    (void)clEnqueueSVMMap(env.cl.queue, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, env.in,
                          REF_ELEMS * SPVBC_CL_MAX_TYPE_BYTES, 0, NULL, NULL);
    (void)clEnqueueSVMMap(env.cl.queue, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, env.out,
                          REF_ELEMS * SPVBC_CL_MAX_TYPE_BYTES, 0, NULL, NULL);
    const int tenv = spvbc_gen_target_env(SPVBC_GEN_KERNEL);
    spvbc_type_desc types[SPVBC_GEN_OPENCL_TYPE_COUNT];
    size_t nt = spvbc_gen_opencl_types(types);
    char spv_path[1024], bc_path[1024];
    (void)snprintf(spv_path, sizeof spv_path, "%s/astype.spv", dir);
    (void)snprintf(bc_path, sizeof bc_path, "%s/astype.bc", dir);
    ref_tally t;
    memset(&t, 0, sizeof t);
    unsigned runs = 0;
    unsigned class_seen[PC_NUM] = {0}, sampled_out = 0;

    for (size_t i = 0; i < nt; ++i) {
        for (size_t j = 0; j < nt; ++j) {
            const spvbc_type_desc *s = &types[i], *d = &types[j];
            if (ref_opencl_bytes(s) != ref_opencl_bytes(d)) continue;
            /* Kernel integers are signless: int and uint are one SPIR-V type. */
            if (s->kind == d->kind && s->width == d->width && s->count == d->count) continue;
            char sn[16], dn[16], label[80];
            spvbc_gen_type_name(s, sn, sizeof sn);
            spvbc_gen_type_name(d, dn, sizeof dn);
            pair_class pc = ref_classify(s, d);
            unsigned every = (pc == PC_SAME_COUNT || pc == PC_COUNT_CHANGE) ? 16u : 4u;
            if (!all && class_seen[pc]++ % every != 0) {
                sampled_out++;
                continue;
            }
            const char *miss = spvbc_cl_pair_missing(&env.cl.dev, s, d);
            if (miss != NULL) {
                t.pairs_skipped++;
                ref_reasons_add(&t.skipped, miss);
                continue;
            }
            int ok = 1;
            char *text = spvbc_gen_astype_text(s, d, SPVBC_GEN_KERNEL);
            uint32_t *naive = NULL;
            size_t nw = 0;
            if (text == NULL || spvbc_gen_assemble(text, tenv, &naive, &nw) != 0) {
                printf("  FAIL as_%s(%s): no naive module\n", dn, sn);
                ref_reasons_add(&t.failures, "no naive module");
                ok = 0;
            }
            free(text);
            size_t sstride = ref_opencl_bytes(s), dstride = ref_opencl_bytes(d);
            int policies = s->count == 3 ? 2 : 1;
            for (int p = 0; p < policies && ok; ++p) {
                spvbc_pad_policy pad = p == 0 ? SPVBC_PAD_UNDEF : SPVBC_PAD_ZERO;
                (void)snprintf(label, sizeof label, "as_%s(%s) pad=%s", dn, sn,
                               p == 0 ? "undef" : "zero");
                uint32_t *low = NULL;
                size_t ln = 0, rewritten = 0;
                char vmsg[512];
                if (ref_lower(naive, nw, pad, &low, &ln, &rewritten) != 0) {
                    printf("  FAIL %s: the library could not lower it\n", label);
                    ref_reasons_add(&t.failures, "lowering failed");
                    ok = 0;
                    break;
                }
                if (spvbc_gen_validate(low, ln, tenv, vmsg, sizeof vmsg) != 0) {
                    printf("  FAIL %s: spirv-val rejects the lowered module: %s\n", label, vmsg);
                    ref_reasons_add(&t.failures, "lowered module invalid");
                    free(low);
                    ok = 0;
                    break;
                }
                int wrote = write_file(spv_path, low, ln * sizeof *low);
                free(low);
                if (wrote != 0 || reverse_translate(llvm_spirv, spv_path, bc_path) != 0) {
                    printf("  FAIL %s: llvm-spirv -r failed\n", label);
                    ref_reasons_add(&t.failures, "llvm-spirv -r");
                    ok = 0;
                    break;
                }
                size_t bc_size = 0;
                unsigned char *bc = read_file(bc_path, &bc_size);
                if (bc == NULL) {
                    ref_reasons_add(&t.failures, "no bitcode");
                    ok = 0;
                    break;
                }
                ref_make_inputs(env.in, s, d, sstride,
                                0x0c1000000ull + i * 131u + j * 7u + (unsigned)p);
                memset(env.out, REF_OUT_FILL, REF_ELEMS * dstride);
                int r = run_spir(&env, label, bc, bc_size, s, d, sstride, dstride, &t.failures);
                free(bc);
                runs++;
                t.values += REF_ELEMS;
                if (r != 0) {
                    ok = 0;
                    break;
                }
                if (!ref_tally_compare(&t, label, env.in, sstride, s, env.out, dstride, d, pad, pc,
                                       g_verbose))
                    ok = 0;
            }
            free(naive);
            ref_tally_pair(&t, pc, ok);
        }
    }
    ref_tally_print(&t, "opencl");
    if (!all) printf("opencl: sample: %u pairs not run (--all runs every pair)\n", sampled_out);
    char runs_note[96];
    (void)snprintf(runs_note, sizeof runs_note,
                   "%u runs: 3-component sources under both pad policies", runs);
    int status = ref_tally_summary(&t, "opencl", env.desc, runs_note);
    close_pocl(&env);
    return status;
}
