/* Context: the caller's allocator, the large tables kept for the next parse, the opcode-flag
 * cache, the list of live modules and the store of findings.  Knows nothing of SPIR-V beyond
 * the opcode flags and nothing of how a module is built or destroyed. */
#ifndef SPVBC_CONTEXT_H_
#define SPVBC_CONTEXT_H_

#include <stdarg.h>

#include "base.h"
#include "module.h"

/* ---- memory ------------------------------------------------------------------------------ */

void *spvbc__alloc(spvbc_context ctx, size_t size);
void spvbc__free(spvbc_context ctx, void *ptr, size_t size);
/** Grows `*array` (of `*cap` elements of `elem` bytes) to hold at least `need` elements, by
 *  doubling; returns false on overflow or allocation failure, leaving the array as it was. */
bool spvbc__grow(spvbc_context ctx, void **array, size_t *cap, size_t elem, size_t need);

/* Large per-module tables the context keeps for reuse by the next parse. */
enum { SPVBC__SPARE_IDS, SPVBC__SPARE_SITES, SPVBC__SPARE_OUT, SPVBC__SPARE_KINDS };
/** Takes the context's spare block of `kind` if it has at least `min_bytes` (its size in
 *  `*bytes`), else NULL. */
void *spvbc__take_spare(spvbc_context ctx, int kind, size_t min_bytes, size_t *bytes);
/** Gives a block of `bytes` back: the context keeps the larger of it and its spare. */
void spvbc__give_spare(spvbc_context ctx, int kind, void *ptr, size_t bytes);

/** Adds `entry` to / removes it from the context's list of live modules; the context calls
 *  `entry->release` for each entry left when it is destroyed. */
void spvbc__live_link(spvbc_context ctx, spvbc__live *entry);
void spvbc__live_unlink(spvbc_context ctx, spvbc__live *entry);

/* ---- the store of findings ---------------------------------------------------------------- */

/* A finding as the passes record it: which sentence (report.c's SPVBC__MSG_*), about which
 * site, with what severity and rule.  The sentence, names and source line are made only when
 * somebody reads the diagnostic (report.c). */
typedef struct spvbc__record {
    const char *rule; /* static */
    size_t arg; /* message-specific */
    uint32_t site; /* index into the module's sites (a site has >= 4 of < 2^32 words) */
    uint16_t msg; /* SPVBC__MSG_*; 0: fixed[arg], formatted when added */
    uint8_t severity; /* spvbc_severity */
    uint8_t flags; /* message-specific */
} spvbc__record;
/* Two pointer-sized fields and 8 bytes, no padding: 24 bytes on 64-bit targets (LP64 and
 * Windows' LLP64), 16 on 32-bit ones (armhf, i386); the cross builds (test/cross) check both. */
_Static_assert(sizeof(spvbc__record) == 2 * sizeof(void *) + 8 && sizeof(size_t) == sizeof(void *),
               "a finding's record stays two pointers and 8 bytes (24 on 64-bit, 16 on 32-bit)");

/* What the report resolved for a site of a module: the word offsets of the OpName of its result
 * and of the OpString of its source file (0: none), and its source line and column. */
typedef struct spvbc__site_names {
    uint32_t site; /* index into the module's sites */
    uint32_t name_at, file_at, line, column;
    uint32_t debug_source; /* while resolving: the File string id of its DebugSource */
} spvbc__site_names;

typedef struct spvbc__diag_store {
    spvbc__record *recs;
    size_t count, cap;
    spvbc_diagnostic *fixed; /* diagnostics formatted when added (parse errors, limits) */
    size_t fixed_count, fixed_cap;
    spvbc_diagnostic *view; /* records [0, made) as diagnostics, made when first read */
    size_t view_cap;
    size_t made;
    const struct spvbc_module_s *module; /* whose sites the records name */
    size_t not_kept; /* findings the policy did not keep since the last clear */
    spvbc_diagnostic_policy policy;
    size_t limit; /* SPVBC_DIAGNOSTIC_POLICY_KEEP_FIRST */
    /* An out-of-memory error was met since the last clear: it reads as one R-MEMORY diagnostic
     * after the `count` others.  Kept in the store itself, so recording it never allocates,
     * never fails and never moves a diagnostic the caller holds a pointer to. */
    bool oom;
    /* The report's resolved sites of `names_module` (NULL: none), sorted by site, kept from call
     * to call on a module (validate, then lower) and released with the context. */
    const struct spvbc_module_s *names_module;
    spvbc__site_names *names;
    size_t names_count, names_cap;
} spvbc__diag_store;

spvbc__diag_store *spvbc__context_diags(spvbc_context ctx);
/** Forgets every finding and releases their strings (the start of each module call). */
void spvbc__diag_clear(spvbc_context ctx);
/** Records a finding about a site of `m` under the context's policy (a finding the policy does
 *  not keep is counted in not_kept).  False on allocation failure. */
bool spvbc__record_add(spvbc_context ctx, const struct spvbc_module_s *m, const spvbc__record *r);
/** A formatted diagnostic with only a position, a rule and a message (parse errors, limits). */
spvbc_diagnostic *spvbc__diag_simple(spvbc_context ctx, spvbc_severity sev, const char *rule,
                                     size_t word_offset, size_t instruction_index, uint32_t opcode,
                                     const char *fmt, ...) SPVBC_PRINTF(7, 8);
/** spvbc__diag_simple() with its message made: the `len` bytes at `text`, copied. */
spvbc_diagnostic *spvbc__diag_text(spvbc_context ctx, spvbc_severity sev, const char *rule,
                                   size_t word_offset, size_t instruction_index, uint32_t opcode,
                                   const char *text, size_t len);
/** Records the out-of-memory diagnostic (once per call; it needs no memory) and returns
 *  SPVBC_ERROR_OUT_OF_MEMORY. */
spvbc_result spvbc__oom(spvbc_context ctx);
/** The R-MEMORY diagnostic that spvbc__oom() records (static). */
extern const spvbc_diagnostic spvbc__oom_diagnostic;

/** Room for a string of `len` bytes and its NUL in the context's string arena (`len` < SIZE_MAX);
 *  NULL on allocation failure. */
char *spvbc__stralloc(spvbc_context ctx, size_t len);
/** Copies `len` bytes of `s` into the context's string arena; NULL on allocation failure. */
const char *spvbc__strndup(spvbc_context ctx, const char *s, size_t len);

#endif /* SPVBC_CONTEXT_H_ */
