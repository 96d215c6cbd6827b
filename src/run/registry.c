#include "run/registry.h"

#include "run/self_path.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const sb_known_backends[] = {"cuda", "opencl"};
const int sb_nknown_backends = 2;

/* The installed module directory comes first; the build tree's is a last
 * resort, so that `./simtbench` works before `make install`. */
static int find_module(const char *name, char *path, size_t n)
{
    char file[64];
    snprintf(file, sizeof file, "simtbench_%s.so", name);

    const char *env = getenv("SIMTBENCH_BACKEND_PATH");
    if (env && *env) {
        char *copy = strdup(env);
        if (!copy)
            return -1;
        for (char *save = NULL, *dir = strtok_r(copy, ":", &save); dir;
             dir = strtok_r(NULL, ":", &save)) {
            snprintf(path, n, "%s/%s", dir, file);
            if (access(path, R_OK) == 0) {
                free(copy);
                return 0;
            }
        }
        free(copy);
    }
    snprintf(path, n, "%s/%s", SB_PKGLIBDIR, file);
    if (access(path, R_OK) == 0)
        return 0;
    /* An uninstalled build: the module beside the program, in the build tree. */
    char self[400];
    if (sb_self_dir(self, sizeof self) == 0) {
        snprintf(path, n, "%s/%s/.libs/%s", self, name, file);
        if (access(path, R_OK) == 0)
            return 0;
    }
    return -1;
}

int sb_registry_load(const char *name, sb_backend_slot *slot)
{
    memset(slot, 0, sizeof *slot);
    snprintf(slot->name, sizeof slot->name, "%s", name);

    if (find_module(name, slot->path, sizeof slot->path)) {
        snprintf(slot->reason, sizeof slot->reason,
                 "the %s backend module simtbench_%s.so is not installed (was it built? "
                 "configure --with-%s)",
                 name, name, name);
        return -1;
    }
    slot->handle = dlopen(slot->path, RTLD_NOW | RTLD_LOCAL);
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
    if (vt->abi != SB_BACKEND_ABI) {
        snprintf(slot->reason, sizeof slot->reason,
                 "%s implements backend ABI %d, this simtbench needs %d (mixed installations?)",
                 slot->path, vt->abi, SB_BACKEND_ABI);
        sb_registry_unload(slot);
        return -1;
    }
    slot->vt = vt;
    if (vt->probe() != 0) {
        snprintf(slot->reason, sizeof slot->reason, "%s", vt->last_error());
        return -1;
    }
    slot->available = 1;
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
