/* test_alloc.c - the counting, failing allocator of the tests (test_alloc.h). */
#include "test_alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TA_HDR_SIZE 16u
#define TA_HDR_MAGIC 0x5bc0ffeeu

static void *ta_alloc(void *user, size_t size)
{
    test_alloc *a = (test_alloc *)user;
    a->calls++;
    if (a->fail_at && (a->calls == a->fail_at || (a->sticky && a->calls > a->fail_at))) {
        a->triggered = 1;
        return NULL;
    }
    if (a->max_size && size > a->max_size) return NULL;
    if (size > SIZE_MAX - TA_HDR_SIZE) return NULL;
    unsigned char *p = (unsigned char *)malloc(size + TA_HDR_SIZE);
    if (!p) return NULL;
    uint32_t magic = TA_HDR_MAGIC;
    memcpy(p, &size, sizeof size);
    memcpy(p + 8, &magic, sizeof magic);
    a->live_bytes += size;
    a->live_blocks++;
    if (a->live_bytes > a->peak_bytes) a->peak_bytes = a->live_bytes;
    return p + TA_HDR_SIZE;
}

static void ta_free(void *user, void *ptr, size_t size)
{
    test_alloc *a = (test_alloc *)user;
    if (!ptr) return;
    unsigned char *p = (unsigned char *)ptr - TA_HDR_SIZE;
    size_t got;
    uint32_t magic;
    memcpy(&got, p, sizeof got);
    memcpy(&magic, p + 8, sizeof magic);
    if (magic != TA_HDR_MAGIC || got != size) {
        a->bad_free = 1;
        return; /* leak it rather than corrupt the heap; the test fails on bad_free */
    }
    memset(p + 8, 0, 4);
    a->live_bytes -= size;
    a->live_blocks--;
    free(p);
}

spvbc_allocator test_alloc_allocator(test_alloc *a)
{
    spvbc_allocator al = {sizeof(spvbc_allocator), ta_alloc, ta_free, a};
    return al;
}
