/* Report: findings as compact records, and the diagnostics made from them when somebody reads
 * them - the sentence with types, widths and the as_type spelling, the result's OpName and the
 * source line.  Validate and lower record; spvbc_context_diagnostic() reads. */
#ifndef SPVBC_REPORT_H_
#define SPVBC_REPORT_H_

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
    SPVBC__MSG_FOREIGN /* depends on an opcode this build does not know; arg: the opcode */
};

/** What a record needs besides its message: the analysis it was made under. */
typedef struct spvbc__report_args {
    spvbc_severity severity;
    const char *rule; /* static */
    bool lowerable;
    bool want_plan; /* the site was analysed with want_plan */
    spvbc_pad_policy pad;
    size_t arg;
} spvbc__report_args;

/** Records finding `msg` about `site` of `m` under the context's policy.  False on
 *  allocation failure. */
bool spvbc__report(struct spvbc_module_s *m, const spvbc__site *site, uint16_t msg,
                   const spvbc__report_args *args);
/** Ends a pass's findings: when the policy dropped some, adds the R-NOT-KEPT note.  False on
 *  allocation failure. */
bool spvbc__report_finish(spvbc_context ctx);
/** Makes the diagnostics of `m`'s findings now, before `m` goes away (its words name the
 *  results and lines); a no-op when they were made already or name another module. */
void spvbc__report_detach(struct spvbc_module_s *m);

#endif /* SPVBC_REPORT_H_ */
