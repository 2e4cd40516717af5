/* matrix_match.c - the matrix test (matrix.h): a disassembly's lines and the FileCheck-like line
 * matcher.  SPDX-License-Identifier: Apache-2.0 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"

/* ---- small helpers ---------------------------------------------------------------------- */

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = (char *)malloc(n);
    if (d) {
        memcpy(d, s, n);
    }
    return d;
}

int lines_split(const char *dis, lines *out)
{
    size_t cap = 64;
    char *p;
    out->text = xstrdup(dis);
    out->line = (char **)malloc(cap * sizeof(char *));
    out->count = 0;
    if (!out->text || !out->line) {
        free(out->text);
        free(out->line);
        return -1;
    }
    p = out->text;
    while (*p) {
        char *e = strchr(p, '\n');
        while (*p == ' ') {
            ++p;
        }
        if (e) {
            *e = '\0';
        }
        if (*p) {
            if (out->count == cap) {
                char **nl = (char **)realloc(out->line, cap * 2 * sizeof(char *));
                if (!nl) {
                    free(out->text);
                    free(out->line);
                    return -1;
                }
                out->line = nl;
                cap *= 2;
            }
            out->line[out->count++] = p;
        }
        if (!e) {
            break;
        }
        p = e + 1;
    }
    return 0;
}

void lines_free(lines *l)
{
    free(l->text);
    free(l->line);
}

/* Splits `s` in place at blanks: returns the next token (NULL at the end), advancing `*save`. */
static char *next_token(char *s, char **save)
{
    char *p = s ? s : *save;
    char *start;
    while (*p == ' ') {
        ++p;
    }
    if (!*p) {
        *save = p;
        return NULL;
    }
    start = p;
    while (*p && *p != ' ') {
        ++p;
    }
    if (*p) {
        *p++ = '\0';
    }
    *save = p;
    return start;
}


static const char *binding_get(const bindings *b, const char *name)
{
    for (size_t i = 0; i < b->count; ++i) {
        if (strcmp(b->name[i], name) == 0) {
            return b->value[i];
        }
    }
    return NULL;
}

int line_match(const char *line, const char *pattern, bindings *b)
{
    char lbuf[512], pbuf[512];
    char *ls, *ps, *lt, *pt;
    bindings trial = *b;
    snprintf(lbuf, sizeof lbuf, "%s", line);
    snprintf(pbuf, sizeof pbuf, "%s", pattern);
    lt = next_token(lbuf, &ls);
    pt = next_token(pbuf, &ps);
    while (lt && pt) {
        size_t pl = strlen(pt);
        if (pl > 4 && pt[0] == '[' && pt[1] == '[' && pt[pl - 1] == ']' && pt[pl - 2] == ']') {
            char name[8];
            const char *v;
            snprintf(name, sizeof name, "%.*s", (int)(pl - 4), pt + 2);
            v = binding_get(&trial, name);
            if (v) {
                if (strcmp(v, lt) != 0) {
                    return 0;
                }
            } else {
                if (trial.count == 8) {
                    return 0;
                }
                snprintf(trial.name[trial.count], sizeof trial.name[0], "%s", name);
                if (strlen(lt) >= sizeof trial.value[0]) {
                    return 0;
                }
                memcpy(trial.value[trial.count], lt, strlen(lt) + 1);
                trial.count++;
            }
        } else if (strcmp(pt, lt) != 0) {
            return 0;
        }
        lt = next_token(NULL, &ls);
        pt = next_token(NULL, &ps);
    }
    if (lt || pt) {
        return 0;
    }
    *b = trial;
    return 1;
}

/* Index of the first line starting with `prefix`, or -1. */
long find_prefix(const lines *l, const char *prefix)
{
    size_t n = strlen(prefix);
    for (size_t i = 0; i < l->count; ++i) {
        if (strncmp(l->line[i], prefix, n) == 0) {
            return (long)i;
        }
    }
    return -1;
}

/* Number of lines matching `pattern` under `b` (bindings not kept). */
size_t count_matches(const lines *l, const char *pattern, const bindings *b)
{
    size_t n = 0;
    for (size_t i = 0; i < l->count; ++i) {
        bindings t = *b;
        if (line_match(l->line[i], pattern, &t)) {
            ++n;
        }
    }
    return n;
}
