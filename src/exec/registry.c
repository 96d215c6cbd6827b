/* The backend registry (registry.h). */
#include "exec/registry.h"

#include "plan/self_path.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib_search.h"
#include "text.h"

const char *const sb_known_backends[] = {"cuda", "opencl"};
const int sb_nknown_backends = 2;

int sb_registry_knows(const char *name)
{
    for (int b = 0; b < sb_nknown_backends; b++)
        if (strcmp(name, sb_known_backends[b]) == 0)
            return 1;
    return 0;
}

void sb_registry_names(char *buf, size_t n)
{
    size_t used = 0;
    if (n > 0)
        buf[0] = '\0';
    for (int b = 0; b < sb_nknown_backends && used < n; b++) {
        int w = snprintf(buf + used, n - used, "%s%s", b ? ", " : "", sb_known_backends[b]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* What configure said of the backends: the ones this build made
 * (SB_BUILT_BACKENDS, blank separated) and, in a packaged build, the
 * distribution package that provides each (SB_BACKEND_PACKAGES,
 * "NAME:PACKAGE" comma separated; empty in an unpackaged build). */
#ifndef SB_BUILT_BACKENDS
#define SB_BUILT_BACKENDS ""
#endif
#ifndef SB_BACKEND_PACKAGES
#define SB_BACKEND_PACKAGES ""
#endif

/* Whether name is an item of list (items "NAME" or "NAME:VALUE", between
 * blanks or commas); its VALUE into value (n bytes, "" when none). */
static int list_has(const char *list, const char *name, char *value, size_t n)
{
    size_t len = strlen(name);
    for (const char *at = list; *at;) {
        at += strspn(at, ", ");
        size_t item = strcspn(at, ", ");
        if (item >= len && strncmp(at, name, len) == 0 && (item == len || at[len] == ':')) {
            size_t vlen = item > len ? item - len - 1 : 0;
            if (n > 0)
                snprintf(value, n, "%.*s", (int)vlen, at + len + (item > len));
            return 1;
        }
        at += item;
    }
    return 0;
}

int sb_registry_built(const char *name)
{
    return list_has(SB_BUILT_BACKENDS, name, NULL, 0);
}

int sb_registry_has(const sb_backend_slot *slot)
{
    return slot->found || sb_registry_built(slot->name);
}

/* The folders a module is looked for in, in order: those of
 * SIMTBENCH_BACKEND_PATH, the installed module folder, and, as a last
 * resort so that `./simtbench` works before `make install`, the build
 * tree's folder beside the program. */
typedef struct module_dirs {
    int n;
    char dir[16][512];
} module_dirs;

static void add_dir(module_dirs *d, const char *dir, size_t len)
{
    if (len > 0 && d->n < (int)(sizeof d->dir / sizeof d->dir[0]) && len < sizeof d->dir[0])
        snprintf(d->dir[d->n++], sizeof d->dir[0], "%.*s", (int)len, dir);
}

static void module_dirs_of(const char *name, module_dirs *d)
{
    d->n = 0;
    const char *env = getenv("SIMTBENCH_BACKEND_PATH");
    for (const char *at = env ? env : ""; *at;) {
        size_t len = strcspn(at, ":");
        add_dir(d, at, len);
        at += len + (at[len] == ':');
    }
    add_dir(d, SB_PKGLIBDIR, strlen(SB_PKGLIBDIR));
    char self[400], dir[512];
    if (sb_self_dir(self, sizeof self) == 0) {
        snprintf(dir, sizeof dir, "%s/%s/.libs", self, name);
        add_dir(d, dir, strlen(dir));
    }
}

void sb_registry_module_path(const char *name, char *buf, size_t n)
{
    module_dirs d;
    module_dirs_of(name, &d);
    size_t used = 0;
    if (n > 0)
        buf[0] = '\0';
    for (int i = 0; i < d.n && used < n; i++) {
        int w = snprintf(buf + used, n - used, "%s%s", i ? ", " : "", d.dir[i]);
        used += w > 0 ? (size_t)w : 0;
    }
}

static int find_module(const char *name, const module_dirs *d, char *path, size_t n)
{
    for (int i = 0; i < d->n; i++) {
        snprintf(path, n, "%s/simtbench_%s.so", d->dir[i], name);
        if (access(path, R_OK) == 0)
            return 0;
    }
    path[0] = '\0';
    return -1;
}

/* Why no module was found: where the registry looked, and what brings it
 * there: the distribution's package, `make install` of this build, or a
 * build configured with it. */
static void missing_reason(sb_backend_slot *slot, const module_dirs *d)
{
    char dirs[900] = "", package[64], hint[200];
    for (int i = 0; i < d->n; i++) {
        size_t used = strlen(dirs);
        snprintf(dirs + used, sizeof dirs - used, "%s%s", i ? ", " : "", d->dir[i]);
    }
    if (list_has(SB_BACKEND_PACKAGES, slot->name, package, sizeof package) && package[0])
        snprintf(hint, sizeof hint, "install the package %s", package);
    else if (sb_registry_built(slot->name))
        snprintf(hint, sizeof hint,
                 "this simtbench was built with it: make install, or set "
                 "SIMTBENCH_BACKEND_PATH to the folder that holds it");
    else
        snprintf(hint, sizeof hint, "this simtbench was built without it: configure --with-%s",
                 slot->name);
    snprintf(slot->reason, sizeof slot->reason,
             "the %s backend module simtbench_%s.so is not installed: looked in %s (%s)",
             slot->name, slot->name, d->n ? dirs : "no folder", hint);
}

/* The defaults: each gives the answer backend.h documents for a backend
   that cannot do the thing. */
static int cannot_compile_offline(const char *source, const char *const *defines, int ndefines,
                                  const char *target, char **ptx)
{
    (void)source, (void)defines, (void)ndefines, (void)target;
    *ptx = NULL;
    return -1;
}

static int cannot_program_ptx(sb_program *prog, char **ptx)
{
    (void)prog;
    *ptx = NULL;
    return -1;
}

static int cannot_occupancy(sb_kernel *k, int block_threads, int *blocks_per_unit)
{
    (void)k, (void)block_threads, (void)blocks_per_unit;
    return -1;
}

/* Not a failure: the API says nothing, which is every field -1. */
static int unknown_kernel_resources(sb_kernel *k, sb_kernel_resources *out)
{
    (void)k;
    out->regs = -1;
    out->shared_bytes = -1;
    out->private_bytes = -1;
    return 0;
}

static int cannot_vendor_transpose(sb_buffer *dst, sb_buffer *src, int rows, int cols,
                                   double *ms)
{
    (void)dst, (void)src, (void)rows, (void)cols, (void)ms;
    return -1;
}

static int cannot_batch_begin(sb_device *dev, int max)
{
    (void)dev, (void)max;
    return -1;
}

static int cannot_batch_end(sb_device *dev)
{
    (void)dev;
    return -1;
}

static int cannot_fill(sb_buffer *dst, uint32_t word, size_t bytes)
{
    (void)dst, (void)word, (void)bytes;
    return -1;
}

static int cannot_host_alloc(sb_device *dev, size_t bytes, void **p)
{
    (void)dev, (void)bytes;
    *p = NULL;
    return -1;
}

static void cannot_host_free(sb_device *dev, void *p)
{
    (void)dev, (void)p;
}

static int cannot_launch_counted(sb_kernel *k, const sb_launch *geometry, const sb_arg *args,
                                 int nargs, double *counts)
{
    (void)k, (void)geometry, (void)args, (void)nargs, (void)counts;
    return -1;
}

static int cannot_clocks(sb_device *dev, int *sm_mhz, int *mem_mhz)
{
    (void)dev;
    *sm_mhz = *mem_mhz = 0;
    return -1;
}

static int cannot_launch_queued(sb_kernel *k, const sb_launch *geometry, const sb_arg *args,
                                int nargs, int count)
{
    (void)k, (void)geometry, (void)args, (void)nargs, (void)count;
    return -1;
}

static int cannot_vendor_sgemm(sb_buffer *c, sb_buffer *a, sb_buffer *b, int m, int n, int k,
                               double *ms)
{
    (void)c, (void)a, (void)b, (void)m, (void)n, (void)k, (void)ms;
    return -1;
}

/* Not a failure: the API cannot say, which is both 0. */
static int unknown_memory(sb_device *dev, uint64_t *free_bytes, uint64_t *total_bytes)
{
    (void)dev;
    *free_bytes = 0;
    *total_bytes = 0;
    return 0;
}

void sb_registry_fill_defaults(sb_backend *vt, sb_backend_provides *provides)
{
    memset(provides, 0, sizeof *provides);
#define SB_FILL(entry, fallback)                                                                 \
    do {                                                                                         \
        provides->entry = vt->entry != NULL;                                                     \
        if (!vt->entry)                                                                          \
            vt->entry = fallback;                                                                \
    } while (0)
    SB_FILL(compile_offline, cannot_compile_offline);
    SB_FILL(program_ptx, cannot_program_ptx);
    SB_FILL(occupancy, cannot_occupancy);
    SB_FILL(kernel_resources, unknown_kernel_resources);
    SB_FILL(vendor_transpose, cannot_vendor_transpose);
    SB_FILL(memory, unknown_memory);
    SB_FILL(fill, cannot_fill);
    SB_FILL(launch_counted, cannot_launch_counted);
    SB_FILL(clocks, cannot_clocks);
    SB_FILL(launch_queued, cannot_launch_queued);
    SB_FILL(vendor_sgemm, cannot_vendor_sgemm);
#undef SB_FILL
    if (!vt->vendor_transpose_name)
        vt->vendor_transpose_name = "";
    if (!vt->vendor_sgemm_name)
        vt->vendor_sgemm_name = "";
    /* Page-locked memory is a pair too: memory one cannot free is none. */
    provides->host_alloc = vt->host_alloc && vt->host_free;
    if (!provides->host_alloc) {
        vt->host_alloc = cannot_host_alloc;
        vt->host_free = cannot_host_free;
    }
    /* Batching is one capability: half of it is none. */
    provides->batch = vt->batch_begin && vt->batch_end;
    if (!provides->batch) {
        vt->batch_begin = cannot_batch_begin;
        vt->batch_end = cannot_batch_end;
    }
}

/* The first entry a module must provide and left NULL, or NULL when none. */
static const char *missing_required(const sb_backend *vt)
{
    const struct {
        const char *name;
        int present;
    } required[] = {
        {"name", vt->name != NULL},       {"prelude", vt->prelude != NULL},
        {"probe", vt->probe != NULL},     {"enumerate", vt->enumerate != NULL},
        {"open", vt->open != NULL},       {"close", vt->close != NULL},
        {"build", vt->build != NULL},     {"release_program", vt->release_program != NULL},
        {"kernel", vt->kernel != NULL},   {"release_kernel", vt->release_kernel != NULL},
        {"alloc", vt->alloc != NULL},     {"free", vt->free != NULL},
        {"upload", vt->upload != NULL},   {"download", vt->download != NULL},
        {"copy", vt->copy != NULL},       {"launch", vt->launch != NULL},
        {"last_error", vt->last_error != NULL},
    };
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!required[i].present)
            return required[i].name;
    return NULL;
}

/* The module's vtable, checked and copied into the slot with the defaults
   filled in; 0, or -1 with the reason in slot->reason. */
static int adopt_vtable(sb_backend_slot *slot, const sb_backend *vt)
{
    if (vt->abi != SB_BACKEND_ABI) {
        snprintf(slot->reason, sizeof slot->reason,
                 "%s implements backend ABI %d, this simtbench needs %d (mixed installations?)",
                 slot->path, vt->abi, SB_BACKEND_ABI);
        return -1;
    }
    const char *missing = missing_required(vt);
    if (missing) {
        snprintf(slot->reason, sizeof slot->reason,
                 "%s leaves the required backend entry '%s' empty (a broken module?)",
                 slot->path, missing);
        return -1;
    }
    slot->ops = *vt;
    sb_registry_fill_defaults(&slot->ops, &slot->provides);
    slot->vt = &slot->ops;
    return 0;
}

/* The children sb_registry_preprobe started, one per module, and how
 * each ended; probe_survives takes its answer from here when it has one. */
static struct {
    char path[4096];
    pid_t pid;
    int waited, status;
} early[8];
static int nearly;

/* In a child: vt's probe and enumeration, then _exit(0).  The child's own
   words (a sanitizer's report of a crash, a platform's chatter) are not
   the user's: they go to /dev/null, and the parent says why. */
_Noreturn static void probe_in_child(const sb_backend *vt)
{
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
    }
    sb_device_info infos[4];
    if (vt && vt->probe() == 0)
        vt->enumerate(infos, 4);
    _exit(0);
}

/* In a child: the module at path loaded, and probed as above where it is
   one of this ABI (sb_registry_load says why when it is not). */
_Noreturn static void probe_child(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    const sb_backend *vt = h ? dlsym(h, SB_BACKEND_SYMBOL) : NULL;
    probe_in_child(vt && vt->abi == SB_BACKEND_ABI && vt->probe && vt->enumerate ? vt : NULL);
}

void sb_registry_preprobe(const char *const *names, int n)
{
    fflush(NULL);
    for (int i = 0; i < n && nearly < (int)(sizeof early / sizeof early[0]); i++) {
        module_dirs dirs;
        char path[4096], why[256];
        module_dirs_of(names[i], &dirs);
        if (find_module(names[i], &dirs, path, sizeof path) ||
            sb_lib_path_hazard(why, sizeof why) || sb_lib_check(path, why, sizeof why))
            continue; /* sb_registry_load says why */
        int known = 0;
        for (int j = 0; j < nearly; j++)
            known |= strcmp(early[j].path, path) == 0;
        if (known)
            continue;
        pid_t pid = fork();
        if (pid == 0)
            probe_child(path);
        if (pid < 0)
            continue;
        snprintf(early[nearly].path, sizeof early[nearly].path, "%s", path);
        early[nearly].pid = pid;
        early[nearly++].waited = 0;
    }
}

void sb_registry_preprobe_reap(void)
{
    for (int j = 0; j < nearly; j++)
        while (!early[j].waited && waitpid(early[j].pid, &early[j].status, 0) < 0)
            if (errno != EINTR)
                break;
    nearly = 0;
}

/* How the early child of path ended: 1 and *status, or 0 when none ran. */
static int early_status(const char *path, int *status)
{
    for (int j = 0; j < nearly; j++) {
        if (strcmp(early[j].path, path) != 0)
            continue;
        while (!early[j].waited && waitpid(early[j].pid, &early[j].status, 0) < 0)
            if (errno != EINTR)
                return 0;
        early[j].waited = 1;
        *status = early[j].status;
        return 1;
    }
    return 0;
}

static int child_survived(sb_backend_slot *slot, int status);

/* Whether the backend's probe and enumeration survive, tried first in a
 * child process: they load libraries of their own (the driver, an OpenCL
 * platform's ICD and what it needs), and one that is damaged kills the
 * process inside dlopen, where no error can be returned.  The child's
 * death is the backend's reason; the parent never calls it. */
static int probe_survives(sb_backend_slot *slot)
{
    int status;
    if (early_status(slot->path, &status))
        return child_survived(slot, status);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return 1; /* cannot tell: go on as before */
    if (pid == 0)
        probe_in_child(slot->vt);
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return 1;
    return child_survived(slot, status);
}

/* The child ends with _exit(0); anything else (a signal, or a crash
   handler's exit, as a sanitizer's) means it did not survive. */
static int child_survived(sb_backend_slot *slot, int status)
{
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 1;
    char how[48];
    if (WIFSIGNALED(status))
        snprintf(how, sizeof how, "signal %d", WTERMSIG(status));
    else
        snprintf(how, sizeof how, "exit status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    snprintf(slot->reason, sizeof slot->reason,
             "damaged: loading the %s platform's libraries killed the process (%s); "
             "check LD_LIBRARY_PATH and the installed driver",
             slot->name, how);
    sb_registry_unload(slot);
    return 0;
}

int sb_registry_load(const char *name, sb_backend_slot *slot)
{
    memset(slot, 0, sizeof *slot);
    snprintf(slot->name, sizeof slot->name, "%s", name);

    module_dirs dirs;
    module_dirs_of(name, &dirs);
    if (find_module(name, &dirs, slot->path, sizeof slot->path)) {
        missing_reason(slot, &dirs);
        return -1;
    }
    slot->found = 1;
    /* The module's own dependencies and the libraries its platform loads
       (a driver, an ICD and what it needs) are found by name through the
       loader, in code that checks nothing first: a FIFO named like a
       library on LD_LIBRARY_PATH would block the process there for good
       (NVIDIA's OpenCL ICD opening libcuda.so.1), so none is loaded. */
    if (sb_lib_path_hazard(slot->reason, sizeof slot->reason))
        return -1;
    /* A file cut short is mapped past its end by dlopen, which dies of
       SIGBUS before it can return an error: look at it first. */
    if (sb_lib_check(slot->path, slot->reason, sizeof slot->reason))
        return -1;
    /* Kept mapped until the process ends (RTLD_NODELETE), so that what the
       module's libraries hold at exit is still theirs to a leak checker. */
    slot->handle = dlopen(slot->path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!slot->handle) {
        snprintf(slot->reason, sizeof slot->reason, "cannot load %s: %s", slot->path, dlerror());
        return -1;
    }
    const sb_backend *vt = dlsym(slot->handle, SB_BACKEND_SYMBOL);
    if (!vt) {
        snprintf(slot->reason, sizeof slot->reason, "%s exports no %s", slot->path,
                 SB_BACKEND_SYMBOL);
        sb_registry_unload(slot);
        return -1;
    }
    if (adopt_vtable(slot, vt)) {
        sb_registry_unload(slot);
        return -1;
    }
    if (!probe_survives(slot))
        return -1;
    if (slot->vt->probe() != 0) {
        snprintf(slot->reason, sizeof slot->reason, "%s", sb_registry_error(slot->vt));
        return -1;
    }
    slot->available = 1;
    return 0;
}

int sb_registry_share(const sb_backend_slot *from, sb_backend_slot *to)
{
    *to = *from;
    to->handle = NULL;
    to->vt = NULL;
    to->available = 0;
    if (!from->handle || !from->vt) {
        snprintf(to->reason, sizeof to->reason, "the %s backend is not loaded", from->name);
        return -1;
    }
    to->handle = dlopen(from->path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!to->handle) {
        snprintf(to->reason, sizeof to->reason, "cannot load %s again: %s", from->path,
                 dlerror());
        return -1;
    }
    to->vt = &to->ops; /* the copy's own vtable, not the one it was copied from */
    to->available = from->available;
    return 0;
}

void sb_registry_unload(sb_backend_slot *slot)
{
    if (slot->handle)
        dlclose(slot->handle);
    slot->handle = NULL;
    slot->vt = NULL;
    slot->available = 0;
}

const char *sb_registry_error(const sb_backend *vt)
{
    const char *why = vt->last_error();
    return why && *why ? why : "the module gave no reason";
}

/* A backend may fill a string field to its last byte: every one ends
   inside its field, cut between two UTF-8 characters. */
static void terminate_strings(sb_device_info *info)
{
    char *fields[] = {info->platform, info->name,  info->vendor,    info->driver,
                      info->api_version, info->arch, info->cache_name, info->pci_bus_id,
                      info->uuid};
    size_t sizes[] = {sizeof info->platform, sizeof info->name,  sizeof info->vendor,
                      sizeof info->driver,   sizeof info->api_version, sizeof info->arch,
                      sizeof info->cache_name, sizeof info->pci_bus_id, sizeof info->uuid};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        char *f = fields[i];
        unsigned char dropped = (unsigned char)f[sizes[i] - 1];
        f[sizes[i] - 1] = '\0';
        /* The byte given up went on with a character: the rest of it goes. */
        if ((dropped & 0xc0) == 0x80)
            f[sb_utf8_cut(f, sizes[i] - 2)] = '\0';
    }
}

int sb_registry_enumerate(const sb_backend_slot *slot, sb_device_info *out, int max)
{
    if (!slot->available || max <= 0)
        return -1;
    memset(out, 0, sizeof *out * (size_t)max);
    int n = slot->vt->enumerate(out, max);
    if (n < 0)
        return -1;
    if (n > max)
        n = max;
    for (int i = 0; i < n; i++)
        terminate_strings(&out[i]);
    return n;
}

int sb_registry_open(const sb_backend_slot *slot, const sb_device_request *req, sb_device **dev,
                     sb_device_info *info)
{
    memset(info, 0, sizeof *info);
    *dev = NULL;
    if (slot->vt->open(req, dev, info))
        return -1;
    terminate_strings(info);
    return 0;
}
