/* Several inputs: -r DIR walks, worker threads (--jobs), progress on a terminal, and the
 * summaries printed after the per-input reports, in input order. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#define lstat stat /* no symbolic links to tell apart there */
#define S_ISLNK(m) 0
#endif

#include "cli.h"

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Records directory `st` in `v`; false when it was there already or memory ran out (`*oom`). */
static bool visit(cli_dir_set *v, const struct stat *st, bool *oom)
{
#ifdef _WIN32
    /* No inode numbers there (st_ino is 0) and stat() is lstat(): every directory is new. */
    (void)v;
    (void)st;
    (void)oom;
    return true;
#endif
    for (size_t i = 0; i < v->count; ++i)
        if (v->items[i].dev == st->st_dev && v->items[i].ino == st->st_ino) return false;
    if (v->count == v->cap) {
        size_t ncap = v->cap ? v->cap * 2 : 16;
        void *n = realloc(v->items, ncap * sizeof *v->items);
        if (!n) {
            *oom = true;
            return false;
        }
        v->items = n;
        v->cap = ncap;
    }
    v->items[v->count].dev = st->st_dev;
    v->items[v->count].ino = st->st_ino;
    v->count++;
    return true;
}

/* Adds every regular *.spv file below `dir` (whose status is `dst`), recursively; returns false
 * on error.  Entries that are symbolic links count as what they point to, except directories:
 * a link to a directory is not entered. */
static bool scan_dir(const char *dir, const struct stat *dst, cli_path_list *l, cli_dir_set *v)
{
    bool oom = false;
    if (!visit(v, dst, &oom)) return !oom;
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "%s: cannot open directory %s: %s\n", cli_prog, dir, strerror(errno));
        return false;
    }
    bool ok = true;
    struct dirent *ent;
    while ((ent = readdir(d)) && ok) {
        if (ent->d_name[0] == '.') continue;
        size_t len = strlen(dir) + strlen(ent->d_name) + 2;
        char *p = malloc(len);
        if (!p) {
            ok = false;
            break;
        }
        snprintf(p, len, "%s/%s", dir, ent->d_name);
        struct stat st;
        if (lstat(p, &st) == 0) {
            if (S_ISDIR(st.st_mode))
                ok = scan_dir(p, &st, l, v);
            else if ((S_ISREG(st.st_mode) ||
                      (S_ISLNK(st.st_mode) && stat(p, &st) == 0 && S_ISREG(st.st_mode))) &&
                     len > 5 && !strcmp(p + strlen(p) - 4, ".spv"))
                ok = cli_path_list_add(l, p);
        }
        free(p);
    }
    closedir(d);
    return ok;
}

bool cli_scan_dir(const char *dir, cli_path_list *l, cli_dir_set *v)
{
    size_t before = l->count;
    struct stat st;
    if (stat(dir, &st) != 0) { /* DIR itself may be a link */
        fprintf(stderr, "%s: cannot open directory %s: %s\n", cli_prog, dir, strerror(errno));
        return false;
    }
    if (!scan_dir(dir, &st, l, v)) return false;
    /* readdir order is arbitrary: sort each scanned tree for stable output. */
    qsort(l->items + before, l->count - before, sizeof *l->items, cmp_str);
    return true;
}

void cli_dir_set_free(cli_dir_set *v)
{
    free(v->items);
    memset(v, 0, sizeof *v);
}

/* ---- worker threads ----------------------------------------------------------------------- */

typedef struct batch {
    const cli_options *o;
    cli_file_result *results;
    size_t count;
    size_t next; /* next file to take */
    size_t done;
    pthread_mutex_t lock;
} batch;

static void *worker(void *arg)
{
    batch *b = (batch *)arg;
    for (;;) {
        pthread_mutex_lock(&b->lock);
        size_t i = b->next < b->count ? b->next++ : b->count;
        pthread_mutex_unlock(&b->lock);
        if (i >= b->count) return NULL;
        cli_process(b->o, &b->results[i]);
        pthread_mutex_lock(&b->lock);
        b->done++;
        if (b->o->progress)
            fprintf(stderr, "\r%s: %zu/%zu %s", cli_prog, b->done, b->count,
                    cli_plural(b->count, "module", "modules"));
        pthread_mutex_unlock(&b->lock);
    }
}

/* Processes the `count` inputs of `res` on up to o->jobs threads (default: one per CPU). */
static void run_workers(cli_options *o, cli_file_result *res, size_t count)
{
    batch b;
    memset(&b, 0, sizeof b);
    b.o = o;
    b.results = res;
    b.count = count;
    pthread_mutex_init(&b.lock, NULL);
    unsigned jobs = o->jobs;
    if (jobs == 0) {
#ifdef _WIN32
        SYSTEM_INFO si;
        GetSystemInfo(&si);
        jobs = si.dwNumberOfProcessors > 0 ? (unsigned)si.dwNumberOfProcessors : 1;
#else
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = n > 0 ? (unsigned)n : 1;
#endif
    }
    if (jobs > count) jobs = (unsigned)count;
    o->progress = count > 1 && isatty(STDERR_FILENO) && !o->quiet;
    o->keep_first_only = count == 1 && o->quiet && o->format == CLI_FORMAT_TEXT;
    o->stream_text = count == 1;
    if (jobs <= 1) {
        worker(&b);
    } else {
        pthread_t *t = calloc(jobs, sizeof *t);
        unsigned started = 0;
        if (t)
            for (; started < jobs; ++started)
                if (pthread_create(&t[started], NULL, worker, &b) != 0) break;
        if (started == 0) worker(&b);
        for (unsigned i = 0; i < started; ++i)
            pthread_join(t[i], NULL);
        free(t);
    }
    pthread_mutex_destroy(&b.lock);
    if (o->progress) fputs("\r\033[K", stderr);
}

/* ---- outputs and summaries ---------------------------------------------------------------- */

static char *output_path_for(const cli_options *o, const char *in, size_t nfiles)
{
    if (o->out_path && nfiles == 1) return strdup(o->out_path);
    if (o->suffix) {
        size_t len = strlen(in) + strlen(o->suffix) + 1;
        char *p = malloc(len);
        if (p) snprintf(p, len, "%s%s", in, o->suffix);
        return p;
    }
    if (o->out_dir) {
        const char *base = strrchr(in, '/');
#ifdef _WIN32
        const char *bs = strrchr(base ? base : in, '\\'); /* C:\dir\x.spv, dir/sub\x.spv */
        if (bs) base = bs;
        if (!base && in[0] && in[1] == ':') base = in + 1; /* C:x.spv */
#endif
        base = base ? base + 1 : in;
        size_t len = strlen(o->out_dir) + strlen(base) + 2;
        char *p = malloc(len);
        if (p) snprintf(p, len, "%s/%s", o->out_dir, base);
        return p;
    }
    return NULL;
}

/* Sets where each lowered module goes; false (after a usage message) when the only output
 * would be a binary module on a terminal. */
static bool plan_outputs(const cli_options *o, cli_file_result *res, size_t count)
{
    for (size_t i = 0; i < count; ++i) {
        res[i].out_path = output_path_for(o, res[i].path, count);
        if (!res[i].out_path && count == 1 && !o->out_path) {
            if (isatty(STDOUT_FILENO)) {
                cli_usage_error("refusing to write a binary module to a terminal: use -o FILE "
                                "or -o -");
                return false;
            }
            res[i].out_path = strdup("-");
        }
    }
    return true;
}

/* The summary line of a single input. */
static void print_file_summary(const cli_options *o, const cli_file_result *r)
{
    const char *shown = strcmp(r->path, "-") ? r->path : "<stdin>";
    if (o->cmd == CLI_CMD_VALIDATE)
        printf("%s: %zu %s checked: %zu %s (%zu lowerable), %zu %s, %zu %s\n", shown,
               r->vsum.bitcasts_checked,
               cli_plural(r->vsum.bitcasts_checked, "bitcast", "bitcasts"), r->vsum.errors,
               cli_plural(r->vsum.errors, "error", "errors"), r->vsum.lowerable, r->vsum.warnings,
               cli_plural(r->vsum.warnings, "warning", "warnings"), r->vsum.notes,
               cli_plural(r->vsum.notes, "note", "notes"));
    else
        fprintf(stderr,
                "%s: %zu %s checked: %zu rewritten, %zu refused, %zu skipped (not "
                "selected), %zu %s and %zu %s added\n",
                shown, r->lsum.bitcasts_checked,
                cli_plural(r->lsum.bitcasts_checked, "bitcast", "bitcasts"), r->lsum.rewritten,
                r->lsum.refused, r->lsum.skipped, r->lsum.types_added,
                cli_plural(r->lsum.types_added, "type", "types"), r->lsum.constants_added,
                cli_plural(r->lsum.constants_added, "constant", "constants"));
}

/* The summary line of several inputs, with the findings counted by rule. */
static void print_batch_summary(const cli_options *o, const cli_file_result *res, size_t count)
{
    size_t totals[CLI_MAX_RULES + 1] = {0};
    size_t bad = 0, failed = 0, checked = 0, errors = 0, warnings = 0, notes = 0, lowerable = 0,
           rewritten = 0, refused = 0, skipped = 0;
    for (size_t i = 0; i < count; ++i) {
        const cli_file_result *r = &res[i];
        bad += r->bad_input;
        failed += r->status != 0;
        checked += o->cmd == CLI_CMD_VALIDATE ? r->vsum.bitcasts_checked : r->lsum.bitcasts_checked;
        errors += r->vsum.errors;
        warnings += r->vsum.warnings;
        notes += r->vsum.notes;
        lowerable += r->vsum.lowerable;
        rewritten += r->lsum.rewritten;
        refused += r->lsum.refused;
        skipped += r->lsum.skipped;
        for (size_t k = 0; k <= cli_rule_count; ++k)
            totals[k] += r->rule_counts[k];
    }
    FILE *f = o->format == CLI_FORMAT_TEXT && o->cmd == CLI_CMD_VALIDATE ? stdout : stderr;
    fprintf(f, "summary: %zu %s (%zu unreadable or invalid, %zu with findings), %zu %s checked",
            count, cli_plural(count, "module", "modules"), bad, failed, checked,
            cli_plural(checked, "bitcast", "bitcasts"));
    if (o->cmd == CLI_CMD_VALIDATE)
        fprintf(f, ", %zu %s (%zu lowerable), %zu %s, %zu %s", errors,
                cli_plural(errors, "error", "errors"), lowerable, warnings,
                cli_plural(warnings, "warning", "warnings"), notes,
                cli_plural(notes, "note", "notes"));
    else
        fprintf(f, ", %zu rewritten, %zu refused, %zu skipped", rewritten, refused, skipped);
    bool any = false;
    for (size_t k = 0; k <= cli_rule_count; ++k) {
        const char *id = k < cli_rule_count ? cli_rules[k].id : "other";
        if (totals[k] && strcmp(id, "L-LOWERED")) {
            fprintf(f, "%s%s=%zu", any ? ", " : "; by rule: ", id, totals[k]);
            any = true;
        }
    }
    fputc('\n', f);
}

/* Prints the buffered reports of every input in input order, then the summaries; returns the
 * exit status. */
static int print_reports(const cli_options *o, const cli_file_result *res, size_t count)
{
    int status = 0;
    if (o->format == CLI_FORMAT_JSON) fputs(count > 1 ? "[" : "", stdout);
    for (size_t i = 0; i < count; ++i) {
        const cli_file_result *r = &res[i];
        if (r->text_len) fwrite(r->text, 1, r->text_len, stderr);
        if (o->format == CLI_FORMAT_JSON && r->doc) {
            if (i) fputc(',', stdout);
            fwrite(r->doc, 1, r->doc_len, stdout);
        }
        if (o->format == CLI_FORMAT_TEXT && count == 1) {
            if (!r->bad_input)
                print_file_summary(o, r);
            else if (o->quiet) /* -q: the summary line says why it was not checked */
                fprintf(o->cmd == CLI_CMD_VALIDATE ? stdout : stderr, "%s: not checked: %s\n",
                        strcmp(r->path, "-") ? r->path : "<stdin>",
                        r->not_checked ? r->not_checked : "out of memory");
        }
        if (r->status) status = CLI_EXIT_FINDINGS;
    }
    if (o->format == CLI_FORMAT_JSON) fputs(count > 1 ? "]\n" : "\n", stdout);
    if (o->format == CLI_FORMAT_SARIF) cli_sarif_write_log(stdout, res, count);
    if (count > 1) print_batch_summary(o, res, count);
    return status;
}

int cli_run_files(cli_options *o, const cli_path_list *files)
{
    size_t count = files->count;
    cli_file_result *res = calloc(count ? count : 1, sizeof *res);
    if (!res) {
        fprintf(stderr, "%s: out of memory\n", cli_prog);
        return CLI_EXIT_FINDINGS;
    }
    for (size_t i = 0; i < count; ++i) {
        res[i].path = files->items[i];
        res[i].index = i;
    }
    int status = CLI_EXIT_USAGE;
    if (o->cmd != CLI_CMD_LOWER || plan_outputs(o, res, count)) {
        run_workers(o, res, count);
        status = print_reports(o, res, count);
    }
    for (size_t i = 0; i < count; ++i) {
        free(res[i].text);
        free(res[i].doc);
        free(res[i].notes);
        free(res[i].out_path);
        free(res[i].not_checked);
    }
    free(res);
    return status;
}
