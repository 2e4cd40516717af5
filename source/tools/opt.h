/*
 * opt.h - `spirv-bitcast opt`: spirv-opt pipelines with this project's passes in between.
 *
 * The implementation (opt.cpp) is C++ because SPIRV-Tools' optimizer has only a C++ API; it is
 * linked into the CLI and never into the library, which stays C with no C++ runtime.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_TOOLS_OPT_H_
#define SPVBC_TOOLS_OPT_H_

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Runs `spirv-bitcast opt` with `argc` arguments at `argv`, where argv[0] is the command name
 * ("opt") and the rest are its options and input file.  Reads the input, runs the pipeline and
 * writes the output; messages go to stderr, --help and --version to stdout.  Returns the process
 * exit code: 0 success, 1 failure (unreadable or invalid input, a failing pass, findings of
 * --validate-bitcast, invalid output), 2 usage error (unknown flag, missing -o, bad value).
 * Never calls exit().
 */
int spvbc_cli_opt(int argc, char **argv);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SPVBC_TOOLS_OPT_H_ */
