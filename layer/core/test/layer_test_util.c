/*
 * layer_test_util.c - what the layers' tests share (see layer_test_util.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "layer_test_util.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer_core.h"

int lt_failed;
int lt_verbose;
static pthread_mutex_t g_print_lock = PTHREAD_MUTEX_INITIALIZER;

int lt_start(int argc, char **argv, int need, const char *usage)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc > need) return 0;
    fprintf(stderr, "usage: %s %s\n", argc > 0 ? argv[0] : "test", usage);
    return 2;
}

void lt_check(int ok, int line, const char *fmt, ...)
{
    if (ok && !lt_verbose) return;
    (void)pthread_mutex_lock(&g_print_lock);
    if (ok) {
        printf("  ok   ");
    } else {
        printf("  FAIL line %d: ", line);
        lt_failed++;
    }
    va_list ap;
    va_start(ap, fmt);
    (void)vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    (void)pthread_mutex_unlock(&g_print_lock);
}

size_t lt_log_count(const char *log, const char *needle)
{
    char *text = spvbc_test_read_file(log);
    size_t n = 0;
    for (const char *p = text; p != NULL && *needle != '\0' && (p = strstr(p, needle)) != NULL;
         p += strlen(needle))
        ++n;
    free(text);
    return n;
}

int lt_log_has(const char *log, const char *needle)
{
    return lt_log_count(log, needle) > 0;
}

void lt_verdict(char *buf, size_t size, const char *api, const uint32_t *w, size_t n,
                const char *what)
{
    (void)snprintf(buf, size, "%s: in xxh64=%016llx %zu %s: %s", api,
                   (unsigned long long)spvbc_layer_hash(w, n * 4u), n, n == 1 ? "word" : "words",
                   what);
}
