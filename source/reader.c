/* Reader: header checks, one linear walk over the instructions building the id table, the
 * type table (through types.c; its memory through modmem.c) and the list of bitcast sites. */
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "context.h"
#include "modmem.h"
#include "rules.h"
#include "types.h"

#define HEADER_WORDS 5u
#define SPIRV_MAGIC 0x07230203u
#define SPIRV_MAGIC_SWAPPED 0x03022307u

/* Keeps the rare paths out of the hot loop, whose locals then stay in registers. */
#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#define COLD __attribute__((noinline, cold))
#define ALWAYS_INLINE __attribute__((always_inline))
#elif defined(_MSC_VER)
#define NOINLINE __declspec(noinline)
#define COLD __declspec(noinline)
#define ALWAYS_INLINE /* static inline is enough there */
#else
#define NOINLINE
#define COLD
#define ALWAYS_INLINE
#endif

static uint32_t bswap32(uint32_t v)
{
    return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

typedef struct parser {
    struct spvbc_module_s *m;
    spvbc_context ctx;
    size_t offset, index; /* current instruction */
    uint32_t opcode;
    uint32_t line_offset; /* OpLine / DebugLine in force inside a block */
    bool in_function;
    int (*progress)(void *user, size_t words_read); /* spvbc_parse_options.progress */
    void *progress_user;
} parser;

COLD static spvbc_result fail(parser *p, spvbc_result r, const char *rule, const char *what)
{
    if (!spvbc__diag_simple(p->ctx, SPVBC_SEVERITY_ERROR, rule, p->offset, p->index, p->opcode,
                            "%s", what))
        return spvbc__oom(p->ctx);
    return r;
}

COLD static spvbc_result failf_id(parser *p, spvbc_result r, const char *rule, const char *fmt,
                                  uint32_t id)
{
    if (!spvbc__diag_simple(p->ctx, SPVBC_SEVERITY_ERROR, rule, p->offset, p->index, p->opcode, fmt,
                            id))
        return spvbc__oom(p->ctx);
    return r;
}

/* Whether the literal string operand starting at word `first` of a `wc`-word instruction at `w`
 * equals `s`. */
static bool literal_equals(const uint32_t *w, uint32_t wc, uint32_t first, const char *s)
{
    if (first >= wc) return false;
    size_t avail = (size_t)(wc - first) * 4u;
    size_t len = strlen(s);
    if (len + 1 > avail) return false;
    /* Literal strings are packed little-endian within each word. */
    for (size_t i = 0; i <= len; ++i) {
        unsigned char ch = (unsigned char)(w[first + i / 4] >> (8 * (i % 4)));
        if (ch != (unsigned char)s[i]) return false;
    }
    return true;
}

/* Newer than Debian 12's SPIRV-Headers: by number, so that the library builds with those too. */
#define CAPABILITY_LONG_VECTOR_EXT 5425u

static void note_capability(struct spvbc_module_s *m, uint32_t cap)
{
    switch (cap) {
    case SpvCapabilityKernel: m->is_kernel = true; break;
    case SpvCapabilityShader: m->is_shader = true; break;
    case SpvCapabilityFloat16: m->caps_features |= SPVBC_FEATURE_FLOAT16; break;
    case SpvCapabilityFloat64: m->caps_features |= SPVBC_FEATURE_FLOAT64; break;
    case SpvCapabilityInt64: m->caps_features |= SPVBC_FEATURE_INT64; break;
    case SpvCapabilityInt8: m->caps_features |= SPVBC_FEATURE_INT8; break;
    case SpvCapabilityInt16: m->caps_features |= SPVBC_FEATURE_INT16; break;
    case SpvCapabilityVector16: m->caps_features |= SPVBC_FEATURE_VECTOR16; break;
    case CAPABILITY_LONG_VECTOR_EXT: m->long_vector = true; break;
    default: break;
    }
}

/* Records the site at `w` (word `off`, the `index`th instruction): the operand's id table entry
 * as it is now, and the source line in force inside a function.  The caller made room. */
static inline void put_site(parser *p, const uint32_t *w, uint32_t wc, size_t off, size_t index,
                            uint16_t spec)
{
    struct spvbc_module_s *m = p->m;
    spvbc__site *s = &m->sites[m->site_count++];
    const uint32_t operand = spec == SPVBC__SITE_SPEC ? w[4] : w[3];
    if (operand >= m->bound) m->refs_above_bound = true;
    s->offset = (uint32_t)off;
    s->line_offset = p->in_function ? p->line_offset : 0;
    s->index = (uint32_t)index;
    s->result_type_id = w[1];
    s->result_id = w[2];
    s->operand_id = operand;
    s->operand_entry = operand < m->bound ? m->ids[operand] : 0;
    s->word_count = (uint16_t)wc;
    s->spec = spec;
}

static spvbc_result add_site(parser *p, const uint32_t *w, uint32_t wc, uint16_t spec)
{
    struct spvbc_module_s *m = p->m;
    if (!spvbc__grow(p->ctx, (void **)&m->sites, &m->site_cap, sizeof *m->sites, m->site_count + 1))
        return spvbc__oom(p->ctx);
    put_site(p, w, wc, p->offset, p->index, spec);
    return SPVBC_SUCCESS;
}

/* The reader's handling of the few opcodes it looks at (SPVBC__OPF_SPECIAL). */
static spvbc_result special(parser *p, const uint32_t *w, uint32_t wc, uint32_t type_id,
                            uint32_t id)
{
    struct spvbc_module_s *m = p->m;
    switch (p->opcode) {
    case SpvOpCapability:
        if (wc >= 2) note_capability(m, w[1]);
        break;
    case SpvOpExtension:
        if (literal_equals(w, wc, 1, "SPV_KHR_physical_storage_buffer")) m->has_psb_ext = true;
        break;
    case SpvOpExtInstImport:
        if (literal_equals(w, wc, 2, "NonSemantic.Shader.DebugInfo.100")) m->debuginfo_set = id;
        break;
    case SpvOpMemoryModel:
        if (wc >= 3) m->addressing = w[1];
        break;
    case SpvOpTypeForwardPointer:
        if (wc < 3)
            return fail(p, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS",
                        "OpTypeForwardPointer is missing operands");
        if (w[1] == 0 || w[1] >= m->bound)
            return failf_id(p, SPVBC_ERROR_INVALID_ID, "R-ID-RANGE",
                            "forward pointer id %%%u is 0 or at or above the id bound", w[1]);
        if (m->ids[w[1]] == SPVBC__ID_UNDEF) m->ids[w[1]] = SPVBC__ID_FORWARD;
        break;
    case SpvOpConstantNull: {
        spvbc__type *t = (spvbc__type *)spvbc__type_of_id(m, type_id);
        if (t && !t->null_id) {
            t->null_id = id;
            t->null_offset = (uint32_t)p->offset;
        }
        break;
    }
    case SpvOpTypeVector: {
        /* Record the vec4 of each scalar once, for the lowering's intermediate types. */
        spvbc__type *c = (spvbc__type *)spvbc__type_of_id(m, w[2]);
        if (c && w[3] == 4 && !c->vec4_id) c->vec4_id = id; /* not of a foreign type */
        break;
    }
    case SpvOpFunction:
        if (!p->in_function && m->functions_offset == m->word_count)
            m->functions_offset = (uint32_t)p->offset;
        p->in_function = true;
        p->line_offset = 0;
        break;
    case SpvOpFunctionEnd: p->in_function = false; break;
    case SpvOpBitcast:
        if (wc < 4)
            return fail(p, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS",
                        "OpBitcast is missing its operand");
        return add_site(p, w, wc, SPVBC__SITE_BITCAST);
    case SPVBC__OP_BITCAST_EXTRACT_EXT:
        /* "OpBitcastExtractEXT Result Type, Result, Base, Offset" (SPIRV-Headers 1.4.363) */
        if (wc < 5)
            return fail(p, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS",
                        "OpBitcastExtractEXT is missing its base or offset");
        return add_site(p, w, wc, SPVBC__SITE_EXTRACT);
    case SpvOpSpecConstantOp:
        if (wc < 4)
            return fail(p, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS",
                        "OpSpecConstantOp has no opcode operand");
        if (w[3] != SpvOpBitcast) break;
        if (wc < 5)
            return fail(p, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS",
                        "OpSpecConstantOp Bitcast is missing its operand");
        return add_site(p, w, wc, SPVBC__SITE_SPEC);
    default: break;
    }
    return SPVBC_SUCCESS;
}

/* An instruction whose opcode this build does not know (a newer extension's, past the
 * SPIRV-Headers it was built with): never an error of ours.  Its result id is recorded as
 * unknown, so that what is built on it gets a note instead of a verdict: words 2 (after a result
 * type) or 1 (a type declaration, or a result with no type) when they name an id not defined yet.
 * A guess can only name an id nobody defined so far; a later definition replaces it. */
static void foreign(struct spvbc_module_s *m, const uint32_t *w, uint32_t wc, uint32_t op)
{
    uint32_t *ids = m->ids;
    const uint32_t mark = SPVBC__ID_FOREIGN | op;
    if (wc < 2 || w[1] == 0) return;
    if (w[1] >= m->bound) {
        /* Not a type now, but a lowering's new type could take that id, and then the output
         * read again would take word 2 for a result of this instruction: so no new ids where
         * word 2 could then name one not defined yet (at or above the bound too: a new id)
         * (fuzz_lower: the same refusals on the output). */
        if (wc >= 3 && w[2] != 0 && (w[2] >= m->bound || ids[w[2]] == SPVBC__ID_UNDEF))
            m->refs_above_bound = true;
        return;
    }
    const uint32_t e1 = ids[w[1]];
    const bool typed = spvbc__type_of_id(m, w[1]) || spvbc__foreign_op_of(e1);
    if (typed && wc >= 3 && w[2] != 0 && w[2] < m->bound && ids[w[2]] == SPVBC__ID_UNDEF)
        ids[w[2]] = mark;
    else if (!typed && e1 == SPVBC__ID_UNDEF)
        ids[w[1]] = mark;
}

/* The general path of the walk: every instruction the hot loop does not finish itself (the
 * opcodes the reader looks at, type declarations, unknown opcodes, and every malformed
 * instruction), with the checks and diagnostics of each: the instruction at word `off`, the
 * `index`th, whose opcode flags are `f` (without SPVBC__OPF_KNOWN: not in the cache yet). */
NOINLINE static spvbc_result general(parser *p, size_t off, size_t index, uint32_t f)
{
    struct spvbc_module_s *m = p->m;
    const uint32_t *w = m->words + off;
    const uint32_t wc = w[0] >> 16;
    p->offset = off;
    p->index = index;
    p->opcode = w[0] & 0xffffu;
    if (!(f & SPVBC__OPF_KNOWN)) {
        f = spvbc__opcode_flags(p->opcode);
        SPVBC__OPTAB_SET(p->opcode, f | SPVBC__OPF_KNOWN);
    }
    uint32_t *ids = m->ids;
    const uint32_t bound = m->bound, op = p->opcode;
    spvbc_result r;
    if (f & SPVBC__OPF_FOREIGN) {
        foreign(m, w, wc, op);
        return SPVBC_SUCCESS;
    }
    uint32_t type_id = 0, id = 0;
    if (f & SPVBC__OPF_RESULT) {
        const uint32_t need = (f & SPVBC__OPF_TYPE) ? 3u : 2u;
        if (wc < need)
            return fail(p, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS",
                        "instruction is too short for its result id");
        id = w[need - 1];
        if (id - 1u >= bound - 1u) /* 0, or at or above the bound */
            return id == 0 ? fail(p, SPVBC_ERROR_INVALID_ID, "R-ID-ZERO", "result id is 0")
                           : failf_id(p, SPVBC_ERROR_INVALID_ID, "R-ID-RANGE",
                                      "result id %%%u is at or above the id bound", id);
        const uint32_t e = ids[id];
        if (e != SPVBC__ID_UNDEF && !(e == SPVBC__ID_FORWARD && op == SpvOpTypePointer) &&
            !spvbc__foreign_op_of(e))
            return failf_id(p, SPVBC_ERROR_INVALID_ID, "R-ID-REDEFINED", "id %%%u is defined twice",
                            id);
        if (f & SPVBC__OPF_TYPE) {
            type_id = w[1];
            /* A declared type: its entry has the type bit and is neither the no-type nor the
             * forward mark (id 0's entry is always undefined). */
            const uint32_t te = type_id < bound ? ids[type_id] : SPVBC__ID_UNDEF;
            if (te - SPVBC__ID_TYPE_BIT >= SPVBC__ID_FOREIGN - SPVBC__ID_TYPE_BIT &&
                !spvbc__foreign_op_of(te))
                return failf_id(p, SPVBC_ERROR_INVALID_ID, "R-TYPE-ORDER",
                                "result type %%%u is not a type declared before this "
                                "instruction",
                                type_id);
            ids[id] = type_id;
        } else if (f & SPVBC__OPF_DECL) {
            spvbc__type_error err;
            r = spvbc__declare_type(m, op, w, wc, id, p->offset, &err);
            if (r == SPVBC_ERROR_OUT_OF_MEMORY) return spvbc__oom(p->ctx);
            if (r != SPVBC_SUCCESS) return failf_id(p, r, err.rule, err.fmt, err.arg);
        } else {
            ids[id] = SPVBC__ID_NOTYPE;
        }
    }
    if ((f & SPVBC__OPF_SPECIAL) && (r = special(p, w, wc, type_id, id)) != SPVBC_SUCCESS) return r;
    if (f & SPVBC__OPF_LINE) {
        /* The source position in force ends at the next OpLine, OpNoLine, or the end of the
         * block (labels, branches, returns); NonSemantic.Shader.DebugInfo.100 has DebugLine
         * (103) and DebugNoLine (104).  Only sites in functions record it. */
        if (op == SpvOpLine) {
            /* OpLine File Line Column; a short one names no position */
            p->line_offset = wc >= 4 ? (uint32_t)p->offset : 0u;
        } else if (op != SpvOpExtInst) {
            p->line_offset = 0;
        } else if (wc >= 5 && m->debuginfo_set && w[3] == m->debuginfo_set) {
            if (w[4] == 103 && wc >= 10)
                p->line_offset = (uint32_t)p->offset;
            else if (w[4] == 104)
                p->line_offset = 0;
        }
    }
    return SPVBC_SUCCESS;
}

/* The instruction at word `off`, the `index`th, has word count 0 or runs past the end. */
COLD static spvbc_result bad_count(parser *p, size_t off, size_t index)
{
    const uint32_t w0 = p->m->words[off];
    p->offset = off;
    p->index = index;
    p->opcode = w0 & 0xffffu;
    return (w0 >> 16) == 0
               ? fail(p, SPVBC_ERROR_INVALID_BINARY, "R-WORD-COUNT", "instruction has word count 0")
               : fail(p, SPVBC_ERROR_INVALID_BINARY, "R-TRUNCATED",
                      "instruction runs past the end of the module");
}

/* Tells the caller's progress callback that the walk has read the words below `words_read`;
 * SPVBC_ERROR_STOPPED when it asks to stop. */
COLD static spvbc_result tell_progress(const parser *p, size_t words_read)
{
    return p->progress(p->progress_user, words_read) ? SPVBC_ERROR_STOPPED : SPVBC_SUCCESS;
}

/* Where the walk is: the next instruction `w`, the words `left` from it to the end, and its
 * index. */
typedef struct walk_at {
    const uint32_t *w;
    size_t left, index;
} walk_at;

/* The walk from `*at` until `rest` words are left (inlined twice: with a constant 0 for a walk
 * without a progress callback, whose loop then tests `left` against nothing more). */
ALWAYS_INLINE static inline spvbc_result walk_span(parser *p, walk_at *at, size_t rest)
{
    struct spvbc_module_s *m = p->m;
    const uint32_t *const words = m->words;
    uint32_t *const ids = m->ids;
    const uint32_t bound = m->bound, last = bound - 1u; /* the largest id */
    const uint32_t *w = at->w;
    size_t left = at->left, index = at->index;
    /* The hot loop: the commonest well-formed instructions are finished here with a table load
     * and a few predictable branches: no result and nothing to look at (stores, names,
     * decorations), a result type and a result id, a label, and a block's end (which ends the
     * source position in force).  Anything else, and any problem (whose report the general
     * path makes), goes to general(); the position is stored in the parser only then. */
    while (left > rest) {
        const uint32_t w0 = w[0];
        const uint32_t wc = w0 >> 16;
        if ((size_t)wc - 1u >= left) /* 0, or past the end */
            return bad_count(p, (size_t)(w - words), index);
        const uint32_t op = w0 & 0xffffu;
        const uint32_t f = SPVBC__OPTAB_GET(op);
        if (f == SPVBC__OPF_KNOWN) goto next;
        if (f == (SPVBC__OPF_KNOWN | SPVBC__OPF_RESULT | SPVBC__OPF_TYPE)) {
            if (wc >= 3u) {
                const uint32_t rid = w[2], rtype = w[1];
                if (rid - 1u < last && rtype <= last && ids[rid] == SPVBC__ID_UNDEF &&
                    ids[rtype] - SPVBC__ID_TYPE_BIT < SPVBC__ID_FOREIGN - SPVBC__ID_TYPE_BIT) {
                    ids[rid] = rtype;
                    goto next;
                }
            }
        } else if (f == (SPVBC__OPF_KNOWN | SPVBC__OPF_RESULT | SPVBC__OPF_TYPE |
                         SPVBC__OPF_SPECIAL) &&
                   op == SpvOpBitcast && wc >= 4u) {
            /* A well-formed OpBitcast with room in the site list (what general() does, less
             * its calls) */
            const uint32_t rid = w[2], rtype = w[1];
            if (rid - 1u < bound - 1u && rtype < bound && ids[rid] == SPVBC__ID_UNDEF &&
                ids[rtype] - SPVBC__ID_TYPE_BIT < SPVBC__ID_FOREIGN - SPVBC__ID_TYPE_BIT &&
                m->site_count < m->site_cap) {
                ids[rid] = rtype;
                put_site(p, w, wc, (size_t)(w - words), index, SPVBC__SITE_BITCAST);
                goto next;
            }
        } else if (f == (SPVBC__OPF_KNOWN | SPVBC__OPF_LINE)) {
            /* branches, returns, OpNoLine */
            p->line_offset = 0;
            goto next;
        } else if (f == (SPVBC__OPF_KNOWN | SPVBC__OPF_RESULT | SPVBC__OPF_LINE) && wc >= 2u) {
            /* OpLabel */
            const uint32_t rid = w[1];
            if (rid - 1u < bound - 1u && ids[rid] == SPVBC__ID_UNDEF) {
                ids[rid] = SPVBC__ID_NOTYPE;
                p->line_offset = 0;
                goto next;
            }
        }
        {
            const spvbc_result r = general(p, (size_t)(w - words), index, f);
            if (r != SPVBC_SUCCESS) return r;
        }
    next:
        w += wc;
        left -= wc;
        ++index;
    }
    at->w = w;
    at->left = left;
    at->index = index;
    return SPVBC_SUCCESS;
}

NOINLINE static spvbc_result walk(parser *p)
{
    struct spvbc_module_s *m = p->m;
    walk_at at = {m->words + HEADER_WORDS, m->word_count - HEADER_WORDS, 0}; /* header checked */
    m->functions_offset = (uint32_t)m->word_count;
    spvbc_result r;
    if (!p->progress) {
        r = walk_span(p, &at, 0);
    } else {
        /* Pauses for the caller's callback after every SPVBC_PARSE_PROGRESS_WORDS words read
         * (or up to an instruction's more) and at the end. */
        const size_t step = SPVBC_PARSE_PROGRESS_WORDS;
        do {
            r = walk_span(p, &at, at.left > step ? at.left - step : 0);
            if (r == SPVBC_SUCCESS) r = tell_progress(p, (size_t)(at.w - m->words));
        } while (r == SPVBC_SUCCESS && at.left);
    }
    m->instruction_count = at.index;
    return r;
}

static spvbc_result check_header(parser *p, const spvbc_parse_options *opt)
{
    struct spvbc_module_s *m = p->m;
    p->offset = 0;
    p->index = SPVBC_NO_POSITION;
    p->opcode = 0;
    if (m->word_count < HEADER_WORDS)
        return fail(p, SPVBC_ERROR_INVALID_BINARY, "R-HEADER",
                    "module is shorter than the 5-word SPIR-V header");
    const uint32_t *w = m->words;
    if (w[0] != SPIRV_MAGIC) {
        if (!spvbc__diag_simple(p->ctx, SPVBC_SEVERITY_ERROR, "R-MAGIC", 0, SPVBC_NO_POSITION, 0,
                                "bad magic number 0x%08x (expected 0x07230203)", w[0]))
            return spvbc__oom(p->ctx);
        return SPVBC_ERROR_INVALID_BINARY;
    }
    m->version = w[1];
    m->generator = w[2];
    m->bound = w[3];
    p->offset = 1;
    uint32_t major = (w[1] >> 16) & 0xffu, minor = (w[1] >> 8) & 0xffu;
    if ((w[1] & 0xff0000ffu) != 0 || major != 1 || minor > 6) {
        if (!spvbc__diag_simple(p->ctx, SPVBC_SEVERITY_ERROR, "R-VERSION", 1, SPVBC_NO_POSITION, 0,
                                "unknown SPIR-V version word 0x%08x (known: 1.0 to 1.6)", w[1]))
            return spvbc__oom(p->ctx);
        return SPVBC_ERROR_INVALID_BINARY;
    }
    p->offset = 3;
    if (m->bound == 0) return fail(p, SPVBC_ERROR_INVALID_BINARY, "R-BOUND", "id bound is 0");
    uint32_t cap = opt->max_id_bound ? opt->max_id_bound : SPVBC_DEFAULT_MAX_ID_BOUND;
    if (cap > SPVBC__MAX_BOUND_CAP) cap = SPVBC__MAX_BOUND_CAP;
    m->max_bound = cap;
    if (m->bound > cap) {
        if (!spvbc__diag_simple(p->ctx, SPVBC_SEVERITY_ERROR, "R-BOUND", 3, SPVBC_NO_POSITION, 0,
                                "id bound %u is above the cap %u (raise max_id_bound / "
                                "--max-id-bound)",
                                m->bound, cap))
            return spvbc__oom(p->ctx);
        return SPVBC_ERROR_UNSUPPORTED;
    }
    p->offset = 4;
    if (w[4] != 0) return fail(p, SPVBC_ERROR_INVALID_BINARY, "R-SCHEMA", "schema word is not 0");
    return SPVBC_SUCCESS;
}

spvbc_result spvbc_module_parse(spvbc_context context, const uint32_t *words, size_t word_count,
                                const spvbc_parse_options *user_options, spvbc_module *out_module)
{
    if (!context || !out_module || (!words && word_count)) return SPVBC_ERROR_INVALID_ARGUMENT;
    spvbc_parse_options opts;
    memset(&opts, 0, sizeof opts);
    spvbc_result r = spvbc__struct_in(user_options, &opts, sizeof opts, SPVBC__MIN_PARSE_OPTIONS);
    if (r != SPVBC_SUCCESS) return r;
    const spvbc_parse_options *options = &opts;
    spvbc__diag_clear(context);
    if (word_count > 0xFFFFFFF0u) {
        (void)spvbc__diag_simple(context, SPVBC_SEVERITY_ERROR, "R-LIMIT", 0, SPVBC_NO_POSITION, 0,
                                 "module of %zu words is above the 2^32-word limit", word_count);
        return SPVBC_ERROR_UNSUPPORTED;
    }
    struct spvbc_module_s *m = spvbc__module_new(context, words, word_count);
    if (!m) return spvbc__oom(context);

    parser p;
    memset(&p, 0, sizeof p);
    p.m = m;
    p.ctx = context;
    p.progress = options->progress;
    p.progress_user = options->progress_user;

    bool swapped = word_count >= 1 && words[0] == SPIRV_MAGIC_SWAPPED;
    if (swapped || options->copy_words) {
        if (word_count > SIZE_MAX / 4) goto oom;
        m->owned = (uint32_t *)spvbc__alloc(context, word_count * 4);
        if (!m->owned) goto oom;
        m->owned_count = word_count;
        for (size_t i = 0; i < word_count; ++i)
            m->owned[i] = swapped ? bswap32(words[i]) : words[i];
        m->words = m->owned;
        m->byte_swapped = swapped;
    }

    r = check_header(&p, options);
    if (r != SPVBC_SUCCESS) goto fail;
    m->ids = (uint32_t *)spvbc__take_spare(context, SPVBC__SPARE_IDS, (size_t)m->bound * 4,
                                           &m->ids_bytes);
    if (!m->ids) {
        m->ids_bytes = (size_t)m->bound * 4;
        m->ids = (uint32_t *)spvbc__alloc(context, m->ids_bytes);
    }
    /* Presize the site list for a typical density (about one bitcast per 64 words): growing by
     * doubling copies it and touches fresh pages at every step. */
    size_t want_sites = word_count / 64 + 16, site_bytes = 0;
    m->sites = (spvbc__site *)spvbc__take_spare(context, SPVBC__SPARE_SITES,
                                                want_sites * sizeof *m->sites, &site_bytes);
    if (!m->sites) {
        site_bytes = want_sites * sizeof *m->sites;
        m->sites = (spvbc__site *)spvbc__alloc(context, site_bytes);
        if (!m->sites) goto oom;
    }
    m->site_cap = site_bytes / sizeof *m->sites;
    if (!m->ids) goto oom;
    memset(m->ids, 0, (size_t)m->bound * 4);
    r = walk(&p);
    if (r == SPVBC_SUCCESS && (r = spvbc__resolve_shapes(m)) == SPVBC_ERROR_OUT_OF_MEMORY)
        r = spvbc__oom(context);
    if (r != SPVBC_SUCCESS) goto fail;
    *out_module = m;
    return SPVBC_SUCCESS;
oom:
    r = spvbc__oom(context);
fail:
    spvbc__module_release(m);
    return r;
}

spvbc_result spvbc_module_parse_bytes(spvbc_context context, const void *bytes, size_t size,
                                      const spvbc_parse_options *options, spvbc_module *out_module)
{
    if (!context || !out_module || (!bytes && size)) return SPVBC_ERROR_INVALID_ARGUMENT;
    if (size % 4 != 0) {
        spvbc__diag_clear(context);
        if (!spvbc__diag_simple(context, SPVBC_SEVERITY_ERROR, "R-SIZE", size / 4,
                                SPVBC_NO_POSITION, 0,
                                "module size %zu bytes is not a multiple of 4", size))
            return spvbc__oom(context);
        return SPVBC_ERROR_INVALID_BINARY;
    }
    if (size >= HEADER_WORDS * 4) {
        /* Bytes come from a file, whose byte order only the magic tells: a bad magic is shown as
         * SPIR-V's default (little-endian) order reads it, the same on every host. */
        const unsigned char *b = (const unsigned char *)bytes;
        uint32_t le =
            (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        if (le != SPIRV_MAGIC && le != SPIRV_MAGIC_SWAPPED) {
            spvbc__diag_clear(context);
            if (!spvbc__diag_simple(context, SPVBC_SEVERITY_ERROR, "R-MAGIC", 0, SPVBC_NO_POSITION,
                                    0, "bad magic number 0x%08x (expected 0x07230203)", le))
                return spvbc__oom(context);
            return SPVBC_ERROR_INVALID_BINARY;
        }
    }
    if (((uintptr_t)bytes & 3u) == 0)
        return spvbc_module_parse(context, (const uint32_t *)bytes, size / 4, options, out_module);
    spvbc_parse_options o;
    memset(&o, 0, sizeof o);
    spvbc_result r = spvbc__struct_in(options, &o, sizeof o, SPVBC__MIN_PARSE_OPTIONS);
    if (r != SPVBC_SUCCESS) return r;
    /* Misaligned: parse from a temporary aligned copy that the module then owns. */
    uint32_t *tmp = (uint32_t *)spvbc__alloc(context, size ? size : 4);
    if (!tmp) {
        spvbc__diag_clear(context);
        return spvbc__oom(context);
    }
    if (size) memcpy(tmp, bytes, size);
    o.copy_words = 1;
    r = spvbc_module_parse(context, tmp, size / 4, &o, out_module);
    spvbc__free(context, tmp, size ? size : 4);
    return r;
}
