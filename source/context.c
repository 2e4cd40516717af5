/* Context: allocator, spare tables, live modules, the store of findings and its string arena,
 * result names, version. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "context.h"
#include "rules.h"

/* Diagnostic strings live in a chain of blocks, released together when diagnostics clear but for
 * the newest, kept empty for the next call's strings. */
typedef struct arena_block {
    struct arena_block *next;
    size_t size, used;
    /* followed by `size` bytes */
} arena_block;

struct spvbc_context_s {
    spvbc_allocator a;
    spvbc__diag_store diags;
    arena_block *blocks;
    spvbc__live *live; /* live modules, released with the context */
    /* The id table and site list of the last destroyed module, kept for the next parse: a
     * driver parses module after module, and fresh pages cost more than the parse itself. */
    void *spare[SPVBC__SPARE_KINDS];
    size_t spare_bytes[SPVBC__SPARE_KINDS];
};

static spvbc_diagnostic *diag_add(spvbc_context ctx, const spvbc_diagnostic *d);
static void arena_release(spvbc_context ctx, bool keep);

/* The allocator contract (SPVBC_ALLOCATOR_ALIGNMENT) covers every object the library keeps in
 * an allocated block. */
_Static_assert(_Alignof(void *) <= SPVBC_ALLOCATOR_ALIGNMENT &&
                   _Alignof(size_t) <= SPVBC_ALLOCATOR_ALIGNMENT &&
                   _Alignof(uint64_t) <= SPVBC_ALLOCATOR_ALIGNMENT &&
                   _Alignof(struct spvbc_context_s) <= SPVBC_ALLOCATOR_ALIGNMENT &&
                   _Alignof(struct spvbc_module_s) <= SPVBC_ALLOCATOR_ALIGNMENT &&
                   _Alignof(spvbc_diagnostic) <= SPVBC_ALLOCATOR_ALIGNMENT &&
                   _Alignof(spvbc__record) <= SPVBC_ALLOCATOR_ALIGNMENT &&
                   _Alignof(arena_block) <= SPVBC_ALLOCATOR_ALIGNMENT,
               "the library needs no more alignment than SPVBC_ALLOCATOR_ALIGNMENT");

void *spvbc__take_spare(spvbc_context ctx, int kind, size_t min_bytes, size_t *bytes)
{
    if (!ctx->spare[kind] || ctx->spare_bytes[kind] < min_bytes) return NULL;
    void *p = ctx->spare[kind];
    *bytes = ctx->spare_bytes[kind];
    ctx->spare[kind] = NULL;
    ctx->spare_bytes[kind] = 0;
    return p;
}

void spvbc__give_spare(spvbc_context ctx, int kind, void *ptr, size_t bytes)
{
    if (!ptr) return;
    if (ctx->spare[kind] && ctx->spare_bytes[kind] >= bytes) {
        spvbc__free(ctx, ptr, bytes);
        return;
    }
    spvbc__free(ctx, ctx->spare[kind], ctx->spare_bytes[kind]);
    ctx->spare[kind] = ptr;
    ctx->spare_bytes[kind] = bytes;
}

static void *default_alloc(void *user, size_t size)
{
    (void)user;
    return malloc(size);
}

static void default_free(void *user, void *ptr, size_t size)
{
    (void)user;
    (void)size;
    free(ptr);
}

void *spvbc__alloc(spvbc_context ctx, size_t size)
{
    if (size == 0) size = 1;
    return ctx->a.alloc(ctx->a.user, size);
}

void spvbc__free(spvbc_context ctx, void *ptr, size_t size)
{
    if (ptr) ctx->a.free(ctx->a.user, ptr, size == 0 ? 1 : size);
}

bool spvbc__grow(spvbc_context ctx, void **array, size_t *cap, size_t elem, size_t need)
{
    if (need <= *cap) return true;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2) return false;
        ncap *= 2;
    }
    if (ncap > SIZE_MAX / elem) return false;
    void *p = spvbc__alloc(ctx, ncap * elem);
    if (!p) return false;
    if (*array) {
        memcpy(p, *array, *cap * elem);
        spvbc__free(ctx, *array, *cap * elem);
    }
    *array = p;
    *cap = ncap;
    return true;
}

const spvbc_diagnostic spvbc__oom_diagnostic = {
    .severity = SPVBC_SEVERITY_ERROR,
    .rule = "R-MEMORY",
    .message = "out of memory",
    .word_offset = SPVBC_NO_POSITION,
    .instruction_index = SPVBC_NO_POSITION,
};

spvbc_result spvbc__oom(spvbc_context ctx)
{
    /* A flag, not a record: the store's arrays may be unable to grow, and growing them would
     * move diagnostics the caller already holds (spvbc_module_get_words() fails after the
     * caller read the lowering's findings). */
    ctx->diags.oom = true;
    return SPVBC_ERROR_OUT_OF_MEMORY;
}

spvbc_result spvbc_context_create(const spvbc_allocator *allocator, spvbc_context *out_context)
{
    if (!out_context) return SPVBC_ERROR_INVALID_ARGUMENT;
    spvbc_allocator a;
    memset(&a, 0, sizeof a);
    if (allocator) {
        spvbc_result r = spvbc__struct_in(allocator, &a, sizeof a, SPVBC__MIN_ALLOCATOR);
        if (r != SPVBC_SUCCESS) return r;
        if (!a.alloc || !a.free) return SPVBC_ERROR_INVALID_ARGUMENT;
    } else {
        a.struct_size = sizeof a;
        a.alloc = default_alloc;
        a.free = default_free;
        a.user = NULL;
    }
    spvbc_context ctx = (spvbc_context)a.alloc(a.user, sizeof *ctx);
    if (!ctx) return SPVBC_ERROR_OUT_OF_MEMORY;
    memset(ctx, 0, sizeof *ctx);
    ctx->a = a;
    *out_context = ctx;
    return SPVBC_SUCCESS;
}

void spvbc__live_link(spvbc_context ctx, spvbc__live *entry)
{
    entry->prev = NULL;
    entry->next = ctx->live;
    if (ctx->live) ctx->live->prev = entry;
    ctx->live = entry;
}

void spvbc__live_unlink(spvbc_context ctx, spvbc__live *entry)
{
    if (entry->prev)
        entry->prev->next = entry->next;
    else
        ctx->live = entry->next;
    if (entry->next) entry->next->prev = entry->prev;
}

void spvbc_context_destroy(spvbc_context context)
{
    if (!context) return;
    while (context->live)
        context->live->release(context->live);
    for (int k = 0; k < SPVBC__SPARE_KINDS; ++k)
        spvbc__free(context, context->spare[k], context->spare_bytes[k]);
    spvbc__diag_clear(context);
    arena_release(context, false);
    spvbc__diag_store *st = &context->diags;
    spvbc__free(context, st->recs, st->cap * sizeof *st->recs);
    spvbc__free(context, st->fixed, st->fixed_cap * sizeof *st->fixed);
    spvbc__free(context, st->view, st->view_cap * sizeof *st->view);
    spvbc__free(context, st->names, st->names_cap * sizeof *st->names);
    spvbc_allocator a = context->a;
    a.free(a.user, context, sizeof *context);
}

spvbc__diag_store *spvbc__context_diags(spvbc_context ctx)
{
    return &ctx->diags;
}

/* Releases the string arena's blocks; with `keep`, the newest stays, emptied, for the next
 * call's strings (a driver's calls each make a few diagnostics: one block, not one a call). */
static void arena_release(spvbc_context ctx, bool keep)
{
    arena_block *b = ctx->blocks;
    ctx->blocks = NULL;
    if (b && keep) {
        ctx->blocks = b;
        b->used = 0;
        b = b->next;
        ctx->blocks->next = NULL;
    }
    while (b) {
        arena_block *next = b->next;
        spvbc__free(ctx, b, sizeof *b + b->size);
        b = next;
    }
}

void spvbc__diag_clear(spvbc_context ctx)
{
    spvbc__diag_store *st = &ctx->diags;
    st->count = 0;
    st->fixed_count = 0;
    st->made = 0;
    st->module = NULL;
    st->not_kept = 0;
    st->oom = false;
    arena_release(ctx, true);
}

static char *arena_alloc(spvbc_context ctx, size_t len)
{
    arena_block *b = ctx->blocks;
    if (!b || b->size - b->used < len) {
        size_t size = len > 4000 ? len : 4000;
        if (size > SIZE_MAX - sizeof *b) return NULL;
        b = (arena_block *)spvbc__alloc(ctx, sizeof *b + size);
        if (!b) return NULL;
        b->size = size;
        b->used = 0;
        b->next = ctx->blocks;
        ctx->blocks = b;
    }
    char *p = (char *)(b + 1) + b->used;
    b->used += len;
    return p;
}

char *spvbc__stralloc(spvbc_context ctx, size_t len)
{
    return len == SIZE_MAX ? NULL : arena_alloc(ctx, len + 1);
}

const char *spvbc__strndup(spvbc_context ctx, const char *s, size_t len)
{
    char *p = spvbc__stralloc(ctx, len);
    if (!p) return NULL;
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

static const char *vformat(spvbc_context ctx, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) return NULL;
    char *p = arena_alloc(ctx, (size_t)n + 1);
    if (!p) return NULL;
    (void)vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

bool spvbc__record_add(spvbc_context ctx, const struct spvbc_module_s *m, const spvbc__record *r)
{
    spvbc__diag_store *st = &ctx->diags;
    if (st->policy == SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY ||
        (st->policy == SPVBC_DIAGNOSTIC_POLICY_KEEP_FIRST &&
         st->count - st->fixed_count >= st->limit)) {
        st->not_kept++;
        return true;
    }
    if (!spvbc__grow(ctx, (void **)&st->recs, &st->cap, sizeof *st->recs, st->count + 1))
        return false;
    st->recs[st->count++] = *r;
    st->module = m;
    return true;
}

/* Appends a formatted diagnostic (copied; its strings must already live in the arena or be
 * static), kept whatever the policy.  Returns the stored copy, or NULL on allocation failure. */
static spvbc_diagnostic *diag_add(spvbc_context ctx, const spvbc_diagnostic *d)
{
    spvbc__diag_store *st = &ctx->diags;
    if (!spvbc__grow(ctx, (void **)&st->fixed, &st->fixed_cap, sizeof *st->fixed,
                     st->fixed_count + 1) ||
        !spvbc__grow(ctx, (void **)&st->recs, &st->cap, sizeof *st->recs, st->count + 1))
        return NULL;
    spvbc_diagnostic *slot = &st->fixed[st->fixed_count];
    *slot = *d;
    spvbc__record r;
    memset(&r, 0, sizeof r);
    r.rule = d->rule;
    r.arg = st->fixed_count++;
    r.severity = (uint8_t)d->severity;
    st->recs[st->count++] = r;
    return slot;
}

/* Appends the diagnostic of spvbc__diag_simple() whose message `msg` is in the arena. */
static spvbc_diagnostic *diag_made(spvbc_context ctx, spvbc_severity sev, const char *rule,
                                   size_t word_offset, size_t instruction_index, uint32_t opcode,
                                   const char *msg)
{
    if (!msg) return NULL;
    spvbc_diagnostic d;
    memset(&d, 0, sizeof d);
    d.severity = sev;
    d.rule = rule;
    d.message = msg;
    d.word_offset = word_offset;
    d.instruction_index = instruction_index;
    d.opcode = opcode;
    return diag_add(ctx, &d);
}

spvbc_diagnostic *spvbc__diag_simple(spvbc_context ctx, spvbc_severity sev, const char *rule,
                                     size_t word_offset, size_t instruction_index, uint32_t opcode,
                                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *msg = vformat(ctx, fmt, ap);
    va_end(ap);
    return diag_made(ctx, sev, rule, word_offset, instruction_index, opcode, msg);
}

spvbc_diagnostic *spvbc__diag_text(spvbc_context ctx, spvbc_severity sev, const char *rule,
                                   size_t word_offset, size_t instruction_index, uint32_t opcode,
                                   const char *text, size_t len)
{
    return diag_made(ctx, sev, rule, word_offset, instruction_index, opcode,
                     spvbc__strndup(ctx, text, len));
}

spvbc_result spvbc_context_set_diagnostic_policy(spvbc_context context,
                                                 spvbc_diagnostic_policy policy, size_t limit)
{
    if (!context) return SPVBC_ERROR_INVALID_ARGUMENT;
    if (policy != SPVBC_DIAGNOSTIC_POLICY_KEEP_ALL &&
        policy != SPVBC_DIAGNOSTIC_POLICY_KEEP_FIRST &&
        policy != SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY)
        return SPVBC_ERROR_INVALID_ARGUMENT;
    context->diags.policy = policy;
    context->diags.limit = limit;
    return SPVBC_SUCCESS;
}

const char *spvbc_severity_string(spvbc_severity severity)
{
    switch (severity) {
    case SPVBC_SEVERITY_ERROR: return "error";
    case SPVBC_SEVERITY_WARNING: return "warning";
    case SPVBC_SEVERITY_NOTE: return "note";
    default: return "unknown";
    }
}

const char *spvbc_result_string(spvbc_result result)
{
    switch (result) {
    case SPVBC_SUCCESS: return "success";
    case SPVBC_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case SPVBC_ERROR_OUT_OF_MEMORY: return "out of memory";
    case SPVBC_ERROR_INVALID_BINARY: return "invalid binary";
    case SPVBC_ERROR_INVALID_ID: return "invalid id";
    case SPVBC_ERROR_VALIDATION_FAILED: return "validation failed";
    case SPVBC_ERROR_UNSUPPORTED: return "unsupported";
    case SPVBC_PARTIAL: return "partial: some bitcasts refused";
    case SPVBC_ERROR_STOPPED: return "stopped by the caller";
    default: return "unknown result";
    }
}

unsigned spvbc_version_number(void)
{
    return SPVBC_VERSION_NUMBER;
}

const char *spvbc_version_string(void)
{
    return SPVBC_VERSION_STRING;
}
