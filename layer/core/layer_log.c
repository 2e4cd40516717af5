/*
 * layer_log.c - the layers' log: the file (or standard error) lines go to, and the line an
 * outcome makes (see layer_log.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _GNU_SOURCE /* statx */
#include "layer_log.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static pthread_mutex_t g_log_lock = PTHREAD_MUTEX_INITIALIZER;
/* The log file kept open (under g_log_lock), and its path. */
static int g_log_fd = -1;
static char g_log_fd_path[sizeof((spvbc_layer_config *)0)->log_path];
/* A log path that could not be opened or written (under g_log_lock): its lines go to standard
 * error, after one line saying why; it is not tried again. */
static char g_log_failed_path[sizeof((spvbc_layer_config *)0)->log_path];

void spvbc_layer_log_close(void)
{
    (void)pthread_mutex_lock(&g_log_lock);
    if (g_log_fd >= 0) (void)close(g_log_fd);
    g_log_fd = -1;
    (void)pthread_mutex_unlock(&g_log_lock);
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

/* Writes the `len` bytes at `p` to `fd`; returns 0, or the errno of the write that failed. */
static int write_all(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return w < 0 ? errno : EIO;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* Gives up on the log file `path` (the caller holds g_log_lock): says on standard error, once,
 * why (`err`, an errno value), so that its lines, which go there from now on, are not lost
 * without a word. */
static void log_file_failed(const char *path, int err)
{
    if (g_log_fd >= 0) (void)close(g_log_fd);
    g_log_fd = -1;
    (void)snprintf(g_log_failed_path, sizeof g_log_failed_path, "%s", path);
    char why[1280];
    int n = snprintf(why, sizeof why,
                     "spvbc-layer: cannot write the log file %s (%s): logging to stderr instead\n",
                     path, strerror(err));
    if (n > 0)
        (void)write_all(STDERR_FILENO, why, (size_t)n < sizeof why ? (size_t)n : sizeof why - 1);
}

/* The descriptor to append `path`'s lines to, or -1 with the reason in `*err`; the caller holds
 * g_log_lock. */
static int log_file(const char *path, int *err)
{
    if (g_log_fd >= 0 && (strcmp(path, g_log_fd_path) != 0 || !still_linked(g_log_fd))) {
        (void)close(g_log_fd);
        g_log_fd = -1;
    }
    if (g_log_fd < 0) {
        g_log_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
        if (g_log_fd >= 0)
            (void)snprintf(g_log_fd_path, sizeof g_log_fd_path, "%s", path);
        else
            *err = errno;
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
     * opened again when another path is configured or the file was removed (no links left).
     * A file that cannot be opened (a missing directory, a directory) or written (a full
     * device) is given up for standard error, with one line saying why. */
    (void)pthread_mutex_lock(&g_log_lock);
    int fd = STDERR_FILENO, err = 0;
    if (!cfg->log_to_stderr && strcmp(cfg->log_path, g_log_failed_path) != 0) {
        fd = log_file(cfg->log_path, &err);
        if (fd < 0) {
            log_file_failed(cfg->log_path, err);
            fd = STDERR_FILENO;
        } else if ((err = write_all(fd, line, len)) != 0) {
            log_file_failed(cfg->log_path, err);
            fd = STDERR_FILENO;
        } else {
            fd = -1; /* written */
        }
    }
    if (fd >= 0) (void)write_all(fd, line, len);
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

/* `v` in decimal, as "%d" prints it. */
static void put_int(text *t, int v)
{
    if (v < 0) put_str(t, "-");
    put_dec(t, v < 0 ? 0ull - (unsigned long long)(long long)v : (unsigned long long)v);
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

/* `one` when `n` is 1, else `many`: counts agree in number ("1 bitcast", "2 bitcasts"). */
static const char *plural(size_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

/* "<n> <one>" or "<n> <many>", as `n` says. */
static void put_count(text *t, size_t n, const char *one, const char *many)
{
    put_dec(t, n);
    put_str(t, " ");
    put_str(t, plural(n, one, many));
}

/* The verdict of `o`, as layer_core.h lists them. */
static void put_verdict(text *t, const spvbc_layer_outcome *o)
{
    switch (o->verdict) {
    case SPVBC_LAYER_VALID:
        put_str(t, "unchanged (valid, ");
        put_count(t, o->bitcasts, "bitcast)", "bitcasts)");
        break;
    case SPVBC_LAYER_LOWERED:
        put_str(t, "lowered ");
        put_count(t, o->rewritten, "bitcast", "bitcasts");
        put_str(t, " -> out xxh64=");
        put_hex16(t, o->out_hash);
        put_str(t, " ");
        put_count(t, o->out_words, "word (", "words (");
        put_dec(t, o->refused);
        put_str(t, " refused, ");
        put_count(t, o->errors_left, "error left)", "errors left)");
        break;
    case SPVBC_LAYER_UNFIXED:
        put_str(t, "unchanged (");
        put_count(t, o->errors, "error, ", "errors, ");
        put_dec(t, o->refused);
        put_str(t, " refused)");
        break;
    case SPVBC_LAYER_VALIDATE_ONLY:
        put_str(t, "unchanged (validate mode: ");
        put_count(t, o->errors, "error, ", "errors, ");
        put_dec(t, o->lowerable);
        put_str(t, " lowerable)");
        break;
    case SPVBC_LAYER_NOT_PARSED:
        put_str(t, "unchanged (not parsed: ");
        put_str(t, o->detail);
        put_str(t, ")");
        break;
    default:
        put_str(t, "unchanged (library error: ");
        put_str(t, o->detail);
        put_str(t, ")");
        break;
    }
}

/* What the driver did, where the layer learnt it: a line of its own after the module's. */
static void put_driver(text *t, const char *api, const spvbc_layer_outcome *o)
{
    if (o->driver == SPVBC_LAYER_DRIVER_NOT_TOLD) return;
    put_str(t, "\nspvbc-layer: ");
    put_str(t, api);
    if (o->driver == SPVBC_LAYER_DRIVER_REFUSED_LOWERED) {
        put_str(t, ": the driver refused the lowered module (");
        put_int(t, o->driver_code);
        put_str(t, "): the application's words passed on instead");
    } else {
        put_str(t, ": the driver refused the call (");
        put_int(t, o->driver_code);
        put_str(t, "), the application's words too (");
        put_int(t, o->driver_code_again);
        put_str(t, "): its answer returned");
    }
}

/* The error findings of `o`, one indented line each. */
static void put_findings(text *t, const spvbc_layer_outcome *o)
{
    for (size_t i = 0; i < o->finding_count; ++i) {
        const spvbc_layer_finding *f = &o->findings[i];
        put_str(t, "\n  error: ");
        if (f->word_offset != SPVBC_NO_POSITION) {
            put_str(t, "word ");
            put_dec(t, f->word_offset);
            put_str(t, ": ");
        }
        put_str(t, f->message);
        put_str(t, " [");
        put_str(t, f->rule);
        put_str(t, "]");
    }
}

/* The module's part of the line: "<api>: in <hash> <n> words: <verdict> [<t> us]". */
static void put_module(text *t, const char *api, const void *code, size_t code_size,
                       const spvbc_layer_outcome *o)
{
    put_str(t, api != NULL ? api : "?");
    if (code == NULL) { /* nothing hashed: "in NULL (<n> bytes)" */
        put_str(t, ": in NULL (");
        put_count(t, code_size, "byte): ", "bytes): ");
    } else { /* "<n> words", or "<n> bytes" for a size no whole number of words */
        put_str(t, ": in xxh64=");
        put_hex16(t, o->in_hash);
        put_str(t, " ");
        if (code_size % 4u == 0)
            put_count(t, code_size / 4u, "word: ", "words: ");
        else
            put_count(t, code_size, "byte: ", "bytes: ");
    }
    put_verdict(t, o);
    put_str(t, o->us < 0 ? " [-" : " [");
    put_dec(t, o->us < 0 ? 0ull - (unsigned long long)o->us : (unsigned long long)o->us);
    put_str(t, " us]");
}

size_t spvbc_layer_outcome_text(char *buf, size_t size, const char *api, const void *code,
                                size_t code_size, const spvbc_layer_outcome *o)
{
    if (buf == NULL || size == 0) return 0;
    text t = {buf, 0, size - 1};
    if (o != NULL) put_module(&t, api, code, code_size, o);
    buf[t.len] = '\0';
    return t.len;
}

size_t spvbc_layer_finding_text(char *buf, size_t size, const spvbc_layer_finding *f)
{
    if (buf == NULL || size == 0) return 0;
    text t = {buf, 0, size - 1};
    if (f != NULL && f->word_offset != SPVBC_NO_POSITION) {
        put_str(&t, "word ");
        put_dec(&t, f->word_offset);
        put_str(&t, ": ");
    }
    if (f != NULL) put_str(&t, f->message);
    buf[t.len] = '\0';
    return t.len;
}

void spvbc_layer_log_outcome(const spvbc_layer_config *cfg, const char *api, const void *code,
                             size_t code_size, const spvbc_layer_outcome *o)
{
    if (cfg == NULL || cfg->log_off || o == NULL || !o->say) return;
    if (api == NULL) api = "?";
    char line[LOG_LINE];
    text t = {line, 0, sizeof line - 2};
    put_str(&t, "spvbc-layer: ");
    put_module(&t, api, code, code_size, o);
    put_findings(&t, o);
    put_driver(&t, api, o);
    line[t.len++] = '\n';
    log_write(cfg, line, t.len);
}
