/*
 * fuzz_spvval.c - the one translation unit of the fuzz targets that includes SPIRV-Tools'
 * C header (it defines a const object, kDefaultMaxIdBound, that two C files cannot share).
 */
#include "fuzz_common.h"
#include "spvval.h"

int spvbc_fuzz_spirv_val(const uint32_t *words, size_t n, char *msg, size_t msg_size)
{
    return spvval_check(words, n, msg, msg_size);
}
