/*
 * fuzz_harness.c - the fuzz targets' plumbing (fuzz_harness.h), and the one translation unit of
 * the fuzz targets that includes SPIRV-Tools' C header (it defines a const object,
 * kDefaultMaxIdBound, that two C files cannot share).
 */
#include "fuzz_harness.h"
#include "spvval.h"

int spvbc_fuzz_spirv_val(const uint32_t *words, size_t n, char *msg, size_t msg_size)
{
    return spvval_check(words, n, msg, msg_size);
}

int fuzz_collect_fn(void *user, const uint32_t *words, size_t count)
{
    fuzz_collect *c = (fuzz_collect *)user;
    if (c->at + count > c->n || memcmp(c->expect + c->at, words, count * 4) != 0) c->mismatch = 1;
    c->at += count;
    return 0;
}

int fuzz_input_open(fuzz_input *in, const uint8_t *data, size_t size)
{
    memset(in, 0, sizeof *in);
    if (size % 4 != 0 || size < 20) return 0;
    in->bits = fuzz_option_bits(data, size);
    in->n = size / 4;
    in->w = fuzz_words(data, size);
    in->h = fuzz_host_words(in->w, in->n, &in->swapped);
    FUZZ_CHECK(spvbc_context_create(NULL, &in->ctx) == SPVBC_SUCCESS, "context");
    if (fuzz_parse_module(in->ctx, in->w, in->n, in->bits, &in->m) != SPVBC_SUCCESS) {
        in->m = NULL;
        fuzz_input_close(in);
        return 0;
    }
    FUZZ_CHECK(spvbc_module_get_info(in->m, &in->info) == SPVBC_SUCCESS, "info");
    return 1;
}

void fuzz_input_close(fuzz_input *in)
{
    spvbc_module_destroy(in->m);
    spvbc_context_destroy(in->ctx);
    free(in->w);
    free(in->h);
    memset(in, 0, sizeof *in);
}
