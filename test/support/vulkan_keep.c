/*
 * vulkan_keep.c - keeps the process's Vulkan drivers mapped until it exits (sanitizer builds).
 *
 * LeakSanitizer looks for pointers in the data of the libraries still mapped when the process
 * exits.  The loader unloads a driver in vkDestroyInstance, and what the driver still reached
 * from its own globals then reads as leaked: Debian 12's lavapipe (Mesa 22.3.6-1+deb12u2) shows
 * one 128-byte block in every test that creates an instance, allocated from code that is gone
 * by then ("<unknown module>").  Opening each driver once more with RTLD_NODELETE keeps its
 * globals scanned, so such blocks are found reachable while a leak of ours is still reported.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L
#include "vulkan_setup.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MANIFEST_MAX 65536

/* Opens the library that the ICD manifest at `path` names, with RTLD_NODELETE. */
static void keep_manifest(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return;
    char *text = malloc(MANIFEST_MAX);
    size_t n = text != NULL ? fread(text, 1, MANIFEST_MAX - 1, f) : 0;
    (void)fclose(f);
    if (text == NULL) return;
    text[n] = '\0';
    char *key = strstr(text, "\"library_path\"");
    char *open_quote = key != NULL ? strchr(key + 14, '"') : NULL;
    char *close_quote = open_quote != NULL ? strchr(open_quote + 1, '"') : NULL;
    if (close_quote != NULL) {
        *close_quote = '\0';
        const char *lib = open_quote + 1;
        char joined[4096];
        /* A relative path with a slash is relative to the manifest's folder; a bare name is
         * looked up as dlopen does. */
        const char *slash = strrchr(path, '/');
        if (lib[0] != '/' && strchr(lib, '/') != NULL && slash != NULL &&
            snprintf(joined, sizeof joined, "%.*s/%s", (int)(slash - path), path, lib) <
                (int)sizeof joined)
            lib = joined;
        (void)dlopen(lib, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    }
    free(text);
}

void spvbc_vk_keep_drivers_mapped(void)
{
    static int done;
    if (done) return;
    done = 1;
    const char *list = getenv("VK_DRIVER_FILES");
    if (list == NULL || *list == '\0') list = getenv("VK_ICD_FILENAMES");
    if (list != NULL && *list != '\0') {
        char *copy = strdup(list);
        char *save = NULL;
        for (char *p = copy != NULL ? strtok_r(copy, ":", &save) : NULL; p != NULL;
             p = strtok_r(NULL, ":", &save))
            keep_manifest(p);
        free(copy);
        return;
    }
    const char *dirs[] = {"/etc/vulkan/icd.d", "/usr/share/vulkan/icd.d"};
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; ++d) {
        DIR *dir = opendir(dirs[d]);
        if (dir == NULL) continue;
        for (struct dirent *e; (e = readdir(dir)) != NULL;) {
            size_t len = strlen(e->d_name);
            char path[4096];
            if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0 &&
                snprintf(path, sizeof path, "%s/%s", dirs[d], e->d_name) < (int)sizeof path)
                keep_manifest(path);
        }
        (void)closedir(dir);
    }
}
