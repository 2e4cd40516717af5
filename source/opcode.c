/* Opcode facts from SPIRV-Headers.  spirv.h defines SpvHasResultAndType() (and, from
 * SPIRV-Headers 1.3.2xx on, SpvOpToString()) as C99 inline functions; this translation unit
 * provides their one external definition, so every caller links no matter whether the
 * compiler inlines them.  Which headers the build used is cmake/spirv-headers.cmake's choice
 * (Debian 13's 1.4.309 when it can fetch them). */
#include <string.h>

#include "rules.h"

extern void SpvHasResultAndType(SpvOp opcode, bool *hasResult, bool *hasResultType);
#ifdef SPVBC_SPIRV_HEADERS_HAVE_OP_TO_STRING
extern const char *SpvOpToString(SpvOp value);
#endif

/* Whether `op` is unknown to the headers the library was built with: an opcode of a newer
 * extension, whose operands this build cannot read.  With SpvOpToString() the headers say so
 * exactly; older headers (Debian 12's) have no such function, and every core opcode they lack
 * is an extension's (4096 and up), so an extension opcode with neither result nor result type
 * there counts as unknown: at worst a known one without results is read as unknown, whose
 * guessed result ids any later definition replaces. */
static bool foreign_opcode(uint32_t op, bool has_result, bool has_type)
{
#ifdef SPVBC_SPIRV_HEADERS_HAVE_OP_TO_STRING
    (void)has_result;
    (void)has_type;
    return op > 0xFFFFu || strcmp(SpvOpToString((SpvOp)op), "Unknown") == 0;
#else
    return op > 0xFFFFu || (!has_result && !has_type && op >= 4096u);
#endif
}

spvbc__optab_entry spvbc__optab[SPVBC__OPTAB_SIZE];

uint8_t spvbc__opcode_flags(uint32_t op)
{
    bool has_result = false, has_type = false;
    SpvHasResultAndType((SpvOp)op, &has_result, &has_type);
    if (foreign_opcode(op, has_result, has_type)) return SPVBC__OPF_FOREIGN;
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
        case SpvOpAliasScopeListDeclINTEL:
        /* Newer than Debian 12's headers, so spelled as numbers: OpConstantStringAMDX,
         * OpSpecConstantStringAMDX (SPV_AMDX_shader_enqueue), OpAsmTargetINTEL
         * (SPV_INTEL_inline_assembly). */
        case 5103u:
        case 5104u:
        case 5609u: break;
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
    case SPVBC__OP_BITCAST_EXTRACT_EXT: /* only where the headers know it (not foreign) */
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
    if (op == SpvOpLine || op == SpvOpExtInst) f |= SPVBC__OPF_POSITION;
    return f;
}
