/* The backend registry: the only place that names the backends.  Finds
 * backend modules, loads them with dlopen, says why one cannot be used,
 * and fills the optional vtable entries a module leaves NULL with
 * defaults, so that callers never test an entry for NULL. */
#ifndef SB_REGISTRY_H
#define SB_REGISTRY_H

#include <stddef.h>

#include "backend.h"

/* Which optional entries the module itself provides.  The others are the
 * registry's defaults, which give the documented "cannot" answer: -1 from
 * compile_offline, program_ptx, occupancy, vendor_transpose, fill, batch_begin,
 * batch_end, launch_counted, clocks, launch_queued and vendor_sgemm, every
 * field -1 from kernel_resources, and memory "not known" (0, both counts 0).
 * A default sets no last_error(): where the absence itself is worth saying,
 * the caller says it from these flags. */
typedef struct sb_backend_provides {
    int compile_offline;
    int program_ptx;
    int occupancy;
    int kernel_resources;
    int vendor_transpose; /* built with a vendor library */
    int batch;            /* batch_begin and batch_end: times back-to-back launches */
    int memory;           /* says how much device memory is free */
    int fill;             /* fills a buffer on the device */
    int host_alloc;       /* host_alloc and host_free: page-locked host memory */
    int launch_counted;   /* hardware counters of a profiled launch */
    int clocks;           /* reads the device's current clocks */
    int launch_queued;    /* launches for the host's clock, without events */
    int vendor_sgemm;     /* built with a vendor matrix multiply */
} sb_backend_provides;

typedef struct sb_backend_slot {
    char name[16];
    void *handle;           /* dlopen handle, NULL when not loaded */
    const sb_backend *vt;   /* &ops once loaded, NULL when not loaded */
    sb_backend ops;         /* the module's vtable with the defaults filled in */
    sb_backend_provides provides;
    int available;          /* loaded and probe() succeeded */
    int found;              /* the module file exists (loaded or not) */
    char path[512];         /* the module file that was loaded */
    char reason[1200];      /* why not available */
} sb_backend_slot;

/* The backends this program knows, in their default order. */
extern const char *const sb_known_backends[];
extern const int sb_nknown_backends;

/* Whether name is a backend this program knows (loaded or not). */
int sb_registry_knows(const char *name);

/* Whether configure built the named backend's module in this build
 * (installed since or not). */
int sb_registry_built(const char *name);

/* Whether this simtbench has the slot's backend, usable or not: its
 * module was found, or this build made it (a module removed since, a
 * distribution's package not installed).  A default run names every such
 * backend that cannot run; one neither built nor found it leaves out. */
int sb_registry_has(const sb_backend_slot *slot);

/* The known backends' names as "a, b" into buf, for messages. */
void sb_registry_names(char *buf, size_t n);

/* The folders the named backend's module is looked for in, in order, as
 * "DIR, DIR" into buf (for --version). */
void sb_registry_module_path(const char *name, char *buf, size_t n);

/* Fill the optional entries vt leaves NULL with the registry's defaults;
 * *provides says which ones vt had.  sb_registry_load does this. */
void sb_registry_fill_defaults(sb_backend *vt, sb_backend_provides *provides);

/* Start the child probes of the named backends' modules at once, each in
 * a process of its own, so that a run opening several backends waits for
 * the slowest, not for their sum; sb_registry_load then takes each
 * module's answer from its child.  sb_registry_preprobe_reap waits for
 * any child no load asked about. */
void sb_registry_preprobe(const char *const *names, int n);
void sb_registry_preprobe_reap(void);

/* Load and probe the named backend; always fills slot (reason on failure).
 * Returns 0 when the backend is available. */
int sb_registry_load(const char *name, sb_backend_slot *slot);

/* Another slot for the backend loaded in *from, for another of its
 * devices: a copy whose module is referenced once more, so that
 * sb_registry_unload of each releases its own; nothing is probed again.
 * 0, or -1 (to not loaded, the reason in it) where *from is not loaded
 * or the module cannot be referenced again. */
int sb_registry_share(const sb_backend_slot *from, sb_backend_slot *to);

/* Unload a slot filled by sb_registry_load. */
void sb_registry_unload(sb_backend_slot *slot);

/* The backend's last_error(), or a reason of the frontend's own when the
 * module gave none (NULL or empty): every message about a failed backend
 * call takes its reason from here. */
const char *sb_registry_error(const sb_backend *vt);

/* The available backend's devices into out[0..max): the count (at most
 * max, whatever the module claims), or -1 when it cannot say.  Every
 * string ends inside its field. */
int sb_registry_enumerate(const sb_backend_slot *slot, sb_device_info *out, int max);

/* Open a device on the available backend, described in *info with every
 * string ending inside its field; 0, or -1 with the reason in
 * sb_registry_error(slot->vt). */
int sb_registry_open(const sb_backend_slot *slot, const sb_device_request *req, sb_device **dev,
                     sb_device_info *info);

#endif
