/* `explain SRC DST`: how as_DST(SRC) maps onto SPIR-V, from the library's as_type plan. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* spirv-dis-style friendly name of a type description ("v4float", "uint"). */
static void friendly(const spvbc_type_desc *t, char *buf, size_t size)
{
    const char *base = "?";
    if (t->kind == SPVBC_SCALAR_FLOAT)
        base = t->width == 16 ? "half" : t->width == 32 ? "float" : "double";
    else if (t->kind == SPVBC_SCALAR_INT) {
        static const char *const s[] = {"char", "short", "int", "long"};
        static const char *const u[] = {"uchar", "ushort", "uint", "ulong"};
        int i = t->width == 8 ? 0 : t->width == 16 ? 1 : t->width == 32 ? 2 : 3;
        base = t->is_signed ? s[i] : u[i];
    }
    if (t->count == 1)
        snprintf(buf, size, "%%%s", base);
    else
        snprintf(buf, size, "%%v%u%s", t->count, base);
}

int cli_cmd_explain(int argc, char **argv)
{
    const char *names[2] = {NULL, NULL};
    int nn = 0;
    spvbc_pad_policy pad = SPVBC_PAD_UNDEF;
    bool shader = false;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--pad")) {
            if (i + 1 >= argc || spvbc_pad_policy_from_string(argv[++i], &pad) != SPVBC_SUCCESS) {
                cli_usage_error("--pad takes undef, zero or error");
                return CLI_EXIT_USAGE;
            }
        } else if (!strncmp(argv[i], "--pad=", 6)) {
            if (spvbc_pad_policy_from_string(argv[i] + 6, &pad) != SPVBC_SUCCESS) {
                cli_usage_error("--pad takes undef, zero or error");
                return CLI_EXIT_USAGE;
            }
        } else if (!strcmp(argv[i], "--shader")) {
            shader = true;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            return CLI_EXIT_HELP;
        } else if (argv[i][0] == '-') {
            cli_usage_error("unknown option '%s' for explain", argv[i]);
            return CLI_EXIT_USAGE;
        } else if (nn < 2) {
            names[nn++] = argv[i];
        } else {
            cli_usage_error("explain takes exactly two type names");
            return CLI_EXIT_USAGE;
        }
    }
    if (nn != 2) {
        cli_usage_error("explain takes two OpenCL C type names, e.g. 'explain float4 float3'");
        return CLI_EXIT_USAGE;
    }
    spvbc_type_desc src, dst;
    for (int k = 0; k < 2; ++k) {
        spvbc_type_desc *d = k ? &dst : &src;
        /* bool and void are names as_type knows to exclude (class "excluded"). */
        if (!strcmp(names[k], "bool") || !strcmp(names[k], "void")) {
            d->kind = names[k][0] == 'b' ? SPVBC_SCALAR_BOOL : SPVBC_SCALAR_VOID;
            d->width = 0;
            d->count = 1;
            d->is_signed = 0;
            continue;
        }
        if (spvbc_type_desc_from_opencl(names[k], d) != SPVBC_SUCCESS) {
            cli_usage_error("'%s' is not an OpenCL C scalar or vector type (e.g. float4, uchar3, "
                            "half, ulong16; bool and void have no as_type)",
                            names[k]);
            return CLI_EXIT_USAGE;
        }
    }
    if (!shader) src.is_signed = dst.is_signed = 0; /* Kernel integers are signless */
    spvbc_plan_options po = SPVBC_PLAN_OPTIONS_INIT;
    po.features = shader ? (SPVBC_FEATURE_ALL_KERNEL | SPVBC_FEATURE_SHADER) : 0;
    po.pad = pad;
    spvbc_plan p = SPVBC_PLAN_INIT;
    if (spvbc_astype_plan(&src, &dst, &po, &p) != SPVBC_SUCCESS) return CLI_EXIT_FINDINGS;

    const unsigned n = src.count, m = dst.count;
    const unsigned sbytes = src.width / 8 * (n == 3 ? 4 : n),
                   dbytes = dst.width / 8 * (m == 3 ? 4 : m);
    printf("as_%s(%s)\n", names[1], names[0]);
    printf("  class: %s\n", spvbc_astype_class_string(p.cls));
    if (p.refusal == SPVBC_PLAN_REFUSAL_BOOL_OR_VOID) {
        printf("  OpenCL C: error: as_type excludes bool and void\n");
        return CLI_EXIT_FINDINGS;
    }
    printf("  sizes: %s is %u bytes (%u bits of lanes), %s is %u bytes (%u bits of lanes)\n",
           names[0], sbytes, src.width * n, names[1], dbytes, dst.width * m);
    if (p.cls == SPVBC_ASTYPE_SIZE_ERROR) {
        printf("  OpenCL C: error: as_type needs operand and result of the same size in bytes\n");
        return CLI_EXIT_FINDINGS;
    }
    switch (p.cls) {
    case SPVBC_ASTYPE_IDENTITY:
        printf("  OpenCL C: defined: the same SPIR-V type; no instruction (use the operand)\n");
        break;
    case SPVBC_ASTYPE_SAME_COUNT:
        printf("  OpenCL C: defined: the bits are returned unchanged\n");
        break;
    case SPVBC_ASTYPE_4_TO_3:
        printf("  OpenCL C: defined: lanes 0..2 are the operand's lanes 0..2, bit-exact\n");
        break;
    default: printf("  OpenCL C: implementation-defined (different element counts)\n"); break;
    }
    if (p.cls != SPVBC_ASTYPE_IDENTITY && p.refusal == SPVBC_PLAN_REFUSAL_NONE)
        printf("  direct OpBitcast: %s (%u bits vs %u bits)\n",
               p.direct_bitcast_valid ? "valid SPIR-V" : "invalid SPIR-V", src.width * n,
               dst.width * m);
    if (p.refusal != SPVBC_PLAN_REFUSAL_NONE) {
        const char *why = p.refusal == SPVBC_PLAN_REFUSAL_PAD_POLICY
                              ? "the padding policy 'error' refuses 3-component sources"
                          : p.refusal == SPVBC_PLAN_REFUSAL_MISSING_FEATURE
                              ? "a side needs a capability the plan does not have"
                              : "not an OpenCL C as_type";
        printf("  plan: none: %s\n", why);
        return CLI_EXIT_FINDINGS;
    }
    printf("  exact lanes of the result:");
    for (unsigned j = 0; j < m; ++j)
        if (p.exact_lanes & (1u << j)) printf(" %u", j);
    if (p.exact_lanes != (m >= 32 ? 0xffffffffu : (1u << m) - 1u)) printf(" (others undefined)");
    printf("\n  plan (%u instruction%s):%s\n", p.op_count, p.op_count == 1 ? "" : "s",
           p.op_count ? "" : " none, the result is %x");
    char tn[32], cur[16] = "%x";
    for (uint32_t i = 0; i < p.op_count; ++i) {
        const spvbc_plan_op *op = &p.ops[i];
        friendly(&op->result_type, tn, sizeof tn);
        char res[16];
        if (i + 1 == p.op_count)
            snprintf(res, sizeof res, "%%r");
        else
            snprintf(res, sizeof res, "%%t%u", i + 1);
        if (op->kind == SPVBC_PLAN_OP_BITCAST) {
            printf("    %s = OpBitcast %s %s\n", res, tn, cur);
        } else {
            char null3[40] = "";
            if (op->second == SPVBC_PLAN_SECOND_NULL) {
                spvbc_type_desc s3 = src;
                char sn[32];
                friendly(&s3, sn, sizeof sn);
                snprintf(null3, sizeof null3, "%%null_%s", sn + 1);
            }
            printf("    %s = OpVectorShuffle %s %s %s", res, tn, cur,
                   op->second == SPVBC_PLAN_SECOND_NULL ? null3 : cur);
            for (uint32_t k = 0; k < op->lane_count; ++k)
                printf(" %u", op->lanes[k]);
            printf("\n");
        }
        snprintf(cur, sizeof cur, "%s", res);
    }
    return 0;
}
