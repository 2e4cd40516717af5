/*
 * layer_pool.c - the library contexts the layers reuse (see layer_pool.h).
 *
 * Contexts are reused rather than made for each module: a call takes one from this pool (or
 * creates one if it is empty) and gives it back afterwards, so there are never more contexts
 * than threads that were inside the layer at once.  A pool rather than thread-local contexts:
 * a thread-exit destructor would have to stay mapped until the last thread ends, but the loader
 * unloads the layer at vkDestroyInstance while the application's threads live on.  Reusing a
 * context is safe because every module call clears its diagnostics (spirv_bitcast.h).
 *
 * A pooled context counts findings and keeps none (SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY): the library
 * makes a kept finding's sentence before the call returns, and the verdict needs only the
 * summary counts.  Where findings are reported, the decision (layer_outcome.c) asks for them
 * with spvbc_layer_context_keep_findings() and calls again.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "layer_pool.h"

#include <pthread.h>

#define POOL_MAX 64
static pthread_mutex_t g_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static spvbc_context g_pool[POOL_MAX];
static int g_pool_count;

spvbc_context spvbc_layer_context_take(spvbc_result *r)
{
    spvbc_context ctx = NULL;
    (void)pthread_mutex_lock(&g_pool_lock);
    if (g_pool_count > 0) ctx = g_pool[--g_pool_count];
    (void)pthread_mutex_unlock(&g_pool_lock);
    *r = SPVBC_SUCCESS;
    if (ctx == NULL) {
        *r = spvbc_context_create(NULL, &ctx);
        if (*r == SPVBC_SUCCESS)
            *r = spvbc_context_set_diagnostic_policy(ctx, SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY, 0);
    }
    return *r == SPVBC_SUCCESS ? ctx : NULL;
}

void spvbc_layer_context_keep_findings(spvbc_context ctx)
{
    (void)spvbc_context_set_diagnostic_policy(ctx, SPVBC_DIAGNOSTIC_POLICY_KEEP_FIRST,
                                              SPVBC_LAYER_KEPT_FINDINGS);
}

void spvbc_layer_context_give(spvbc_context ctx)
{
    if (ctx == NULL) return;
    (void)spvbc_context_set_diagnostic_policy(ctx, SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY, 0);
    (void)pthread_mutex_lock(&g_pool_lock);
    if (g_pool_count < POOL_MAX) {
        g_pool[g_pool_count++] = ctx;
        ctx = NULL;
    }
    (void)pthread_mutex_unlock(&g_pool_lock);
    spvbc_context_destroy(ctx);
}

void spvbc_layer_release_contexts(void)
{
    (void)pthread_mutex_lock(&g_pool_lock);
    while (g_pool_count > 0)
        spvbc_context_destroy(g_pool[--g_pool_count]);
    (void)pthread_mutex_unlock(&g_pool_lock);
}
