/*
 * vkcreate_bench.c - vkCreateShaderModule through VK_LAYER_SPVBC_bitcast against the same call
 * without it: one process, one device, the same modules, the two alternating.
 *
 *   spvbc_layer_vkbench [--rounds N] [--layer-dir DIR] NAME=PATH...
 *
 * PATH is a SPIR-V file or a folder (its *.spv files, in name order); each NAME is a set.  The
 * program makes two instances on the loader, one that enables the layer (found in DIR: by
 * default the program's own folder, where the layer's manifest sits in the kit that CMake
 * puts together) and one that does not, and a device on each on the same physical device
 * (SPVBC_BENCH_DEVICE=<index>, default 0).  A pass creates every module of a set (repeated
 * until a pass holds at least 64 calls, so that reading the clocks costs little) and is timed
 * on the monotonic clock and on the thread's CPU clock; the modules are destroyed after the
 * pass, outside the timing.  Each round makes one pass without the layer and one through it,
 * in alternating order, so that a load that comes and goes on the machine hits both alike.
 * Per set it prints the median and the minimum time per call of each, and the ratios, then a
 * line for scripts:
 *   RESULT <set> <log: off|stderr|file> <modules> <bytes> <wall without> <wall with> <wall ratio>
 *          <cpu without> <cpu with> <cpu ratio>          (microseconds per call, medians)
 * The layer's switches are its own (SPVBC_LAYER_LOG, SPVBC_LAYER_LOG_LEVEL, SPVBC_LAYER_MODE):
 * with the log in a file at level all, the program checks that the layer logged every call it
 * made through it; last it prints "calls through the layer: <n>".
 *
 * Needs only the Vulkan loader (libvulkan.so.1) and a driver, so that the kit runs on a
 * machine that has no build of this project.  Exit status: 0, 1 when a call fails or the
 * layer did not see the modules, 2 for a usage error, 77 (SKIP) without a Vulkan device or
 * without the layer.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _GNU_SOURCE /* CLOCK_THREAD_CPUTIME_ID, setenv, readlink */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <vulkan/vulkan.h>
#if defined(SPVBC_TEST_KEEP_DRIVERS)
#include "vulkan_setup.h" /* spvbc_vk_keep_drivers_mapped(), in sanitizer builds */
#endif

#define LAYER "VK_LAYER_SPVBC_bitcast"
#define MAX_SETS 8
#define MAX_MODULES 4096
#define MIN_CALLS_PER_PASS 64

typedef struct module {
    uint32_t *words;
    size_t size; /* bytes */
} module;

typedef struct set {
    const char *name;
    module mods[MAX_MODULES];
    size_t count, bytes;
} set;

typedef struct side {
    VkInstance instance;
    VkDevice device;
    PFN_vkCreateShaderModule create;
    PFN_vkDestroyShaderModule destroy;
} side;

static double clock_us(clockid_t id)
{
    struct timespec ts;
    (void)clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* Reads `path` as SPIR-V (a whole number of words, beginning with the magic number) into
 * `s`; returns 0, or -1 after saying why. */
static int add_file(set *s, const char *path)
{
    FILE *f = fopen(path, "rb");
    long n = -1;
    if (f != NULL && fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    uint32_t *w = (n >= 20 && n % 4 == 0) ? malloc((size_t)n) : NULL;
    if (f != NULL && w != NULL &&
        (fseek(f, 0, SEEK_SET) != 0 || fread(w, 1, (size_t)n, f) != (size_t)n)) {
        free(w);
        w = NULL;
    }
    if (f != NULL) (void)fclose(f);
    if (w == NULL || w[0] != 0x07230203u || s->count == MAX_MODULES) {
        fprintf(stderr, "%s: not a SPIR-V module this program reads\n", path);
        free(w);
        return -1;
    }
    s->mods[s->count].words = w;
    s->mods[s->count++].size = (size_t)n;
    s->bytes += (size_t)n;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The modules of `path` (a file, or a folder's *.spv files in name order) into `s`. */
static int add_path(set *s, const char *path)
{
    DIR *d = opendir(path);
    if (d == NULL) return add_file(s, path);
    char *names[MAX_MODULES];
    size_t n = 0;
    int rc = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && n < MAX_MODULES;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".spv") == 0) names[n++] = strdup(e->d_name);
    }
    (void)closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; ++i) {
        char full[PATH_MAX];
        (void)snprintf(full, sizeof full, "%s/%s", path, names[i] != NULL ? names[i] : "");
        if (names[i] == NULL || add_file(s, full) != 0) rc = -1;
        free(names[i]);
    }
    if (s->count == 0) {
        fprintf(stderr, "%s: no module\n", path);
        rc = -1;
    }
    return rc;
}

/* An instance (with the layer if `layer`) and a device on physical device `index`; returns
 * VK_SUCCESS or the failing call's result, after saying what failed. */
static VkResult side_make(side *sd, int layer, uint32_t index, char *device_name, size_t name_size)
{
    const char *layers[] = {LAYER};
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             NULL,
                             "spvbc_layer_vkbench",
                             1,
                             NULL,
                             0,
                             VK_API_VERSION_1_1};
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                NULL,
                                0,
                                &app,
                                layer ? 1u : 0u,
                                layer ? layers : NULL,
                                0,
                                NULL};
    VkResult r = vkCreateInstance(&ici, NULL, &sd->instance);
    if (r != VK_SUCCESS) {
        fprintf(stderr, "vkCreateInstance (%s the layer): %d\n", layer ? "with" : "without", r);
        return r;
    }
    VkPhysicalDevice pds[16];
    uint32_t count = 16;
    r = vkEnumeratePhysicalDevices(sd->instance, &count, pds);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || index >= count) {
        fprintf(stderr, "no Vulkan physical device %u (%u found)\n", index, count);
        return VK_ERROR_INITIALIZATION_FAILED;
    }
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(pds[index], &props);
    (void)snprintf(device_name, name_size, "%s (driver version 0x%x, Vulkan %u.%u)",
                   props.deviceName, props.driverVersion, VK_API_VERSION_MAJOR(props.apiVersion),
                   VK_API_VERSION_MINOR(props.apiVersion));
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci = {
        VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, 0, 1, &priority};
    VkDeviceCreateInfo dci = {
        VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, NULL, 0, 1, &qci, 0, NULL, 0, NULL, NULL};
    r = vkCreateDevice(pds[index], &dci, NULL, &sd->device);
    if (r != VK_SUCCESS) {
        fprintf(stderr, "vkCreateDevice: %d\n", r);
        return r;
    }
    /* The device's own entry points: what an application that cares for speed calls. */
    sd->create = (PFN_vkCreateShaderModule)vkGetDeviceProcAddr(sd->device, "vkCreateShaderModule");
    sd->destroy =
        (PFN_vkDestroyShaderModule)vkGetDeviceProcAddr(sd->device, "vkDestroyShaderModule");
    return sd->create != NULL && sd->destroy != NULL ? VK_SUCCESS : VK_ERROR_INITIALIZATION_FAILED;
}

static void side_free(side *sd)
{
    if (sd->device != VK_NULL_HANDLE) vkDestroyDevice(sd->device, NULL);
    if (sd->instance != VK_NULL_HANDLE) vkDestroyInstance(sd->instance, NULL);
}

/* One pass: `copies` times every module of `s`; adds its wall and CPU microseconds to
 * `*wall` / `*cpu`.  Returns 0, or -1 if a call failed. */
static int pass(const side *sd, const set *s, size_t copies, VkShaderModule *handles, double *wall,
                double *cpu)
{
    size_t made = 0;
    VkResult r = VK_SUCCESS;
    double w0 = clock_us(CLOCK_MONOTONIC), c0 = clock_us(CLOCK_THREAD_CPUTIME_ID);
    for (size_t k = 0; k < copies && r == VK_SUCCESS; ++k)
        for (size_t i = 0; i < s->count && r == VK_SUCCESS; ++i) {
            VkShaderModuleCreateInfo ci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0,
                                           s->mods[i].size, s->mods[i].words};
            r = sd->create(sd->device, &ci, NULL, &handles[made]);
            if (r == VK_SUCCESS) ++made;
        }
    double c1 = clock_us(CLOCK_THREAD_CPUTIME_ID), w1 = clock_us(CLOCK_MONOTONIC);
    for (size_t i = 0; i < made; ++i)
        sd->destroy(sd->device, handles[i], NULL);
    *wall = w1 - w0;
    *cpu = c1 - c0;
    if (r != VK_SUCCESS) fprintf(stderr, "%s: vkCreateShaderModule: %d\n", s->name, r);
    return r == VK_SUCCESS ? 0 : -1;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Lines of the layer's log `path` that record a vkCreateShaderModule call. */
static long log_calls(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) return -1;
    char line[8192];
    long n = 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (strstr(line, "spvbc-layer: vkCreateShaderModule: in xxh64=") != NULL) ++n;
    (void)fclose(f);
    return n;
}

/* Makes the loader find the layer in `dir` (or in this program's own folder). */
static void find_layer_in(const char *dir)
{
    char self[PATH_MAX];
    if (dir == NULL) {
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n <= 0) return;
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash == NULL) return;
        *slash = '\0';
        dir = self;
    }
    (void)setenv("VK_ADD_LAYER_PATH", dir, 1);
    (void)setenv("VK_LAYER_PATH", dir, 1);
    /* Each instance says for itself whether it wants the layer. */
    if (getenv("VK_INSTANCE_LAYERS") != NULL) {
        fprintf(stderr, "note: VK_INSTANCE_LAYERS unset for this run\n");
        (void)unsetenv("VK_INSTANCE_LAYERS");
    }
}

static int layer_present(void)
{
    VkLayerProperties props[64];
    uint32_t n = 64;
    VkResult r = vkEnumerateInstanceLayerProperties(&n, props);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) return 0;
    for (uint32_t i = 0; i < n; ++i)
        if (strcmp(props[i].layerName, LAYER) == 0) return 1;
    return 0;
}

static set g_sets[MAX_SETS];

int main(int argc, char **argv)
{
    long rounds = 200;
    const char *layer_dir = NULL;
    size_t nsets = 0;
    int rc = 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int a = 1; a < argc; ++a) {
        if (strcmp(argv[a], "--rounds") == 0 && a + 1 < argc) {
            rounds = strtol(argv[++a], NULL, 10);
        } else if (strcmp(argv[a], "--layer-dir") == 0 && a + 1 < argc) {
            layer_dir = argv[++a];
        } else if (strchr(argv[a], '=') != NULL && nsets < MAX_SETS) {
            set *s = &g_sets[nsets++];
            *strchr(argv[a], '=') = '\0';
            s->name = argv[a];
            if (add_path(s, argv[a] + strlen(argv[a]) + 1) != 0) return 1;
        } else {
            nsets = 0;
            break;
        }
    }
    if (nsets == 0 || rounds < 1) {
        fprintf(stderr, "usage: %s [--rounds N] [--layer-dir DIR] NAME=FILE|FOLDER...\n", argv[0]);
        return 2;
    }
    find_layer_in(layer_dir);
#if defined(SPVBC_TEST_KEEP_DRIVERS)
    spvbc_vk_keep_drivers_mapped();
#endif
    if (!layer_present()) {
        printf("SKIP: the loader does not find %s (VK_ADD_LAYER_PATH=%s)\n", LAYER,
               getenv("VK_ADD_LAYER_PATH"));
        return 77;
    }
    const char *envdev = getenv("SPVBC_BENCH_DEVICE");
    uint32_t index = envdev != NULL ? (uint32_t)strtoul(envdev, NULL, 10) : 0u;
    side without = {0}, with = {0};
    char name[512] = "", name2[512] = "";
    if (side_make(&without, 0, index, name, sizeof name) != VK_SUCCESS ||
        side_make(&with, 1, index, name2, sizeof name2) != VK_SUCCESS) {
        side_free(&with);
        side_free(&without);
        printf("SKIP: no Vulkan device to measure on\n");
        return 77;
    }
    const char *log = getenv("SPVBC_LAYER_LOG");
    const char *log_kind = log == NULL || *log == '\0' || strcmp(log, "stderr") == 0 ? "stderr"
                           : strcmp(log, "off") == 0                                 ? "off"
                                                                                     : "file";
    printf("device %u: %s; layer log: %s, mode: %s\n", index, name,
           log != NULL && *log != '\0' ? log : "stderr",
           getenv("SPVBC_LAYER_MODE") != NULL ? getenv("SPVBC_LAYER_MODE") : "lower");
    long logged_before = log != NULL && *log == '/' ? log_calls(log) : -1;
    long through = 0;
    for (size_t si = 0; si < nsets && rc == 0; ++si) {
        const set *s = &g_sets[si];
        size_t copies = (MIN_CALLS_PER_PASS + s->count - 1) / s->count;
        size_t calls = copies * s->count;
        VkShaderModule *handles = malloc(calls * sizeof *handles);
        double *t = malloc((size_t)rounds * 4u * sizeof *t);
        if (handles == NULL || t == NULL) {
            free(handles);
            free(t);
            return 1;
        }
        double *wall0 = t, *cpu0 = t + rounds, *wall1 = t + 2 * rounds, *cpu1 = t + 3 * rounds;
        /* warm-up: the allocator's and the layer's pools filled, the code paged in */
        for (long i = 0; i < 3 && rc == 0; ++i)
            rc = pass(&without, s, copies, handles, &wall0[0], &cpu0[0]) |
                 pass(&with, s, copies, handles, &wall1[0], &cpu1[0]);
        through += 3 * (long)calls;
        for (long i = 0; i < rounds && rc == 0; ++i) {
            const side *first = (i % 2) ? &with : &without;
            const side *second = (i % 2) ? &without : &with;
            double w[2], c[2];
            rc = pass(first, s, copies, handles, &w[0], &c[0]) |
                 pass(second, s, copies, handles, &w[1], &c[1]);
            int wi = (i % 2) ? 1 : 0; /* index of the pass without the layer */
            wall0[i] = w[wi] / (double)calls;
            cpu0[i] = c[wi] / (double)calls;
            wall1[i] = w[1 - wi] / (double)calls;
            cpu1[i] = c[1 - wi] / (double)calls;
            through += (long)calls;
        }
        if (rc == 0) {
            /* median() sorts: each array's first element is then its minimum */
            double mw0 = median(wall0, (size_t)rounds), mc0 = median(cpu0, (size_t)rounds);
            double mw1 = median(wall1, (size_t)rounds), mc1 = median(cpu1, (size_t)rounds);
            printf("%s: %zu modules, %zu bytes; %zu calls a pass, %ld rounds\n", s->name, s->count,
                   s->bytes, calls, rounds);
            printf("%s: without the layer: median %.2f us per call (wall), %.2f us (CPU); min "
                   "%.2f us (wall)\n",
                   s->name, mw0, mc0, wall0[0]);
            printf("%s: through the layer: median %.2f us per call (wall), %.2f us (CPU); min "
                   "%.2f us (wall)\n",
                   s->name, mw1, mc1, wall1[0]);
            printf("%s: through / without: %.2fx wall, %.2fx CPU (medians); %.2fx wall (minima)\n",
                   s->name, mw1 / mw0, mc1 / mc0, wall1[0] / wall0[0]);
            printf("RESULT %s %s %zu %zu %.3f %.3f %.3f %.3f %.3f %.3f\n", s->name, log_kind,
                   s->count, s->bytes, mw0, mw1, mw1 / mw0, mc0, mc1, mc1 / mc0);
        }
        free(handles);
        free(t);
    }
    side_free(&with);
    side_free(&without);
    if (rc == 0) printf("calls through the layer: %ld\n", through);
    if (rc == 0 && logged_before >= 0) {
        long logged = log_calls(log) - logged_before;
        printf("layer log: %ld vkCreateShaderModule lines for %ld calls through the layer\n",
               logged, through);
        const char *level = getenv("SPVBC_LAYER_LOG_LEVEL");
        if (level != NULL && strcmp(level, "all") == 0 && logged != through) {
            printf("FAIL: the layer did not log every call made through it\n");
            rc = 1;
        }
    }
    return rc == 0 ? 0 : 1;
}
