/* Decimal: the one writer of decimal digits for the library and its tool (sentence.c, report.c,
 * source/tools/report.c), which write numbers in hot paths where vsnprintf was most of the cost.
 * Header-only and self-contained (no library state, no other header of the library), so the CLI
 * includes it too.  Not installed. */
#ifndef SPVBC_DECIMAL_H_
#define SPVBC_DECIMAL_H_

#include <stddef.h>
#include <stdint.h>

/* The most digits a uint64_t has (18446744073709551615). */
#define SPVBC__DECIMAL_MAX 20

/* Writes `v` in decimal, as printf's %u, %zu and %llu write it, without a NUL, to the start of
 * `out` (SPVBC__DECIMAL_MAX bytes); returns how many digits it wrote (1 to 20). */
static inline size_t spvbc__decimal(char *out, uint64_t v)
{
    char rev[SPVBC__DECIMAL_MAX];
    size_t n = 0;
    do {
        rev[n++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v);
    for (size_t k = 0; k < n; ++k)
        out[k] = rev[n - 1 - k];
    return n;
}

#endif /* SPVBC_DECIMAL_H_ */
