/* Test driver for `spirv-bitcast opt` before (or without) the CLI: `spvbc_opt_driver opt ARGS`
 * calls the same entry point the CLI dispatches to, cli_cmd_opt(argc - 1, argv + 1).
 * SPDX-License-Identifier: Apache-2.0 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "opt") != 0) {
        fprintf(stderr, "usage: %s opt [spirv-bitcast opt arguments]\n", argv[0]);
        return 2;
    }
    return cli_cmd_opt(argc - 1, argv + 1);
}
