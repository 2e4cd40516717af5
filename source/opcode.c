/* SPIRV-Headers defines SpvHasResultAndType() as a C99 inline function in spirv.h; this
 * translation unit provides its one external definition, so every caller links no matter
 * whether the compiler inlines it. */
#include <stdbool.h>

#define SPV_ENABLE_UTILITY_CODE
#define SpvHasResultAndType spvbc__SpvHasResultAndType /* as in internal.h */
#include <spirv/unified1/spirv.h>

extern void SpvHasResultAndType(SpvOp opcode, bool *hasResult, bool *hasResultType);
