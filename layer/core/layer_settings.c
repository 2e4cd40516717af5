/*
 * layer_settings.c - the layers' settings from a source of values: the environment's older
 * SPVBC_LAYER_* names here, the Vulkan layer's Khronos channels in vk_settings.c (see
 * layer_settings.h).
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
/* Setting log_level's names: index 1 sets log_all. */
static const char *const g_levels[] = {"changes", "all"};

const char *const spvbc_layer_setting_keys[SPVBC_LAYER_SETTING_COUNT] = {
    "mode", "pad", "generation", "log", "log_level"};

/* Logs that setting `name`=`value` is not one of the `count` names in `names`, and that the first
 * (the default) is used. */
static void log_not_understood(const spvbc_layer_config *cfg, const char *name, const char *value,
                               const char *const *names, int count)
{
    char list[64] = "";
    for (int i = 0; i < count; ++i)
        (void)snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
                       names[i]);
    spvbc_layer_log(cfg, "spvbc-layer: %s=%s not understood (%s): using %s", name, value, list,
                    names[0]);
}

/* Setting `key` as `src` gives it (`v`: its text and the name it goes by); returns 0 when no
 * channel sets it (or sets it empty). */
static int lookup(const spvbc_layer_setting_source *src, const char *key,
                  spvbc_layer_setting_value *v)
{
    v->text = NULL;
    v->name = key;
    return src->get(src->user, key, v) && v->text != NULL && *v->text != '\0';
}

/* Reads setting `key` as one of `names` (`count` of them) and returns its index; returns 0 (the
 * default) and logs the mistake for any other non-empty value. */
static int choice(const spvbc_layer_config *cfg, const spvbc_layer_setting_source *src,
                  const char *key, const char *const *names, int count)
{
    spvbc_layer_setting_value v;
    if (!lookup(src, key, &v)) return 0;
    for (int i = 0; i < count; ++i)
        if (strcmp(v.text, names[i]) == 0) return i;
    log_not_understood(cfg, v.name, v.text, names, count);
    return 0;
}

/* Setting pad through the library's parser; SPVBC_PAD_UNDEF (logged) for anything else. */
static spvbc_pad_policy setting_pad(const spvbc_layer_config *cfg,
                                    const spvbc_layer_setting_source *src)
{
    spvbc_layer_setting_value v;
    spvbc_pad_policy pad = SPVBC_PAD_UNDEF;
    if (!lookup(src, "pad", &v) || spvbc_pad_policy_from_string(v.text, &pad) == SPVBC_SUCCESS)
        return pad;
    const char *names[] = {spvbc_pad_policy_string(SPVBC_PAD_UNDEF),
                           spvbc_pad_policy_string(SPVBC_PAD_ZERO),
                           spvbc_pad_policy_string(SPVBC_PAD_ERROR)};
    log_not_understood(cfg, v.name, v.text, names, 3);
    return SPVBC_PAD_UNDEF;
}

/* Setting generation through the library's parser; the newest (logged) for anything else. */
static uint32_t setting_generation(const spvbc_layer_config *cfg,
                                   const spvbc_layer_setting_source *src)
{
    spvbc_layer_setting_value v;
    uint32_t g = SPVBC_GENERATION_NEWEST;
    if (!lookup(src, "generation", &v) || spvbc_generation_from_string(v.text, &g) == SPVBC_SUCCESS)
        return g;
    const char *names[] = {"newest", "2026.4", "2025.1", "2023.1"};
    log_not_understood(cfg, v.name, v.text, names, 4);
    return SPVBC_GENERATION_NEWEST;
}

/* Setting log: stderr (the default), off, or a path that fits log_path. */
static void setting_log(spvbc_layer_config *cfg, const spvbc_layer_setting_source *src)
{
    spvbc_layer_setting_value v;
    cfg->log_to_stderr = 1;
    if (!lookup(src, "log", &v) || strcmp(v.text, "stderr") == 0) return;
    if (strcmp(v.text, "off") == 0) {
        cfg->log_off = 1;
        return;
    }
    size_t n = strlen(v.text);
    if (n < sizeof cfg->log_path) {
        memcpy(cfg->log_path, v.text, n + 1);
        cfg->log_to_stderr = 0;
    }
}

void spvbc_layer_setting_env_name(const char *prefix, const char *key,
                                  char name[SPVBC_LAYER_SETTING_NAME_MAX])
{
    size_t n = 0;
    for (; *prefix != '\0' && n < SPVBC_LAYER_SETTING_NAME_MAX - 1; ++prefix)
        name[n++] = *prefix;
    for (; *key != '\0' && n < SPVBC_LAYER_SETTING_NAME_MAX - 1; ++key)
        name[n++] = (char)(*key >= 'a' && *key <= 'z' ? *key - 'a' + 'A' : *key);
    name[n] = '\0';
}

/* The older names: SPVBC_LAYER_ and the key in capitals (SPVBC_LAYER_LOG_LEVEL). */
static int env_get(void *user, const char *key, spvbc_layer_setting_value *out)
{
    char *name = user; /* room for the longest name */
    spvbc_layer_setting_env_name("SPVBC_LAYER_", key, name);
    out->text = getenv(name);
    out->name = name;
    return out->text != NULL;
}

int spvbc_layer_setting_from_env(const char *key, spvbc_layer_setting_value *out,
                                 char name[SPVBC_LAYER_SETTING_NAME_MAX])
{
    if (key == NULL || out == NULL || name == NULL) return 0;
    return env_get(name, key, out);
}

const char *spvbc_layer_mode_name(spvbc_layer_mode mode)
{
    return (unsigned)mode < 3u ? g_modes[mode] : "?";
}

void spvbc_layer_config_from(spvbc_layer_config *cfg, const spvbc_layer_setting_source *src)
{
    if (cfg == NULL || src == NULL || src->get == NULL) return;
    memset(cfg, 0, sizeof *cfg);
    setting_log(cfg, src); /* first: the other settings' mistakes are logged there */
    cfg->mode = (spvbc_layer_mode)choice(cfg, src, "mode", g_modes, 3);
    cfg->pad = setting_pad(cfg, src);
    cfg->generation = setting_generation(cfg, src);
    cfg->log_all = choice(cfg, src, "log_level", g_levels, 2);
}

void spvbc_layer_config_from_env(spvbc_layer_config *cfg)
{
    char name[SPVBC_LAYER_SETTING_NAME_MAX];
    spvbc_layer_setting_source src = {env_get, name};
    spvbc_layer_config_from(cfg, &src);
}
