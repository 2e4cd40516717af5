/* Opcode facts from SPIRV-Headers.  spirv.h defines SpvHasResultAndType() as a C99 inline
 * function; this translation unit provides its one external definition, so every caller links
 * no matter whether the compiler inlines it. */
#include "rules.h"

extern void SpvHasResultAndType(SpvOp opcode, bool *hasResult, bool *hasResultType);

uint8_t spvbc__opcode_flags(uint32_t op)
{
    bool has_result = false, has_type = false;
    SpvHasResultAndType((SpvOp)op, &has_result, &has_type);
    uint8_t f =
        (uint8_t)((has_result ? SPVBC__OPF_RESULT : 0u) | (has_type ? SPVBC__OPF_TYPE : 0u));
    /* In SPIRV-Headers' table every opcode with a result id and no result type declares a
     * type, except these few. */
    if (has_result && !has_type) {
        switch (op) {
        case SpvOpString:
        case SpvOpExtInstImport:
        case SpvOpDecorationGroup:
        case SpvOpLabel:
        case SpvOpAliasDomainDeclINTEL:
        case SpvOpAliasScopeDeclINTEL:
        case SpvOpAliasScopeListDeclINTEL: break;
        default: f |= SPVBC__OPF_DECL; break;
        }
    }
    switch (op) {
    case SpvOpCapability:
    case SpvOpExtension:
    case SpvOpExtInstImport:
    case SpvOpMemoryModel:
    case SpvOpTypeForwardPointer:
    case SpvOpConstantNull:
    case SpvOpFunction:
    case SpvOpFunctionEnd:
    case SpvOpBitcast:
    case SpvOpSpecConstantOp:
    case SpvOpTypeVector: f |= SPVBC__OPF_SPECIAL; break;
    default: break;
    }
    switch (op) {
    case SpvOpLine:
    case SpvOpNoLine:
    case SpvOpLabel:
    case SpvOpFunctionEnd:
    case SpvOpBranch:
    case SpvOpBranchConditional:
    case SpvOpSwitch:
    case SpvOpReturn:
    case SpvOpReturnValue:
    case SpvOpKill:
    case SpvOpUnreachable:
    case SpvOpExtInst: f |= SPVBC__OPF_LINE; break;
    default: break;
    }
    return f;
}
