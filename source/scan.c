/* Scan: whether lowering could have anything to do in a module, told from its words with no
 * allocation and no diagnostic: the check a driver or a layer makes before paying for a parse.
 *
 * Every pair that as_type allows and OpBitcast does not has a 3-component vector on one side
 * (the classes of the rules' section 3), so a module where no OpBitcast and no
 * OpSpecConstantOp Bitcast has one as its result type or as its operand's type is left as it
 * is by spvbc_module_lower().  The scan does not walk the instructions (each step of a walk
 * waits for the word count it has just loaded): it reads the words in two straight passes that
 * a compiler can vectorise, by what the layout of every instruction guarantees:
 *   - a 3-component vector type is declared by a word of opcode OpTypeVector and a count of at
 *     least 4, then Id Component 3 (the reader takes the first four words of a longer one);
 *   - a bitcast begins with a word of opcode OpBitcast and a count of at least 4 (Result Type,
 *     Result, Operand follow), or of OpSpecConstantOp, at least 5, with Bitcast third;
 *   - a value of a type is defined by an instruction whose Result Type word is followed by its
 *     Result word, so an operand of a 3-component vector type has, somewhere in the module, one
 *     of those types' ids right before its own id.
 * A word that only looks like one of these (a literal, an operand) can make the answer "maybe",
 * never "no": every real one is found.  Whatever the scan cannot tell answers "maybe". */
#include <string.h>

#include "context.h"
#include "rules.h"

/* Four words at a time where SSE2 is there (every x86-64), eight (in steps of 32 and 16 words
 * with one branch each) where the processor has AVX2 and GCC or Clang can pick the code for it
 * at run time (ELF targets), sixteen (steps of 64 words) where it also
 * has AVX-512F and AVX-512BW; otherwise one at a time (SPVBC_SCAN_SCALAR,
 * SPVBC_SCAN_NO_AVX2 and SPVBC_SCAN_NO_AVX512 force the narrower forms, so that tests run them
 * too). */
#if defined(__SSE2__) && !defined(SPVBC_SCAN_SCALAR)
#include <emmintrin.h>
#define SCAN_SSE2 1
#if defined(__GNUC__) && defined(__x86_64__) && defined(__ELF__) && !defined(SPVBC_SCAN_NO_AVX2)
#include <immintrin.h>
#define SCAN_AVX2 1
#define SCAN_TARGET_AVX2 __attribute__((target("avx2")))
#if !defined(SPVBC_SCAN_NO_AVX512)
#define SCAN_AVX512 1
#define SCAN_TARGET_AVX512 __attribute__((target("avx512f,avx512bw")))
/* the vector tests inside the steps' loops, with their constants kept in registers */
#define SCAN_INLINE_AVX512 inline __attribute__((target("avx512f,avx512bw"), always_inline))
#endif
#endif
#endif

#define SCAN_HEADER_WORDS 5u
#define SCAN_MAGIC 0x07230203u
/* Ids marked in byte arrays on the stack up to SCAN_BYTE_BOUND (each mark a store that no later
 * one waits for, where a bit's would wait for the last store to its word), in bit sets on the
 * stack up to SCAN_STACK_BOUND, above it in bit sets from the context's allocator (up to the
 * default id bound cap): 8 KiB of stack either way.  More 3-component vector types than
 * SCAN_MAX_VEC3 (distinct ids) answer "maybe". */
#define SCAN_BYTE_BOUND 4096u
/* Steps of 64 words with hits that the widest first pass writes down before it takes them. */
#define SCAN_STEPS 32u
#define SCAN_STACK_BOUND 32768u
#define SCAN_MAX_VEC3 8u

typedef struct scan_state {
    const uint32_t *words;
    size_t count;
    uint32_t bound;
    uint32_t vec3[SCAN_MAX_VEC3]; /* the 3-component vector types */
    uint32_t vec3_count;
    bool sites; /* a bitcast was found */
    bool maybe; /* the answer is "maybe" already */
    bool bytes; /* the marks are bytes, not bits */
    void *results; /* marks of the result types of bitcasts */
    void *operands; /* marks of the operands of bitcasts */
} scan_state;

/* Marks `id`, below the bound, in `set`. */
static inline void mark(const scan_state *s, void *set, uint32_t id)
{
    if (s->bytes)
        ((uint8_t *)set)[id] = 1u;
    else
        ((uint64_t *)set)[id / 64u] |= (uint64_t)1 << (id % 64u);
}

/* Whether `id`, below the bound, is marked in `set`. */
static inline bool marked(const scan_state *s, const void *set, uint32_t id)
{
    if (s->bytes) return ((const uint8_t *)set)[id] != 0;
    return (((const uint64_t *)set)[id / 64u] >> (id % 64u)) & 1u;
}

/* Whether word `v` may begin a bitcast or a 3-component vector type declaration. */
static uint32_t first_pass_hit(uint32_t v)
{
    const uint32_t op = v & 0xffffu, wc = v >> 16;
    return (uint32_t)(op == SpvOpBitcast && wc >= 4u) |
           (uint32_t)(op == SpvOpSpecConstantOp && wc >= 5u) |
           (uint32_t)(op == SpvOpTypeVector && wc >= 4u);
}

/* Records a bitcast of result type `rtype` and operand `operand`; ids at or above the bound
 * are no bitcast of a module that parses (a word that looked like one, or a module lowering
 * rejects). */
static inline void add_site(scan_state *s, uint32_t rtype, uint32_t operand)
{
    if (rtype >= s->bound || operand >= s->bound) return;
    s->sites = true;
    mark(s, s->results, rtype);
    mark(s, s->operands, operand);
}

/* What the word at `i`, a hit of first_pass_hit(), stands for. */
static inline void classify(scan_state *s, size_t i)
{
    if (!first_pass_hit(s->words[i])) return; /* the vector tests leave the counts to this */
    const uint32_t *w = s->words + i;
    const size_t left = s->count - i;
    const uint32_t op = w[0] & 0xffffu;
    if (op == SpvOpTypeVector) {
        if (left < 4u || w[3] != 3u || w[1] >= s->bound) return;
        for (uint32_t k = 0; k < s->vec3_count; ++k)
            if (s->vec3[k] == w[1]) return;
        if (s->vec3_count == SCAN_MAX_VEC3)
            s->maybe = true;
        else
            s->vec3[s->vec3_count++] = w[1];
    } else if (op == SpvOpBitcast) {
        if (left >= 4u) add_site(s, w[1], w[3]);
    } else if (left >= 5u && w[3] == SpvOpBitcast) { /* OpSpecConstantOp */
        add_site(s, w[1], w[4]);
    }
}

/* Whether `id` is one of the 3-component vector types. */
static bool is_vec3(const scan_state *s, uint32_t id)
{
    for (uint32_t k = 0; k < s->vec3_count; ++k)
        if (s->vec3[k] == id) return true;
    return false;
}

/* Whether the word at `i` is a bitcast operand's id right after a 3-component vector type's
 * id (a definition of a value of that type), given that word `i - 1` is such a type's. */
static bool vec3_operand_at(const scan_state *s, size_t i)
{
    const uint32_t id = s->words[i];
    return id < s->bound && marked(s, s->operands, id);
}

/* Runs `call` for each set bit k_ of `bits` (a mask of up to 64 lanes), lowest first. */
#define SCAN_EACH_BIT(bits, call)                                                                  \
    do {                                                                                           \
        for (uint64_t b_ = (uint64_t)(bits); b_ != 0; b_ &= b_ - 1u) {                             \
            const unsigned k_ = (unsigned)__builtin_ctzll(b_);                                     \
            call;                                                                                  \
        }                                                                                          \
    } while (0)

/* Whether some word `i + k`, for a set bit k of `hits` (the words right after a 3-component
 * vector type's id, up to 64), is a bitcast operand's id. */
static inline bool vec3_operand_among(const scan_state *s, size_t i, uint64_t hits)
{
    SCAN_EACH_BIT(hits, if (vec3_operand_at(s, i + k_)) return true);
    return false;
}

#if SCAN_AVX2
/* The eight lanes of a compare's result as bits. */
#define SCAN_MASK8(v) ((uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(v)))

/* The hits of first_pass_hit() among eight words, but for the count's lower bound of
 * OpSpecConstantOp (classify() checks it): the opcode's, and a count of at least 4 (a word of an
 * id or a small literal has count 0, so it is not looked at again). */
SCAN_TARGET_AVX2 static __m256i hits_avx2(const uint32_t *w)
{
    const __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)w);
    const __m256i op = _mm256_and_si256(v, _mm256_set1_epi32(0xffff));
    const __m256i four = _mm256_set1_epi32(0x40000); /* word count 4 */
    const __m256i hit = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi32(op, _mm256_set1_epi32(SpvOpBitcast)),
                        _mm256_cmpeq_epi32(op, _mm256_set1_epi32(SpvOpSpecConstantOp))),
        _mm256_cmpeq_epi32(op, _mm256_set1_epi32(SpvOpTypeVector)));
    return _mm256_and_si256(hit, _mm256_cmpeq_epi32(_mm256_max_epu32(v, four), v));
}

/* The vector steps of first_pass() and operand_of_vec3(); each returns the word where the
 * narrower rest begins (operand_avx2 sets `*found` when it found one). */
SCAN_TARGET_AVX2 static size_t first_pass_avx2(scan_state *s, size_t i)
{
    const uint32_t *w = s->words;
    const size_t count = s->count;
    /* 32 words a step and one branch for them: most steps have no hit */
    for (; i + 32u <= count; i += 32u) {
        const __m256i h0 = hits_avx2(w + i), h1 = hits_avx2(w + i + 8u),
                      h2 = hits_avx2(w + i + 16u), h3 = hits_avx2(w + i + 24u);
        const __m256i any = _mm256_or_si256(_mm256_or_si256(h0, h1), _mm256_or_si256(h2, h3));
        if (_mm256_testz_si256(any, any)) continue;
        SCAN_EACH_BIT(SCAN_MASK8(h0) | SCAN_MASK8(h1) << 8 | SCAN_MASK8(h2) << 16 |
                          SCAN_MASK8(h3) << 24,
                      classify(s, i + k_));
    }
    for (; i + 8u <= count; i += 8u) /* the rest, eight at a time */
        SCAN_EACH_BIT(SCAN_MASK8(hits_avx2(w + i)), classify(s, i + k_));
    return i;
}

/* Whether one of the 3-component vector types' ids is among the eight words at `w`. */
SCAN_TARGET_AVX2 static __m256i vec3_avx2(const scan_state *s, const __m256i *types,
                                          const uint32_t *w)
{
    const __m256i prev = _mm256_loadu_si256((const __m256i *)(const void *)w);
    /* two types or fewer (the usual case; types[1] repeats types[0] for one): no loop */
    __m256i hit =
        _mm256_or_si256(_mm256_cmpeq_epi32(prev, types[0]), _mm256_cmpeq_epi32(prev, types[1]));
    for (uint32_t k = 2; k < s->vec3_count; ++k)
        hit = _mm256_or_si256(hit, _mm256_cmpeq_epi32(prev, types[k]));
    return hit;
}

SCAN_TARGET_AVX2 static size_t operand_avx2(const scan_state *s, size_t i, bool *found)
{
    const uint32_t *w = s->words;
    __m256i types[SCAN_MAX_VEC3];
    types[1] = _mm256_set1_epi32((int)s->vec3[0]); /* vec3_avx2() compares two at least */
    for (uint32_t k = 0; k < s->vec3_count; ++k)
        types[k] = _mm256_set1_epi32((int)s->vec3[k]);
    for (; i + 16u <= s->count; i += 16u) {
        const __m256i h0 = vec3_avx2(s, types, w + i - 1u), h1 = vec3_avx2(s, types, w + i + 7u);
        const __m256i any = _mm256_or_si256(h0, h1);
        if (!_mm256_testz_si256(any, any) &&
            vec3_operand_among(s, i, SCAN_MASK8(h0) | SCAN_MASK8(h1) << 8)) {
            *found = true;
            return i;
        }
    }
    for (; i + 8u <= s->count; i += 8u) /* the rest, eight at a time */
        if (vec3_operand_among(s, i, SCAN_MASK8(vec3_avx2(s, types, w + i - 1u)))) {
            *found = true;
            return i;
        }
    return i;
}
#endif

#if SCAN_AVX512
/* Whether the processor has the instructions of the widest steps. */
static inline bool scan_avx512(void)
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
}

/* The hits of first_pass_hit() among sixteen words, as hits_avx2() tells them, with two
 * compares' worth of work instead of four: `table` holds, at each of the three opcodes' low four
 * bits (0xC, 4 and 7: they differ), that opcode with a word count of 4, and elsewhere a word
 * whose low four bits are not its index.  A word is a hit where its opcode equals its table
 * entry's and its count is at least the entry's: then the saturated differences of the low
 * halves (both ways) and of the entry's count less the word's are all 0. */
static SCAN_INLINE_AVX512 uint32_t hits_avx512(const uint32_t *w, __m512i table)
{
    const __m512i v = _mm512_loadu_si512((const void *)w);
    const __m512i t = _mm512_permutexvar_epi32(v, table); /* the entry of each word's bits 0-3 */
    /* (t - v, saturated, by halves) | ((v - t, saturated, by halves) & the low halves) */
    const __m512i z = _mm512_ternarylogic_epi32(_mm512_subs_epu16(t, v), _mm512_subs_epu16(v, t),
                                                _mm512_set1_epi32(0xffff), 0xf8);
    return (uint32_t)_mm512_testn_epi32_mask(z, z);
}

/* Which of the sixteen words at `w` is a 3-component vector type's id. */
static SCAN_INLINE_AVX512 uint32_t vec3_avx512(const scan_state *s, const __m512i *types,
                                               const uint32_t *w)
{
    const __m512i v = _mm512_loadu_si512((const void *)w);
    uint32_t hit = (uint32_t)_mm512_cmpeq_epi32_mask(v, types[0]) |
                   (uint32_t)_mm512_cmpeq_epi32_mask(v, types[1]);
    for (uint32_t k = 2; k < s->vec3_count; ++k)
        hit |= (uint32_t)_mm512_cmpeq_epi32_mask(v, types[k]);
    return hit;
}

/* The first pass's hits of up to 64 words from `i` (bits of `hits`).  The common one, an
 * OpBitcast of ids below the bound with marks in bytes, is taken here, with what it needs in
 * registers of the caller's loop (a byte's store could change any word of `s`); the others by
 * classify().  Returns whether a bitcast was taken here. */
static inline __attribute__((always_inline)) bool
take_hits(scan_state *s, uint8_t *results, uint8_t *operands, size_t i, uint64_t hits)
{
    const uint32_t *w = s->words;
    const size_t count = s->count;
    const uint32_t bound = s->bound;
    bool sites = false;
    for (; hits != 0; hits &= hits - 1u) {
        const size_t at = i + (unsigned)__builtin_ctzll(hits);
        const uint32_t *x = w + at;
        if ((x[0] & 0xffffu) == SpvOpBitcast && results && count - at >= 4u) {
            const uint32_t rtype = x[1], operand = x[3];
            if (rtype < bound && operand < bound) {
                results[rtype] = 1u;
                operands[operand] = 1u;
                sites = true;
            }
        } else {
            classify(s, at);
        }
    }
    return sites;
}

/* The words from `w + i` to the next 64-byte boundary, fewer than 16, as a mask of lanes: the
 * widest steps begin with them in one step of 16, so that no later step's load spans two lines
 * (`i + 16 <= count` is the caller's to check). */
static inline uint32_t scan_head(const uint32_t *w, size_t i)
{
    const unsigned head = (unsigned)((64u - ((uintptr_t)(w + i) & 63u)) & 63u) / 4u;
    return ((uint32_t)1 << head) - 1u;
}

/* The widest steps of first_pass() and operand_of_vec3(), as first_pass_avx2() and
 * operand_avx2() (whose steps take the rest), each first with a step of the words up to a
 * 64-byte boundary. */
SCAN_TARGET_AVX512 static size_t first_pass_avx512(scan_state *s, size_t i)
{
    const uint32_t *w = s->words;
    uint32_t entries[16];
    for (uint32_t k = 0; k < 16u; ++k)
        entries[k] = 0x40000u | (k ^ 1u);
    entries[SpvOpBitcast & 15u] = 0x40000u | SpvOpBitcast;
    entries[SpvOpSpecConstantOp & 15u] = 0x40000u | SpvOpSpecConstantOp;
    entries[SpvOpTypeVector & 15u] = 0x40000u | SpvOpTypeVector;
    const __m512i table = _mm512_loadu_si512((const void *)entries);
    const size_t count = s->count;
    uint8_t *const results = s->bytes ? (uint8_t *)s->results : NULL;
    uint8_t *const operands = (uint8_t *)s->operands;
    bool sites = false;
    if (i + 16u <= count) {
        const uint32_t head = scan_head(w, i);
        sites |= take_hits(s, results, operands, i, hits_avx512(w + i, table) & head);
        i += (unsigned)__builtin_popcount(head);
    }
    /* The steps with hits are written down (every step writes, and only those with hits move
     * on) and taken SCAN_STEPS at a time, in order: no branch of the loop over the words
     * depends on them. */
    size_t step_at[SCAN_STEPS];
    uint64_t step_hits[SCAN_STEPS];
    unsigned steps = 0;
    for (; i + 64u <= count; i += 64u) {
        const uint64_t hits = (uint64_t)hits_avx512(w + i, table) |
                              (uint64_t)hits_avx512(w + i + 16u, table) << 16 |
                              (uint64_t)hits_avx512(w + i + 32u, table) << 32 |
                              (uint64_t)hits_avx512(w + i + 48u, table) << 48;
        step_at[steps] = i;
        step_hits[steps] = hits;
        steps += hits != 0;
        if (steps == SCAN_STEPS) {
            for (unsigned k = 0; k < steps; ++k)
                sites |= take_hits(s, results, operands, step_at[k], step_hits[k]);
            steps = 0;
        }
    }
    for (unsigned k = 0; k < steps; ++k)
        sites |= take_hits(s, results, operands, step_at[k], step_hits[k]);
    s->sites |= sites;
    return i;
}

SCAN_TARGET_AVX512 static size_t operand_avx512(const scan_state *s, size_t i, bool *found)
{
    const uint32_t *w = s->words;
    __m512i types[SCAN_MAX_VEC3];
    types[1] = _mm512_set1_epi32((int)s->vec3[0]); /* vec3_avx512() compares two at least */
    for (uint32_t k = 0; k < s->vec3_count; ++k)
        types[k] = _mm512_set1_epi32((int)s->vec3[k]);
    if (i + 15u <= s->count) { /* the loads are of the words before */
        const uint32_t head = scan_head(w, i - 1u);
        if (vec3_operand_among(s, i, vec3_avx512(s, types, w + i - 1u) & head)) {
            *found = true;
            return i;
        }
        i += (unsigned)__builtin_popcount(head);
    }
    for (; i + 64u <= s->count; i += 64u)
        if (vec3_operand_among(s, i,
                               (uint64_t)vec3_avx512(s, types, w + i - 1u) |
                                   (uint64_t)vec3_avx512(s, types, w + i + 15u) << 16 |
                                   (uint64_t)vec3_avx512(s, types, w + i + 31u) << 32 |
                                   (uint64_t)vec3_avx512(s, types, w + i + 47u) << 48)) {
            *found = true;
            return i;
        }
    return i;
}
#endif

/* First pass: the 3-component vector types and the bitcasts. */
static void first_pass(scan_state *s)
{
    const uint32_t *w = s->words;
    size_t i = SCAN_HEADER_WORDS;
#if SCAN_AVX512
    if (scan_avx512()) i = first_pass_avx512(s, i);
#endif
#if SCAN_AVX2
    if (__builtin_cpu_supports("avx2")) i = first_pass_avx2(s, i);
#endif
#if SCAN_SSE2
    const __m128i low = _mm_set1_epi32(0xffff), bitcast = _mm_set1_epi32(SpvOpBitcast),
                  spec = _mm_set1_epi32(SpvOpSpecConstantOp),
                  vector = _mm_set1_epi32(SpvOpTypeVector);
    for (; i + 4u <= s->count; i += 4u) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(w + i));
        const __m128i op = _mm_and_si128(v, low);
        const __m128i hit =
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi32(op, bitcast), _mm_cmpeq_epi32(op, spec)),
                         _mm_cmpeq_epi32(op, vector));
        const int bits = _mm_movemask_ps(_mm_castsi128_ps(hit));
        SCAN_EACH_BIT(bits, classify(s, i + k_));
    }
#endif
    for (; i < s->count; ++i)
        if (first_pass_hit(w[i])) classify(s, i);
}

/* Whether some bitcast operand's id follows a 3-component vector type's id (its definition). */
static bool operand_of_vec3(const scan_state *s)
{
    const uint32_t *w = s->words;
    size_t i = SCAN_HEADER_WORDS + 1u;
#if SCAN_AVX2
    bool found = false;
#if SCAN_AVX512
    if (scan_avx512() && ((i = operand_avx512(s, i, &found)), found)) return true;
#endif
    if (__builtin_cpu_supports("avx2") && ((i = operand_avx2(s, i, &found)), found)) return true;
#endif
#if SCAN_SSE2
    __m128i types[SCAN_MAX_VEC3];
    for (uint32_t k = 0; k < s->vec3_count; ++k)
        types[k] = _mm_set1_epi32((int)s->vec3[k]);
    for (; i + 4u <= s->count; i += 4u) {
        const __m128i prev = _mm_loadu_si128((const __m128i *)(const void *)(w + i - 1u));
        __m128i hit = _mm_cmpeq_epi32(prev, types[0]);
        for (uint32_t k = 1; k < s->vec3_count; ++k)
            hit = _mm_or_si128(hit, _mm_cmpeq_epi32(prev, types[k]));
        const int bits = _mm_movemask_ps(_mm_castsi128_ps(hit));
        if (vec3_operand_among(s, i, (uint32_t)bits)) return true;
    }
#endif
    for (; i < s->count; ++i)
        if (is_vec3(s, w[i - 1u]) && vec3_operand_at(s, i)) return true;
    return false;
}

/* The answer for the module of `s`, whose bit sets are cleared. */
static bool scan(scan_state *s)
{
    first_pass(s);
    /* No bitcast, or no 3-component vector type: nothing to lower. */
    if (!s->sites || s->vec3_count == 0) return false;
    if (s->maybe) return true;
    /* A bitcast to a 3-component vector type, or of a value of one. */
    for (uint32_t k = 0; k < s->vec3_count; ++k)
        if (marked(s, s->results, s->vec3[k])) return true;
    return operand_of_vec3(s);
}

spvbc_result spvbc_bytes_scan_lowerable(spvbc_context context, const void *bytes, size_t size,
                                        spvbc_bool *out_maybe)
{
    if (!out_maybe || (!bytes && size)) return SPVBC_ERROR_INVALID_ARGUMENT;
    *out_maybe = 1;
    /* Only a header in this byte order, words aligned, is looked at. */
    if (size % 4u != 0 || size / 4u < SCAN_HEADER_WORDS || ((uintptr_t)bytes & 3u) != 0)
        return SPVBC_SUCCESS;
    scan_state s;
    s.words = (const uint32_t *)bytes;
    s.count = size / 4u;
    s.bound = s.words[3];
    s.vec3_count = 0;
    s.sites = s.maybe = false;
    if (s.words[0] != SCAN_MAGIC || s.bound == 0 || s.bound > SPVBC_DEFAULT_MAX_ID_BOUND)
        return SPVBC_SUCCESS;
    s.bytes = s.bound <= SCAN_BYTE_BOUND;
    const size_t set_bytes = s.bytes ? s.bound : ((size_t)s.bound + 63u) / 64u * 8u;
    union {
        uint8_t bytes[2][SCAN_BYTE_BOUND];
        uint64_t bits[2][SCAN_STACK_BOUND / 64u];
    } stack_sets;
    uint64_t *heap = NULL;
    if (s.bytes) {
        s.results = stack_sets.bytes[0];
        s.operands = stack_sets.bytes[1];
    } else if (s.bound <= SCAN_STACK_BOUND) {
        s.results = stack_sets.bits[0];
        s.operands = stack_sets.bits[1];
    } else {
        /* Without a context, nothing is allocated: the answer is "maybe". */
        if (!context || !(heap = (uint64_t *)spvbc__alloc(context, 2u * set_bytes)))
            return SPVBC_SUCCESS;
        s.results = heap;
        s.operands = heap + set_bytes / 8u;
    }
    memset(s.results, 0, set_bytes);
    memset(s.operands, 0, set_bytes);
    *out_maybe = scan(&s) ? 1 : 0;
    if (heap) spvbc__free(context, heap, 2u * set_bytes);
    return SPVBC_SUCCESS;
}
