/* `simtbench --list` (cmd_list.h).  Every line keeps within the terminal
 * table's width (report/layout.h): the names in columns as wide as the
 * longest, the descriptions, variant lists and reasons folded beside them. */
#include "cli/cmd_list.h"

#include <stdlib.h>
#include <string.h>

#include "experiments/catalogue.h"
#include "report/layout.h"
#include "exec/registry.h"

/* The variants listed by name, at most; the count says how many there are. */
#define LISTED_VARIANTS 12

/* The widths of the name and family columns: the longest of each. */
static void name_widths(int *name, int *family)
{
    *name = *family = 0;
    for (int i = 0; i < sb_catalogue_count(); i++) {
        const sb_experiment *e = sb_catalogue_get(i);
        int n = sb_layout_text_width(e->name), f = sb_layout_text_width(e->family);
        *name = n > *name ? n : *name;
        *family = f > *family ? f : *family;
    }
}

/* "variants (N, D by default): a b c ...": the first LISTED_VARIANTS, or
 * as many as fit in `room` columns. */
static void variant_list(const sb_experiment *e, sb_variant *vs, int room, char *buf, size_t n)
{
    int count = vs ? e->variants(vs, SB_MAX_VARIANTS) : 0, by_default = 0, j;
    for (j = 0; j < count; j++)
        by_default += vs[j].in_default;
    int used = snprintf(buf, n, "variants (%d, %d by default):", count, by_default);
    for (j = 0; j < count && j < LISTED_VARIANTS; j++) {
        int more = j + 1 < count ? 4 : 0; /* room left for " ..." */
        int w = 1 + sb_layout_text_width(vs[j].name);
        if (used + w + more > room || (size_t)(used + w) >= n)
            break;
        used += snprintf(buf + used, n - (size_t)used, " %s", vs[j].name);
    }
    if (j < count && (size_t)used + 4 < n)
        snprintf(buf + used, n - (size_t)used, " ...");
}

static void list_experiments(FILE *f, int width)
{
    fprintf(f, "Experiments (--experiment NAME or FAMILY):\n");
    sb_variant *vs = calloc(SB_MAX_VARIANTS, sizeof *vs);
    int name, family;
    name_widths(&name, &family);
    const int indent = 2 + name + 1 + family + 1;
    for (int i = 0; i < sb_catalogue_count(); i++) {
        const sb_experiment *e = sb_catalogue_get(i);
        char first[128], text[1024];
        snprintf(first, sizeof first, "  %-*s %-*s ", name, e->name, family, e->family);
        snprintf(text, sizeof text, "%s%s", e->summary,
                 e->in_default ? "" : " (not in the default suite)");
        sb_layout_fold(f, width, first, indent + 2, text);
        variant_list(e, vs, width - indent, text, sizeof text);
        snprintf(first, sizeof first, "%*s", indent, "");
        sb_layout_fold(f, width, first, indent + 2, text);
    }
    free(vs);
}

static void list_backends(FILE *f, int width)
{
    fprintf(f, "\nBackends:\n");
    for (int b = 0; b < sb_nknown_backends; b++) {
        sb_backend_slot slot;
        char first[32], text[2048];
        sb_registry_load(sb_known_backends[b], &slot);
        snprintf(first, sizeof first, "  %-8s ", slot.name);
        if (!slot.available) {
            snprintf(text, sizeof text, "unavailable: %s", slot.reason);
            sb_layout_fold(f, width, first, 13, text);
            sb_registry_unload(&slot);
            continue;
        }
        /* "available (" stays with the name: a path too long for the line
           is cut, never moved whole to the next. */
        snprintf(first, sizeof first, "  %-8s available (", slot.name);
        snprintf(text, sizeof text, "%s)", slot.path);
        sb_layout_fold(f, width, first, 13, text);
        sb_device_info infos[32];
        int n = sb_registry_enumerate(&slot, infos, 32);
        for (int i = 0; i < n; i++) {
            char pci[48] = "", uuid[48] = "";
            if (infos[i].pci_bus_id[0])
                snprintf(pci, sizeof pci, ", PCI %s", infos[i].pci_bus_id);
            if (infos[i].uuid[0])
                snprintf(uuid, sizeof uuid, ", UUID %s", infos[i].uuid);
            snprintf(text, sizeof text, "platform %d device %d: %s [%s] %s, driver %s%s%s%s",
                     infos[i].platform_index, infos[i].device_index, infos[i].name,
                     infos[i].platform, infos[i].api_version, infos[i].driver,
                     infos[i].is_gpu ? ", GPU" : "", pci, uuid);
            sb_layout_fold(f, width, "           ", 13, text);
        }
        sb_registry_unload(&slot);
    }
}

void sb_cmd_list(FILE *f)
{
    const int width = sb_layout_width();
    list_experiments(f, width);
    list_backends(f, width);
}
