/*
 * fuzz_regress.c - replays fuzz inputs through every target's entry function, without
 * libFuzzer, with the normal compiler (ctest: fuzz.regress).
 *
 *   spvbc_fuzz_regress [--no-fork] PATH...
 *
 * Each PATH is a file or a directory (its regular files, sorted by name).  A file ending in
 * ".txt" is hex text (the form of test/fuzz/crashes/): '#' starts a comment; a token of 8 hex
 * digits is one 32-bit word in host byte order, a token of 2 hex digits one byte; anything else
 * is an error.  Any other file is taken as raw bytes (the generated seed corpus).  Each input
 * runs in a child process (unless --no-fork), so one failing input does not hide the others: a
 * property failure or crash is reported with the input's name, and the exit status is 0 only
 * when every input passed and at least one input was found.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz_harness.h"

static size_t g_inputs, g_failed;
static int g_fork = 1;

static void run_targets(const uint8_t *data, size_t size)
{
    spvbc_fuzz_parse(data, size);
    spvbc_fuzz_validate(data, size);
    spvbc_fuzz_lower(data, size);
    spvbc_fuzz_plan(data, size);
}

static void run_all(const char *name, const uint8_t *data, size_t size)
{
    g_inputs++;
    if (!g_fork) {
        fprintf(stderr, "%s (%zu bytes)\n", name, size);
        run_targets(data, size);
        return;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        run_targets(data, size);
        _exit(0);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
        g_failed++;
        fprintf(stderr, "FAILED: %s (%zu bytes)%s\n\n", name, size, pid < 0 ? ": fork failed" : "");
    }
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    c = tolower(c);
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* Decodes hex text into bytes; returns 0 on a malformed token. */
static int decode_hex(const char *text, size_t len, uint8_t **out, size_t *out_size)
{
    uint8_t *buf = (uint8_t *)malloc(len / 2 + 8);
    if (!buf) return 0;
    size_t n = 0, i = 0;
    while (i < len) {
        if (text[i] == '#') {
            while (i < len && text[i] != '\n')
                ++i;
            continue;
        }
        if (isspace((unsigned char)text[i]) || text[i] == ',') {
            ++i;
            continue;
        }
        size_t start = i;
        if (i + 1 < len && text[i] == '0' && (text[i + 1] == 'x' || text[i + 1] == 'X')) {
            i += 2;
            start = i;
        }
        while (i < len && hexval(text[i]) >= 0)
            ++i;
        size_t digits = i - start;
        if (i < len && !isspace((unsigned char)text[i]) && text[i] != ',' && text[i] != '#') {
            free(buf);
            return 0;
        }
        if (digits == 8) {
            uint32_t w = 0;
            for (size_t k = 0; k < 8; ++k)
                w = (w << 4) | (uint32_t)hexval(text[start + k]);
            memcpy(buf + n, &w, 4);
            n += 4;
        } else if (digits == 2) {
            buf[n++] = (uint8_t)(hexval(text[start]) * 16 + hexval(text[start + 1]));
        } else {
            free(buf);
            return 0;
        }
    }
    *out = buf;
    *out_size = n;
    return 1;
}

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return 0;
    }
    size_t cap = 4096, len = 0;
    uint8_t *data = (uint8_t *)malloc(cap);
    if (!data) {
        fclose(f);
        return 0;
    }
    size_t got;
    while ((got = fread(data + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *bigger = (uint8_t *)realloc(data, cap * 2);
            if (!bigger) {
                free(data);
                fclose(f);
                return 0;
            }
            data = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    size_t plen = strlen(path);
    if (plen > 4 && strcmp(path + plen - 4, ".txt") == 0) {
        uint8_t *bytes;
        size_t size;
        if (!decode_hex((const char *)data, len, &bytes, &size)) {
            fprintf(stderr, "%s: malformed hex text\n", path);
            free(data);
            return 0;
        }
        run_all(path, bytes, size);
        free(bytes);
    } else {
        run_all(path, data, len);
    }
    free(data);
    return 1;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "cannot stat %s\n", path);
        return 0;
    }
    if (!S_ISDIR(st.st_mode)) return run_file(path);
    DIR *d = opendir(path);
    if (!d) return 0;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int ok = 1;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **bigger = (char **)realloc(names, cap * sizeof *names);
            if (!bigger) {
                ok = 0;
                break;
            }
            names = bigger;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[n] = (char *)malloc(len);
        if (!names[n]) {
            ok = 0;
            break;
        }
        snprintf(names[n], len, "%s/%s", path, e->d_name);
        ++n;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; ++i) {
        struct stat fst;
        if (ok && stat(names[i], &fst) == 0 && S_ISREG(fst.st_mode)) ok = run_file(names[i]);
        free(names[i]);
    }
    free(names);
    return ok;
}

int main(int argc, char **argv)
{
    int first = 1;
    if (argc > 1 && strcmp(argv[1], "--no-fork") == 0) {
        g_fork = 0;
        first = 2;
    }
    if (argc <= first) {
        fprintf(stderr, "usage: %s [--no-fork] PATH...\n", argv[0]);
        return 2;
    }
    for (int i = first; i < argc; ++i)
        if (!run_path(argv[i])) return 1;
    printf("replayed %zu inputs through parse, validate, lower and plan: %zu failed\n", g_inputs,
           g_failed);
    return g_inputs && !g_failed ? 0 : 1;
}
