/* Base: what every file of the library includes first, set up once: SPIRV-Headers (with its
 * utility code, under our prefix) and the compiler's printf-format attribute.  No data, no
 * functions.  Not installed. */
#ifndef SPVBC_BASE_H_
#define SPVBC_BASE_H_

#ifndef SPV_ENABLE_UTILITY_CODE
#define SPV_ENABLE_UTILITY_CODE
#endif
/* spirv.h defines SpvHasResultAndType() as a C99 inline function and opcode.c emits its one
 * external definition: give it our prefix so the static library never clashes with another
 * user of SPIRV-Headers. */
#define SpvHasResultAndType spvbc__SpvHasResultAndType
#define SpvOpToString spvbc__SpvOpToString /* opcode.c too, with headers that have it */
#include <spirv/unified1/spirv.h>

#if defined(__GNUC__)
#define SPVBC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SPVBC_PRINTF(a, b)
#endif

#endif /* SPVBC_BASE_H_ */
