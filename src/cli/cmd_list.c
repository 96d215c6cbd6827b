/* `simtbench --list` (cmd_list.h). */
#include "cli/cmd_list.h"

#include <stdlib.h>

#include "experiments/catalogue.h"
#include "run/registry.h"

static void list_experiments(FILE *f)
{
    fprintf(f, "Experiments (--experiment NAME or FAMILY):\n");
    sb_variant *vs = calloc(SB_MAX_VARIANTS, sizeof *vs);
    for (int i = 0; i < sb_catalogue_count(); i++) {
        const sb_experiment *e = sb_catalogue_get(i);
        int n = vs ? e->variants(vs, SB_MAX_VARIANTS) : 0, d = 0;
        for (int j = 0; j < n; j++)
            d += vs[j].in_default;
        fprintf(f, "  %-14s %-10s %s%s\n", e->name, e->family, e->summary,
                e->in_default ? "" : " (not in the default suite)");
        fprintf(f, "  %-14s %-10s variants (%d, %d by default):", "", "", n, d);
        for (int j = 0; j < n && j < 12; j++)
            fprintf(f, " %s", vs[j].name);
        fprintf(f, "%s\n", n > 12 ? " ..." : "");
    }
    free(vs);
}

static void list_backends(FILE *f)
{
    fprintf(f, "\nBackends:\n");
    for (int b = 0; b < sb_nknown_backends; b++) {
        sb_backend_slot slot;
        sb_registry_load(sb_known_backends[b], &slot);
        if (!slot.available) {
            fprintf(f, "  %-8s unavailable: %s\n", slot.name, slot.reason);
            sb_registry_unload(&slot);
            continue;
        }
        fprintf(f, "  %-8s available (%s)\n", slot.name, slot.path);
        sb_device_info infos[32];
        int n = sb_registry_enumerate(&slot, infos, 32);
        for (int i = 0; i < n; i++)
            fprintf(f, "           platform %d device %d: %s [%s] %s, driver %s%s\n",
                    infos[i].platform_index, infos[i].device_index, infos[i].name,
                    infos[i].platform, infos[i].api_version, infos[i].driver,
                    infos[i].is_gpu ? ", GPU" : "");
        sb_registry_unload(&slot);
    }
}

void sb_cmd_list(FILE *f)
{
    list_experiments(f);
    list_backends(f);
}
