/*
 * layer_settings.c - the layers' settings from the environment (see layer_settings.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "layer_settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer_log.h"

/* The names of the modes, indexed by their enum values.  Pad policies are named by the library
 * (spvbc_pad_policy_string), so the layers, the CLI and opt spell them alike. */
static const char *const g_modes[] = {"lower", "validate", "off"};
/* SPVBC_LAYER_LOG_LEVEL's names: index 1 sets log_all. */
static const char *const g_levels[] = {"changes", "all"};

/* Logs that `var`=`value` is not one of the `count` names in `names`, and that `fallback` is used.
 */
static void log_not_understood(const spvbc_layer_config *cfg, const char *var, const char *value,
                               const char *const *names, int count)
{
    char list[64] = "";
    for (int i = 0; i < count; ++i)
        (void)snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
                       names[i]);
    spvbc_layer_log(cfg, "spvbc-layer: %s=%s not understood (%s): using %s", var, value, list,
                    names[0]);
}

/* Reads environment variable `var` as one of `names` (`count` of them) and returns its index;
 * returns 0 (the default) and logs the mistake for any other non-empty value. */
static int env_choice(const spvbc_layer_config *cfg, const char *var, const char *const *names,
                      int count)
{
    const char *v = getenv(var);
    if (v == NULL || *v == '\0') return 0;
    for (int i = 0; i < count; ++i)
        if (strcmp(v, names[i]) == 0) return i;
    log_not_understood(cfg, var, v, names, count);
    return 0;
}

/* SPVBC_LAYER_PAD through the library's parser; SPVBC_PAD_UNDEF (logged) for anything else. */
static spvbc_pad_policy env_pad(const spvbc_layer_config *cfg)
{
    const char *v = getenv("SPVBC_LAYER_PAD");
    spvbc_pad_policy pad = SPVBC_PAD_UNDEF;
    if (v == NULL || *v == '\0' || spvbc_pad_policy_from_string(v, &pad) == SPVBC_SUCCESS)
        return pad;
    const char *names[] = {spvbc_pad_policy_string(SPVBC_PAD_UNDEF),
                           spvbc_pad_policy_string(SPVBC_PAD_ZERO),
                           spvbc_pad_policy_string(SPVBC_PAD_ERROR)};
    log_not_understood(cfg, "SPVBC_LAYER_PAD", v, names, 3);
    return SPVBC_PAD_UNDEF;
}

/* SPVBC_LAYER_GENERATION through the library's parser; the newest (logged) for anything else. */
static uint32_t env_generation(const spvbc_layer_config *cfg)
{
    const char *v = getenv("SPVBC_LAYER_GENERATION");
    uint32_t g = SPVBC_GENERATION_NEWEST;
    if (v == NULL || *v == '\0' || spvbc_generation_from_string(v, &g) == SPVBC_SUCCESS) return g;
    const char *names[] = {"newest", "2026.4", "2025.1", "2023.1"};
    log_not_understood(cfg, "SPVBC_LAYER_GENERATION", v, names, 4);
    return SPVBC_GENERATION_NEWEST;
}

const char *spvbc_layer_mode_name(spvbc_layer_mode mode)
{
    return (unsigned)mode < 3u ? g_modes[mode] : "?";
}

void spvbc_layer_config_from_env(spvbc_layer_config *cfg)
{
    if (cfg == NULL) return;
    memset(cfg, 0, sizeof *cfg);
    cfg->log_to_stderr = 1;
    const char *log = getenv("SPVBC_LAYER_LOG");
    if (log != NULL && strcmp(log, "off") == 0) {
        cfg->log_off = 1;
    } else if (log != NULL && *log != '\0' && strcmp(log, "stderr") != 0) {
        size_t n = strlen(log);
        if (n < sizeof cfg->log_path) {
            memcpy(cfg->log_path, log, n + 1);
            cfg->log_to_stderr = 0;
        }
    }
    cfg->mode = (spvbc_layer_mode)env_choice(cfg, "SPVBC_LAYER_MODE", g_modes, 3);
    cfg->pad = env_pad(cfg);
    cfg->generation = env_generation(cfg);
    cfg->log_all = env_choice(cfg, "SPVBC_LAYER_LOG_LEVEL", g_levels, 2);
}
