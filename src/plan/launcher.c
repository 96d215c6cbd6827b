/* The launcher's environment (launcher.h). */
#include "plan/launcher.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The first of the variables that is set, and its name; NULL where none is. */
static const char *first_set(const char *const *names, const char **which)
{
    for (int i = 0; names[i]; i++) {
        const char *v = getenv(names[i]);
        if (v && *v) {
            *which = names[i];
            return v;
        }
    }
    return NULL;
}

/* A task number: digits only, below a million. */
static long task_number(const char *s)
{
    char *end;
    errno = 0;
    long v = s[0] >= '0' && s[0] <= '9' ? strtol(s, &end, 10) : -1;
    return v >= 0 && !errno && !*end && v < 1000000 ? v : -1;
}

/* How many devices a visibility list names: its comma-separated entries. */
static int listed(const char *list)
{
    int count = 0;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        count += len > 0;
        p += len + (p[len] == ',');
    }
    return count;
}

int sb_launcher_device(char *err, size_t n)
{
    static const char *const locals[] = {"SLURM_LOCALID", "OMPI_COMM_WORLD_LOCAL_RANK",
                                         "PMI_LOCAL_RANK", NULL};
    static const char *const visible[] = {"CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", NULL};
    const char *local_name = NULL, *visible_name = NULL;
    const char *local = first_set(locals, &local_name), *seen = first_set(visible, &visible_name);
    if (!local) {
        snprintf(err, n, "--device auto: no launcher said which device is this task's "
                         "(SLURM_LOCALID, OMPI_COMM_WORLD_LOCAL_RANK and PMI_LOCAL_RANK are "
                         "unset); name one with --device N");
        return -1;
    }
    long id = task_number(local);
    if (id < 0) {
        snprintf(err, n, "--device auto: %s is '%.40s', not a task number", local_name, local);
        return -1;
    }
    int count = seen ? listed(seen) : 0;
    if (count == 1)
        return 0;
    if (count > 1 && id >= count) {
        snprintf(err, n, "--device auto: %s is %ld but %s names %d devices: more tasks than "
                         "devices on this node",
                 local_name, id, visible_name, count);
        return -1;
    }
    if (id > 1023) {
        snprintf(err, n, "--device auto: %s is %ld, past the last device index (1023)",
                 local_name, id);
        return -1;
    }
    return (int)id;
}

int sb_launcher_task(char *buf, size_t n)
{
    static const char *const ranks[] = {"SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
                                        NULL};
    const char *which = NULL, *v = first_set(ranks, &which);
    long id = v ? task_number(v) : -1;
    if (id < 0) {
        if (n)
            buf[0] = '\0';
        return -1;
    }
    snprintf(buf, n, "%ld", id);
    return 0;
}

void sb_save_values_here(sb_save_values *v, const char *device, char *host, char *job,
                         char *task, size_t n)
{
    memset(v, 0, sizeof *v);
    v->device = device;
    if (gethostname(host, n) == 0 && n > 0) {
        host[n - 1] = '\0';
        v->host = host;
    }
    const char *id = getenv("SLURM_JOB_ID");
    if (id && *id && n > 0) {
        snprintf(job, n, "%s", id);
        v->job = job;
    }
    if (sb_launcher_task(task, n) == 0)
        v->task = task;
}

/* What an escape letter stands for, and why it may be unknown. */
static const char *escape_value(char c, const sb_save_values *v, const char **unset)
{
    switch (c) {
    case 'h':
        *unset = "the host name cannot be read";
        return v->host;
    case 'd':
        *unset = "no device was named";
        return v->device;
    case 'j':
        *unset = "SLURM_JOB_ID is not set (not inside a Slurm job)";
        return v->job;
    case 't':
        *unset = "SLURM_PROCID, OMPI_COMM_WORLD_RANK and PMI_RANK are unset (not a task of "
                 "a launcher)";
        return v->task;
    default:
        *unset = NULL;
        return NULL;
    }
}

int sb_save_expand(const char *pattern, const sb_save_values *v, char *out, size_t n, char *err,
                   size_t en)
{
    size_t used = 0;
    for (const char *p = pattern; *p; p++) {
        const char *value = NULL, *unset = NULL;
        char one[2] = {*p, '\0'};
        if (*p != '%') {
            value = one;
        } else if (p[1] == '%') {
            value = "%";
            p++;
        } else if (!(value = escape_value(p[1], v, &unset))) {
            if (unset)
                snprintf(err, en, "--save: %%%c in '%s': %s", p[1], pattern, unset);
            else if (!p[1])
                snprintf(err, en, "--save: '%s' ends in a lone '%%' (%%%% is a percent sign)",
                         pattern);
            else
                snprintf(err, en, "--save: unknown escape '%%%c' in '%s' (known: %%h host, "
                                  "%%d device, %%j job, %%t task, %%%% a percent sign)",
                         p[1], pattern);
            return -1;
        } else {
            p++;
        }
        for (const char *c = value; *c; c++) {
            if (used + 1 >= n) {
                snprintf(err, en, "--save: '%s' expands to a path too long", pattern);
                return -1;
            }
            out[used++] = *c == '/' && value != one ? '_' : *c;
        }
    }
    if (n)
        out[used] = '\0';
    return 0;
}
