/*
 * layer_core.c - what the layers share, free of any driver API (see layer_core.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _GNU_SOURCE /* clock_gettime, statx */
#include "layer_core.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t g_log_lock = PTHREAD_MUTEX_INITIALIZER;
/* The log file kept open (under g_log_lock), and its path. */
static int g_log_fd = -1;
static char g_log_fd_path[sizeof((spvbc_layer_config *)0)->log_path];

/* Contexts are reused rather than made for each module: a call takes one from this pool (or
 * creates one if it is empty) and gives it back afterwards, so there are never more contexts
 * than threads that were inside the layer at once.  A pool rather than thread-local contexts:
 * a thread-exit destructor would have to stay mapped until the last thread ends, but the loader
 * unloads the layer at vkDestroyInstance while the application's threads live on.  Reusing a
 * context is safe because every module call clears its diagnostics (spirv_bitcast.h).
 *
 * A pooled context counts findings and keeps none (SPVBC_DIAGNOSTICS_COUNT_ONLY): the library
 * makes a kept finding's sentence before the call returns, and the verdict needs only the
 * summary counts.  Where the log shows findings (a refused rewrite, validate mode, errors no
 * rewrite touched), the call is made again under keep_findings(); validate and lower analyse
 * the parsed input each time, so the second call finds the same and lowers the same.  Validate
 * mode, which logs every invalid module's errors, keeps them from the start. */
#define POOL_MAX 64
#define SPVBC_LAYER_KEPT_FINDINGS 256
static pthread_mutex_t g_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static spvbc_context g_pool[POOL_MAX];
static int g_pool_count;

/* A context for this call (from the pool, or new), or NULL with the failure in `*r`. */
static spvbc_context context_take(spvbc_result *r)
{
    spvbc_context ctx = NULL;
    (void)pthread_mutex_lock(&g_pool_lock);
    if (g_pool_count > 0) ctx = g_pool[--g_pool_count];
    (void)pthread_mutex_unlock(&g_pool_lock);
    *r = SPVBC_SUCCESS;
    if (ctx == NULL) {
        *r = spvbc_context_create(NULL, &ctx);
        if (*r == SPVBC_SUCCESS)
            *r = spvbc_context_set_diagnostic_policy(ctx, SPVBC_DIAGNOSTICS_COUNT_ONLY, 0);
    }
    return *r == SPVBC_SUCCESS ? ctx : NULL;
}

/* Makes `ctx` keep findings for the calls that follow, for the log's error lines: the first
 * few only, so that a hostile module's findings cost no more memory than these. */
static void keep_findings(spvbc_context ctx)
{
    (void)spvbc_context_set_diagnostic_policy(ctx, SPVBC_DIAGNOSTICS_KEEP_FIRST,
                                              SPVBC_LAYER_KEPT_FINDINGS);
}

/* Returns `ctx` (whose modules are all destroyed) to the pool, counting findings only again,
 * or destroys it if the pool is full. */
static void context_give(spvbc_context ctx)
{
    if (ctx == NULL) return;
    (void)spvbc_context_set_diagnostic_policy(ctx, SPVBC_DIAGNOSTICS_COUNT_ONLY, 0);
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

#if defined(__GNUC__)
/* When the layer is unloaded (or a test program ends), nobody is inside it any more. */
__attribute__((destructor)) static void release_at_unload(void)
{
    spvbc_layer_release_contexts();
    (void)pthread_mutex_lock(&g_log_lock);
    if (g_log_fd >= 0) (void)close(g_log_fd);
    g_log_fd = -1;
    (void)pthread_mutex_unlock(&g_log_lock);
}
#endif

/* The names of the modes, indexed by their enum values.  Pad policies are named by the library
 * (spvbc_pad_policy_string), so the layers, the CLI and opt spell them alike. */
static const char *const g_modes[] = {"lower", "validate", "off"};
/* SPVBC_LAYER_LOG_LEVEL's names: index 1 sets log_all. */
static const char *const g_levels[] = {"changes", "all"};

/* Logs that `var`=`value` is not one of the `count` names in `names`, and that `fallback` is used.
 */
static void log_not_understood(const spvbc_layer_config *cfg, const char *var, const char *value,
                               const char *const *names, int count)
{
    char list[64] = "";
    for (int i = 0; i < count; ++i)
        (void)snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
                       names[i]);
    spvbc_layer_log(cfg, "spvbc-layer: %s=%s not understood (%s): using %s", var, value, list,
                    names[0]);
}

/* Reads environment variable `var` as one of `names` (`count` of them) and returns its index;
 * returns 0 (the default) and logs the mistake for any other non-empty value. */
static int env_choice(const spvbc_layer_config *cfg, const char *var, const char *const *names,
                      int count)
{
    const char *v = getenv(var);
    if (v == NULL || *v == '\0') return 0;
    for (int i = 0; i < count; ++i)
        if (strcmp(v, names[i]) == 0) return i;
    log_not_understood(cfg, var, v, names, count);
    return 0;
}

/* SPVBC_LAYER_PAD through the library's parser; SPVBC_PAD_UNDEF (logged) for anything else. */
static spvbc_pad_policy env_pad(const spvbc_layer_config *cfg)
{
    const char *v = getenv("SPVBC_LAYER_PAD");
    spvbc_pad_policy pad = SPVBC_PAD_UNDEF;
    if (v == NULL || *v == '\0' || spvbc_pad_policy_from_string(v, &pad) == SPVBC_SUCCESS)
        return pad;
    const char *names[] = {spvbc_pad_policy_string(SPVBC_PAD_UNDEF),
                           spvbc_pad_policy_string(SPVBC_PAD_ZERO),
                           spvbc_pad_policy_string(SPVBC_PAD_ERROR)};
    log_not_understood(cfg, "SPVBC_LAYER_PAD", v, names, 3);
    return SPVBC_PAD_UNDEF;
}

/* SPVBC_LAYER_GENERATION through the library's parser; the newest (logged) for anything else. */
static uint32_t env_generation(const spvbc_layer_config *cfg)
{
    const char *v = getenv("SPVBC_LAYER_GENERATION");
    uint32_t g = SPVBC_GENERATION_NEWEST;
    if (v == NULL || *v == '\0' || spvbc_generation_from_string(v, &g) == SPVBC_SUCCESS) return g;
    const char *names[] = {"newest", "2026.4", "2025.1", "2023.1"};
    log_not_understood(cfg, "SPVBC_LAYER_GENERATION", v, names, 4);
    return SPVBC_GENERATION_NEWEST;
}

const char *spvbc_layer_mode_name(spvbc_layer_mode mode)
{
    return (unsigned)mode < 3u ? g_modes[mode] : "?";
}

void spvbc_layer_config_from_env(spvbc_layer_config *cfg)
{
    if (cfg == NULL) return;
    memset(cfg, 0, sizeof *cfg);
    cfg->log_to_stderr = 1;
    const char *log = getenv("SPVBC_LAYER_LOG");
    if (log != NULL && strcmp(log, "off") == 0) {
        cfg->log_off = 1;
    } else if (log != NULL && *log != '\0' && strcmp(log, "stderr") != 0) {
        size_t n = strlen(log);
        if (n < sizeof cfg->log_path) {
            memcpy(cfg->log_path, log, n + 1);
            cfg->log_to_stderr = 0;
        }
    }
    cfg->mode = (spvbc_layer_mode)env_choice(cfg, "SPVBC_LAYER_MODE", g_modes, 3);
    cfg->pad = env_pad(cfg);
    cfg->generation = env_generation(cfg);
    cfg->log_all = env_choice(cfg, "SPVBC_LAYER_LOG_LEVEL", g_levels, 2);
}

void spvbc_layer_announce(const spvbc_layer_config *cfg, const char *layer_name)
{
    if (cfg == NULL || cfg->mode == SPVBC_LAYER_MODE_OFF || !cfg->log_all) return;
    spvbc_layer_log(cfg, "spvbc-layer: %s active: mode=%s pad=%s (libspirv-bitcast %s)",
                    layer_name != NULL ? layer_name : "?", spvbc_layer_mode_name(cfg->mode),
                    spvbc_pad_policy_string(cfg->pad), spvbc_version_string());
}

/* Whether the file open as `fd` still has a name (0 also when that cannot be told).  statx
 * asks for the link count alone: fstat asks for the times too, and where the file system keeps
 * fine-grained timestamps (Linux 6.13's multigrain ctime on ext4, xfs, btrfs), a queried ctime
 * makes the next write update the inode again; a line to a file on ext4 then cost 2.2 us of
 * CPU against 1.3 us with statx (the write alone: 0.9 us) on the machine of
 * docs/performance.md. */
static int still_linked(int fd)
{
#if defined(STATX_NLINK)
    struct statx sx;
    if (statx(fd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC, STATX_NLINK, &sx) == 0 &&
        (sx.stx_mask & STATX_NLINK) != 0)
        return sx.stx_nlink != 0;
#endif
    struct stat st;
    return fstat(fd, &st) == 0 && st.st_nlink != 0;
}

/* The descriptor to append `path`'s lines to, or -1; the caller holds g_log_lock. */
static int log_file(const char *path)
{
    if (g_log_fd >= 0 && (strcmp(path, g_log_fd_path) != 0 || !still_linked(g_log_fd))) {
        (void)close(g_log_fd);
        g_log_fd = -1;
    }
    if (g_log_fd < 0) {
        g_log_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
        if (g_log_fd >= 0) (void)snprintf(g_log_fd_path, sizeof g_log_fd_path, "%s", path);
    }
    return g_log_fd;
}

/* A log line is at most LOG_LINE - 2 characters, then its newline. */
#define LOG_LINE 4096

/* Writes the `len` bytes of `line` (newline included) to the configured log. */
static void log_write(const spvbc_layer_config *cfg, const char *line, size_t len)
{
    /* One write(2) of the whole line: no stdio buffer to allocate, and O_APPEND keeps lines of
     * several processes sharing the file whole.  The file stays open from line to line; it is
     * opened again when another path is configured or the file was removed (no links left). */
    (void)pthread_mutex_lock(&g_log_lock);
    int fd = STDERR_FILENO;
    if (!cfg->log_to_stderr) fd = log_file(cfg->log_path);
    if (fd >= 0) {
        const char *p = line;
        while (len > 0) {
            ssize_t w = write(fd, p, len);
            if (w <= 0) break;
            p += w;
            len -= (size_t)w;
        }
    }
    (void)pthread_mutex_unlock(&g_log_lock);
}

void spvbc_layer_log(const spvbc_layer_config *cfg, const char *fmt, ...)
{
    if (cfg == NULL || fmt == NULL || cfg->log_off) return;
    char line[LOG_LINE];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    size_t len = (size_t)n < sizeof line - 1 ? (size_t)n : sizeof line - 2;
    line[len++] = '\n';
    log_write(cfg, line, len);
}

/* A line being put together without printf (whose parsing of the format costs more than the
 * rest of a module's line): `len` characters so far of at most `cap`, truncated beyond. */
typedef struct text {
    char *buf;
    size_t len, cap;
} text;

static void put_str(text *t, const char *s)
{
    while (*s != '\0' && t->len < t->cap)
        t->buf[t->len++] = *s++;
}

/* `v` in decimal, as "%llu" prints it. */
static void put_dec(text *t, unsigned long long v)
{
    char digits[24];
    size_t n = sizeof digits;
    digits[--n] = '\0';
    do {
        digits[--n] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0);
    put_str(t, digits + n);
}

/* `v` as "%016llx" prints it. */
static void put_hex16(text *t, unsigned long long v)
{
    char digits[17];
    for (int i = 15; i >= 0; --i, v >>= 4)
        digits[i] = "0123456789abcdef"[v & 15u];
    digits[16] = '\0';
    put_str(t, digits);
}

/* XXH64, as specified by its author (github.com/Cyan4973/xxHash, doc/xxhash_spec.md): four
 * lanes of 8-byte words, so a module costs about a multiply per 8 bytes (FNV-1a, used before,
 * costs one per byte, more than the library's parse of the module). */
#define XXH_P1 0x9E3779B185EBCA87ull
#define XXH_P2 0xC2B2AE3D27D4EB4Full
#define XXH_P3 0x165667B19E3779F9ull
#define XXH_P4 0x85EBCA77C2B2AE63ull
#define XXH_P5 0x27D4EB2F165667C5ull

static uint64_t rotl64(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

static uint64_t read64le(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | p[i]; /* compilers make this one load on little-endian machines */
    return v;
}

static uint64_t xxh_round(uint64_t acc, uint64_t in)
{
    acc += in * XXH_P2;
    return rotl64(acc, 31) * XXH_P1;
}

static uint64_t xxh_merge(uint64_t acc, uint64_t v)
{
    acc ^= xxh_round(0, v);
    return acc * XXH_P1 + XXH_P4;
}

uint64_t spvbc_layer_hash(const void *bytes, size_t size)
{
    const unsigned char *p = bytes != NULL ? bytes : (const void *)"", *end;
    if (bytes == NULL) size = 0;
    end = p + size;
    uint64_t h;
    if (size >= 32) {
        uint64_t v1 = XXH_P1 + XXH_P2, v2 = XXH_P2, v3 = 0, v4 = 0 - XXH_P1;
        for (; end - p >= 32; p += 32) {
            v1 = xxh_round(v1, read64le(p));
            v2 = xxh_round(v2, read64le(p + 8));
            v3 = xxh_round(v3, read64le(p + 16));
            v4 = xxh_round(v4, read64le(p + 24));
        }
        h = rotl64(v1, 1) + rotl64(v2, 7) + rotl64(v3, 12) + rotl64(v4, 18);
        h = xxh_merge(h, v1);
        h = xxh_merge(h, v2);
        h = xxh_merge(h, v3);
        h = xxh_merge(h, v4);
    } else {
        h = XXH_P5;
    }
    h += (uint64_t)size;
    for (; end - p >= 8; p += 8) {
        h ^= xxh_round(0, read64le(p));
        h = rotl64(h, 27) * XXH_P1 + XXH_P4;
    }
    if (end - p >= 4) {
        uint64_t w =
            (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
        h ^= w * XXH_P1;
        h = rotl64(h, 23) * XXH_P2 + XXH_P3;
        p += 4;
    }
    for (; p < end; ++p) {
        h ^= (uint64_t)*p * XXH_P5;
        h = rotl64(h, 11) * XXH_P1;
    }
    h ^= h >> 33;
    h *= XXH_P2;
    h ^= h >> 29;
    h *= XXH_P3;
    h ^= h >> 32;
    return h;
}

/* The context's error diagnostics as indented lines, or "" (a static buffer is not used: the
 * layer may be called from several threads). */
static void collect_errors(spvbc_context ctx, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    size_t count = spvbc_context_diagnostic_count(ctx);
    for (size_t i = 0; i < count && used + 1 < size; ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        if (d == NULL || d->severity != SPVBC_SEVERITY_ERROR) continue;
        int n;
        if (d->word_offset == SPVBC_NO_POSITION) {
            n = snprintf(buf + used, size - used, "\n  error: %s [%s]",
                         d->message != NULL ? d->message : "?", d->rule != NULL ? d->rule : "?");
        } else {
            n = snprintf(buf + used, size - used, "\n  error: word %zu: %s [%s]", d->word_offset,
                         d->message != NULL ? d->message : "?", d->rule != NULL ? d->rule : "?");
        }
        if (n < 0) break;
        used += (size_t)n;
        if (used >= size) {
            used = size - 1;
            break;
        }
    }
}

static long long now_us(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
    return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The verdict, formatted only when its line will be written. */
#define VERDICT(...)                                                                               \
    do {                                                                                           \
        if (say) (void)snprintf(verdict, sizeof verdict, __VA_ARGS__);                             \
    } while (0)

int spvbc_layer_process(const spvbc_layer_config *cfg, const char *api, const void *code,
                        size_t code_size, uint32_t **out_code, size_t *out_size)
{
    if (cfg == NULL || cfg->mode == SPVBC_LAYER_MODE_OFF || out_code == NULL || out_size == NULL)
        return 0;
    /* Without a log, nothing is timed, hashed or formatted: a module that passes unchanged costs
     * the library's parse and validation and nothing else (no allocation but the context's).
     * `say` is set with each outcome: whether its line is written (level all: every outcome;
     * level changes: a module lowered or refused, validate mode's errors, the layer's own
     * failures); only then is the module hashed and the line made. */
    const int log_any = !cfg->log_off, log_all = log_any && cfg->log_all;
    int say = 0;
    long long start = log_any ? now_us() : 0;
    if (api == NULL) api = "?";
    char verdict[192];
    char errs[2048]; /* the error lines of the log; every path below logs it, the early ones too */
    errs[0] = '\0';
    verdict[0] = '\0';
    int replaced = 0;
    spvbc_module mod = NULL;
    spvbc_result r = SPVBC_SUCCESS;
    spvbc_context ctx = NULL;
    spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
    if (code == NULL || code_size == 0) {
        say = log_all;
        VERDICT("unchanged (not parsed: no code)");
        goto done;
    }
    /* Where only a change or a refusal is logged, a module lowering cannot change is passed on
     * after a scan of its words: no context, no parse (no allocation: a bound above 32,768
     * answers "maybe" without a context). */
    int maybe = 1;
    if (cfg->mode == SPVBC_LAYER_MODE_LOWER && !log_all &&
        spvbc_bytes_may_lower(NULL, code, code_size, &maybe) == SPVBC_SUCCESS && !maybe)
        goto done;
    ctx = context_take(&r);
    if (ctx == NULL) {
        say = log_any;
        VERDICT("unchanged (library error: %s)", spvbc_result_string(r));
        goto done;
    }
    r = spvbc_module_parse_bytes(ctx, code, code_size, NULL, &mod);
    if (r != SPVBC_SUCCESS) {
        say = log_all;
        if (say) collect_errors(ctx, errs, sizeof errs);
        VERDICT("unchanged (not parsed: %s)", spvbc_result_string(r));
        goto done;
    }
    /* Validate mode logs the errors of every invalid module: kept from the start. */
    if (log_any && cfg->mode == SPVBC_LAYER_MODE_VALIDATE) keep_findings(ctx);
    const spvbc_validate_options vo = {sizeof(spvbc_validate_options), cfg->validate_flags,
                                       cfg->generation};
    r = spvbc_module_validate(mod, &vo, &vs);
    if (r != SPVBC_SUCCESS && r != SPVBC_ERROR_VALIDATION_FAILED) {
        say = log_any;
        VERDICT("unchanged (library error: %s)", spvbc_result_string(r));
        goto done;
    }
    if (vs.errors == 0) {
        say = log_all;
        if (say) { /* the verdict of most modules: "unchanged (valid, %zu bitcasts)" */
            text v = {verdict, 0, sizeof verdict - 1};
            put_str(&v, "unchanged (valid, ");
            put_dec(&v, vs.bitcasts_checked);
            put_str(&v, " bitcasts)");
            verdict[v.len] = '\0';
        }
        goto done;
    }
    if (cfg->mode == SPVBC_LAYER_MODE_VALIDATE) {
        say = log_any;
        if (say) collect_errors(ctx, errs, sizeof errs);
        VERDICT("unchanged (validate mode: %zu errors, %zu lowerable)", vs.errors, vs.lowerable);
        goto done;
    }
    spvbc_lower_options lo = {sizeof(spvbc_lower_options), cfg->pad, 0, cfg->generation};
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    r = spvbc_module_lower(mod, &lo, &ls);
    /* The refusals, if any, lowered again with their findings kept for the log (the same
     * rewrites: its result and summary stand for the first call's); otherwise lower's findings
     * are notes nobody reads, and none was made.  Logged at level changes: a rewrite, a refusal
     * (an as_type-legal bitcast left invalid: the validation counted it lowerable) or a
     * failure; not the other errors (a size that as_type forbids too). */
    const int refusal = vs.lowerable > ls.rewritten; /* an as_type-legal bitcast left invalid */
    if (log_any && r != SPVBC_SUCCESS &&
        (log_all || r != SPVBC_PARTIAL || ls.rewritten > 0 || refusal)) {
        keep_findings(ctx);
        ls = (spvbc_lower_summary)SPVBC_LOWER_SUMMARY_INIT;
        r = spvbc_module_lower(mod, &lo, &ls);
        collect_errors(ctx, errs, sizeof errs);
    }
    if (r != SPVBC_SUCCESS && r != SPVBC_PARTIAL) {
        say = log_any;
        VERDICT("unchanged (library error: %s)", spvbc_result_string(r));
        goto done;
    }
    if (ls.rewritten == 0) {
        say = log_all || (log_any && refusal);
        if (say && errs[0] == '\0') {
            keep_findings(ctx);
            if (spvbc_module_validate(mod, &vo, NULL) != SPVBC_SUCCESS)
                collect_errors(ctx, errs, sizeof errs);
        }
        VERDICT("unchanged (%zu errors, %zu refused)", vs.errors, ls.refused);
        goto done;
    }
    say = log_any; /* every outcome below changes the module or is a failure of the layer */
    const uint32_t *words = NULL;
    size_t count = 0;
    r = spvbc_module_get_words(mod, &words, &count);
    if (r != SPVBC_SUCCESS || words == NULL || count == 0 || count > SIZE_MAX / 4u) {
        VERDICT("unchanged (library error: get_words %s)", spvbc_result_string(r));
        goto done;
    }
    uint32_t *copy = malloc(count * 4u);
    if (copy == NULL) {
        VERDICT("unchanged (library error: out of memory)");
        goto done;
    }
    memcpy(copy, words, count * 4u);
    /* Check the result with the library's own validator before the driver sees it. */
    size_t errors_after = 0;
    spvbc_module check = NULL;
    if (spvbc_module_parse(ctx, copy, count, NULL, &check) == SPVBC_SUCCESS) {
        spvbc_validate_summary after = SPVBC_VALIDATE_SUMMARY_INIT;
        if (spvbc_module_validate(check, &vo, &after) == SPVBC_ERROR_VALIDATION_FAILED)
            errors_after = after.errors;
        spvbc_module_destroy(check);
    }
    VERDICT("lowered %zu bitcasts -> out xxh64=%016llx %zu words (%zu refused, %zu errors left)",
            ls.rewritten, (unsigned long long)spvbc_layer_hash(copy, count * 4u), count, ls.refused,
            errors_after);
    *out_code = copy;
    *out_size = count * 4u;
    replaced = 1;
done:
    if (mod != NULL) spvbc_module_destroy(mod);
    context_give(ctx);
    if (say) {
        /* The time is the layer's own work on this module, hashing included, up to (not
         * including) the log line. */
        unsigned long long hash = spvbc_layer_hash(code, code != NULL ? code_size : 0);
        long long us = now_us() - start;
        /* "spvbc-layer: %s: in xxh64=%016llx %zu words: %s [%lld us]%s" */
        char line[LOG_LINE];
        text t = {line, 0, sizeof line - 2};
        put_str(&t, "spvbc-layer: ");
        put_str(&t, api);
        put_str(&t, ": in xxh64=");
        put_hex16(&t, hash);
        put_str(&t, " ");
        put_dec(&t, code_size / 4u);
        put_str(&t, " words: ");
        put_str(&t, verdict);
        put_str(&t, us < 0 ? " [-" : " [");
        put_dec(&t, us < 0 ? 0ull - (unsigned long long)us : (unsigned long long)us);
        put_str(&t, " us]");
        put_str(&t, errs);
        line[t.len++] = '\n';
        log_write(cfg, line, t.len);
    }
    return replaced;
}
