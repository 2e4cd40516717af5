/*
 * opencl_il.c - the as_type execution suite through clCreateProgramWithIL, on an OpenCL driver
 * that ingests SPIR-V (rusticl, PoCL 6: cmake/opencl-trixie.sh runs it on them).
 *
 *   spvbc_opencl_il pairs [--naive --pad undef|zero] [--check-il] [-v]
 *   spvbc_opencl_il unlowered --expect-log <text> [--expect-stderr <text>] [-v]
 *
 * pairs: for every as_type pair of the 66 OpenCL types (identity pairs aside: Kernel integers
 *   are signless) whose types the device supports, the naive Kernel module (one OpBitcast,
 *   test/support/astype_gen.h) goes to the driver with clCreateProgramWithIL:
 *   - when the naive module is valid SPIR-V (no 3-component side, or both), the library's
 *     lowering must leave it word for word as it is, and it runs as it is (a valid program
 *     passes through);
 *   - otherwise it is lowered by the library under both pad policies, each lowered module is
 *     checked by spirv-val (SPIRV-Tools) and runs.
 *   Each run is REF_ELEMS input values in one launch (the generated kernel, whose parameters
 *   are plain pointers, indexed by the work-item id: see indexed_text()), compared bit for
 *   bit with the C reference (test/exec/astype_ref.h) under the policy the module was lowered
 *   with.  --naive hands every naive module to the driver unlowered and compares under --pad:
 *   it passes only where something between the program and the driver (the OpenCL layer, or
 *   the driver itself: Mesa with spirv-bitcast) lowers the invalid ones under that policy.
 *   --check-il: after each build, CL_PROGRAM_IL must return the very words handed to
 *   clCreateProgramWithIL (a driver that lowers them keeps the application's).
 * unlowered: every invalid naive module (a 3-component side against a 4-lane one: the total bit
 *   widths differ) is created with clCreateProgramWithIL, which must succeed, and built, which
 *   must fail with CL_BUILD_PROGRAM_FAILURE and a build log containing <text> (what the driver
 *   says: rusticl runs SPIRV-Tools' validator and logs its message; PoCL's log only says the
 *   build failed, while LLVM's verifier writes why to the process's stderr, which is captured
 *   during clBuildProgram and must contain the --expect-stderr text).
 *
 * The platform is the one whose name contains $SPVBC_EXPECT_CL_PLATFORM (the runner sets it, with
 * $SPVBC_EXPECT_CL_DRIVER, a part of CL_DRIVER_VERSION): a different driver answering is a
 * failure, not a skip.  Unset, the first platform with a SPIR-V-ingesting device is used.
 *
 * Exit status: 0 pass, 1 failure, 77 (with "SKIP: <reason>") when no such device exists and none
 * was expected.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L /* dup, fileno */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "astype_gen.h"
#include "astype_ref.h"
#include "cl_setup.h"

#define EXIT_SKIP 77

static int g_verbose;
static int g_check_il; /* --check-il */

typedef struct cl_env {
    spvbc_cl_env cl; /* the device, its context and queue */
    cl_mem in, out; /* REF_ELEMS * SPVBC_CL_MAX_TYPE_BYTES each */
    uint8_t in_host[REF_ELEMS * SPVBC_CL_MAX_TYPE_BYTES],
        out_host[REF_ELEMS * SPVBC_CL_MAX_TYPE_BYTES];
    char desc[640];
} cl_env;

/* Finds the platform and device; returns 0, EXIT_SKIP or 1. */
static int find_device(cl_platform_id *platform, cl_device_id *device, char *il, size_t il_size)
{
    const char *want = getenv("SPVBC_EXPECT_CL_PLATFORM");
    cl_platform_id ps[SPVBC_CL_MAX_PLATFORMS];
    cl_int e;
    int np = spvbc_cl_platforms(ps, &e);
    if (np < 0) return 1;
    if (np == 0) {
        printf("%s: no OpenCL platform (clGetPlatformIDs: %d)\n", want ? "FAIL" : "SKIP", (int)e);
        return want ? 1 : EXIT_SKIP;
    }
    for (int i = 0; i < np; ++i) {
        char name[256] = "";
        (void)clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (want != NULL && strstr(name, want) == NULL) continue;
        cl_device_id dev;
        if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) continue;
        il[0] = '\0';
        (void)clGetDeviceInfo(dev, CL_DEVICE_IL_VERSION, il_size, il, NULL);
        if (strstr(il, "SPIR-V_1.0") == NULL && want == NULL) continue;
        *platform = ps[i];
        *device = dev;
        return 0;
    }
    if (want != NULL) {
        printf("FAIL: no platform named like \"%s\" with a device among %d platform(s)\n", want,
               np);
        return 1;
    }
    printf("SKIP: no device that takes SPIR-V 1.0 (CL_DEVICE_IL_VERSION) among %d platform(s)\n",
           np);
    return EXIT_SKIP;
}

static int open_env(cl_env *env)
{
    cl_platform_id platform;
    cl_device_id device;
    char il[256];
    int rc = find_device(&platform, &device, il, sizeof il);
    if (rc != 0) return rc;
    char pname[256] = "";
    (void)clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    spvbc_cl_device *dev = &env->cl.dev;
    spvbc_cl_describe(device, dev);
    (void)snprintf(env->desc, sizeof env->desc, "%.100s: %.120s [driver %.100s, IL %.200s]", pname,
                   dev->name, dev->driver, il);
    const char *want_driver = getenv("SPVBC_EXPECT_CL_DRIVER");
    if (want_driver != NULL && strstr(dev->driver, want_driver) == NULL) {
        printf("FAIL: %s: the driver version is not %s\n", env->desc, want_driver);
        return 1;
    }
    if (strstr(il, "SPIR-V_1.0") == NULL) {
        printf("FAIL: %s takes no SPIR-V 1.0\n", env->desc);
        return 1;
    }
    if (spvbc_cl_open(platform, &env->cl) != 0) return 1;
    cl_int e;
    env->in = clCreateBuffer(env->cl.context, CL_MEM_READ_WRITE, sizeof env->in_host, NULL, &e);
    if (e == CL_SUCCESS)
        env->out =
            clCreateBuffer(env->cl.context, CL_MEM_READ_WRITE, sizeof env->out_host, NULL, &e);
    if (e != CL_SUCCESS) {
        printf("FAIL: %s: clCreateBuffer: %d\n", env->desc, (int)e);
        return 1;
    }
    printf("opencl: %s: fp16=%d fp64=%d int64=%d\n", env->desc, dev->fp16, dev->fp64, dev->int64);
    return 0;
}

static void close_env(cl_env *env)
{
    if (env->in != NULL) clReleaseMemObject(env->in);
    if (env->out != NULL) clReleaseMemObject(env->out);
    spvbc_cl_close(&env->cl);
}

/* 0 when CL_PROGRAM_IL of `prog` is the `n` words at `words`. */
static int check_program_il(cl_program prog, const char *label, const uint32_t *words, size_t n)
{
    size_t size = 0;
    cl_int e = clGetProgramInfo(prog, CL_PROGRAM_IL, 0, NULL, &size);
    uint32_t *il = e == CL_SUCCESS && size == n * sizeof *words ? malloc(size) : NULL;
    int same = il != NULL && clGetProgramInfo(prog, CL_PROGRAM_IL, size, il, NULL) == CL_SUCCESS &&
               memcmp(il, words, size) == 0;
    free(il);
    if (!same)
        printf("  FAIL %s: CL_PROGRAM_IL (%d, %zu bytes) is not the %zu bytes handed in\n", label,
               (int)e, size, n * sizeof *words);
    return same ? 0 : 1;
}

/* Runs `words` on env->in_host (`sstride` apart) into env->out_host (`dstride` apart), one
 * work-item per value; returns 0 on success. */
static int run_il(cl_env *env, const char *label, const uint32_t *words, size_t n, size_t sstride,
                  size_t dstride, reasons *failures)
{
    cl_int e;
    cl_program prog = clCreateProgramWithIL(env->cl.context, words, n * sizeof *words, &e);
    if (e != CL_SUCCESS) {
        printf("  FAIL %s: clCreateProgramWithIL: %d\n", label, (int)e);
        ref_reasons_add(failures, "clCreateProgramWithIL");
        return 1;
    }
    const char *step = NULL;
    cl_kernel k = spvbc_cl_build_kernel(prog, env->cl.dev.id, "", "astype", label, &step);
    if (k == NULL) {
        ref_reasons_add(failures, step);
        return 1;
    }
    if (g_check_il && check_program_il(prog, label, words, n) != 0) {
        clReleaseKernel(k);
        clReleaseProgram(prog);
        ref_reasons_add(failures, "CL_PROGRAM_IL differs from the words handed in");
        return 1;
    }
    size_t items = REF_ELEMS;
    memset(env->out_host, REF_OUT_FILL, REF_ELEMS * dstride);
    e = clEnqueueWriteBuffer(env->cl.queue, env->in, CL_TRUE, 0, REF_ELEMS * sstride, env->in_host,
                             0, NULL, NULL);
    if (e == CL_SUCCESS)
        e = clEnqueueWriteBuffer(env->cl.queue, env->out, CL_TRUE, 0, REF_ELEMS * dstride,
                                 env->out_host, 0, NULL, NULL);
    if (e == CL_SUCCESS) e = clSetKernelArg(k, 0, sizeof(cl_mem), &env->in);
    if (e == CL_SUCCESS) e = clSetKernelArg(k, 1, sizeof(cl_mem), &env->out);
    if (e == CL_SUCCESS)
        e = clEnqueueNDRangeKernel(env->cl.queue, k, 1, NULL, &items, NULL, 0, NULL, NULL);
    if (e == CL_SUCCESS)
        e = clEnqueueReadBuffer(env->cl.queue, env->out, CL_TRUE, 0, REF_ELEMS * dstride,
                                env->out_host, 0, NULL, NULL);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    if (e != CL_SUCCESS) {
        printf("  FAIL %s: running it: %d\n", label, (int)e);
        ref_reasons_add(failures, "enqueue");
        return 1;
    }
    return 0;
}

/* Replaces the first `from` in `text` by `to`; returns the new malloc'd text, or NULL (and frees
 * `text`) when `from` is not there. */
static char *replace_once(char *text, const char *from, const char *to)
{
    char *at = text ? strstr(text, from) : NULL;
    if (at == NULL) {
        free(text);
        return NULL;
    }
    size_t head = (size_t)(at - text), nf = strlen(from), nt = strlen(to);
    char *out = malloc(strlen(text) - nf + nt + 1);
    if (out != NULL) {
        memcpy(out, text, head);
        memcpy(out + head, to, nt);
        strcpy(out + head + nt, at + nf);
    }
    free(text);
    return out;
}

/* The naive kernel of astype_gen.h, indexed: work-item i converts in[i] into out[i]
 * (GlobalInvocationId and OpInBoundsPtrAccessChain on both parameters), so that one launch runs
 * every value.  One launch per value, as the generated kernel would need, costs rusticl on
 * llvmpipe about 60 ms each (256 per run).  The bitcast and everything around it stay as
 * generated; NULL when the generator's text is not what this expects. */
static char *indexed_text(const spvbc_type_desc *s, const spvbc_type_desc *d)
{
    char sname[32], dname[32], buf[512];
    spvbc_gen_spirv_type_name(s, SPVBC_GEN_KERNEL, sname, sizeof sname);
    spvbc_gen_spirv_type_name(d, SPVBC_GEN_KERNEL, dname, sizeof dname);
    char *t = spvbc_gen_astype_text(s, d, SPVBC_GEN_KERNEL);
    int has_ulong = t != NULL && strstr(t, "%ulong = OpTypeInt 64 0\n") != NULL;
    int has_v3ulong = t != NULL && strstr(t, "%v3ulong = OpTypeVector %ulong 3\n") != NULL;
    int has_int64 = t != NULL && strstr(t, "OpCapability Int64\n") != NULL;
    t = replace_once(t, "OpCapability Kernel\n",
                     has_int64 ? "OpCapability Kernel\n"
                               : "OpCapability Kernel\nOpCapability Int64\n");
    t = replace_once(t, "OpEntryPoint Kernel %main \"astype\"\n",
                     "OpEntryPoint Kernel %main \"astype\" %gid\n");
    t = replace_once(t, "%void = OpTypeVoid\n",
                     "OpDecorate %gid BuiltIn GlobalInvocationId\n%void = OpTypeVoid\n");
    (void)snprintf(buf, sizeof buf,
                   "%s%s%%gid_ptr = OpTypePointer Input %%v3ulong\n"
                   "%%gid = OpVariable %%gid_ptr Input\n%%fn = OpTypeFunction",
                   has_ulong ? "" : "%ulong = OpTypeInt 64 0\n",
                   has_v3ulong ? "" : "%v3ulong = OpTypeVector %ulong 3\n");
    t = replace_once(t, "%fn = OpTypeFunction", buf);
    (void)snprintf(buf, sizeof buf,
                   "%%entry = OpLabel\n%%gid_v = OpLoad %%v3ulong %%gid Aligned 32\n"
                   "%%i = OpCompositeExtract %%ulong %%gid_v 0\n"
                   "%%in_i = OpInBoundsPtrAccessChain %%_ptr_CrossWorkgroup_%s %%in %%i\n"
                   "%%out_i = OpInBoundsPtrAccessChain %%_ptr_CrossWorkgroup_%s %%out %%i\n",
                   sname, dname);
    t = replace_once(t, "%entry = OpLabel\n", buf);
    (void)snprintf(buf, sizeof buf, "%%x = OpLoad %%%s %%in_i ", sname);
    char from[64];
    (void)snprintf(from, sizeof from, "%%x = OpLoad %%%s %%in ", sname);
    t = replace_once(t, from, buf);
    t = replace_once(t, "OpStore %out %y ", "OpStore %out_i %y ");
    return t;
}

/* The pairs of the suite: equal OpenCL storage size, not one SPIR-V type. */
static int is_pair(const spvbc_type_desc *s, const spvbc_type_desc *d)
{
    return ref_opencl_bytes(s) == ref_opencl_bytes(d) &&
           !(s->kind == d->kind && s->width == d->width && s->count == d->count);
}

/* The naive module of as_<d>(<s>), indexed, assembled; NULL when it could not be made. */
static uint32_t *naive_module(const spvbc_type_desc *s, const spvbc_type_desc *d, size_t *n)
{
    char *text = indexed_text(s, d);
    uint32_t *words = NULL;
    if (text == NULL ||
        spvbc_gen_assemble(text, spvbc_gen_target_env(SPVBC_GEN_KERNEL), &words, n) != 0)
        words = NULL;
    free(text);
    return words;
}

typedef struct pairs_opts {
    int naive; /* hand the naive modules to the driver */
    spvbc_pad_policy pad; /* with --naive: the policy the outputs are compared under */
} pairs_opts;

/* Runs one module of pair (`s`, `d`) and compares under `pad`; 1 when every lane matches. */
static int run_and_compare(cl_env *env, ref_tally *t, const char *label, const uint32_t *words,
                           size_t n, const spvbc_type_desc *s, const spvbc_type_desc *d,
                           spvbc_pad_policy pad, uint64_t seed)
{
    size_t sstride = ref_opencl_bytes(s), dstride = ref_opencl_bytes(d);
    ref_make_inputs(env->in_host, s, d, sstride, seed);
    t->values += REF_ELEMS;
    if (run_il(env, label, words, n, sstride, dstride, &t->failures) != 0) return 0;
    return ref_tally_compare(t, label, env->in_host, sstride, s, env->out_host, dstride, d, pad,
                             ref_classify(s, d), g_verbose);
}

/* One pair: see the header.  Returns 1 when it passed; counts runs into `runs`. */
static int one_pair(cl_env *env, ref_tally *t, const pairs_opts *o, const spvbc_type_desc *s,
                    const spvbc_type_desc *d, uint64_t seed, unsigned *runs)
{
    const int tenv = spvbc_gen_target_env(SPVBC_GEN_KERNEL);
    char sn[16], dn[16], label[96], vmsg[512];
    spvbc_gen_type_name(s, sn, sizeof sn);
    spvbc_gen_type_name(d, dn, sizeof dn);
    size_t nw = 0;
    uint32_t *naive = naive_module(s, d, &nw);
    if (naive == NULL) {
        printf("  FAIL as_%s(%s): no naive module\n", dn, sn);
        ref_reasons_add(&t->failures, "no naive module");
        return 0;
    }
    int ok = 1;
    int valid = spvbc_gen_validate(naive, nw, tenv, NULL, 0) == 0;
    if (o->naive) {
        (void)snprintf(label, sizeof label, "as_%s(%s) naive, compared under pad=%s", dn, sn,
                       spvbc_pad_policy_string(o->pad));
        ok = run_and_compare(env, t, label, naive, nw, s, d, o->pad, seed);
        ++*runs;
    } else if (valid) {
        /* A valid program passes through: the lowering changes no word, and it runs as is. */
        (void)snprintf(label, sizeof label, "as_%s(%s) valid, unchanged", dn, sn);
        uint32_t *low = NULL;
        size_t ln = 0, rewritten = 0;
        if (ref_lower(naive, nw, SPVBC_PAD_UNDEF, &low, &ln, &rewritten) != 0 || rewritten != 0 ||
            ln != nw || memcmp(low, naive, nw * sizeof *naive) != 0) {
            printf("  FAIL %s: the lowering changed a valid module (%zu rewritten)\n", label,
                   rewritten);
            ref_reasons_add(&t->failures, "valid module changed");
            ok = 0;
        } else {
            ok = run_and_compare(env, t, label, naive, nw, s, d, SPVBC_PAD_UNDEF, seed);
            ++*runs;
        }
        free(low);
    } else {
        for (int p = 0; p < 2 && ok; ++p) {
            spvbc_pad_policy pad = p == 0 ? SPVBC_PAD_UNDEF : SPVBC_PAD_ZERO;
            (void)snprintf(label, sizeof label, "as_%s(%s) lowered pad=%s", dn, sn,
                           spvbc_pad_policy_string(pad));
            uint32_t *low = NULL;
            size_t ln = 0, rewritten = 0;
            if (ref_lower(naive, nw, pad, &low, &ln, &rewritten) != 0 || rewritten == 0) {
                printf("  FAIL %s: the library did not lower it (%zu rewritten)\n", label,
                       rewritten);
                ref_reasons_add(&t->failures, "lowering failed");
                ok = 0;
            } else if (spvbc_gen_validate(low, ln, tenv, vmsg, sizeof vmsg) != 0) {
                printf("  FAIL %s: spirv-val rejects the lowered module: %s\n", label, vmsg);
                ref_reasons_add(&t->failures, "lowered module invalid");
                ok = 0;
            } else {
                ok = run_and_compare(env, t, label, low, ln, s, d, pad, seed + (unsigned)p);
                ++*runs;
            }
            free(low);
        }
    }
    free(naive);
    return ok;
}

static int mode_pairs(cl_env *env, const pairs_opts *o)
{
    spvbc_type_desc types[SPVBC_GEN_OPENCL_TYPE_COUNT];
    size_t nt = spvbc_gen_opencl_types(types);
    ref_tally t;
    memset(&t, 0, sizeof t);
    unsigned runs = 0;
    for (size_t i = 0; i < nt; ++i) {
        for (size_t j = 0; j < nt; ++j) {
            const spvbc_type_desc *s = &types[i], *d = &types[j];
            if (!is_pair(s, d)) continue;
            const char *miss = spvbc_cl_pair_missing(&env->cl.dev, s, d);
            if (miss != NULL) {
                t.pairs_skipped++;
                ref_reasons_add(&t.skipped, miss);
                continue;
            }
            int ok = one_pair(env, &t, o, s, d, 0x0c1100000ull + i * 131u + j * 7u, &runs);
            ref_tally_pair(&t, ref_classify(s, d), ok);
        }
    }
    ref_tally_print(&t, "opencl");
    char note[160];
    if (o->naive)
        (void)snprintf(note, sizeof note, "%u runs of the naive modules, compared under pad=%s",
                       runs, spvbc_pad_policy_string(o->pad));
    else
        (void)snprintf(note, sizeof note,
                       "%u runs: valid modules unchanged, invalid ones lowered under both pad "
                       "policies, each checked by spirv-val",
                       runs);
    return ref_tally_summary(&t, "opencl", env->desc, note);
}

/* Points fd 2 at a temporary file until stderr_end(); *`saved` is -1 when that failed. */
static FILE *stderr_begin(int *saved)
{
    (void)fflush(stderr);
    *saved = -1;
    FILE *tmp = tmpfile();
    if (tmp == NULL) return NULL;
    *saved = dup(2);
    if (*saved < 0 || dup2(fileno(tmp), 2) < 0) {
        if (*saved >= 0) (void)close(*saved);
        *saved = -1;
        (void)fclose(tmp);
        return NULL;
    }
    return tmp;
}

/* Restores fd 2 and copies what was written to it into `buf` (also echoed to stderr). */
static void stderr_end(FILE *tmp, int saved, char *buf, size_t size)
{
    buf[0] = '\0';
    if (tmp == NULL) return;
    (void)fflush(stderr);
    (void)dup2(saved, 2);
    (void)close(saved);
    rewind(tmp);
    size_t n = fread(buf, 1, size - 1, tmp);
    buf[n] = '\0';
    (void)fclose(tmp);
    if (g_verbose) fputs(buf, stderr);
}

/* The line of `text` that holds `hit`, into `line`. */
static void line_of(const char *text, const char *hit, char *line, size_t size)
{
    const char *b = hit, *f = hit;
    while (b > text && b[-1] != '\n')
        --b;
    while (*f != '\0' && *f != '\n')
        ++f;
    (void)snprintf(line, size, "%.*s", (int)(f - b), b);
}

static int mode_unlowered(cl_env *env, const char *expect, const char *expect_err)
{
    const int tenv = spvbc_gen_target_env(SPVBC_GEN_KERNEL);
    spvbc_type_desc types[SPVBC_GEN_OPENCL_TYPE_COUNT];
    size_t nt = spvbc_gen_opencl_types(types);
    unsigned rejected = 0, failed = 0, skipped = 0;
    reasons skips;
    memset(&skips, 0, sizeof skips);
    static char log[16384], err[16384];
    char first_line[512] = "", first_err[512] = "";
    for (size_t i = 0; i < nt; ++i) {
        for (size_t j = 0; j < nt; ++j) {
            const spvbc_type_desc *s = &types[i], *d = &types[j];
            if (!is_pair(s, d) || (s->count == 3) == (d->count == 3)) continue;
            const char *miss = spvbc_cl_pair_missing(&env->cl.dev, s, d);
            if (miss != NULL) {
                skipped++;
                ref_reasons_add(&skips, miss);
                continue;
            }
            char sn[16], dn[16];
            spvbc_gen_type_name(s, sn, sizeof sn);
            spvbc_gen_type_name(d, dn, sizeof dn);
            size_t nw = 0;
            uint32_t *naive = naive_module(s, d, &nw);
            if (naive == NULL || spvbc_gen_validate(naive, nw, tenv, NULL, 0) == 0) {
                printf("  FAIL as_%s(%s): %s\n", dn, sn,
                       naive ? "the naive module is valid" : "no naive module");
                free(naive);
                failed++;
                continue;
            }
            cl_int e;
            cl_program prog = clCreateProgramWithIL(env->cl.context, naive, nw * sizeof *naive, &e);
            free(naive);
            if (e != CL_SUCCESS) {
                printf("  FAIL as_%s(%s): clCreateProgramWithIL: %d (expected CL_SUCCESS; the "
                       "build is where it fails)\n",
                       dn, sn, (int)e);
                failed++;
                continue;
            }
            int saved;
            FILE *tmp = stderr_begin(&saved);
            e = clBuildProgram(prog, 1, &env->cl.dev.id, "", NULL, NULL);
            stderr_end(tmp, saved, err, sizeof err);
            spvbc_cl_build_log(prog, env->cl.dev.id, log, sizeof log);
            clReleaseProgram(prog);
            const char *hit = strstr(log, expect);
            const char *hit_err = expect_err ? strstr(err, expect_err) : err;
            if (e != CL_BUILD_PROGRAM_FAILURE || hit == NULL || hit_err == NULL) {
                printf("  FAIL as_%s(%s): clBuildProgram: %d (expected "
                       "CL_BUILD_PROGRAM_FAILURE, %d) with \"%s\" in the log: %.600s\n",
                       dn, sn, (int)e, (int)CL_BUILD_PROGRAM_FAILURE, expect, log);
                if (expect_err) printf("    and \"%s\" on stderr: %.600s\n", expect_err, err);
                failed++;
                continue;
            }
            if (first_line[0] == '\0' || g_verbose) {
                /* The lines that say it. */
                line_of(log, hit, first_line, sizeof first_line);
                if (expect_err) line_of(err, hit_err, first_err, sizeof first_err);
                if (g_verbose)
                    printf("  ok as_%s(%s): %s%s%s\n", dn, sn, first_line,
                           expect_err ? " / stderr: " : "", first_err);
            }
            rejected++;
        }
    }
    char sk[512];
    ref_reasons_format(&skips, sk, sizeof sk);
    printf("opencl: %s: %u invalid naive modules rejected at clBuildProgram with "
           "CL_BUILD_PROGRAM_FAILURE and \"%s\" in the log%s%s%s, %u not, %u skipped (%s)\n",
           env->desc, rejected, expect, expect_err ? " and \"" : "", expect_err ? expect_err : "",
           expect_err ? "\" on stderr" : "", failed, skipped, sk);
    if (rejected > 0) printf("opencl: the log line: %s\n", first_line);
    if (rejected > 0 && expect_err) printf("opencl: the stderr line: %s\n", first_err);
    return (failed == 0 && rejected > 0) ? 0 : 1;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *usage = "usage: %s pairs [--naive --pad undef|zero] [--check-il] [-v] | unlowered "
                        "--expect-log <text> [--expect-stderr <text>] [-v]\n";
    if (argc < 2) {
        fprintf(stderr, usage, argv[0]);
        return 2;
    }
    pairs_opts o = {0, SPVBC_PAD_UNDEF};
    const char *expect = NULL, *expect_err = NULL;
    int have_pad = 0;
    for (int a = 2; a < argc; ++a) {
        if (strcmp(argv[a], "-v") == 0) {
            g_verbose = 1;
        } else if (strcmp(argv[a], "--check-il") == 0) {
            g_check_il = 1;
        } else if (strcmp(argv[a], "--naive") == 0) {
            o.naive = 1;
        } else if (strcmp(argv[a], "--pad") == 0 && a + 1 < argc &&
                   spvbc_pad_policy_from_string(argv[a + 1], &o.pad) == SPVBC_SUCCESS) {
            have_pad = 1;
            ++a;
        } else if (strcmp(argv[a], "--expect-log") == 0 && a + 1 < argc) {
            expect = argv[++a];
        } else if (strcmp(argv[a], "--expect-stderr") == 0 && a + 1 < argc) {
            expect_err = argv[++a];
        } else {
            fprintf(stderr, usage, argv[0]);
            return 2;
        }
    }
    int is_pairs = strcmp(argv[1], "pairs") == 0;
    if ((!is_pairs && strcmp(argv[1], "unlowered") != 0) || (is_pairs && o.naive != have_pad) ||
        (!is_pairs && (expect == NULL || expect[0] == '\0'))) {
        fprintf(stderr, usage, argv[0]);
        return 2;
    }
    static cl_env env;
    int rc = open_env(&env);
    if (rc == 0) rc = is_pairs ? mode_pairs(&env, &o) : mode_unlowered(&env, expect, expect_err);
    close_env(&env);
    return rc;
}
