/*
 * layer_pool.h - the library contexts the layers reuse from module to module.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_LAYER_POOL_H_
#define SPVBC_LAYER_POOL_H_

#include "spirv_bitcast.h"

/** The first findings a context keeps for the log and the messenger (a hostile module's
 *  findings cost no more memory than these). */
#define SPVBC_LAYER_KEPT_FINDINGS 256

/** A context for one call (from the pool, or new), counting findings only; NULL with the
 *  failure in `*r`. */
spvbc_context spvbc_layer_context_take(spvbc_result *r);

/** Makes `ctx` keep its first SPVBC_LAYER_KEPT_FINDINGS findings for the calls that follow. */
void spvbc_layer_context_keep_findings(spvbc_context ctx);

/** Returns `ctx` (whose modules are all destroyed; NULL is ignored) to the pool, or destroys it
 *  when the pool is full. */
void spvbc_layer_context_give(spvbc_context ctx);

/** Destroys the pooled contexts; only while no call is inside the layer. */
void spvbc_layer_release_contexts(void);

#endif /* SPVBC_LAYER_POOL_H_ */
