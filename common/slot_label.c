/* The short names of a run's device slots (slot_label.h). */
#include "slot_label.h"

#include <stdio.h>
#include <string.h>

#include "text.h"

/* Whether two devices were opened at one index of one platform. */
static int same_index(const sb_run_device *a, const sb_run_device *b)
{
    return a->info.platform_index == b->info.platform_index &&
           a->info.device_index == b->info.device_index;
}

/* Slot's label before any "#k": [host/]backend[:index]. */
static void base_label(const sb_run *run, int slot, int hosts, char *buf, size_t n)
{
    const sb_run_device *d = &run->devices[slot];
    const char *host = sb_run_device_host(run, slot);
    int indexed = 0, platforms = 0, addressed = 0;
    for (int i = 0; i < run->ndevices; i++) {
        const sb_run_device *o = &run->devices[i];
        if (strcmp(o->backend, d->backend) != 0 || strcmp(sb_run_device_host(run, i), host) != 0)
            continue;
        indexed |= !same_index(o, d);
        platforms |= o->info.platform_index != d->info.platform_index;
        /* Tasks a launcher bound to one GPU each all see it as device 0. */
        addressed |= o->info.pci_bus_id[0] && d->info.pci_bus_id[0] &&
                     strcmp(o->info.pci_bus_id, d->info.pci_bus_id) != 0;
    }
    int used = hosts ? snprintf(buf, n, "%s/", host) : 0;
    used = used < 0 || (size_t)used >= n ? 0 : used;
    /* The address without its domain, "3b:00.0", where every GPU's is 0000. */
    const char *bus = d->info.pci_bus_id, *colon = strchr(bus, ':');
    if (!indexed && addressed)
        snprintf(buf + used, n - (size_t)used, "%s@%s", d->backend,
                 colon && strncmp(bus, "0000:", 5) == 0 ? colon + 1 : bus);
    else if (!indexed)
        snprintf(buf + used, n - (size_t)used, "%s", d->backend);
    else if (platforms)
        snprintf(buf + used, n - (size_t)used, "%s:%d.%d", d->backend, d->info.platform_index,
                 d->info.device_index);
    else
        snprintf(buf + used, n - (size_t)used, "%s:%d", d->backend, d->info.device_index);
}

void sb_slot_labels(const sb_run *run, char (*labels)[SB_SLOT_LABEL])
{
    int count = run->ndevices < SB_RUN_MAX_DEVICES ? run->ndevices : SB_RUN_MAX_DEVICES;
    int hosts = 0;
    for (int i = 1; i < count; i++)
        hosts |= strcmp(sb_run_device_host(run, i), sb_run_device_host(run, 0)) != 0;
    for (int i = 0; i < count; i++)
        base_label(run, i, hosts, labels[i], SB_SLOT_LABEL);
    char base[SB_RUN_MAX_DEVICES][SB_SLOT_LABEL];
    memcpy(base, labels, sizeof base[0] * (size_t)count);
    for (int i = 0; i < count; i++) {
        int same = 0, nth = 0;
        for (int j = 0; j < count; j++)
            if (strcmp(base[j], base[i]) == 0) {
                same++;
                nth += j <= i;
            }
        if (same > 1) {
            size_t len = sb_utf8_cut(base[i], SB_SLOT_LABEL - 5);
            snprintf(labels[i] + len, SB_SLOT_LABEL - len, "#%d", nth);
        }
    }
}

void sb_slot_label(const sb_run *run, int slot, char *buf, size_t n)
{
    char labels[SB_RUN_MAX_DEVICES][SB_SLOT_LABEL];
    if (slot < 0 || slot >= run->ndevices || slot >= SB_RUN_MAX_DEVICES) {
        snprintf(buf, n, "?");
        return;
    }
    sb_slot_labels(run, labels);
    snprintf(buf, n, "%s", labels[slot]);
}
