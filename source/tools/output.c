/* Output that never destroys: what `-o PATH` (and --suffix, --out-dir, `opt -o`) does with each
 * kind of path.
 *
 *   "-"                        the standard output
 *   a regular file, or nothing  a temporary file in the same directory, renamed over PATH once
 *                               complete: a failure leaves PATH as it was, and PATH may be the
 *                               input; an existing file keeps its mode (and, for root, owner)
 *   a symbolic link             followed: its target is written by these rules; the link stays
 *   a device, FIFO or socket    written in place (opened, or connected to): never replaced
 *   a directory                 an error
 *
 * A failed write is reported as "cannot write to PATH: <reason>" and leaves no temporary file.
 *
 * On Windows (MinGW-w64) there are no symbolic links or sockets to follow: a regular file or a
 * new path is replaced through a temporary file moved over it (MoveFileEx: rename() does not
 * replace), a device (NUL, CON) is written in place, and stdout is switched to binary mode.
 * Modules are written little-endian on every host. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <io.h>
#include <windows.h>
#else
#include <sys/socket.h>
#include <sys/un.h>
#endif

#include "cli.h"

#ifndef _WIN32
/* The process's umask, read once: umask() can only be read by setting it, which must not race
 * with the worker threads' own writes. */
static mode_t g_umask;
static pthread_once_t g_umask_once = PTHREAD_ONCE_INIT;

static void read_umask(void)
{
    g_umask = umask(022);
    (void)umask(g_umask);
}
#endif

/* A stream the output goes through: a FILE (files, devices, FIFOs, stdout). */
static int write_stream(void *user, const void *bytes, size_t size)
{
    return fwrite(bytes, 1, size, (FILE *)user) == size ? 0 : -1;
}

/* Calls `emit` on stream `f`, flushes and closes it (unless it is stdout); false on any error,
 * with errno set. */
static bool emit_to(FILE *f, cli_emit_fn emit, void *emit_user)
{
    errno = 0;
    bool ok = emit(emit_user, write_stream, f) == 0;
    int saved = errno;
    if (f == stdout) {
        ok = fflush(f) == 0 && ok;
    } else {
        ok = fclose(f) == 0 && ok;
    }
    if (!ok && !errno) errno = saved ? saved : EIO;
    return ok;
}

/* Calls emit_to() on a stream over descriptor `fd` (with a 1 MiB buffer when `big`); closes
 * `fd` itself when no stream can be made.  False on any error, with errno set. */
static bool emit_fd(int fd, bool big, cli_emit_fn emit, void *emit_user)
{
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
        return false;
    }
    if (big) (void)setvbuf(f, NULL, _IOFBF, 1u << 20); /* rewrites are many small spans */
    return emit_to(f, emit, emit_user);
}

#ifndef _WIN32
/* The end of the chain of symbolic links at `path` (`path` itself when it is none), malloc'd;
 * NULL with errno set on error (ELOOP after 40 links, as the kernel counts). */
static char *follow_links(const char *path)
{
    char *p = strdup(path);
    for (int hops = 0; p; ++hops) {
        struct stat st;
        if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode)) return p; /* the end (or missing) */
        if (hops == 40) {
            free(p);
            errno = ELOOP;
            return NULL;
        }
        char target[PATH_MAX];
        ssize_t n = readlink(p, target, sizeof target - 1);
        if (n < 0) {
            free(p);
            return NULL;
        }
        target[n] = '\0';
        const char *slash = strrchr(p, '/');
        size_t dir_len = target[0] == '/' || !slash ? 0 : (size_t)(slash - p) + 1;
        char *next = malloc(dir_len + (size_t)n + 1);
        if (next) {
            memcpy(next, p, dir_len);
            memcpy(next + dir_len, target, (size_t)n + 1);
        }
        free(p);
        p = next;
    }
    errno = ENOMEM;
    return NULL;
}

/* Writes a socket at `path` in place: connects to it as a stream socket. */
static bool write_socket(const char *path, cli_emit_fn emit, void *emit_user)
{
    struct sockaddr_un addr;
    memset(&addr, 0, sizeof addr);
    addr.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof addr.sun_path) {
        errno = ENAMETOOLONG;
        return false;
    }
    strcpy(addr.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) return false;
    if (connect(fd, (const struct sockaddr *)&addr, sizeof addr) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return false;
    }
    return emit_fd(fd, false, emit, emit_user);
}
#endif

/* Writes a device or FIFO at `path` in place (no O_CREAT, no O_TRUNC: a node is never made or
 * replaced). */
static bool write_in_place(const char *path, cli_emit_fn emit, void *emit_user)
{
#ifdef _WIN32
    int fd = open(path, O_WRONLY | O_BINARY);
#else
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
#endif
    if (fd < 0) return false;
    return emit_fd(fd, true, emit, emit_user);
}

/* Writes `path` (a regular file, or nothing yet) through a temporary file in its directory,
 * renamed over it when complete; `old` is the existing file's status or NULL. */
static bool write_atomic(const char *path, const struct stat *old, cli_emit_fn emit,
                         void *emit_user)
{
    size_t len = strlen(path);
    char *tmp = malloc(len + 16);
    if (!tmp) {
        errno = ENOMEM;
        return false;
    }
    snprintf(tmp, len + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        free(tmp);
        return false;
    }
    bool ok = true;
#ifndef _WIN32
    pthread_once(&g_umask_once, read_umask);
    mode_t mode = old ? old->st_mode & 07777 : 0666 & ~g_umask;
    /* The owner is kept where the caller may (root); the mode applies either way. */
    if (old && fchown(fd, old->st_uid, old->st_gid) != 0) errno = 0;
    if (fchmod(fd, mode) != 0) ok = false;
#else
    (void)old; /* mkstemp() gave read-write; a read-only file is not replaced (MoveFileEx) */
    (void)_setmode(fd, _O_BINARY);
#endif
    if (ok) {
        ok = emit_fd(fd, true, emit, emit_user);
    } else {
        int e = errno;
        close(fd);
        errno = e;
    }
#ifdef _WIN32
    if (ok && !MoveFileExA(tmp, path, MOVEFILE_REPLACE_EXISTING)) {
        errno = EACCES;
        ok = false;
    }
#else
    if (ok && rename(tmp, path) != 0) ok = false;
#endif
    if (!ok) {
        int e = errno;
        unlink(tmp);
        errno = e;
    }
    free(tmp);
    return ok;
}

const char *cli_write_output(const char *path, cli_emit_fn emit, void *emit_user, char *err,
                             size_t errsize)
{
    if (!strcmp(path, "-")) {
#ifdef _WIN32
        (void)fflush(stdout);
        (void)_setmode(_fileno(stdout), _O_BINARY); /* no LF -> CR LF in a module */
#endif
        (void)setvbuf(stdout, NULL, _IOFBF, 1u << 20);
        return emit_to(stdout, emit, emit_user) ? NULL : "cannot write to stdout";
    }
    struct stat st;
    bool ok;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* Through any symbolic links: a node is written in place, whatever its name. */
        if (S_ISDIR(st.st_mode)) {
            errno = EISDIR;
            ok = false;
#ifndef _WIN32
        } else if (S_ISSOCK(st.st_mode)) {
            ok = write_socket(path, emit, emit_user);
#endif
        } else {
            ok = write_in_place(path, emit, emit_user);
        }
    } else {
#ifdef _WIN32
        bool exists = stat(path, &st) == 0;
        ok =
            (exists || errno == ENOENT) && write_atomic(path, exists ? &st : NULL, emit, emit_user);
#else
        /* A regular file or nothing: replaced or created at the end of its links. */
        char *target = follow_links(path);
        if (!target) {
            ok = false;
        } else {
            bool exists = lstat(target, &st) == 0;
            if (exists && !S_ISREG(st.st_mode)) { /* it changed under us: leave it alone */
                errno = EEXIST;
                ok = false;
            } else {
                ok = (exists || errno == ENOENT) &&
                     write_atomic(target, exists ? &st : NULL, emit, emit_user);
            }
            free(target);
        }
#endif
    }
    if (ok) return NULL;
    snprintf(err, errsize, "cannot write to %s: %s", path, strerror(errno));
    return err;
}

/* ---- modules ------------------------------------------------------------------------------ */

#if !defined(_WIN32)
#include <sys/uio.h>
#define GATHER 1 /* writev(): the input's spans go from its mapping to the kernel, uncopied */
#define GATHER_IOVS 1024 /* at most; sysconf(_SC_IOV_MAX) may say fewer */
#define GATHER_STAGE (64u << 10) /* copies of the spans that are not the input's */
#endif

/* The module's words, through the stream's writer, or gathered for writev() on its descriptor.
 * Only the spans that lie in the input (which outlives the write) are written from where they
 * are; the others (the header, new instructions) may live only as long as the call that hands
 * them over, so they are copied to `stage` first. */
typedef struct module_emit {
    spvbc_module mod;
    cli_input *in; /* what the module reads, or NULL */
    int (*write)(void *, const void *, size_t);
    void *stream;
#ifdef GATHER
    int fd; /* -1: through `write` */
    size_t niov, max_iov, staged, batch_bytes;
    size_t input_done, input_dropped, populated; /* input bytes written / let go / mapped */
    bool refault; /* the input's pages had been let go before the write */
    struct iovec iov[GATHER_IOVS];
    unsigned char stage[GATHER_STAGE];
#endif
} module_emit;

#ifdef GATHER
/* Writes the gathered spans; 0, or -1 with errno set.  Then lets the input's pages written so
 * far go, a few MiB at a time. */
static int gather_flush(module_emit *m)
{
    struct iovec *v = m->iov;
    size_t n = m->niov;
    while (n) {
        ssize_t w = writev(m->fd, v, (int)n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            if (w == 0) errno = EIO;
            return -1;
        }
        size_t left = (size_t)w;
        for (; n && left >= v->iov_len; ++v, --n)
            left -= v->iov_len;
        if (n) {
            v->iov_base = (char *)v->iov_base + left;
            v->iov_len -= left;
        }
    }
    m->niov = m->staged = m->batch_bytes = 0;
    if (m->in && m->input_done >= m->input_dropped + CLI_DROP_STEP) {
        cli_input_drop(m->in, m->input_dropped, m->input_done);
        m->input_dropped = m->input_done;
    }
    return 0;
}

/* Adds `size` bytes at `bytes` to the gathered spans (copied unless `stable`). */
static int gather(module_emit *m, const unsigned char *bytes, size_t size, bool stable)
{
    if (!stable && size > GATHER_STAGE) { /* too large to stage: written at once */
        if (gather_flush(m) != 0) return -1;
        m->iov[m->niov++] = (struct iovec){(void *)bytes, size};
        return gather_flush(m);
    }
    if (m->niov == m->max_iov || m->batch_bytes >= CLI_DROP_STEP ||
        (!stable && m->staged + size > GATHER_STAGE)) {
        if (gather_flush(m) != 0) return -1;
    }
    if (!stable) {
        memcpy(m->stage + m->staged, bytes, size);
        bytes = m->stage + m->staged;
        m->staged += size;
    }
    m->iov[m->niov++] = (struct iovec){(void *)bytes, size};
    m->batch_bytes += size;
    return 0;
}
#endif

/* Little-endian on every host: a big-endian host writes byte-swapped copies of the spans. */
static int write_span(void *user, const uint32_t *words, size_t count)
{
    module_emit *m = (module_emit *)user;
#ifdef GATHER
    if (m->fd >= 0) {
        const unsigned char *b = (const unsigned char *)words, *base = NULL;
        size_t size = count * 4;
        if (m->in) base = (const unsigned char *)m->in->data; /* mapped or read: it outlives us */
        if (!base || b < base || b + size > base + m->in->size) return gather(m, b, size, false);
        while (size) { /* in steps, so that the pages behind can go while it is written */
            size_t n = size < CLI_DROP_STEP ? size : CLI_DROP_STEP;
            if (m->refault && b - base >= (ptrdiff_t)m->populated) { /* next MiBs at once */
                m->populated = (size_t)(b - base) + CLI_DROP_STEP;
                if (m->populated > m->in->size) m->populated = m->in->size;
                cli_input_populate(m->in, (size_t)(b - base), m->populated);
            }
            if (gather(m, b, n, true) != 0) return -1;
            b += n;
            size -= n;
            m->input_done = (size_t)(b - base);
        }
        return 0;
    }
#endif
    if (!cli_host_big_endian()) return m->write(m->stream, words, count * 4);
    uint32_t buf[1024];
    while (count) {
        size_t n = count < 1024 ? count : 1024;
        cli_swap_words(buf, words, n);
        if (m->write(m->stream, buf, n * 4) != 0) return -1;
        words += n;
        count -= n;
    }
    return 0;
}

static int emit_module(void *user, int (*write)(void *, const void *, size_t), void *stream)
{
    module_emit *m = (module_emit *)user;
    m->write = write;
    m->stream = stream;
#ifdef GATHER
    /* A FILE of ours on a little-endian host: its descriptor, past what the FILE holds. */
    m->fd = write == write_stream && !cli_host_big_endian() && fflush((FILE *)stream) == 0
                ? fileno((FILE *)stream)
                : -1;
    m->refault = m->in && m->in->let_go;
    long max_iov = sysconf(_SC_IOV_MAX);
    m->max_iov = max_iov > 0 && max_iov < GATHER_IOVS ? (size_t)max_iov : GATHER_IOVS;
    if (spvbc_module_write(m->mod, write_span, m) != SPVBC_SUCCESS) return -1;
    return m->fd >= 0 ? gather_flush(m) : 0;
#else
    return spvbc_module_write(m->mod, write_span, m) == SPVBC_SUCCESS ? 0 : -1;
#endif
}

const char *cli_write_module(spvbc_module mod, cli_input *in, const char *path, char *err,
                             size_t errsize)
{
    module_emit *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, errsize, "cannot write to %s: %s", path, strerror(ENOMEM));
        return err;
    }
    m->mod = mod;
    m->in = in;
    const char *e = cli_write_output(path, emit_module, m, err, errsize);
    free(m);
    return e;
}
