/*
 * cl_lifetime.c - the OpenCL layer's records of lowered programs and their lifetimes (see
 * cl_lifetime.h).
 *
 * A count is changed before the call that drops a reference reaches the driver (and put back
 * if the driver refuses the call): once the driver has destroyed an object, another thread may
 * get its handle for a new one, and the layer must not count the old object's release against
 * the new one's record.  No lock is held while the driver runs, since a driver may call release
 * callbacks from inside clReleaseProgram.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "cl_lifetime.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "layer_map.h"

struct spvbc_cl_record {
    int by_callback; /* freed by the driver's release callback, not by `refs` */
    cl_uint refs; /* the program's references as the layer counts them */
    size_t size;
    unsigned char il[];
};

/* A kernel of a program whose record is freed by the count: its program and its references. */
typedef struct kernel_record {
    cl_program program;
    cl_uint refs;
} kernel_record;

static const cl_icd_dispatch *g_next;
/* g_lock guards both maps, the counts and g_ended. */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static spvbc_layer_map g_programs = SPVBC_LAYER_MAP_INIT; /* cl_program -> spvbc_cl_record */
static spvbc_layer_map g_kernels = SPVBC_LAYER_MAP_INIT; /* cl_kernel -> kernel_record */
/* Set when the records have ended: a driver destroying a program later (at its own exit) must
 * not free its record again. */
static int g_ended;

void spvbc_cl_lifetime_start(const cl_icd_dispatch *next)
{
    g_next = next;
}

spvbc_cl_record *spvbc_cl_record_new(const void *il, size_t length)
{
    spvbc_cl_record *rec = malloc(sizeof *rec + length);
    if (rec == NULL) return NULL;
    rec->by_callback = 0;
    rec->refs = 1;
    rec->size = length;
    memcpy(rec->il, il, length);
    return rec;
}

void spvbc_cl_record_free(spvbc_cl_record *rec)
{
    free(rec);
}

static void CL_CALLBACK program_released(cl_program program, void *user_data)
{
    (void)pthread_mutex_lock(&g_lock);
    int ended = g_ended;
    if (!ended && spvbc_layer_map_get(&g_programs, program) == user_data)
        (void)spvbc_layer_map_take(&g_programs, program);
    (void)pthread_mutex_unlock(&g_lock);
    /* Not in the map: the handle was reused and its record replaced; this one is still ours. */
    if (!ended) free(user_data);
}

int spvbc_cl_record_keep(cl_program program, spvbc_cl_record *rec)
{
    (void)pthread_mutex_lock(&g_lock);
    /* A record already under this handle belongs to a destroyed program whose end the layer
     * missed; one waiting for its release callback frees itself. */
    spvbc_cl_record *stale = spvbc_layer_map_get(&g_programs, program);
    int kept = spvbc_layer_map_put(&g_programs, program, rec);
    if (!kept || (stale != NULL && stale->by_callback)) stale = NULL;
    (void)pthread_mutex_unlock(&g_lock);
    free(stale);
    if (!kept) {
        free(rec);
        if (g_next->clReleaseProgram != NULL) (void)g_next->clReleaseProgram(program);
        return 0;
    }
    /* clSetProgramReleaseCallback is deprecated in OpenCL 3.0 and many drivers refuse it
     * (CL_INVALID_OPERATION); the layer's count covers those. */
    int by_callback =
        g_next->clSetProgramReleaseCallback != NULL &&
        g_next->clSetProgramReleaseCallback(program, program_released, rec) == CL_SUCCESS;
    (void)pthread_mutex_lock(&g_lock);
    rec->by_callback = by_callback;
    (void)pthread_mutex_unlock(&g_lock);
    return 1;
}

size_t spvbc_cl_lifetime_end(void)
{
    (void)pthread_mutex_lock(&g_lock);
    size_t kept = g_programs.count;
    g_ended = 1;
    spvbc_layer_map_clear(&g_programs, free);
    spvbc_layer_map_clear(&g_kernels, free);
    (void)pthread_mutex_unlock(&g_lock);
    return kept;
}

/* ---------------------------------------------------------------------------------------- */
/* Counting (the caller holds g_lock) */

/* The record of `program` that the count frees (none where the release callback does). */
static spvbc_cl_record *counted(cl_program program)
{
    spvbc_cl_record *rec = program != NULL ? spvbc_layer_map_get(&g_programs, program) : NULL;
    return rec != NULL && !rec->by_callback ? rec : NULL;
}

/* Drops one reference of `program`; returns its record when that was the last (taken out of
 * the map: the caller frees it, or puts it back with unrelease()). */
static spvbc_cl_record *release_one(cl_program program)
{
    spvbc_cl_record *rec = counted(program);
    if (rec == NULL || --rec->refs != 0) return NULL;
    return spvbc_layer_map_take(&g_programs, program);
}

/* Undoes release_one() of `program` after the driver refused the release; `taken` is what
 * release_one() returned. */
static void unrelease(cl_program program, spvbc_cl_record *taken)
{
    if (taken != NULL) {
        taken->refs = 1;
        if (!spvbc_layer_map_put(&g_programs, program, taken)) free(taken);
        return;
    }
    spvbc_cl_record *rec = counted(program);
    if (rec != NULL) ++rec->refs;
}

/* Counts `kernel`, new from `program`, as a reference of the program where its record is
 * counted. */
static void note_kernel(cl_program program, cl_kernel kernel)
{
    spvbc_cl_record *rec = counted(program);
    if (rec == NULL || kernel == NULL) return;
    kernel_record *k = malloc(sizeof *k);
    if (k == NULL) return; /* the record then lives until the layer ends */
    k->program = program;
    k->refs = 1;
    kernel_record *stale = spvbc_layer_map_get(&g_kernels, kernel);
    if (!spvbc_layer_map_put(&g_kernels, kernel, k)) {
        free(k);
        return;
    }
    free(stale);
    ++rec->refs;
}

/* ---------------------------------------------------------------------------------------- */
/* The entry points */

CL_API_ENTRY cl_int CL_API_CALL spvbc_cl_GetProgramInfo(cl_program program,
                                                        cl_program_info param_name,
                                                        size_t param_value_size, void *param_value,
                                                        size_t *param_value_size_ret)
{
    if (param_name == CL_PROGRAM_IL) {
        cl_int r = CL_SUCCESS;
        (void)pthread_mutex_lock(&g_lock);
        const spvbc_cl_record *rec = spvbc_layer_map_get(&g_programs, program);
        if (rec != NULL) {
            if (param_value != NULL && param_value_size < rec->size) {
                r = CL_INVALID_VALUE;
            } else {
                if (param_value != NULL) memcpy(param_value, rec->il, rec->size);
                if (param_value_size_ret != NULL) *param_value_size_ret = rec->size;
            }
        }
        (void)pthread_mutex_unlock(&g_lock);
        if (rec != NULL) return r;
    }
    return g_next->clGetProgramInfo(program, param_name, param_value_size, param_value,
                                    param_value_size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL spvbc_cl_RetainProgram(cl_program program)
{
    cl_int r = g_next->clRetainProgram(program);
    if (r == CL_SUCCESS) {
        (void)pthread_mutex_lock(&g_lock);
        spvbc_cl_record *rec = counted(program);
        if (rec != NULL) ++rec->refs;
        (void)pthread_mutex_unlock(&g_lock);
    }
    return r;
}

CL_API_ENTRY cl_int CL_API_CALL spvbc_cl_ReleaseProgram(cl_program program)
{
    (void)pthread_mutex_lock(&g_lock);
    int tracked = counted(program) != NULL;
    spvbc_cl_record *last = tracked ? release_one(program) : NULL;
    (void)pthread_mutex_unlock(&g_lock);
    cl_int r = g_next->clReleaseProgram(program);
    if (r != CL_SUCCESS && tracked) {
        (void)pthread_mutex_lock(&g_lock);
        unrelease(program, last);
        (void)pthread_mutex_unlock(&g_lock);
        last = NULL;
    }
    free(last);
    return r;
}

CL_API_ENTRY cl_kernel CL_API_CALL spvbc_cl_CreateKernel(cl_program program,
                                                         const char *kernel_name,
                                                         cl_int *errcode_ret)
{
    cl_kernel k = g_next->clCreateKernel(program, kernel_name, errcode_ret);
    if (k != NULL) {
        (void)pthread_mutex_lock(&g_lock);
        note_kernel(program, k);
        (void)pthread_mutex_unlock(&g_lock);
    }
    return k;
}

CL_API_ENTRY cl_int CL_API_CALL spvbc_cl_CreateKernelsInProgram(cl_program program,
                                                                cl_uint num_kernels,
                                                                cl_kernel *kernels,
                                                                cl_uint *num_kernels_ret)
{
    /* The array is the call's output: cleared first, so that what the driver wrote can be told
     * from what it did not where the application asks no count back. */
    if (kernels != NULL) memset(kernels, 0, (size_t)num_kernels * sizeof *kernels);
    cl_int r = g_next->clCreateKernelsInProgram(program, num_kernels, kernels, num_kernels_ret);
    if (r == CL_SUCCESS && kernels != NULL) {
        (void)pthread_mutex_lock(&g_lock);
        for (cl_uint i = 0; i < num_kernels; ++i)
            note_kernel(program, kernels[i]);
        (void)pthread_mutex_unlock(&g_lock);
    }
    return r;
}

CL_API_ENTRY cl_kernel CL_API_CALL spvbc_cl_CloneKernel(cl_kernel source_kernel,
                                                        cl_int *errcode_ret)
{
    cl_kernel k = g_next->clCloneKernel(source_kernel, errcode_ret);
    if (k != NULL) {
        (void)pthread_mutex_lock(&g_lock);
        const kernel_record *src = spvbc_layer_map_get(&g_kernels, source_kernel);
        if (src != NULL) note_kernel(src->program, k);
        (void)pthread_mutex_unlock(&g_lock);
    }
    return k;
}

CL_API_ENTRY cl_int CL_API_CALL spvbc_cl_RetainKernel(cl_kernel kernel)
{
    cl_int r = g_next->clRetainKernel(kernel);
    if (r == CL_SUCCESS) {
        (void)pthread_mutex_lock(&g_lock);
        kernel_record *k = spvbc_layer_map_get(&g_kernels, kernel);
        if (k != NULL) ++k->refs;
        (void)pthread_mutex_unlock(&g_lock);
    }
    return r;
}

CL_API_ENTRY cl_int CL_API_CALL spvbc_cl_ReleaseKernel(cl_kernel kernel)
{
    (void)pthread_mutex_lock(&g_lock);
    kernel_record *k = spvbc_layer_map_get(&g_kernels, kernel), *gone = NULL;
    spvbc_cl_record *last = NULL;
    if (k != NULL && --k->refs == 0) { /* the last kernel reference drops its program's */
        gone = spvbc_layer_map_take(&g_kernels, kernel);
        last = release_one(gone->program);
    }
    (void)pthread_mutex_unlock(&g_lock);
    cl_int r = g_next->clReleaseKernel(kernel);
    if (r != CL_SUCCESS && k != NULL) {
        (void)pthread_mutex_lock(&g_lock);
        if (gone != NULL) {
            unrelease(gone->program, last);
            gone->refs = 1;
            if (!spvbc_layer_map_put(&g_kernels, kernel, gone)) free(gone);
        } else if ((k = spvbc_layer_map_get(&g_kernels, kernel)) != NULL) {
            ++k->refs;
        }
        (void)pthread_mutex_unlock(&g_lock);
        return r;
    }
    free(gone);
    free(last);
    return r;
}
