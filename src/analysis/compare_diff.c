#include "analysis/compare_diff.h"

#include <stdio.h>
#include <string.h>

#include "analysis/crossapi.h"

static int add_diff(sb_difference *d, int nd, int max, const char *what, const char *a,
                    const char *b)
{
    if (nd >= max || strcmp(a, b) == 0)
        return nd;
    snprintf(d[nd].what, sizeof d[nd].what, "%s", what);
    snprintf(d[nd].old_value, sizeof d[nd].old_value, "%s", a[0] ? a : "(none)");
    snprintf(d[nd].new_value, sizeof d[nd].new_value, "%s", b[0] ? b : "(none)");
    return nd + 1;
}

int sb_compare_differences(const sb_run *o, const sb_run *n, sb_difference *d, int max)
{
    int nd = 0;
    nd = add_diff(d, nd, max, "tool version", o->tool_version, n->tool_version);
    nd = add_diff(d, nd, max, "host", o->host, n->host);
    nd = add_diff(d, nd, max, "date", o->date, n->date);
    const sb_run *runs[2] = {o, n};
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < runs[side]->ndevices; i++) {
            char label[SB_SLOT_LABEL], what[96];
            sb_slot_label(runs[side], i, label, sizeof label);
            int j, found = -1;
            const sb_run *other = runs[1 - side];
            for (j = 0; j < other->ndevices && found < 0; j++) {
                char l2[SB_SLOT_LABEL];
                sb_slot_label(other, j, l2, sizeof l2);
                if (strcmp(label, l2) == 0)
                    found = j;
            }
            const sb_device_info *a = &runs[side]->devices[i].info;
            if (found < 0) {
                snprintf(what, sizeof what, "%s device", label);
                nd = side == 0 ? add_diff(d, nd, max, what, a->name, "")
                               : add_diff(d, nd, max, what, "", a->name);
                continue;
            }
            if (side == 1)
                continue; /* matched devices were compared from the old side */
            const sb_device_info *b = &n->devices[found].info;
            const struct {
                const char *what;
                const char *a, *b;
            } fields[] = {{"device", a->name, b->name},
                          {"platform", a->platform, b->platform},
                          {"API", a->api_version, b->api_version},
                          {"driver", a->driver, b->driver},
                          {"arch", a->arch, b->arch}};
            for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
                snprintf(what, sizeof what, "%s %s", label, fields[f].what);
                nd = add_diff(d, nd, max, what, fields[f].a, fields[f].b);
            }
        }
    return nd;
}
