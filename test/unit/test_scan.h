/* test_scan's shared parts: the sweep's module, the page-guarded buffer, the tests of
 * test_scan_bytes.c.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_TEST_SCAN_H_
#define SPVBC_TEST_SCAN_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "modbuild.h"
#include "spirv_bitcast.h"

/* The sweep module's ids: the function, its types, the scalars, uint4, the label; from
 * SW_FIRST_KEY (or another base) the 3-component types, the bitcast's operand and result and the
 * OpUndefs around them; the look-alikes' ids (124 is OpBitcast's opcode). */
enum {
    SW_FN = 1,
    SW_VOID,
    SW_FNTY,
    SW_FLOAT,
    SW_INT,
    SW_UINT,
    SW_BOOL,
    SW_HALF,
    SW_DOUBLE,
    SW_SHORT,
    SW_USHORT,
    SW_LONG,
    SW_ULONG,
    SW_UINT4,
    SW_LABEL,
    SW_FIRST_KEY,
    SW_S = 130,
    SW_C1,
    SW_C2,
    SW_C3,
    SW_C4,
    SWEEP_MAX_VEC3 = 10
};

/* The bitcast: uint4 <- uint4 (nothing to lower), uint4 <- T3 (3 -> 4), T3 <- uint4 (4 -> 3),
 * float <- int, uint4 <- float4 (the float4 declared at base + n). */
typedef enum site_kind { SITE_NONE, SITE_3_TO_4, SITE_4_TO_3, SITE_SCALAR, SITE_SAME4 } site_kind;

typedef struct sweep_case {
    uint32_t n; /* 3-component types (ids base + k), at most SWEEP_MAX_VEC3 */
    uint32_t j; /* float3's place among them: the site's T3 */
    site_kind kind;
    uint32_t base;
    uint32_t before, after; /* OpUndefs before the site and after it */
    uint32_t bound; /* 0: the ids' */
    uint32_t uint4; /* 0: SW_UINT4 */
    int dup; /* the first 3-component type declared twice */
    uint32_t look_alike; /* 0, or a 64-bit constant's low word that looks like an instruction */
    size_t site_at[3]; /* set: the word offsets of the operand's OpUndef, the bitcast, its end */
} sweep_case;

/* A case of the other fields 0. */
static inline sweep_case sweep(uint32_t n, uint32_t j, site_kind kind, uint32_t base,
                               uint32_t before, uint32_t after)
{
    sweep_case c;
    memset(&c, 0, sizeof c);
    c.n = n, c.j = j, c.kind = kind, c.base = base, c.before = before, c.after = after;
    return c;
}

void sweep_module(mb *b, sweep_case *c);
/* Lowers the module of `b`, whose output must pass spirv-val; the count of rewritten sites. */
size_t lower_count(spvbc_context ctx, const mb *b, const char *what);
/* Checks the answers for the module of `c` and its prefixes from the site on. */
void check_case(spvbc_context ctx, mb *b, sweep_case *c);

/* `size` readable bytes that end where an unreadable page begins (where mmap is there). */
typedef struct guard_buf {
    unsigned char *end;
    size_t size;
    void *map;
    size_t map_len;
} guard_buf;
extern guard_buf guard;

int guard_init(guard_buf *g, size_t size);
void guard_fini(guard_buf *g);
/* The answer for the `size` bytes at `bytes`, copied to the end of `g`'s readable bytes. */
int guard_scan(guard_buf *g, spvbc_context ctx, const void *bytes, size_t size);

void test_scan_sizes(void **state);
void test_scan_alignment(void **state);
void test_scan_header_fields(void **state);
void test_scan_allocations(void **state);
void test_scan_look_alikes(void **state);
void test_scan_stale_types(void **state);
void test_scan_tiny(void **state);
void test_scan_last_instruction(void **state);
void test_scan_id_at_bound(void **state);
void test_scan_head(void **state);
void test_scan_many_steps(void **state);
void test_scan_ids_past_bound(void **state);

#endif
