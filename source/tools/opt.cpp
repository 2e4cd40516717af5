// opt.cpp - `spirv-bitcast opt`: a drop-in for spirv-opt that runs SPIRV-Tools' passes and this
// project's passes in the order given on the command line.
//
// C++ only because SPIRV-Tools' optimizer has no C API: this file holds the optimizer and the
// pipeline, nothing else.  The command line (opt_args.c), our passes and the validator
// (opt_passes.c), reading the input (io.c), writing the output (output.c: atomic, devices in
// place) and printing findings (report.c) are the CLI's C rooms, shared with the other commands.
//
// The command line is cut at each of our flags into stages: a run of spirv-opt flags is one
// Optimizer::Run (registered through Optimizer::RegisterPassesFromFlags, so every spirv-opt pass
// flag is accepted with spirv-opt's own spelling and argument rules), and --lower-astype /
// --validate-bitcast are one stage each.  Like spirv-opt the input is validated before the first
// pass (after a leading --lower-astype, whose purpose is to make such input valid), and unlike
// spirv-opt the output is validated too.
//
// SPDX-License-Identifier: Apache-2.0

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>

#include "cli.h"

namespace
{

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

// A consumer printing SPIRV-Tools messages on stderr as "<level>: <file>: spirv-opt: <message>".
spvtools::MessageConsumer StderrConsumer(const std::string &shown)
{
    return [shown](spv_message_level_t level, const char *, const spv_position_t &,
                   const char *message) {
        std::fprintf(stderr, "%s: %s: spirv-opt: %s\n", LevelName(level), shown.c_str(),
                     message ? message : "");
    };
}

// The optimizer of one SPIRV-Tools stage, with the flags of `stage` registered one at a time
// so that a rejected flag can be named; nullptr after a usage message.
std::unique_ptr<spvtools::Optimizer> BuildOptimizer(const cli_opt_args &a,
                                                    const cli_opt_stage *stage)
{
    std::unique_ptr<spvtools::Optimizer> opt(new spvtools::Optimizer(a.env));
    std::string captured;
    opt->SetMessageConsumer([&captured](spv_message_level_t level, const char *,
                                        const spv_position_t &, const char *message) {
        captured += std::string(LevelName(level)) + ": " + (message ? message : "") + "\n";
    });
    for (size_t i = 0; stage && i < stage->flags.count; ++i) {
        captured.clear();
        const char *flag = stage->flags.items[i];
        if (!opt->RegisterPassesFromFlags({flag})) {
            cli_usage_error_for("opt", "unknown or invalid spirv-opt flag '%s'", flag);
            std::fputs(captured.c_str(), stderr);
            return nullptr;
        }
        std::fputs(captured.c_str(), stderr); // warnings about deprecated flags
    }
    opt->SetMessageConsumer(StderrConsumer(a.shown));
    opt->SetValidateAfterAll(a.validate_after_all);
    if (a.print_all) opt->SetPrintAll(&std::cerr);
    if (a.time_report) opt->SetTimeReport(&std::cerr);
    return opt;
}

bool RunOptimizer(const cli_opt_args &a, spvtools::Optimizer *opt, std::vector<uint32_t> *words)
{
    spvtools::ValidatorOptions vo; // for --validate-after-all
    cli_opt_validator_options(&a, vo);
    spvtools::OptimizerOptions oo;
    oo.set_run_validator(false); // validation is done at the right points of the whole pipeline
    oo.set_validator_options(vo);
    if (a.max_id_bound != 0) oo.set_max_id_bound(a.max_id_bound);
    oo.set_preserve_bindings(a.preserve_bindings);
    oo.set_preserve_spec_constants(a.preserve_spec_constants);
    std::vector<uint32_t> out;
    if (!opt->Run(words->data(), words->size(), &out, oo)) {
        std::fprintf(stderr, "error: %s: spirv-opt passes failed\n", a.shown);
        return false;
    }
    words->swap(out);
    return true;
}

// One of our stages on `words`, through opt_passes.c.
bool RunOurStage(const cli_opt_args &a, const cli_opt_stage &s, std::vector<uint32_t> *words)
{
    uint32_t *out = nullptr;
    size_t count = 0;
    if (!cli_opt_stage_run(&a, &s, words->data(), words->size(), &out, &count)) return false;
    if (out) words->assign(out, out + count);
    std::free(out);
    return true;
}

// Reads the input into `words`; false after a message.
bool ReadInput(const cli_opt_args &a, std::vector<uint32_t> *words)
{
    cli_input in;
    if (const char *e = cli_input_load(a.in_path, &in)) {
        std::fprintf(stderr, "error: %s: cannot read: %s\n", a.shown, e);
        return false;
    }
    bool ok = in.size != 0 && in.size % 4 == 0;
    if (ok) {
        words->resize(in.size / 4);
        std::memcpy(words->data(), in.data, in.size);
    } else {
        std::fprintf(stderr,
                     "error: %s: %zu bytes is not a SPIR-V binary (a non-zero multiple of 4)\n",
                     a.shown, in.size);
    }
    cli_input_release(&in);
    return ok;
}

// cli_emit_fn of a word vector.
int EmitWords(void *user, int (*write)(void *, const void *, size_t), void *stream)
{
    const std::vector<uint32_t> &w = *static_cast<const std::vector<uint32_t> *>(user);
    return write(stream, w.data(), w.size() * sizeof w[0]);
}

int RunPipeline(const cli_opt_args &a)
{
    // Without any pass of ours the whole command line is one Optimizer::Run, even with no pass
    // flag at all, so the output is exactly spirv-opt's.
    const size_t n = a.stage_count;
    std::vector<std::unique_ptr<spvtools::Optimizer>> optimizers(n ? n : 1);
    for (size_t i = 0; i < optimizers.size(); ++i) {
        if (n && a.stages[i].kind != CLI_OPT_SPIRV_TOOLS) continue;
        optimizers[i] = BuildOptimizer(a, n ? &a.stages[i] : nullptr);
        if (!optimizers[i]) return CLI_EXIT_USAGE;
    }
    std::vector<uint32_t> words;
    if (!ReadInput(a, &words)) return CLI_EXIT_FINDINGS;

    // The input is validated before the first stage that is not --lower-astype: a leading
    // --lower-astype exists to turn invalid bitcasts into valid SPIR-V.
    size_t validate_input_at = 0;
    while (validate_input_at < n && a.stages[validate_input_at].kind == CLI_OPT_LOWER_ASTYPE)
        ++validate_input_at;
    for (size_t i = 0; i < optimizers.size(); ++i) {
        if (i == validate_input_at && !a.skip_validation) {
            const char *what = i == 0 ? "input" : "input after --lower-astype";
            if (!cli_opt_spirv_val(&a, words.data(), words.size(), what)) {
                std::fprintf(stderr, "error: %s: invalid SPIR-V %s\n", a.shown, what);
                if (i == 0)
                    std::fprintf(stderr, "note: if the only problem is bitcasts that as_type "
                                         "allows, put --lower-astype first\n");
                return CLI_EXIT_FINDINGS;
            }
        }
        bool ok = optimizers[i] ? RunOptimizer(a, optimizers[i].get(), &words)
                                : RunOurStage(a, a.stages[i], &words);
        if (!ok) return CLI_EXIT_FINDINGS;
    }
    if (!a.skip_validation && !cli_opt_spirv_val(&a, words.data(), words.size(), "output")) {
        std::fprintf(stderr, "error: %s: the pipeline produced invalid SPIR-V\n", a.shown);
        return CLI_EXIT_FINDINGS;
    }
    char err[512];
    if (const char *e = cli_write_output(a.out_path, EmitWords, &words, err, sizeof err)) {
        std::fprintf(stderr, "error: %s: %s\n", a.shown, e);
        return CLI_EXIT_FINDINGS;
    }
    return 0;
}

} // namespace

extern "C" int cli_cmd_opt(int argc, char **argv)
{
    cli_opt_args a;
    int status = cli_opt_parse(argc, argv, &a);
    // No exception may cross into the C caller.
    try {
        if (status == CLI_OPT_RUN) status = RunPipeline(a);
    } catch (const std::bad_alloc &) {
        std::fprintf(stderr, "%s opt: out of memory\n", cli_prog);
        status = CLI_EXIT_FINDINGS;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s opt: %s\n", cli_prog, e.what());
        status = CLI_EXIT_FINDINGS;
    } catch (...) {
        std::fprintf(stderr, "%s opt: unexpected exception\n", cli_prog);
        status = CLI_EXIT_FINDINGS;
    }
    cli_opt_args_free(&a);
    return status;
}
