/* Reports in SARIF 2.1.0 (OASIS, https://docs.oasis-open.org/sarif/sarif/v2.1.0/) for code
 * scanning in CI, from the same diagnostic records as text and JSON; and the table of every
 * rule id with its description, which must agree with docs/rules.md (test/lit/cli/sarif_rules).
 *
 * One log, one run per invocation; one artifact per input (the input's path as a relative URI
 * reference, an absolute path as a file: URI, standard input without a URI); one result per
 * finding, located by a binary region (byteOffset = word offset * 4, byteLength = the
 * instruction's size) and by the result id as a logical location, with the OpLine / DebugLine
 * source position as a related location.  Inputs the tool could not process are tool execution
 * notifications. */
#define _POSIX_C_SOURCE 200809L

#include <string.h>

#include "cli.h"

/* The reader's rules about the input itself: errors, not counted by name in a summary. */
#define INPUT_ERROR(id, description)                                                               \
    {                                                                                              \
        id, SPVBC_SEVERITY_ERROR, false, description                                               \
    }

const cli_rule cli_rules[] = {
    {"V0", SPVBC_SEVERITY_ERROR, true, "the operand id names a type, not a value"},
    {"V1", SPVBC_SEVERITY_ERROR, true, "the operand has no type (e.g. an OpLabel or OpString id)"},
    {"V2", SPVBC_SEVERITY_ERROR, true,
     "result type is not a pointer or an int/float scalar or vector (bool, struct, ...)"},
    {"V3", SPVBC_SEVERITY_ERROR, true,
     "operand type is not a pointer or an int/float scalar or vector"},
    {"V8", SPVBC_SEVERITY_ERROR, true,
     "SPIR-V >= 1.5 (or SPV_KHR_physical_storage_buffer): pointer result, operand not a pointer, "
     "int scalar or 32-bit int vector"},
    {"V9", SPVBC_SEVERITY_ERROR, true,
     "same gate: pointer operand, result not a pointer, int scalar or 32-bit int vector"},
    {"V10", SPVBC_SEVERITY_ERROR, true,
     "SPIR-V <= 1.4 without the extension: pointer result, operand not a pointer or int scalar"},
    {"V11", SPVBC_SEVERITY_ERROR, true,
     "same gate: pointer operand, result not a pointer or int scalar"},
    {"V12", SPVBC_SEVERITY_ERROR, true, "neither side a pointer and width x count differ"},
    {"V13", SPVBC_SEVERITY_ERROR, true,
     "Shader module, either type contains an 8/16-bit int or 16-bit float without Int8 / Int16 / "
     "Float16 (through vectors, arrays, structs and pointees)"},
    {"R-UNDEF", SPVBC_SEVERITY_ERROR, true, "the operand id is not defined anywhere"},
    {"V-COOPVEC", SPVBC_SEVERITY_ERROR, true,
     "one side a cooperative vector (SPV_NV_cooperative_vector), the other not"},
    {"V-COOPVEC-DIM", SPVBC_SEVERITY_ERROR, true,
     "cooperative vectors whose component counts (OpConstant, not spec constants) differ"},
    {"V-COOPMAT", SPVBC_SEVERITY_ERROR, true,
     "one side a cooperative matrix (KHR or NV), the other not"},
    {"V-COOPMAT-SHAPE", SPVBC_SEVERITY_ERROR, true,
     "cooperative matrices of different kinds (KHR, NV), or whose scope, rows, columns or (KHR) "
     "use, where both are OpConstant, differ"},
    {"V-EXTRACT-RESULT", SPVBC_SEVERITY_ERROR, true,
     "OpBitcastExtractEXT whose result type is not a numerical scalar or vector"},
    {"V-EXTRACT-BASE", SPVBC_SEVERITY_ERROR, true,
     "OpBitcastExtractEXT whose base is not a numerical scalar or vector"},
    {"V-EXTRACT-DIM", SPVBC_SEVERITY_ERROR, true,
     "OpBitcastExtractEXT whose base and result have different component counts"},
    {"V-EXTRACT-WIDTH", SPVBC_SEVERITY_ERROR, true,
     "OpBitcastExtractEXT whose base components are not wider than the result's"},
    {"V-EXTRACT-OFFSET", SPVBC_SEVERITY_ERROR, true,
     "OpBitcastExtractEXT whose offset is not an integer scalar"},
    {"N-UNKNOWN-OPCODE", SPVBC_SEVERITY_NOTE, true,
     "a side depends on the result of an opcode this build does not know (newer than its "
     "SPIRV-Headers): no verdict"},
    {"N-UNSIZED", SPVBC_SEVERITY_NOTE, true,
     "a side has no size yet (a cooperative vector whose component count is a specialization "
     "constant, cast like a vector under LongVectorEXT): no verdict"},
    {"S7", SPVBC_SEVERITY_ERROR, true,
     "OpSpecConstantOp ... Bitcast in a module without the Kernel capability"},
    {"S2", SPVBC_SEVERITY_WARNING, true,
     "the operand already has the result type (as_uint(int) in a Kernel module, where integers are "
     "signless): the bitcast is no instruction"},
    {"S4", SPVBC_SEVERITY_WARNING, true, "both sides are pointers into different storage classes"},
    {"S3-WIDTH", SPVBC_SEVERITY_WARNING, true,
     "pointer <-> integer where the integer's bits differ from the addressing model's pointer "
     "width (Physical32: 32; Physical64, PhysicalStorageBuffer64: 64)"},
    {"W-LOGICAL-PTR", SPVBC_SEVERITY_WARNING, true,
     "a pointer side outside PhysicalStorageBuffer in Logical or PhysicalStorageBuffer64 "
     "addressing (current SPIRV-Tools rejects it: \"Instruction may not have a logical pointer "
     "operand\"); an error in generation 2026.4 (the default) and with --strict / "
     "SPVBC_VALIDATE_STRICT, a warning with --generation 2025.1 or 2023.1"},
    {"W-SPEC-BITCAST", SPVBC_SEVERITY_WARNING, true,
     "OpSpecConstantOp ... Bitcast that breaks an OpBitcast rule (V2-V13, the cooperative types) "
     "which SPIRV-Tools 2025.1 does not check there (2026.2 and later reject it; the message names "
     "the rule; a size mismatch is still lowered), with --generation 2025.1 or 2023.1; an error "
     "with --strict / SPVBC_VALIDATE_STRICT (in generation 2026.4, the default, the rule's own "
     "error)"},
    {"N-IMPL-DEFINED", SPVBC_SEVERITY_NOTE, true,
     "a valid bitcast whose as_type pair changes the element count: OpenCL leaves the result "
     "implementation-defined; SPIR-V fixes it (low-order bits to low-numbered components)"},
    {"N-NOT-ASTYPE", SPVBC_SEVERITY_NOTE, true,
     "valid SPIR-V that is no legal as_type (e.g. half without Float16)"},
    {"L-LOWERED", SPVBC_SEVERITY_NOTE, true,
     "the instruction was rewritten; the message gives the new instructions"},
    {"L-SKIPPED", SPVBC_SEVERITY_WARNING, false,
     "lowerable, but its as_type class is not selected (--only, spvbc_lower_options.classes): left "
     "alone"},
    INPUT_ERROR("R-HEADER", "fewer than 5 words"),
    INPUT_ERROR("R-SIZE", "byte size not a multiple of 4"),
    INPUT_ERROR(
        "R-MAGIC",
        "magic is neither 0x07230203 nor its byte swap (a swapped module is swapped and parsed)"),
    INPUT_ERROR("R-VERSION", "version word not 1.0 to 1.6"),
    INPUT_ERROR("R-BOUND",
                "bound 0 / bound above the cap (default 4,194,303; max_id_bound, --max-id-bound)"),
    INPUT_ERROR("R-SCHEMA", "schema word not 0"),
    INPUT_ERROR("R-WORD-COUNT", "an instruction with word count 0"),
    INPUT_ERROR("R-TRUNCATED", "an instruction running past the end"),
    INPUT_ERROR(
        "R-OPERANDS",
        "an instruction too short for its operands (OpBitcast without operand, OpSpecConstantOp "
        "without opcode, ...)"),
    INPUT_ERROR("R-TYPE-SHAPE",
                "vector of a non-scalar, vector of a count other than 2/3/4/8/16 (without "
                "LongVectorEXT) or below 2, scalar width 0"),
    INPUT_ERROR("R-ID-ZERO", "result id 0"),
    INPUT_ERROR("R-ID-RANGE", "an id at or above the bound"),
    INPUT_ERROR("R-ID-REDEFINED", "a result id defined twice"),
    INPUT_ERROR("R-TYPE-ORDER", "a type used before it is declared, or a non-type used as a type"),
    INPUT_ERROR("R-LIMIT",
                "more than 2^32 words; a lowering whose new ids would raise the id bound above the "
                "parse cap (nothing is lowered then, so the output always parses again with the "
                "same cap)"),
    {"R-NOT-KEPT", SPVBC_SEVERITY_NOTE, false,
     "the last diagnostic of a call that succeeded: the context's diagnostic policy "
     "(spvbc_context_set_diagnostic_policy: keep the first N, or count only) did not keep this "
     "many findings; the summary counts still include them"},
    INPUT_ERROR(
        "R-MEMORY",
        "the allocator failed: the last diagnostic of every call that returns OUT_OF_MEMORY (also "
        "what a finding reads as when its call had no memory to make it)"),
    INPUT_ERROR("R-TARGET-ENV", "the module's version is above what --target-env allows"),
};
const size_t cli_rule_count = sizeof cli_rules / sizeof cli_rules[0];
_Static_assert(sizeof cli_rules / sizeof cli_rules[0] <= CLI_MAX_RULES,
               "cli_file_result.rule_counts is too small for cli_rules");

size_t cli_rule_index(const char *id)
{
    /* Called for every finding: compare the first two characters before the whole id (every
     * rule id has at least two, so id[1] is read only when id[0] is not its end). */
    for (size_t i = 0; i < cli_rule_count; ++i) {
        const char *r = cli_rules[i].id;
        if (r[0] == id[0] && r[1] == id[1] && !strcmp(r + 1, id + 1)) return i;
    }
    return cli_rule_count;
}

size_t cli_rule_count_slot(const char *id)
{
    size_t i = cli_rule_index(id);
    return i < cli_rule_count && cli_rules[i].counted ? i : cli_rule_count;
}

static const char *level_of(spvbc_severity s)
{
    return s == SPVBC_SEVERITY_ERROR ? "error" : s == SPVBC_SEVERITY_WARNING ? "warning" : "note";
}

/* Whether the URI byte `c` stands for itself: the unreserved characters, '/' and the
 * sub-delimiters; any other byte is percent-encoded (':' too, so that a relative path never
 * reads as a scheme). */
static bool uri_plain(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c && strchr("-._~/!$&'()*+,;=@", c));
}

static bool is_sep(char c, bool windows)
{
    return c == '/' || (windows && c == '\\');
}

void cli_sarif_uri(FILE *f, const char *path, bool windows)
{
    const char *p = path;
    fputc('"', f);
    bool unc = false;
    if (windows && (!strncmp(p, "\\\\?\\", 4) || !strncmp(p, "//?/", 4))) {
        p += 4; /* a Win32 file namespace path: what follows is the path, \\?\UNC\host a UNC one */
        unc = !strncmp(p, "UNC", 3) && is_sep(p[3], true);
        p += unc ? 3 : 0;
    }
    bool drive = windows && ((p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= 'a' && p[0] <= 'z')) &&
                 p[1] == ':' && is_sep(p[2], true);
    if (drive) {
        /* RFC 8089 E.2: C:\dir\a.spv -> file:///C:/dir/a.spv */
        fprintf(f, "file:///%c:", p[0]);
        p += 2;
    } else if (unc) {
        fputs("file:/", f); /* \\?\UNC\host\share\a.spv: p is \host\share\a.spv */
    } else if (windows && is_sep(p[0], true) && is_sep(p[1], true)) {
        fputs("file:", f); /* RFC 8089 E.3.1: \\host\share\a.spv -> file://host/share/a.spv */
    } else if (is_sep(p[0], windows)) {
        fputs("file://", f); /* /dir/a.spv (on Windows: the current drive's) -> file:///dir/a.spv */
    }
    for (; *p; ++p) {
        unsigned char c = windows && *p == '\\' ? '/' : (unsigned char)*p;
        if (uri_plain(c))
            fputc(c, f);
        else
            fprintf(f, "%%%02X", c);
    }
    fputc('"', f);
}

/* Windows paths where the CLI runs on Windows. */
static void uri_string(FILE *f, const char *path)
{
#ifdef _WIN32
    cli_sarif_uri(f, path, true);
#else
    cli_sarif_uri(f, path, false);
#endif
}

/* The artifactLocation of input `index` at `path` ("-": standard input, which has no URI). */
static void artifact_location(FILE *f, const char *path, size_t index)
{
    fputs("{", f);
    if (strcmp(path, "-")) {
        fputs("\"uri\":", f);
        uri_string(f, path);
        fputs(",", f);
    }
    fprintf(f, "\"index\":%zu}", index);
}

/* The bytes of the input that finding `d` is about: its instruction (header fields are one
 * word), clipped to the input.  False when it has no position inside the input. */
static bool finding_bytes(const cli_report_sink *s, const spvbc_diagnostic *d, size_t *offset,
                          size_t *length)
{
    if (d->word_offset == SPVBC_NO_POSITION || d->word_offset > s->size / 4) return false;
    size_t off = d->word_offset * 4;
    if (off >= s->size) return false;
    size_t avail = s->size - off;
    size_t len = 4;
    if (d->instruction_index != SPVBC_NO_POSITION && avail >= 4) {
        uint32_t magic, first;
        memcpy(&magic, s->bytes, 4);
        memcpy(&first, s->bytes + off, 4);
        if (magic == 0x03022307u) /* a module in the opposite byte order */
            first = (first >> 24) | ((first >> 8) & 0xff00u) | ((first << 8) & 0xff0000u) |
                    (first << 24);
        if (first >> 16) len = (size_t)(first >> 16) * 4;
    }
    *offset = off;
    *length = len < avail ? len : avail;
    return true;
}

/* The OpLine / DebugLine position of `d` as a related location. */
static void source_location(FILE *f, const spvbc_diagnostic *d)
{
    fputs(",\"relatedLocations\":[{\"id\":0,\"message\":{\"text\":\"source position (OpLine or "
          "DebugLine)\"},\"physicalLocation\":{\"artifactLocation\":{\"uri\":",
          f);
    uri_string(f, d->source_file);
    fputs("}", f);
    if (d->source_line) {
        fprintf(f, ",\"region\":{\"startLine\":%u", d->source_line);
        if (d->source_column) fprintf(f, ",\"startColumn\":%u", d->source_column);
        fputs("}", f);
    }
    fputs("}}]", f);
}

void cli_sarif_result(cli_report_sink *s, const spvbc_diagnostic *d)
{
    FILE *f = s->doc;
    size_t rule = cli_rule_index(d->rule), off, len;
    fprintf(f, "%s{\"ruleId\":", s->results++ ? "," : "");
    cli_json_string(f, d->rule);
    if (rule < cli_rule_count) fprintf(f, ",\"ruleIndex\":%zu", rule);
    fprintf(f, ",\"level\":\"%s\",\"message\":{\"text\":", level_of(d->severity));
    cli_json_string(f, d->message);
    fputs("},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":", f);
    artifact_location(f, s->r->path, s->r->index);
    if (finding_bytes(s, d, &off, &len))
        fprintf(f, ",\"region\":{\"byteOffset\":%zu,\"byteLength\":%zu}", off, len);
    fputs("}", f);
    if (d->result_id) {
        char id[16];
        snprintf(id, sizeof id, "%%%u", d->result_id);
        fputs(",\"logicalLocations\":[{\"name\":", f);
        cli_json_string(f, d->result_name ? d->result_name : id);
        fprintf(f, ",\"fullyQualifiedName\":\"%s\",\"kind\":\"variable\"}]", id);
    }
    fputs("}]", f);
    if (d->source_file) source_location(f, d);
    fputs(",\"properties\":{\"wordOffset\":", f);
    cli_json_size(f, d->word_offset);
    fputs(",\"instructionIndex\":", f);
    cli_json_size(f, d->instruction_index);
    fprintf(f, ",\"lowerable\":%s}}", d->lowerable ? "true" : "false");
}

void cli_sarif_notification(cli_report_sink *s, const char *message)
{
    FILE *f = s->notes;
    fprintf(f, "%s{\"level\":\"error\",\"message\":{\"text\":", s->notes_written++ ? "," : "");
    cli_json_string(f, message);
    fputs("},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":", f);
    artifact_location(f, s->r->path, s->r->index);
    fputs("}}]}", f);
}

static void write_rules(FILE *f)
{
    fputs("\"rules\":[", f);
    for (size_t i = 0; i < cli_rule_count; ++i) {
        fprintf(f, "%s{\"id\":", i ? "," : "");
        cli_json_string(f, cli_rules[i].id);
        fputs(",\"shortDescription\":{\"text\":", f);
        cli_json_string(f, cli_rules[i].description);
        fprintf(f, "},\"defaultConfiguration\":{\"level\":\"%s\"}}", level_of(cli_rules[i].level));
    }
    fputs("]", f);
}

/* Writes the `count` buffered fragments `parts` (each a comma-separated list) as one list. */
static void join(FILE *f, const cli_file_result *res, size_t count, bool notes)
{
    bool any = false;
    for (size_t i = 0; i < count; ++i) {
        const char *p = notes ? res[i].notes : res[i].doc;
        size_t n = notes ? res[i].notes_len : res[i].doc_len;
        if (!p || !n) continue;
        if (any) fputc(',', f);
        fwrite(p, 1, n, f);
        any = true;
    }
}

void cli_sarif_write_log(FILE *f, const cli_file_result *res, size_t count)
{
    bool ok = true;
    for (size_t i = 0; i < count; ++i)
        ok = ok && !res[i].failed_run;
    fprintf(f,
            "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\","
            "\"runs\":[{\"tool\":{\"driver\":{\"name\":\"spirv-bitcast\",\"version\":\"%s\","
            "\"semanticVersion\":\"%s\",\"informationUri\":\"man:spirv-bitcast(1)\",",
            spvbc_version_string(), spvbc_version_string());
    write_rules(f);
    fprintf(f, "}},\"invocations\":[{\"executionSuccessful\":%s,\"toolExecutionNotifications\":[",
            ok ? "true" : "false");
    join(f, res, count, true);
    fputs("]}],\"artifacts\":[", f);
    for (size_t i = 0; i < count; ++i) {
        fprintf(f, "%s{\"location\":", i ? "," : "");
        if (strcmp(res[i].path, "-")) {
            fputs("{\"uri\":", f);
            uri_string(f, res[i].path);
            fputs("}", f);
        } else {
            fputs("{\"description\":{\"text\":\"standard input\"}}", f);
        }
        if (res[i].loaded) fprintf(f, ",\"length\":%zu", res[i].input_size);
        fputs(",\"roles\":[\"analysisTarget\"]}", f);
    }
    fputs("],\"results\":[", f);
    join(f, res, count, false);
    fputs("]}]}\n", f);
}
