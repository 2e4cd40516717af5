/* Sentence: the texts of a diagnostic - its sentence, the SPIR-V spelling of its types and its
 * as_type spelling - made from a record and one analysis of its site, in the caller's buffers.
 * The report makes its diagnostics with it; it allocates nothing. */
#ifndef SPVBC_SENTENCE_H_
#define SPVBC_SENTENCE_H_

#include "analysis.h"

/* Which sentence a record stands for. */
enum {
    SPVBC__MSG_FIXED = 0, /* formatted when added (context.c) */
    SPVBC__MSG_VRULE, /* spirv-val's sentence for the site's verdict */
    SPVBC__MSG_S7, /* spec-constant Bitcast outside Kernel */
    SPVBC__MSG_S2, /* operand already has the result type */
    SPVBC__MSG_S4, /* pointers to different storage classes */
    SPVBC__MSG_S3_WIDTH, /* pointer/integer widths differ; arg: the pointer width */
    SPVBC__MSG_LOGICAL_PTR,
    SPVBC__MSG_IMPL_DEFINED,
    SPVBC__MSG_NOT_ASTYPE,
    SPVBC__MSG_SKIPPED, /* lower: class not selected */
    SPVBC__MSG_KEPT, /* lower: left alone; arg: spvbc__keep_reason */
    SPVBC__MSG_LOWERED, /* lower: rewritten; arg: first word of the replacement in edit_words */
    SPVBC__MSG_FOREIGN, /* depends on an opcode this build does not know; arg: the opcode */
    SPVBC__MSG_SPEC_UNCHECKED, /* OpSpecConstantOp: a rule 2025.1 does not check there */
    SPVBC__MSG_UNSIZED /* a side has no size yet: no verdict */
};

struct spvbc__record;

/* The most ids a sentence names: a recipe of three ops with three each. */
#define SPVBC__SENTENCE_IDS 9u

/** The texts of one diagnostic, each NUL-terminated and truncated to its buffer. */
typedef struct spvbc__sentence {
    char result_type[128], operand_type[128], astype[80], message[1024];
    size_t result_type_len, operand_type_len, astype_len, message_len;
    /* Where the message names ids (the site's, or those of a rewrite's recipe): message
     * [id_at[2 * i], id_at[2 * i + 1]) is "%<id>"; id_count > SPVBC__SENTENCE_IDS: too many. */
    uint16_t id_at[SPVBC__SENTENCE_IDS][2];
    uint32_t id_count;
    bool has_astype; /* the pair has an OpenCL C as_type spelling */
    uint32_t result_bits, operand_bits;
} spvbc__sentence;

/** Makes into `s` the texts of the diagnostic of record `r` about the site of `m` that `info`
 *  analysed (with its plan); `lowerable` is the record's flag. */
void spvbc__sentence_make(const struct spvbc_module_s *m, const struct spvbc__record *r,
                          bool lowerable, const spvbc__site_info *info, spvbc__sentence *s);

/** The ids a sentence names, as text ("%5"), in the order spvbc__sentence_make() writes them. */
typedef struct spvbc__sentence_ids {
    uint32_t count;
    uint8_t len[SPVBC__SENTENCE_IDS];
    char text[SPVBC__SENTENCE_IDS][12];
} spvbc__sentence_ids;

/** Fills `ids` with the ids the sentence of record `r` about the site `info` analysed names (and
 *  spvbc__sentence_make() records in id_at). */
void spvbc__sentence_ids_of(const struct spvbc_module_s *m, const struct spvbc__record *r,
                            const spvbc__site_info *info, spvbc__sentence_ids *ids);
/** The length of the sentence spvbc__sentence_again() makes: `prev` (of `prev_len` bytes,
 *  untruncated, naming ids->count ids, the i-th at bytes [`id_at`[2i], `id_at`[2i+1])) with the
 *  ids `ids` in their place.  The sentence spvbc__sentence_make() makes is the same when the
 *  length is below the message buffer's size, else truncated. */
size_t spvbc__sentence_again_len(size_t prev_len, const uint16_t *id_at,
                                 const spvbc__sentence_ids *ids);
/** Makes into `msg` (of spvbc__sentence_again_len() bytes and a NUL) the sentence of a record
 *  with the same fields as the one of sentence `prev` about a site with the same analysis but
 *  for its ids `ids` (see spvbc__sentence_again_len()). */
void spvbc__sentence_again(char *msg, const char *prev, size_t prev_len, const uint16_t *id_at,
                           const spvbc__sentence_ids *ids);

#endif /* SPVBC_SENTENCE_H_ */
