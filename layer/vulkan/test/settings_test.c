/*
 * settings_test.c - VK_LAYER_SPVBC_bitcast's settings through each channel, through the real
 * Vulkan loader.
 *
 *   spvbc_layer_settings_test <channel> <work dir>
 *
 * Channels (layer_settings.h, vk_settings.c):
 *   api         the application's VkLayerSettingsCreateInfoEXT (VK_EXT_layer_settings)
 *   file        vk_layer_settings.txt (spvbc_bitcast.<key>) in the folder VK_LAYER_SETTINGS_PATH
 *               names
 *   env         the Khronos environment variables, VK_SPVBC_BITCAST_<KEY>
 *   old         the older environment variables, SPVBC_LAYER_<KEY>
 *   precedence  several channels at once: Khronos environment over the file over the
 *               application's structure over SPVBC_LAYER_* over the defaults
 * For each channel five instances are made in turn, each with every setting given through that
 * channel alone, and each setting is seen to take effect: the announcement names mode, pad and
 * generation (log_level=all, in the file the log setting names); pad=zero fills lane 3 of a
 * 3->4 bitcast with zeros; mode=validate logs and passes on the 4->3 module; pad=error refuses
 * the 3->4 module, and log_level=changes announces nothing; mode=off logs nothing and passes
 * the module on untouched (lavapipe then rejects it); mode=bogus is logged under the channel's
 * name for it, the default used and the instance made.  The settings are read per instance, so
 * one process sees all five.
 *
 * ctest sets VK_INSTANCE_LAYERS=VK_LAYER_SPVBC_bitcast and the layer's folder.  Exit status: 0
 * pass, 1 failure, 77 no Vulkan device, or (api, file, env, precedence) a layer built without
 * Vulkan-Utility-Libraries (SPVBC_VUL_NOTE says why).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "layer_settings.h"
#include "layer_test_util.h"
#include "vkrun.h"
#include "vulkan_setup.h"

#define ELEMS 256u
#define GROUPS (ELEMS / 64u)
#define FILL 0xa5u

static uint32_t g_in[ELEMS * 4], g_out[ELEMS * 4];

/* One instance's settings, by key, in spvbc_layer_setting_keys' order. */
typedef struct settings {
    const char *value[SPVBC_LAYER_SETTING_COUNT];
} settings;

enum { MODE, PAD, GENERATION, LOG, LOG_LEVEL };

/* The channel under test and where it writes. */
static const char *g_channel;
static const char *g_dir;

/* Spells `key` in capitals after `prefix` into `buf`. */
static void env_name(char *buf, size_t size, const char *prefix, const char *key)
{
    size_t n = (size_t)snprintf(buf, size, "%s", prefix);
    for (; *key != '\0' && n + 1 < size; ++key)
        buf[n++] = (char)(*key >= 'a' && *key <= 'z' ? *key - 'a' + 'A' : *key);
    buf[n] = '\0';
}

/* Sets (or, for NULL values, unsets) the variables `prefix`<KEY> of `s`; returns 0 on failure. */
static int set_env(const char *prefix, const settings *s)
{
    char name[SPVBC_LAYER_SETTING_NAME_MAX];
    int ok = 1;
    for (int k = 0; k < SPVBC_LAYER_SETTING_COUNT; ++k) {
        env_name(name, sizeof name, prefix, spvbc_layer_setting_keys[k]);
        if (s != NULL && s->value[k] != NULL)
            ok &= setenv(name, s->value[k], 1) == 0;
        else
            ok &= unsetenv(name) == 0;
    }
    return ok;
}

/* Writes `s` as `dir`/vk_layer_settings.txt (a comment, then spvbc_bitcast.<key> = <value>) and
 * points VK_LAYER_SETTINGS_PATH at `dir`; NULL `s` unsets it.  Returns 0 on failure. */
static int set_file(const char *dir, const settings *s)
{
    if (s == NULL) return unsetenv("VK_LAYER_SETTINGS_PATH") == 0;
    char path[1024];
    (void)snprintf(path, sizeof path, "%s/vk_layer_settings.txt", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL) return 0;
    (void)fprintf(f, "# written by spvbc_layer_settings_test\n");
    for (int k = 0; k < SPVBC_LAYER_SETTING_COUNT; ++k)
        if (s->value[k] != NULL)
            (void)fprintf(f, "spvbc_bitcast.%s = %s\n", spvbc_layer_setting_keys[k], s->value[k]);
    return fclose(f) == 0 && setenv("VK_LAYER_SETTINGS_PATH", dir, 1) == 0;
}

#ifdef SPVBC_HAVE_VUL
/* The application's VkLayerSettingsCreateInfoEXT for `s` (static: one instance at a time). */
static const void *api_settings(const settings *s)
{
    static VkLayerSettingEXT items[SPVBC_LAYER_SETTING_COUNT];
    static VkLayerSettingsCreateInfoEXT info;
    uint32_t n = 0;
    for (int k = 0; s != NULL && k < SPVBC_LAYER_SETTING_COUNT; ++k)
        if (s->value[k] != NULL)
            items[n++] = (VkLayerSettingEXT){"VK_LAYER_SPVBC_bitcast", spvbc_layer_setting_keys[k],
                                             VK_LAYER_SETTING_TYPE_STRING_EXT, 1, &s->value[k]};
    info = (VkLayerSettingsCreateInfoEXT){VK_STRUCTURE_TYPE_LAYER_SETTINGS_CREATE_INFO_EXT, NULL, n,
                                          items};
    return n ? &info : NULL;
}
#else
static const void *api_settings(const settings *s)
{
    (void)s;
    return NULL;
}
#endif

/* Makes the Vulkan context with `s` given through the channel under test (precedence: see
 * make_precedence); VKR_OK or the status, the reason in `msg`. */
static vkr_status make(const settings *s, vkr_context **vk, char *msg, size_t size)
{
    vkr_create_options o = {0};
    int ok = 1;
    if (strcmp(g_channel, "api") == 0) o.instance_next = api_settings(s);
    if (strcmp(g_channel, "file") == 0) ok = set_file(g_dir, s);
    if (strcmp(g_channel, "env") == 0) ok = set_env("VK_SPVBC_BITCAST_", s);
    if (strcmp(g_channel, "old") == 0) ok = set_env("SPVBC_LAYER_", s);
    if (!ok) {
        (void)snprintf(msg, size, "cannot set the %s channel", g_channel);
        return VKR_ERROR;
    }
    vkr_status st = vkr_create(&o, vk, msg, size);
    /* Gone before the next instance: each instance sees its own settings only. */
    (void)set_file(g_dir, NULL);
    (void)set_env("VK_SPVBC_BITCAST_", NULL);
    (void)set_env("SPVBC_LAYER_", NULL);
    return st;
}

/* Runs `w` (16-byte elements both sides); returns the VkResult. */
static VkResult run(vkr_context *vk, const uint32_t *w, size_t n)
{
    vkr_run_result rr;
    char msg[256];
    (void)vkr_run(vk, w, n, VKR_MODULE_OBJECT, g_in, sizeof g_in, g_out, sizeof g_out, FILL, GROUPS,
                  &rr, msg, sizeof msg);
    return rr.result;
}

static int lanes_ok(int zero_lane3)
{
    for (uint32_t e = 0; e < ELEMS; ++e) {
        if (memcmp(&g_out[e * 4], &g_in[e * 4], 12) != 0) return 0;
        if (zero_lane3 && g_out[e * 4 + 3] != 0) return 0;
    }
    return 1;
}

/* The modules: the naive 4->3 and 3->4 bitcasts. */
static uint32_t *g_w43, *g_w34;
static size_t g_n43, g_n34;

/* The log file of case `name` in the work folder, removed. */
static const char *log_path(const char *name)
{
    static char path[8][1024];
    static int next;
    char *p = path[next++ & 7];
    (void)snprintf(p, sizeof path[0], "%s/%s.log", g_dir, name);
    (void)remove(p);
    return p;
}

/* Checks `log`'s announcement: present with `active` ("mode=lower pad=zero ..."), or absent
 * for NULL. */
static void check_active(const char *log, const char *active)
{
    char want[256];
    (void)snprintf(want, sizeof want, "VK_LAYER_SPVBC_bitcast active: %s", active ? active : "");
    if (active != NULL)
        CHECK(lt_log_has(log, want), "%s: the log announces '%s'", g_channel, want);
    else
        CHECK(!lt_log_has(log, "active:"), "%s: log_level=changes: no announcement", g_channel);
}

/* Case lower+zero+2023.1+all: the 3->4 module is lowered with a zero lane 3. */
static void case_lower(vkr_context *vk, const char *log)
{
    check_active(log, "mode=lower pad=zero generation=2023.1");
    VkResult r = run(vk, g_w34, g_n34);
    CHECK(r == VK_SUCCESS && lanes_ok(1), "%s: pad=zero: 3->4 gives %s, lane 3 == 0", g_channel,
          vkr_result_string(r));
    char want[256];
    lt_verdict(want, sizeof want, "vkCreateShaderModule", g_w34, g_n34, "lowered 1 bitcast");
    CHECK(lt_log_has(log, want), "%s: log '%s'", g_channel, want);
}

/* The module `w` (`n` words) run through the layer, logged with `verdict` and passed on as it
 * is: lavapipe then rejects it.  `what` names the case in the checks. */
static void expect_unchanged(vkr_context *vk, const char *log, int lavapipe, const uint32_t *w,
                             size_t n, const char *verdict, const char *what)
{
    VkResult r = run(vk, w, n);
    char want[256];
    lt_verdict(want, sizeof want, "vkCreateShaderModule", w, n, verdict);
    CHECK(lt_log_has(log, want), "%s: %s: log '%s'", g_channel, what, want);
    if (lavapipe)
        CHECK(r != VK_SUCCESS, "%s: lavapipe gets the module unchanged (%s)", g_channel,
              vkr_result_string(r));
}

/* Case validate+all: the 4->3 module is logged and passed on as it is. */
static void case_validate(vkr_context *vk, const char *log, int lavapipe)
{
    check_active(log, "mode=validate pad=undef generation=");
    expect_unchanged(vk, log, lavapipe, g_w43, g_n43,
                     "unchanged (validate mode: 1 error, 1 lowerable)", "mode=validate");
}

/* Case pad=error+changes: no announcement, the 3->4 module refused and passed on. */
static void case_refuse(vkr_context *vk, const char *log, int lavapipe)
{
    check_active(log, NULL);
    expect_unchanged(vk, log, lavapipe, g_w34, g_n34, "unchanged (1 error, 1 refused)",
                     "pad=error");
}

/* Case off+all: nothing logged, the 4->3 module passed on untouched. */
static void case_off(vkr_context *vk, const char *log, int lavapipe)
{
    VkResult r = run(vk, g_w43, g_n43);
    CHECK(!lt_log_has(log, "spvbc-layer"), "%s: mode=off: nothing logged", g_channel);
    if (lavapipe)
        CHECK(r != VK_SUCCESS, "%s: mode=off: lavapipe gets the module unchanged (%s)", g_channel,
              vkr_result_string(r));
}

/* Case mode=bogus+all: the mistake logged under the name the channel gives it, the default
 * (lower) used, and the instance made all the same. */
static void case_bad(vkr_context *vk, const char *log)
{
    const char *name = strcmp(g_channel, "env") == 0   ? "VK_SPVBC_BITCAST_MODE"
                       : strcmp(g_channel, "old") == 0 ? "SPVBC_LAYER_MODE"
                                                       : "VK_LAYER_SPVBC_bitcast setting mode";
    char want[256];
    (void)snprintf(want, sizeof want,
                   "spvbc-layer: %s=bogus not understood (lower, validate, off): using lower",
                   name);
    CHECK(lt_log_has(log, want), "%s: log '%s'", g_channel, want);
    check_active(log, "mode=lower pad=undef");
    VkResult r = run(vk, g_w43, g_n43);
    CHECK(r == VK_SUCCESS && lanes_ok(0), "%s: the default mode lowers 4->3: %s", g_channel,
          vkr_result_string(r));
}

/* Makes an instance with `s` through the channel and runs case `which` (0..4) on it; returns 77
 * without a device, else 0. */
static int one_case(int which, const settings *s, const char *log)
{
    vkr_context *vk = NULL;
    char msg[512];
    vkr_status st = make(s, &vk, msg, sizeof msg);
    if (st == VKR_NO_DEVICE) {
        printf("settings: SKIP: no Vulkan device: %s\n", msg);
        return 77;
    }
    CHECK(st == VKR_OK, "%s: the instance is made: %s", g_channel, st == VKR_OK ? "yes" : msg);
    if (st != VKR_OK) return 0;
    int lavapipe = vkr_is_lavapipe(vk);
    if (which == 0) case_lower(vk, log);
    if (which == 1) case_validate(vk, log, lavapipe);
    if (which == 2) case_refuse(vk, log, lavapipe);
    if (which == 3) case_off(vk, log, lavapipe);
    if (which == 4) case_bad(vk, log);
    vkr_destroy(vk);
    return 0;
}

/* Every setting through the channel alone, in five instances. */
static int every_setting(void)
{
    const char *logs[5] = {log_path("lower"), log_path("validate"), log_path("refuse"),
                           log_path("off"), log_path("bad")};
    const settings cases[5] = {
        {{"lower", "zero", "2023.1", logs[0], "all"}},
        {{"validate", "undef", "newest", logs[1], "all"}},
        {{"lower", "error", "newest", logs[2], "changes"}},
        {{"off", "zero", "newest", logs[3], "all"}},
        {{"bogus", "undef", "newest", logs[4], "all"}},
    };
    for (int i = 0; i < 5; ++i)
        if (one_case(i, &cases[i], logs[i]) == 77) return 77;
    return 0;
}

#ifdef SPVBC_HAVE_VUL
/* Every channel at once: VK_SPVBC_BITCAST_MODE=lower over the file's mode=validate over
 * SPVBC_LAYER_MODE=off; the file's pad=error over the application's pad=zero; the application's
 * log_level=all over SPVBC_LAYER_LOG_LEVEL=changes; SPVBC_LAYER_GENERATION=2025.1 where no
 * Khronos channel names a generation; VK_SPVBC_BITCAST_LOG over SPVBC_LAYER_LOG. */
static int precedence(void)
{
    const char *log = log_path("precedence"), *old_log = log_path("precedence.old");
    const settings old = {{"off", "undef", "2025.1", old_log, "changes"}};
    const settings env = {{"lower", NULL, NULL, log, NULL}};
    const settings file = {{"validate", "error", NULL, NULL, NULL}};
    const settings api = {{NULL, "zero", NULL, NULL, "all"}};
    vkr_create_options o = {.instance_next = api_settings(&api)};
    vkr_context *vk = NULL;
    char msg[512];
    if (!set_env("SPVBC_LAYER_", &old) || !set_env("VK_SPVBC_BITCAST_", &env) ||
        !set_file(g_dir, &file)) {
        printf("settings: FAIL: cannot set the channels\n");
        return 1;
    }
    vkr_status st = vkr_create(&o, &vk, msg, sizeof msg);
    if (st == VKR_NO_DEVICE) {
        printf("settings: SKIP: no Vulkan device: %s\n", msg);
        return 77;
    }
    CHECK(st == VKR_OK, "precedence: the instance is made: %s", st == VKR_OK ? "yes" : msg);
    check_active(log, "mode=lower pad=error generation=2025.1");
    CHECK(!lt_log_has(old_log, "spvbc-layer"), "precedence: nothing in SPVBC_LAYER_LOG's file");
    vkr_destroy(vk);
    return 0;
}
#endif

int main(int argc, char **argv)
{
    if (lt_start(argc, argv, 2, "api|file|env|old|precedence <work dir>")) return 2;
    lt_verbose = 1;
    g_channel = argv[1];
    g_dir = argv[2];
    (void)mkdir(g_dir, 0777);
#ifndef SPVBC_HAVE_VUL
    if (strcmp(g_channel, "old") != 0) {
        printf("settings: SKIP: the layer was built without Vulkan-Utility-Libraries' layer "
               "settings, so the %s channel is not read: %s\n",
               g_channel, SPVBC_VUL_NOTE);
        return 77;
    }
#endif
    /* Nothing from the calling environment or the user's own settings file. */
    (void)set_env("VK_SPVBC_BITCAST_", NULL);
    (void)set_env("SPVBC_LAYER_", NULL);
    (void)set_file(g_dir, NULL);
    (void)setenv("XDG_DATA_HOME", g_dir, 1);
    for (uint32_t i = 0; i < ELEMS * 4; ++i)
        g_in[i] = 0x3f800000u + i * 0x1234567u;
    g_w43 = spvbc_vk_naive_module("float4", "float3", &g_n43);
    g_w34 = spvbc_vk_naive_module("float3", "float4", &g_n34);
    if (g_w43 == NULL || g_w34 == NULL) {
        printf("settings: FAIL: the generator gave no module\n");
        return 1;
    }
    int rc = 0;
#ifdef SPVBC_HAVE_VUL
    if (strcmp(g_channel, "precedence") == 0)
        rc = precedence();
    else
#endif
        rc = every_setting();
    free(g_w43);
    free(g_w34);
    if (rc == 77) return 77;
    printf("settings: %s: %s\n", g_channel, lt_failed == 0 && rc == 0 ? "passed" : "FAILED");
    return lt_failed == 0 && rc == 0 ? 0 : 1;
}
