/* Inputs, the CLI's ground floor: inputs read from mapped files or stdin, lists of input paths,
 * the allocator the CLI gives the library, usage errors, and JSON string escapes.  Outputs are
 * output.c's. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* MADV_HUGEPAGE */

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef _WIN32 /* MinGW-w64: no mmap; binary mode and replacing renames must be asked for */
#define WIN32_LEAN_AND_MEAN
#include <io.h>
#include <windows.h>
#else
#include <sys/mman.h>
#endif
#ifndef O_BINARY
#define O_BINARY 0
#endif
#ifndef O_CLOEXEC /* Windows: no exec() to leak into */
#define O_CLOEXEC 0
#endif

#include "cli.h"

/* Reads all of stream `f` into a malloc'd `in`; returns an error text or NULL. */
static const char *read_stream(FILE *f, cli_input *in)
{
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    if (!buf) return "out of memory";
    for (;;) {
        if (len == cap) {
            char *nb = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                return "out of memory";
            }
            buf = nb;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0) break;
    }
    if (ferror(f)) {
        free(buf);
        return strerror(errno);
    }
    in->data = buf;
    in->size = len;
    return NULL;
}

const char *cli_input_load(const char *path, cli_input *in)
{
    memset(in, 0, sizeof *in);
    in->path = path;
    if (!strcmp(path, "-")) {
#ifdef _WIN32
        (void)_setmode(_fileno(stdin), _O_BINARY); /* text mode would translate CR LF, stop at ^Z */
#endif
        return read_stream(stdin, in);
    }
    int fd = open(path, O_RDONLY | O_BINARY | O_CLOEXEC);
    if (fd < 0) return strerror(errno);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return strerror(errno);
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return "not a regular file";
    }
    if (!S_ISREG(st.st_mode)) { /* a FIFO (`<(...)`), a device: read as a stream */
        FILE *f = fdopen(fd, "rb");
        if (!f) {
            close(fd);
            return strerror(errno);
        }
        const char *e = read_stream(f, in);
        fclose(f);
        return e;
    }
    in->size = (size_t)st.st_size;
    if (in->size == 0) {
        close(fd);
        in->data = NULL;
        return NULL;
    }
#ifdef _WIN32
    char *p = malloc(in->size);
    size_t got = 0;
    while (p && got < in->size) {
        unsigned chunk = in->size - got > (1u << 30) ? 1u << 30 : (unsigned)(in->size - got);
        int n = read(fd, p + got, chunk);
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(fd);
    if (!p) return "out of memory";
    if (got != in->size) {
        free(p);
        return "short read";
    }
    in->data = p;
    return NULL;
#else
    void *p = mmap(NULL, in->size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return strerror(errno);
    in->data = p;
    in->mapped = true;
    return NULL;
#endif
}

void cli_input_drop(cli_input *in, size_t from, size_t to)
{
#ifdef _WIN32
    (void)in;
    (void)from;
    (void)to;
#else
    long p = sysconf(_SC_PAGESIZE);
    size_t page = p > 0 ? (size_t)p : 4096;
    if (!in->mapped || to > in->size) return;
    from = from / page * page;
    to = to == in->size ? (to + page - 1) / page * page : to / page * page;
    if (from < to && madvise((char *)in->data + from, to - from, MADV_DONTNEED) == 0)
        in->let_go = true;
#endif
}

void cli_input_populate(cli_input *in, size_t from, size_t to)
{
#if !defined(_WIN32) && defined(MADV_POPULATE_READ)
    long p = sysconf(_SC_PAGESIZE);
    size_t page = p > 0 ? (size_t)p : 4096;
    if (!in->let_go || to > in->size || from >= to) return;
    from = from / page * page;
    (void)madvise((char *)in->data + from, to - from, MADV_POPULATE_READ);
#else
    (void)in;
    (void)from;
    (void)to;
#endif
}

void cli_input_release(cli_input *in)
{
#ifndef _WIN32
    if (in->mapped)
        munmap(in->data, in->size);
    else
#endif
        free(in->data);
    in->data = NULL;
}

bool cli_host_big_endian(void)
{
    const uint32_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 0;
}

void cli_swap_words(uint32_t *dst, const uint32_t *src, size_t count)
{
    for (size_t i = 0; i < count; ++i) {
        uint32_t v = src[i];
        dst[i] = (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
    }
}

const uint32_t *cli_words_le(const uint32_t *words, size_t count, uint32_t **copy)
{
    *copy = NULL;
    if (!cli_host_big_endian()) return words;
    if (count > SIZE_MAX / 4 || !(*copy = malloc(count ? count * 4 : 4))) return NULL;
    cli_swap_words(*copy, words, count);
    return *copy;
}

/* Large tables (the id table, the site list, an output) come from their own mappings with
 * transparent huge pages requested: on a large module, first-touch page faults cost more than
 * the parse itself, and 2 MiB pages make 512 times fewer of them.  Small blocks use malloc. */
#define BIG_BLOCK (2u << 20)

#ifdef _WIN32
/* No mappings to ask huge pages of: the library's own allocator (malloc/free). */
const spvbc_allocator *const cli_allocator = NULL;
#else
static void *cli_alloc(void *user, size_t size)
{
    (void)user;
    if (size < BIG_BLOCK) return malloc(size);
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, size, MADV_HUGEPAGE);
#endif
    return p;
}

static void cli_free(void *user, void *ptr, size_t size)
{
    (void)user;
    if (size < BIG_BLOCK)
        free(ptr);
    else
        munmap(ptr, size);
}

static const spvbc_allocator mapped_allocator = SPVBC_ALLOCATOR_INIT(cli_alloc, cli_free, NULL);
const spvbc_allocator *const cli_allocator = &mapped_allocator;
#endif

/* ---- in-memory streams -------------------------------------------------------------------- */

FILE *cli_memstream_open(char **buf, size_t *len)
{
    *buf = NULL;
    *len = 0;
#ifdef _WIN32
    /* No open_memstream: a temporary file (binary, deleted on close) read back on close. */
    char dir[MAX_PATH], name[MAX_PATH];
    DWORD n = GetTempPathA(sizeof dir, dir);
    if (n == 0 || n >= sizeof dir || !GetTempFileNameA(dir, "sbc", 0, name)) return NULL;
    return fopen(name, "w+bD");
#else
    return open_memstream(buf, len);
#endif
}

int cli_memstream_close(FILE *f, char **buf, size_t *len)
{
#ifdef _WIN32
    long size = fflush(f) == 0 && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    *buf = size >= 0 ? malloc((size_t)size + 1) : NULL;
    if (*buf) {
        rewind(f);
        *len = fread(*buf, 1, (size_t)size, f);
        (*buf)[*len] = '\0';
    }
    return fclose(f) == 0 && *buf ? 0 : EOF;
#else
    (void)buf;
    (void)len;
    return fclose(f);
#endif
}

FILE *cli_stderr_stream(void)
{
#ifdef _WIN32
    return NULL;
#else
    (void)fflush(stderr);
    int fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        return NULL;
    }
    (void)setvbuf(f, NULL, _IOFBF, 1u << 16);
    return f;
#endif
}

/* ---- messages and lists ------------------------------------------------------------------ */

const char *const cli_prog = "spirv-bitcast";

static void usage_error(const char *command, const char *fmt, va_list ap)
{
    const char *space = command ? " " : "", *cmd = command ? command : "";
    fprintf(stderr, "%s%s%s: ", cli_prog, space, cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry '%s%s%s --help'.\n", cli_prog, space, cmd);
}

void cli_usage_error_for(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    usage_error(command, fmt, ap);
    va_end(ap);
}

void cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    usage_error(NULL, fmt, ap);
    va_end(ap);
}

bool cli_parse_u32(const char *s, uint32_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *s == '\0' || *end != '\0' || *s == '-' || *s == '+' || v > 0xFFFFFFFFull)
        return false;
    *out = (uint32_t)v;
    return true;
}

bool cli_parse_target_env(const char *s, spv_target_env *env)
{
    char buf[32];
    if (!strncmp(s, "universal", 9) && strlen(s) < sizeof buf - 3) {
        snprintf(buf, sizeof buf, "spv%s", s + 9);
        s = buf;
    }
    return spvParseTargetEnv(s, env);
}

bool cli_path_list_add(cli_path_list *l, const char *p)
{
    if (l->count == l->cap) {
        size_t ncap = l->cap ? l->cap * 2 : 64;
        char **n = realloc(l->items, ncap * sizeof *n);
        if (!n) return false;
        l->items = n;
        l->cap = ncap;
    }
    l->items[l->count] = strdup(p);
    return l->items[l->count++] != NULL;
}

void cli_path_list_free(cli_path_list *l)
{
    for (size_t k = 0; k < l->count; ++k)
        free(l->items[k]);
    free(l->items);
    l->items = NULL;
    l->count = l->cap = 0;
}

const char *cli_plural(size_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

void cli_json_string(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

void cli_json_size(FILE *f, size_t v)
{
    if (v == SPVBC_NO_POSITION)
        fputs("null", f);
    else
        fprintf(f, "%zu", v);
}
