/* The backend registry: finds backend modules, loads them with dlopen and
 * says why one cannot be used. */
#ifndef SB_REGISTRY_H
#define SB_REGISTRY_H

#include <stddef.h>

#include "backend.h"

typedef struct sb_backend_slot {
    char name[16];
    void *handle;           /* dlopen handle, NULL when not loaded */
    const sb_backend *vt;   /* NULL when not loaded */
    int available;          /* loaded and probe() succeeded */
    char path[512];         /* the module file that was loaded */
    char reason[1200];      /* why not available */
} sb_backend_slot;

/* The backends this program knows, in their default order. */
extern const char *const sb_known_backends[];
extern const int sb_nknown_backends;

/* Load and probe the named backend; always fills slot (reason on failure).
 * Returns 0 when the backend is available. */
int sb_registry_load(const char *name, sb_backend_slot *slot);

/* Unload a slot filled by sb_registry_load. */
void sb_registry_unload(sb_backend_slot *slot);

#endif
