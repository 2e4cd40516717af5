/* Context: allocator, diagnostics and their string arena, result names, version. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Diagnostic strings live in a chain of blocks, released together when diagnostics clear. */
typedef struct arena_block {
    struct arena_block *next;
    size_t size, used;
    /* followed by `size` bytes */
} arena_block;

struct spvbc_context_s {
    spvbc_allocator a;
    spvbc_diagnostic *diags;
    size_t diag_count, diag_cap;
    arena_block *blocks;
    struct spvbc_module_s *modules; /* live modules, destroyed with the context */
    uint8_t optab[SPVBC__OPTAB_SIZE];
    /* The id table and site list of the last destroyed module, kept for the next parse: a
     * driver parses module after module, and fresh pages cost more than the parse itself. */
    void *spare[SPVBC__SPARE_KINDS];
    size_t spare_bytes[SPVBC__SPARE_KINDS];
};

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

uint8_t spvbc__opcode_flags(uint32_t op)
{
    bool has_result = false, has_type = false;
    SpvHasResultAndType((SpvOp)op, &has_result, &has_type);
    uint8_t f =
        (uint8_t)((has_result ? SPVBC__OPF_RESULT : 0u) | (has_type ? SPVBC__OPF_TYPE : 0u));
    /* In SPIRV-Headers' table every opcode with a result id and no result type declares a
     * type, except these few. */
    if (has_result && !has_type) {
        switch (op) {
        case SpvOpString:
        case SpvOpExtInstImport:
        case SpvOpDecorationGroup:
        case SpvOpLabel:
        case SpvOpAliasDomainDeclINTEL:
        case SpvOpAliasScopeDeclINTEL:
        case SpvOpAliasScopeListDeclINTEL: break;
        default: f |= SPVBC__OPF_DECL; break;
        }
    }
    switch (op) {
    case SpvOpCapability:
    case SpvOpExtension:
    case SpvOpExtInstImport:
    case SpvOpMemoryModel:
    case SpvOpTypeForwardPointer:
    case SpvOpConstantNull:
    case SpvOpFunction:
    case SpvOpFunctionEnd:
    case SpvOpBitcast:
    case SpvOpSpecConstantOp:
    case SpvOpTypeVector: f |= SPVBC__OPF_SPECIAL; break;
    default: break;
    }
    switch (op) {
    case SpvOpLine:
    case SpvOpNoLine:
    case SpvOpLabel:
    case SpvOpFunctionEnd:
    case SpvOpBranch:
    case SpvOpBranchConditional:
    case SpvOpSwitch:
    case SpvOpReturn:
    case SpvOpReturnValue:
    case SpvOpKill:
    case SpvOpUnreachable:
    case SpvOpExtInst: f |= SPVBC__OPF_LINE; break;
    default: break;
    }
    return f;
}

uint8_t *spvbc__context_optab(spvbc_context ctx)
{
    return ctx->optab;
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

spvbc_result spvbc__oom(spvbc_context ctx)
{
    /* The arena may be unable to hold a message; a static one always fits. */
    spvbc_diagnostic d;
    memset(&d, 0, sizeof d);
    d.severity = SPVBC_SEVERITY_ERROR;
    d.rule = "R-MEMORY";
    d.message = "out of memory";
    d.word_offset = SPVBC_NO_POSITION;
    d.instruction_index = SPVBC_NO_POSITION;
    (void)spvbc__diag_add(ctx, &d);
    return SPVBC_ERROR_OUT_OF_MEMORY;
}

spvbc_result spvbc_context_create(const spvbc_allocator *allocator, spvbc_context *out_context)
{
    if (!out_context) return SPVBC_ERROR_INVALID_ARGUMENT;
    spvbc_allocator a;
    if (allocator) {
        if (!allocator->alloc || !allocator->free) return SPVBC_ERROR_INVALID_ARGUMENT;
        a = *allocator;
    } else {
        a.alloc = default_alloc;
        a.free = default_free;
        a.user = NULL;
    }
    spvbc_context ctx = (spvbc_context)a.alloc(a.user, sizeof *ctx);
    if (!ctx) return SPVBC_ERROR_OUT_OF_MEMORY;
    memset(ctx, 0, sizeof *ctx);
    ctx->a = a;
    /* Filled on first sight of each opcode: a context that parses one small module pays for
     * the few opcodes it meets, not for all of them. */
    memset(ctx->optab, SPVBC__OPF_UNKNOWN, sizeof ctx->optab);
    *out_context = ctx;
    return SPVBC_SUCCESS;
}

void spvbc__module_link(spvbc_context ctx, struct spvbc_module_s *m)
{
    m->prev = NULL;
    m->next = ctx->modules;
    if (ctx->modules) ctx->modules->prev = m;
    ctx->modules = m;
}

void spvbc__module_unlink(spvbc_context ctx, struct spvbc_module_s *m)
{
    if (m->prev)
        m->prev->next = m->next;
    else
        ctx->modules = m->next;
    if (m->next) m->next->prev = m->prev;
}

void spvbc_context_destroy(spvbc_context context)
{
    if (!context) return;
    while (context->modules)
        spvbc_module_destroy(context->modules);
    for (int k = 0; k < SPVBC__SPARE_KINDS; ++k)
        spvbc__free(context, context->spare[k], context->spare_bytes[k]);
    spvbc__diag_clear(context);
    spvbc__free(context, context->diags, context->diag_cap * sizeof *context->diags);
    spvbc_allocator a = context->a;
    a.free(a.user, context, sizeof *context);
}

void spvbc__diag_clear(spvbc_context ctx)
{
    ctx->diag_count = 0;
    arena_block *b = ctx->blocks;
    while (b) {
        arena_block *next = b->next;
        spvbc__free(ctx, b, sizeof *b + b->size);
        b = next;
    }
    ctx->blocks = NULL;
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

const char *spvbc__strndup(spvbc_context ctx, const char *s, size_t len)
{
    if (len == SIZE_MAX) return NULL;
    char *p = arena_alloc(ctx, len + 1);
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

const char *spvbc__sprintf(spvbc_context ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *s = vformat(ctx, fmt, ap);
    va_end(ap);
    return s;
}

spvbc_diagnostic *spvbc__diag_add(spvbc_context ctx, const spvbc_diagnostic *d)
{
    if (!spvbc__grow(ctx, (void **)&ctx->diags, &ctx->diag_cap, sizeof *ctx->diags,
                     ctx->diag_count + 1))
        return NULL;
    spvbc_diagnostic *slot = &ctx->diags[ctx->diag_count++];
    *slot = *d;
    return slot;
}

spvbc_diagnostic *spvbc__diag_simple(spvbc_context ctx, spvbc_severity sev, const char *rule,
                                     size_t word_offset, size_t instruction_index, uint32_t opcode,
                                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *msg = vformat(ctx, fmt, ap);
    va_end(ap);
    if (!msg) return NULL;
    spvbc_diagnostic d;
    memset(&d, 0, sizeof d);
    d.severity = sev;
    d.rule = rule;
    d.message = msg;
    d.word_offset = word_offset;
    d.instruction_index = instruction_index;
    d.opcode = opcode;
    return spvbc__diag_add(ctx, &d);
}

size_t spvbc_context_diagnostic_count(spvbc_context context)
{
    return context ? context->diag_count : 0;
}

const spvbc_diagnostic *spvbc_context_diagnostic(spvbc_context context, size_t index)
{
    if (!context || index >= context->diag_count) return NULL;
    return &context->diags[index];
}

spvbc_diagnostic *spvbc__diag_at(spvbc_context ctx, size_t index)
{
    return index < ctx->diag_count ? &ctx->diags[index] : NULL;
}

size_t spvbc__diag_count(spvbc_context ctx)
{
    return ctx->diag_count;
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
