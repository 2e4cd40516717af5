/* Input and output, the CLI's ground floor: inputs read from mapped files or stdin, lists of
 * input paths, modules written atomically (or to stdout with -o -), the allocator the CLI gives
 * the library, usage errors, and JSON string escapes. */
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

#include "cli.h"

const char *cli_input_load(const char *path, cli_input *in)
{
    memset(in, 0, sizeof *in);
    in->path = path;
    if (!strcmp(path, "-")) {
#ifdef _WIN32
        (void)_setmode(_fileno(stdin), _O_BINARY); /* text mode would translate CR LF, stop at ^Z */
#endif
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
            size_t n = fread(buf + len, 1, cap - len, stdin);
            len += n;
            if (n == 0) break;
        }
        if (ferror(stdin)) {
            free(buf);
            return strerror(errno);
        }
        in->data = buf;
        in->size = len;
        return NULL;
    }
    int fd = open(path, O_RDONLY | O_BINARY);
    if (fd < 0) return strerror(errno);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return strerror(errno);
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return "not a regular file";
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

static bool host_big_endian(void)
{
    const uint32_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 0;
}

static uint32_t bswap32(uint32_t v)
{
    return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

const uint32_t *cli_words_le(const uint32_t *words, size_t count, uint32_t **copy)
{
    *copy = NULL;
    if (!host_big_endian()) return words;
    if (count > SIZE_MAX / 4 || !(*copy = malloc(count ? count * 4 : 4))) return NULL;
    for (size_t i = 0; i < count; ++i)
        (*copy)[i] = bswap32(words[i]);
    return *copy;
}

/* Modules are written little-endian on every host (see cli_write_module). */
static int write_span(void *user, const uint32_t *words, size_t count)
{
    if (!host_big_endian()) return fwrite(words, 4, count, (FILE *)user) == count ? 0 : 1;
    uint32_t buf[1024];
    while (count) {
        size_t n = count < 1024 ? count : 1024;
        for (size_t i = 0; i < n; ++i)
            buf[i] = bswap32(words[i]);
        if (fwrite(buf, 4, n, (FILE *)user) != n) return 1;
        words += n;
        count -= n;
    }
    return 0;
}

/* Writes the module's words to `path` ("-" = stdout) through a temporary file renamed into
 * place, so a failure never leaves a truncated output (and `path` may be the input). */
const char *cli_write_module(spvbc_module mod, const char *path, char *err, size_t errsize)
{
    if (!strcmp(path, "-")) {
#ifdef _WIN32
        (void)fflush(stdout);
        (void)_setmode(_fileno(stdout), _O_BINARY); /* no LF -> CR LF in a module */
#endif
        (void)setvbuf(stdout, NULL, _IOFBF, 1u << 20);
        if (spvbc_module_write(mod, write_span, stdout) != SPVBC_SUCCESS || fflush(stdout))
            return "cannot write to stdout";
        return NULL;
    }
    size_t len = strlen(path);
    char *tmp = malloc(len + 16);
    if (!tmp) return "out of memory";
    snprintf(tmp, len + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errsize, "cannot create %s: %s", tmp, strerror(errno));
        free(tmp);
        return err;
    }
    FILE *f = fdopen(fd, "wb");
    if (f) (void)setvbuf(f, NULL, _IOFBF, 1u << 20); /* rewrites are many small spans */
    bool ok = f && spvbc_module_write(mod, write_span, f) == SPVBC_SUCCESS;
    if (f)
        ok = (fclose(f) == 0) && ok;
    else
        close(fd);
    if (ok) (void)chmod(tmp, 0644);
#ifdef _WIN32
    bool moved =
        ok && MoveFileExA(tmp, path, MOVEFILE_REPLACE_EXISTING); /* rename() won't replace */
    if (ok && !moved) errno = EACCES;
#else
    bool moved = ok && rename(tmp, path) == 0;
#endif
    if (!moved) {
        snprintf(err, errsize, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return err;
    }
    free(tmp);
    return NULL;
}

/* Large tables (the id table, the site list, an output) come from their own mappings with
 * transparent huge pages requested: on a large module, first-touch page faults cost more than
 * the parse itself, and 2 MiB pages make 512 times fewer of them.  Small blocks use malloc. */
#define BIG_BLOCK (2u << 20)

#ifdef _WIN32
static void *cli_alloc(void *user, size_t size)
{
    (void)user;
    return malloc(size);
}

static void cli_free(void *user, void *ptr, size_t size)
{
    (void)user;
    (void)size;
    free(ptr);
}
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
#endif

const spvbc_allocator cli_allocator = {cli_alloc, cli_free, NULL};

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

/* ---- messages and lists ------------------------------------------------------------------ */

const char *const cli_prog = "spirv-bitcast";

void cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", cli_prog);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry '%s --help'.\n", cli_prog);
    va_end(ap);
}

bool path_list_add(path_list *l, const char *p)
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

void path_list_free(path_list *l)
{
    for (size_t k = 0; k < l->count; ++k)
        free(l->items[k]);
    free(l->items);
    l->items = NULL;
    l->count = l->cap = 0;
}

const char *plural(size_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

void json_string(FILE *f, const char *s)
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

void json_size(FILE *f, size_t v)
{
    if (v == SPVBC_NO_POSITION)
        fputs("null", f);
    else
        fprintf(f, "%zu", v);
}
