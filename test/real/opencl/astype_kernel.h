// The two kernel shapes of the as_type cases in this directory (an OpenCL C header: the *.cl
// files include it, ctest globs only *.cl).  Each expands to exactly the kernel it names, so a
// case reads as one line: its name, operand and result types and the expression stored.

// out[i] = `expr` for work-item i; `expr` reads `in` (at i and i + 1).
#define ASTYPE_KERNEL(name, src, dst, expr)                                                        \
    kernel void name(global const src *in, global dst *out)                                        \
    {                                                                                              \
        size_t i = get_global_id(0);                                                               \
        out[i] = expr;                                                                             \
    }

// A 3-component `vec3` result: v = `expr`, then vstore3(`stored`, i, out) into `elem` out[].
#define ASTYPE_KERNEL_VSTORE3(name, src, elem, vec3, expr, stored)                                 \
    kernel void name(global const src *in, global elem *out)                                       \
    {                                                                                              \
        size_t i = get_global_id(0);                                                               \
        vec3 v = expr;                                                                             \
        vstore3(stored, i, out);                                                                   \
    }
