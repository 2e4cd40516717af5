// opt.cpp - `spirv-bitcast opt`: a drop-in for spirv-opt that runs SPIRV-Tools' passes and this
// project's passes in the order given on the command line.
//
// C++ only because SPIRV-Tools' optimizer has no C API; our passes are reached through the
// public C API (spirv_bitcast.h), exactly as any other embedder would.  The command line is cut
// at each of our flags into stages: a run of spirv-opt flags is one Optimizer::Run (registered
// through Optimizer::RegisterPassesFromFlags, so every spirv-opt pass flag is accepted with
// spirv-opt's own spelling and argument rules), and --lower-astype / --validate-bitcast are
// one stage each.  Like spirv-opt the input is validated before the first pass (after a leading
// --lower-astype, whose purpose is to make such input valid), and unlike spirv-opt the output
// is validated too.
//
// SPDX-License-Identifier: Apache-2.0

#include "opt.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <spirv-tools/libspirv.h>
#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>

#include "spirv_bitcast.h"

namespace
{

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

// spirv-opt's default target environment (SPIRV-Tools 2023.1 tools/opt/opt.cpp): it accepts
// every SPIR-V version up to 1.6.
constexpr spv_target_env kDefaultTargetEnv = SPV_ENV_UNIVERSAL_1_6;

// SPIR-V's minimum id-bound limit, which spirv-opt also refuses to go below.
constexpr uint32_t kMinMaxIdBound = 0x3FFFFFu;

enum class StageKind { kSpirvTools, kLowerAstype, kValidateBitcast };

struct Stage {
    StageKind kind = StageKind::kSpirvTools;
    std::vector<std::string> flags; // kSpirvTools: spirv-opt pass flags, canonical form
    std::string spelling; // our flags: as written, for messages
    spvbc_pad_policy pad = SPVBC_PAD_UNDEF;
    std::unique_ptr<spvtools::Optimizer> optimizer;
};

struct Options {
    spv_target_env env = kDefaultTargetEnv;
    bool skip_validation = false;
    uint32_t max_id_bound = 0; // 0: the defaults of SPIRV-Tools and of the library
    bool preserve_bindings = false;
    bool preserve_spec_constants = false;
    bool validate_after_all = false;
    bool print_all = false;
    bool time_report = false;
    spvtools::ValidatorOptions validator;
    std::string in_file; // empty or "-": stdin
    std::string out_file; // "-": stdout
    std::string display; // the input's name in messages
    bool have_in = false;
    bool have_out = false;
    std::vector<Stage> stages;
};

void PrintHelp(FILE *to)
{
    std::fputs(
        "usage: spirv-bitcast opt [spirv-opt flags and our flags, in pipeline order] -o <out> "
        "[<in>]\n"
        "\n"
        "A drop-in for spirv-opt: runs SPIRV-Tools' optimizer passes and this project's passes\n"
        "in the order given.  <in> or '-' (or no file) reads stdin; '-o -' writes stdout.\n"
        "\n"
        "Our passes (each may appear anywhere, any number of times; the pipeline is cut there):\n"
        "  --lower-astype[=undef|zero|error]\n"
        "        Rewrite as_type-legal but SPIR-V-invalid OpBitcasts (4->3, 3->4, 3-component\n"
        "        source or result) into OpVectorShuffle (+ OpBitcast).  The value names how the\n"
        "        fourth lane of a 3->4 result is filled (default undef); 'error' refuses to\n"
        "        lower a 3-component source.  Any bitcast left invalid is an error (exit 1).\n"
        "        Put --lower-astype FIRST when the input's only problem is such bitcasts:\n"
        "        the input is then validated after the leading --lower-astype passes instead\n"
        "        of before them, so input that spirv-opt would reject is accepted.\n"
        "  --validate-bitcast\n"
        "        Check every OpBitcast against the SPIR-V and OpenCL as_type rules at this\n"
        "        point of the pipeline; print the findings; fail (exit 1) on any error.\n"
        "\n"
        "SPIRV-Tools passes: every pass flag of spirv-opt (-O, -Os, --strip-debug,\n"
        "--eliminate-dead-code-aggressive, --legalize-hlsl, ...; see `spirv-opt --help`),\n"
        "parsed by SPIRV-Tools' own flag parser.  An unknown flag is a usage error (exit 2).\n"
        "\n"
        "Options (anywhere on the line):\n"
        "  -o <file>              Output file ('-' for stdout).  Required.\n"
        "  --target-env <env>     Target environment, spelled as for spirv-opt (spv1.5,\n"
        "                         vulkan1.2, opencl1.2, ...); also --target-env=<env>.\n"
        "                         Default: spv1.6, as spirv-opt.\n"
        "  --skip-validation      Do not validate the input and the output with spirv-val.\n"
        "  --max-id-bound <n>     Id bound limit (at least 0x3FFFFF) for the validator, the\n"
        "                         optimizer and our parser; also --max-id-bound=<n>.\n"
        "  --preserve-bindings, --preserve-spec-constants, --validate-after-all,\n"
        "  --print-all, --time-report, --before-hlsl-legalization, --relax-logical-pointer,\n"
        "  --relax-block-layout, --scalar-block-layout, --workgroup-scalar-block-layout,\n"
        "  --skip-block-layout, --relax-struct-store, -Oconfig=<file>\n"
        "                         As for spirv-opt.\n"
        "  -h, --help             Print this help.\n"
        "  --version              Print the versions of spirv-bitcast and SPIRV-Tools.\n"
        "\n"
        "With none of our passes, the output is byte-for-byte that of spirv-opt with the same\n"
        "flags.  Validation: the input before the first pass (see --lower-astype above) and the\n"
        "output after the last, with SPIRV-Tools' validator and the target environment.\n"
        "Exit status: 0 success, 1 failure (invalid input or output, a failing pass, bitcast\n"
        "errors), 2 usage error.\n",
        to);
}

void UsageError(const std::string &message)
{
    std::fprintf(stderr, "spirv-bitcast opt: error: %s\n", message.c_str());
    std::fprintf(stderr, "Try 'spirv-bitcast opt --help'.\n");
}

const char *LevelName(spv_message_level_t level)
{
    switch (level) {
    case SPV_MSG_FATAL:
    case SPV_MSG_INTERNAL_ERROR:
    case SPV_MSG_ERROR: return "error";
    case SPV_MSG_WARNING: return "warning";
    default: return "info";
    }
}

// A consumer printing SPIRV-Tools messages on stderr as "<level>: <where>: <message>", where
// `where` is "<file>: <tool>".
spvtools::MessageConsumer StderrConsumer(std::string where)
{
    return [where](spv_message_level_t level, const char *, const spv_position_t &,
                   const char *message) {
        std::fprintf(stderr, "%s: %s: %s\n", LevelName(level), where.c_str(),
                     message ? message : "");
    };
}

// Parses `text` as an unsigned 32-bit number (decimal, 0x-hex or 0-octal) into `*out`.
bool ParseU32(const std::string &text, uint32_t *out)
{
    if (text.empty() || text[0] == '-' || text[0] == '+') return false;
    errno = 0;
    char *end = nullptr;
    unsigned long long v = std::strtoull(text.c_str(), &end, 0);
    if (errno != 0 || end == text.c_str() || *end != '\0' || v > 0xFFFFFFFFull) return false;
    *out = static_cast<uint32_t>(v);
    return true;
}

// Reads the flags of an -Oconfig=FILE into `*out` the way spirv-opt does: whitespace-separated
// tokens, lines starting with '#' ignored, no quoting.
bool ReadConfigFlags(const std::string &path, std::vector<std::string> *out)
{
    std::ifstream in(path);
    if (!in) return false;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream words(line);
        std::string word;
        while (words >> word)
            out->push_back(word);
    }
    return !in.bad();
}

// spirv-opt still accepts these pass flags with their argument as the next word
// ("--loop-fusion 3"); the optimizer's parser wants "--loop-fusion=3".
bool TakesSeparateArgument(const std::string &flag)
{
    return flag == "--set-spec-const-default-value" || flag == "--loop-fission" ||
           flag == "--loop-fusion" || flag == "--loop-unroll-partial" ||
           flag == "--loop-peeling-threshold";
}

bool StartsWith(const std::string &s, const char *prefix)
{
    return s.compare(0, std::strlen(prefix), prefix) == 0;
}

// Appends a spirv-opt pass flag to the current SPIRV-Tools stage, opening one if the last
// stage is one of ours.
void AddPassFlag(Options *o, std::string flag)
{
    if (o->stages.empty() || o->stages.back().kind != StageKind::kSpirvTools) {
        o->stages.emplace_back();
    }
    o->stages.back().flags.push_back(std::move(flag));
}

// The value of option `name` at args[*i], spelled "name=V" or "name V" (then *i advances past
// V), into `*out`; false after a usage message when the value is missing.
bool OptionValue(const std::vector<std::string> &args, size_t *i, const std::string &name,
                 std::string *out)
{
    const std::string &a = args[*i];
    if (a.size() > name.size()) {
        *out = a.substr(name.size() + 1);
        return true;
    }
    if (*i + 1 >= args.size()) {
        UsageError(name + " needs a value");
        return false;
    }
    *out = args[++*i];
    return true;
}

// spirv-opt's flags that switch one option of ours on.
struct BoolFlag {
    const char *name;
    bool Options::*field;
};
const BoolFlag kBoolFlags[] = {
    {"--skip-validation", &Options::skip_validation},
    {"--preserve-bindings", &Options::preserve_bindings},
    {"--preserve-spec-constants", &Options::preserve_spec_constants},
    {"--validate-after-all", &Options::validate_after_all},
    {"--print-all", &Options::print_all},
    {"--time-report", &Options::time_report},
};

// The option switched on by flag `a`, or nullptr.
bool Options::*FindBoolFlag(const std::string &a)
{
    for (const BoolFlag &f : kBoolFlags)
        if (a == f.name) return f.field;
    return nullptr;
}

// spirv-val's relaxations, which spirv-opt also takes: each sets one validator option.
struct ValidatorFlag {
    const char *name;
    void (spvtools::ValidatorOptions::*set)(bool);
};
const ValidatorFlag kValidatorFlags[] = {
    {"--before-hlsl-legalization", &spvtools::ValidatorOptions::SetBeforeHlslLegalization},
    {"--relax-logical-pointer", &spvtools::ValidatorOptions::SetRelaxLogicalPointer},
    {"--relax-block-layout", &spvtools::ValidatorOptions::SetRelaxBlockLayout},
    {"--scalar-block-layout", &spvtools::ValidatorOptions::SetScalarBlockLayout},
    {"--workgroup-scalar-block-layout", &spvtools::ValidatorOptions::SetWorkgroupScalarBlockLayout},
    {"--skip-block-layout", &spvtools::ValidatorOptions::SetSkipBlockLayout},
    {"--relax-struct-store", &spvtools::ValidatorOptions::SetRelaxStructStore},
};

// The validator flag spelled `a`, or nullptr.
const ValidatorFlag *FindValidatorFlag(const std::string &a)
{
    for (const ValidatorFlag &f : kValidatorFlags)
        if (a == f.name) return &f;
    return nullptr;
}

enum class ParseStatus { kContinue, kStopOk, kUsage };

// Parses `args` (without the command name) into `*o`.
ParseStatus ParseArgs(const std::vector<std::string> &args, Options *o)
{
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        const bool has_next = i + 1 < args.size();
        if (a.empty() || a[0] != '-' || a == "-") {
            if (o->have_in) {
                UsageError("more than one input file: '" + o->in_file + "' and '" + a + "'");
                return ParseStatus::kUsage;
            }
            o->in_file = a;
            o->have_in = true;
        } else if (a == "-h" || a == "--help") {
            PrintHelp(stdout);
            return ParseStatus::kStopOk;
        } else if (a == "--version") {
            std::printf("spirv-bitcast opt %s\n%s\n", spvbc_version_string(),
                        spvSoftwareVersionDetailsString());
            return ParseStatus::kStopOk;
        } else if (a == "-o") {
            if (o->have_out || !has_next) {
                UsageError(o->have_out ? "-o given twice" : "-o needs a file name");
                return ParseStatus::kUsage;
            }
            o->out_file = args[++i];
            o->have_out = true;
        } else if (a == "--lower-astype" || StartsWith(a, "--lower-astype=")) {
            Stage s;
            s.kind = StageKind::kLowerAstype;
            s.spelling = a;
            const std::string v = a.size() > 14 ? a.substr(15) : std::string("undef");
            if (v == "undef") {
                s.pad = SPVBC_PAD_UNDEF;
            } else if (v == "zero") {
                s.pad = SPVBC_PAD_ZERO;
            } else if (v == "error") {
                s.pad = SPVBC_PAD_ERROR;
            } else {
                UsageError("bad value in '" + a + "': expected undef, zero or error");
                return ParseStatus::kUsage;
            }
            o->stages.push_back(std::move(s));
        } else if (a == "--validate-bitcast") {
            Stage s;
            s.kind = StageKind::kValidateBitcast;
            s.spelling = a;
            o->stages.push_back(std::move(s));
        } else if (a == "--target-env" || StartsWith(a, "--target-env=")) {
            std::string v;
            if (!OptionValue(args, &i, "--target-env", &v)) return ParseStatus::kUsage;
            if (!spvParseTargetEnv(v.c_str(), &o->env)) {
                UsageError("unknown target environment '" + v + "'");
                return ParseStatus::kUsage;
            }
        } else if (a == "--max-id-bound" || StartsWith(a, "--max-id-bound=")) {
            std::string v;
            if (!OptionValue(args, &i, "--max-id-bound", &v)) return ParseStatus::kUsage;
            uint32_t bound = 0;
            if (!ParseU32(v, &bound) || bound < kMinMaxIdBound) {
                UsageError("bad --max-id-bound '" + v + "': a number of at least 0x3FFFFF");
                return ParseStatus::kUsage;
            }
            o->max_id_bound = bound;
            o->validator.SetUniversalLimit(spv_validator_limit_max_id_bound, bound);
        } else if (bool Options::*field = FindBoolFlag(a)) {
            o->*field = true;
        } else if (const ValidatorFlag *vf = FindValidatorFlag(a)) {
            (o->validator.*(vf->set))(true);
        } else if (StartsWith(a, "-Oconfig=")) {
            // Expanded by ExpandConfigFiles before parsing; one left here was nested.
            UsageError("-Oconfig= may not be used inside a configuration file");
            return ParseStatus::kUsage;
        } else {
            std::string flag = a;
            if (TakesSeparateArgument(a) && has_next) flag += "=" + args[++i];
            // Code generated by an HLSL front end is validated with the relaxed rules, as
            // spirv-opt does.
            if (a == "--legalize-hlsl") o->validator.SetBeforeHlslLegalization(true);
            AddPassFlag(o, std::move(flag));
        }
    }
    return ParseStatus::kContinue;
}

// Replaces each -Oconfig=FILE in `args` by the flags the file holds.
ParseStatus ExpandConfigFiles(std::vector<std::string> *args)
{
    std::vector<std::string> out;
    for (const std::string &a : *args) {
        if (!StartsWith(a, "-Oconfig=")) {
            out.push_back(a);
            continue;
        }
        const std::string path = a.substr(9);
        std::vector<std::string> flags;
        if (!ReadConfigFlags(path, &flags)) {
            UsageError("cannot read optimizer flags from '" + path + "'");
            return ParseStatus::kUsage;
        }
        out.insert(out.end(), flags.begin(), flags.end());
    }
    *args = std::move(out);
    return ParseStatus::kContinue;
}

// Creates the optimizer of each SPIRV-Tools stage and registers its flags one at a time
// through Optimizer::RegisterPassesFromFlags, so a rejected flag can be named.
ParseStatus BuildOptimizers(Options *o)
{
    // Without any pass of ours the whole command line is one Optimizer::Run, even with no pass
    // flag at all, so the output is exactly spirv-opt's.
    if (o->stages.empty()) o->stages.emplace_back();
    for (Stage &s : o->stages) {
        if (s.kind != StageKind::kSpirvTools) continue;
        s.optimizer.reset(new spvtools::Optimizer(o->env));
        std::string captured;
        s.optimizer->SetMessageConsumer([&captured](spv_message_level_t level, const char *,
                                                    const spv_position_t &, const char *message) {
            captured += std::string(LevelName(level)) + ": " + (message ? message : "") + "\n";
        });
        for (const std::string &flag : s.flags) {
            captured.clear();
            if (!s.optimizer->RegisterPassesFromFlags({flag})) {
                s.optimizer->SetMessageConsumer(StderrConsumer(o->display + ": spirv-opt"));
                UsageError("unknown or invalid spirv-opt flag '" + flag + "'");
                std::fputs(captured.c_str(), stderr);
                return ParseStatus::kUsage;
            }
            std::fputs(captured.c_str(), stderr); // warnings about deprecated flags
        }
        s.optimizer->SetMessageConsumer(StderrConsumer(o->display + ": spirv-opt"));
        s.optimizer->SetValidateAfterAll(o->validate_after_all);
        if (o->print_all) s.optimizer->SetPrintAll(&std::cerr);
        if (o->time_report) s.optimizer->SetTimeReport(&std::cerr);
    }
    return ParseStatus::kContinue;
}

// Reads the whole SPIR-V binary from `path` ("" or "-": stdin) into `*words`.
bool ReadWords(const std::string &path, const std::string &display, std::vector<uint32_t> *words)
{
    const bool use_stdin = path.empty() || path == "-";
    FILE *f = use_stdin ? stdin : std::fopen(path.c_str(), "rb");
    if (!f) {
        std::fprintf(stderr, "error: %s: cannot open: %s\n", display.c_str(), std::strerror(errno));
        return false;
    }
    std::vector<unsigned char> bytes;
    unsigned char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
        bytes.insert(bytes.end(), buf, buf + n);
    const bool read_error = std::ferror(f) != 0;
    if (!use_stdin) std::fclose(f);
    if (read_error) {
        std::fprintf(stderr, "error: %s: read error\n", display.c_str());
        return false;
    }
    if (bytes.empty() || bytes.size() % 4 != 0) {
        std::fprintf(stderr,
                     "error: %s: %zu bytes is not a SPIR-V binary (a non-zero multiple of 4)\n",
                     display.c_str(), bytes.size());
        return false;
    }
    words->resize(bytes.size() / 4);
    std::memcpy(words->data(), bytes.data(), bytes.size());
    return true;
}

// Writes `words` to `path` ("-": stdout).
bool WriteWords(const std::string &path, const std::vector<uint32_t> &words)
{
    const bool use_stdout = path == "-";
    FILE *f = use_stdout ? stdout : std::fopen(path.c_str(), "wb");
    if (!f) {
        std::fprintf(stderr, "error: %s: cannot open for writing: %s\n", path.c_str(),
                     std::strerror(errno));
        return false;
    }
    bool ok = std::fwrite(words.data(), sizeof(uint32_t), words.size(), f) == words.size();
    ok = (use_stdout ? std::fflush(f) == 0 : std::fclose(f) == 0) && ok;
    if (!ok) std::fprintf(stderr, "error: %s: write error\n", path.c_str());
    return ok;
}

// Validates `words` with SPIRV-Tools' validator under the command's options; `what` names the
// point of the pipeline in messages.
bool ValidateWithSpirvTools(const Options &o, const std::vector<uint32_t> &words,
                            const std::string &what)
{
    spvtools::SpirvTools tools(o.env);
    tools.SetMessageConsumer(StderrConsumer(o.display + ": spirv-val (" + what + ")"));
    return tools.Validate(words.data(), words.size(), o.validator);
}

// Prints the context's errors and warnings (not notes: a pipeline is quiet when it succeeds) in
// the CLI's format, "<severity>: <file>: word <off> (instruction <n>): <sentence> [<rule>]".
void PrintDiagnostics(spvbc_context ctx, const std::string &display)
{
    const size_t count = spvbc_context_diagnostic_count(ctx);
    for (size_t i = 0; i < count; ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        if (!d || d->severity > SPVBC_SEVERITY_WARNING) continue;
        std::string where;
        if (d->word_offset != SPVBC_NO_POSITION) {
            where = ": word " + std::to_string(d->word_offset);
            if (d->instruction_index != SPVBC_NO_POSITION) {
                where += " (instruction " + std::to_string(d->instruction_index) + ")";
            }
        }
        std::fprintf(stderr, "%s: %s%s: %s [%s]\n", spvbc_severity_string(d->severity),
                     display.c_str(), where.c_str(), d->message ? d->message : "",
                     d->rule ? d->rule : "");
    }
}

// Owns a spvbc context and module for the length of one of our stages.
struct SpvbcHandles {
    spvbc_context ctx = nullptr;
    spvbc_module mod = nullptr;
    SpvbcHandles() = default;
    SpvbcHandles(const SpvbcHandles &) = delete;
    SpvbcHandles &operator=(const SpvbcHandles &) = delete;
    ~SpvbcHandles()
    {
        spvbc_module_destroy(mod);
        spvbc_context_destroy(ctx);
    }
};

// Creates a context in `h` and parses `words` (which must outlive the module) into it.
bool ParseForStage(const Options &o, const std::vector<uint32_t> &words, SpvbcHandles *h,
                   const std::string &display, const std::string &stage)
{
    spvbc_result r = spvbc_context_create(nullptr, &h->ctx);
    if (r != SPVBC_SUCCESS) {
        std::fprintf(stderr, "error: %s: %s: %s\n", display.c_str(), stage.c_str(),
                     spvbc_result_string(r));
        return false;
    }
    spvbc_parse_options po = SPVBC_PARSE_OPTIONS_INIT;
    po.max_id_bound = o.max_id_bound;
    po.copy_words = 0;
    r = spvbc_module_parse(h->ctx, words.data(), words.size(), &po, &h->mod);
    if (r != SPVBC_SUCCESS) {
        PrintDiagnostics(h->ctx, display);
        std::fprintf(stderr, "error: %s: %s: %s\n", display.c_str(), stage.c_str(),
                     spvbc_result_string(r));
        return false;
    }
    return true;
}

bool RunLowerAstype(const Options &o, const Stage &s, std::vector<uint32_t> *words,
                    const std::string &display)
{
    SpvbcHandles h;
    if (!ParseForStage(o, *words, &h, display, s.spelling)) return false;
    spvbc_lower_options lo = SPVBC_LOWER_OPTIONS_INIT;
    lo.pad = s.pad;
    lo.classes = SPVBC_LOWER_ALL;
    spvbc_lower_summary sum = SPVBC_LOWER_SUMMARY_INIT;
    spvbc_result r = spvbc_module_lower(h.mod, &lo, &sum);
    PrintDiagnostics(h.ctx, display);
    if (r != SPVBC_SUCCESS && r != SPVBC_PARTIAL) {
        std::fprintf(stderr, "error: %s: %s: %s\n", display.c_str(), s.spelling.c_str(),
                     spvbc_result_string(r));
        return false;
    }
    if (r == SPVBC_PARTIAL) {
        std::fprintf(stderr, "error: %s: %s: %zu invalid bitcast(s) cannot be lowered\n",
                     display.c_str(), s.spelling.c_str(), sum.refused);
        return false;
    }
    const uint32_t *out = nullptr;
    size_t out_count = 0;
    r = spvbc_module_get_words(h.mod, &out, &out_count);
    if (r != SPVBC_SUCCESS) {
        std::fprintf(stderr, "error: %s: %s: %s\n", display.c_str(), s.spelling.c_str(),
                     spvbc_result_string(r));
        return false;
    }
    if (sum.rewritten == 0) return true; // `out` is the input itself
    std::vector<uint32_t> lowered(out, out + out_count);
    words->swap(lowered); // `h` is destroyed after, so `out` was valid for the copy
    return true;
}

bool RunValidateBitcast(const Options &o, const Stage &s, const std::vector<uint32_t> &words,
                        const std::string &display)
{
    SpvbcHandles h;
    if (!ParseForStage(o, words, &h, display, s.spelling)) return false;
    spvbc_validate_summary sum = SPVBC_VALIDATE_SUMMARY_INIT;
    spvbc_result r = spvbc_module_validate(h.mod, nullptr, &sum);
    PrintDiagnostics(h.ctx, display);
    if (r == SPVBC_SUCCESS) return true;
    if (r == SPVBC_ERROR_VALIDATION_FAILED) {
        std::fprintf(stderr, "error: %s: %s: %zu error(s) in %zu bitcast(s)", display.c_str(),
                     s.spelling.c_str(), sum.errors, sum.bitcasts_checked);
        if (sum.lowerable != 0) {
            std::fprintf(stderr, "; %zu can be fixed by --lower-astype", sum.lowerable);
        }
        std::fputc('\n', stderr);
    } else {
        std::fprintf(stderr, "error: %s: %s: %s\n", display.c_str(), s.spelling.c_str(),
                     spvbc_result_string(r));
    }
    return false;
}

bool RunSpirvTools(const Options &o, const Stage &s, std::vector<uint32_t> *words,
                   const std::string &display)
{
    spvtools::OptimizerOptions oo;
    // Validation is done by the caller at the right points of the whole pipeline.
    oo.set_run_validator(false);
    oo.set_validator_options(o.validator);
    if (o.max_id_bound != 0) oo.set_max_id_bound(o.max_id_bound);
    oo.set_preserve_bindings(o.preserve_bindings);
    oo.set_preserve_spec_constants(o.preserve_spec_constants);
    std::vector<uint32_t> out;
    if (!s.optimizer->Run(words->data(), words->size(), &out, oo)) {
        std::fprintf(stderr, "error: %s: spirv-opt passes failed\n", display.c_str());
        return false;
    }
    words->swap(out);
    return true;
}

int RunOpt(int argc, char **argv)
{
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) {
        if (argv[i]) args.emplace_back(argv[i]);
    }
    Options o;
    if (ExpandConfigFiles(&args) != ParseStatus::kContinue) return kExitUsage;
    ParseStatus ps = ParseArgs(args, &o);
    if (ps == ParseStatus::kStopOk) return kExitOk;
    if (ps != ParseStatus::kContinue) return kExitUsage;
    o.display = (o.in_file.empty() || o.in_file == "-") ? "<stdin>" : o.in_file;
    if (BuildOptimizers(&o) != ParseStatus::kContinue) return kExitUsage;
    if (!o.have_out) {
        UsageError("-o <file> is required");
        return kExitUsage;
    }
    const std::string &display = o.display;
    std::vector<uint32_t> words;
    if (!ReadWords(o.in_file, display, &words)) return kExitFailure;

    // The input is validated before the first stage that is not --lower-astype: a leading
    // --lower-astype exists to turn invalid bitcasts into valid SPIR-V.
    size_t validate_input_at = 0;
    while (validate_input_at < o.stages.size() &&
           o.stages[validate_input_at].kind == StageKind::kLowerAstype) {
        ++validate_input_at;
    }
    for (size_t i = 0; i < o.stages.size(); ++i) {
        if (i == validate_input_at && !o.skip_validation) {
            const char *what = i == 0 ? "input" : "input after --lower-astype";
            if (!ValidateWithSpirvTools(o, words, what)) {
                std::fprintf(stderr, "error: %s: invalid SPIR-V %s\n", display.c_str(), what);
                if (i == 0) {
                    std::fprintf(stderr,
                                 "note: if the only problem is bitcasts that as_type allows, "
                                 "put --lower-astype first\n");
                }
                return kExitFailure;
            }
        }
        const Stage &s = o.stages[i];
        bool ok = true;
        switch (s.kind) {
        case StageKind::kSpirvTools: ok = RunSpirvTools(o, s, &words, display); break;
        case StageKind::kLowerAstype: ok = RunLowerAstype(o, s, &words, display); break;
        case StageKind::kValidateBitcast: ok = RunValidateBitcast(o, s, words, display); break;
        }
        if (!ok) return kExitFailure;
    }
    if (!o.skip_validation && !ValidateWithSpirvTools(o, words, "output")) {
        std::fprintf(stderr, "error: %s: the pipeline produced invalid SPIR-V\n", display.c_str());
        return kExitFailure;
    }
    return WriteWords(o.out_file, words) ? kExitOk : kExitFailure;
}

} // namespace

extern "C" int spvbc_cli_opt(int argc, char **argv)
{
    // No exception may cross into the C caller.
    try {
        return RunOpt(argc, argv);
    } catch (const std::bad_alloc &) {
        std::fprintf(stderr, "spirv-bitcast opt: error: out of memory\n");
    } catch (const std::exception &e) {
        std::fprintf(stderr, "spirv-bitcast opt: error: %s\n", e.what());
    } catch (...) {
        std::fprintf(stderr, "spirv-bitcast opt: error: unexpected exception\n");
    }
    return kExitFailure;
}
