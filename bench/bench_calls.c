/* spvbc_bench_calls MODE FILE N: the library calls of one benchmark row, N times in one
 * context and nothing else, for instruction counts that repeat on a busy machine:
 *   valgrind --tool=callgrind BUILD/bench/spvbc_bench_calls validate FILE 1
 * MODE: parse (spvbc_module_parse), validate (+ spvbc_module_validate), lower (+
 * spvbc_module_lower + spvbc_module_get_words); each module is destroyed, under the default
 * policy (keep every finding), reading no diagnostic.  Prints the calls' total counts (bitcasts
 * checked, findings, output words) so that a change in what they do shows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_bitcast.h"

int main(int argc, char **argv)
{
    if (argc != 4 || (strcmp(argv[1], "parse") && strcmp(argv[1], "validate") &&
                      strcmp(argv[1], "lower"))) {
        fprintf(stderr, "usage: spvbc_bench_calls parse|validate|lower FILE N\n");
        return 2;
    }
    FILE *f = fopen(argv[2], "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0) {
        perror(argv[2]);
        return 1;
    }
    const long size = ftell(f);
    uint32_t *words = size > 0 ? (uint32_t *)malloc((size_t)size) : NULL;
    if (!words || fseek(f, 0, SEEK_SET) != 0 || fread(words, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "%s: cannot read\n", argv[2]);
        return 1;
    }
    fclose(f);
    const int reps = atoi(argv[3]);
    const char mode = argv[1][0];
    spvbc_context ctx;
    if (spvbc_context_create(NULL, &ctx) != SPVBC_SUCCESS) return 1;
    unsigned long long checked = 0, findings = 0, out_words = 0;
    for (int i = 0; i < reps; ++i) {
        spvbc_module m;
        if (spvbc_module_parse(ctx, words, (size_t)size / 4, NULL, &m) != SPVBC_SUCCESS) {
            fprintf(stderr, "%s: does not parse\n", argv[2]);
            return 1;
        }
        if (mode == 'v') {
            spvbc_validate_summary s = SPVBC_VALIDATE_SUMMARY_INIT;
            (void)spvbc_module_validate(m, NULL, &s);
            checked += s.bitcasts_checked;
            findings += s.errors + s.warnings + s.notes;
        } else if (mode == 'l') {
            spvbc_lower_summary s = SPVBC_LOWER_SUMMARY_INIT;
            const uint32_t *out;
            size_t count;
            spvbc_result r = spvbc_module_lower(m, NULL, &s);
            if ((r != SPVBC_SUCCESS && r != SPVBC_PARTIAL) ||
                spvbc_module_get_words(m, &out, &count) != SPVBC_SUCCESS) {
                fprintf(stderr, "%s: lowering failed\n", argv[2]);
                return 1;
            }
            checked += s.bitcasts_checked;
            findings += s.rewritten + s.refused + s.skipped;
            out_words += count;
        }
        spvbc_module_destroy(m);
    }
    spvbc_context_destroy(ctx);
    printf("%s x%d: %llu bitcasts checked, %llu findings, %llu output words\n", argv[1], reps,
           checked, findings, out_words);
    free(words);
    return 0;
}
