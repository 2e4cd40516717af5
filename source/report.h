/* Report: findings as compact records, and the diagnostics made from them when somebody reads
 * them - the sentence with types, widths and the as_type spelling, the result's OpName and the
 * source line.  Validate and lower record; spvbc_context_diagnostic() reads. */
#ifndef SPVBC_REPORT_H_
#define SPVBC_REPORT_H_

#include "analysis.h"
#include "sentence.h" /* SPVBC__MSG_*: which sentence a record stands for */

/** What a record needs besides its message: the analysis it was made under. */
typedef struct spvbc__report_args {
    spvbc_severity severity;
    const char *rule; /* static */
    bool lowerable;
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
/** Makes the diagnostics of the findings recorded so far (sentences, names, source lines), as
 *  a validate or lower call does before it returns: reading them later, or destroying their
 *  module, then needs neither the module's words nor memory.  `pass` (may be NULL) holds the
 *  analyses the pass made of the invalid sites' pairs, which the report takes instead of
 *  analysing them again.  False on allocation failure. */
bool spvbc__report_make(spvbc_context ctx, const spvbc__info_memo *pass);
/** Forgets `m` as the module the findings name (spvbc_module_destroy): reads nothing,
 *  allocates nothing. */
void spvbc__report_detach(struct spvbc_module_s *m);

#endif /* SPVBC_REPORT_H_ */
