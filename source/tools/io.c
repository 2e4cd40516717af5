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
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

const char *cli_input_load(const char *path, cli_input *in)
{
    memset(in, 0, sizeof *in);
    in->path = path;
    if (!strcmp(path, "-")) {
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
    int fd = open(path, O_RDONLY);
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
    void *p = mmap(NULL, in->size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return strerror(errno);
    in->data = p;
    in->mapped = true;
    return NULL;
}

void cli_input_release(cli_input *in)
{
    if (in->mapped)
        munmap(in->data, in->size);
    else
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
    if (!ok || rename(tmp, path) != 0) {
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

const spvbc_allocator cli_allocator = {cli_alloc, cli_free, NULL};

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
