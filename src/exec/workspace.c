/* The shared part of one experiment on one session (workspace.h). */
#include "exec/workspace.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "experiments/variant.h"
#include "experiments/host_data.h"
#include "exec/progress.h"
#include "exec/registry.h"

#define SB_MAX_CACHED_INPUTS 8

struct sb_workspace {
    const sb_backend *vt;
    sb_device *dev;
    int nprograms;
    struct {
        char key[SB_MAX_DEFINES * SB_DEFINE_LEN + 8];
        sb_program *prog;
        char *error;              /* a build that failed: the compiler's words */
        const sb_variant *v;      /* for the prebuild's workers */
    } program[SB_MAX_VARIANTS];
    const char *source;           /* a prebuild's, while it builds */
    int next;                     /* the first slot of that prebuild */
    int ninputs;
    struct {
        const void *init;
        size_t bytes;
        sb_buffer *buf;
    } input[SB_MAX_CACHED_INPUTS];
    sb_buffer *dev_out[SB_MAX_BUFFERS];
    size_t dev_out_bytes[SB_MAX_BUFFERS];
    sb_host_sets *hosts;      /* the session's, not the workspace's */
    void *poison;
    size_t poison_bytes;
};

sb_workspace *sb_workspace_new(const sb_backend *vt, sb_device *dev, sb_host_sets *hosts)
{
    sb_workspace *w = calloc(1, sizeof *w);
    if (w) {
        w->vt = vt;
        w->dev = dev;
        w->hosts = hosts;
    }
    return w;
}

void sb_workspace_free(sb_workspace *w)
{
    if (!w)
        return;
    for (int i = 0; i < w->nprograms; i++) {
        if (w->program[i].prog)
            w->vt->release_program(w->program[i].prog);
        free(w->program[i].error);
    }
    for (int i = 0; i < w->ninputs; i++)
        w->vt->free(w->input[i].buf);
    for (int i = 0; i < SB_MAX_BUFFERS; i++)
        if (w->dev_out[i])
            w->vt->free(w->dev_out[i]);
    free(w->poison);
    free(w);
}

/* Build v's program from source; NULL with the message in a malloc'd
   *error (NULL itself only when out of memory). */
static sb_program *build_one(const sb_workspace *w, const char *source, const sb_variant *v,
                             char **error)
{
    const char *defs[SB_MAX_DEFINES];
    for (int i = 0; i < v->ndefines; i++)
        defs[i] = v->defines[i];
    sb_program *p = NULL;
    *error = NULL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    sb_progress_build_begin();
    int failed = w->vt->build(w->dev, source, defs, v->ndefines, &p);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    sb_progress_build_end((double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
    if (failed) {
        *error = strdup(sb_registry_error(w->vt));
        return NULL;
    }
    return p;
}

sb_program *sb_workspace_program(sb_workspace *w, const char *source, const sb_variant *v,
                                 char *err, size_t n)
{
    char key[sizeof w->program[0].key];
    sb_variant_params(v, key, sizeof key);
    for (int i = 0; i < w->nprograms; i++)
        if (strcmp(w->program[i].key, key) == 0) {
            if (!w->program[i].prog)
                snprintf(err, n, "%s", w->program[i].error ? w->program[i].error
                                                           : "out of host memory");
            return w->program[i].prog;
        }
    char *error;
    sb_program *p = build_one(w, source, v, &error);
    if (!p) {
        snprintf(err, n, "%s", error ? error : "out of host memory");
        free(error);
        return NULL;
    }
    if (w->nprograms < SB_MAX_VARIANTS) {
        snprintf(w->program[w->nprograms].key, sizeof w->program[0].key, "%s", key);
        w->program[w->nprograms++].prog = p;
    }
    return p;
}

/* The programs a prebuild builds, over every workspace it was given:
   workers take them one at a time. */
typedef struct prebuild {
    pthread_mutex_t lock;
    int next, ntasks;
    struct {
        sb_workspace *w;
        int slot;
    } *task;
} prebuild;

static void *prebuild_worker(void *arg)
{
    prebuild *pb = arg;
    for (;;) {
        pthread_mutex_lock(&pb->lock);
        int i = pb->next++;
        pthread_mutex_unlock(&pb->lock);
        if (i >= pb->ntasks)
            return NULL;
        sb_workspace *w = pb->task[i].w;
        int k = pb->task[i].slot;
        w->program[k].prog = build_one(w, w->source, w->program[k].v, &w->program[k].error);
    }
}

/* Slots for the programs vs need that the workspace has not built; the
   count of new ones. */
static int plan_programs(sb_workspace *w, const sb_variant *vs, int n)
{
    int fresh = 0;
    for (int j = 0; j < n && w->nprograms < SB_MAX_VARIANTS; j++) {
        if (vs[j].role == SB_ROLE_API_COPY || vs[j].role == SB_ROLE_VENDOR)
            continue; /* no program of ours */
        char key[sizeof w->program[0].key];
        sb_variant_params(&vs[j], key, sizeof key);
        int known = 0;
        for (int i = 0; i < w->nprograms && !known; i++)
            known = strcmp(w->program[i].key, key) == 0;
        if (known)
            continue;
        snprintf(w->program[w->nprograms].key, sizeof w->program[0].key, "%s", key);
        w->program[w->nprograms].prog = NULL;
        w->program[w->nprograms].error = NULL;
        w->program[w->nprograms++].v = &vs[j];
        fresh++;
    }
    return fresh;
}

/* Every new program of the jobs' workspaces into pb->task (malloc'd);
   the count, or -1 when out of memory. */
static int plan_tasks(const sb_prebuild_job *jobs, int count, prebuild *pb)
{
    int total = 0;
    for (int j = 0; j < count; j++) {
        sb_workspace *w = jobs[j].w;
        if (!w || !jobs[j].source || !w->vt->concurrent_build)
            continue;
        int first = w->nprograms;
        total += plan_programs(w, jobs[j].variants, jobs[j].nvariants);
        w->next = first; /* where this prebuild's slots begin */
        w->source = jobs[j].source;
    }
    pb->task = total ? malloc(sizeof *pb->task * (size_t)total) : NULL;
    if (total && !pb->task)
        return -1;
    for (int j = 0; j < count; j++) {
        sb_workspace *w = jobs[j].w;
        if (!w || !w->source)
            continue;
        for (int k = w->next; k < w->nprograms; k++) {
            pb->task[pb->ntasks].w = w;
            pb->task[pb->ntasks++].slot = k;
        }
    }
    return total;
}

int sb_workspace_prebuild_all(const sb_prebuild_job *jobs, int count, int threads)
{
    prebuild pb = {.next = 0, .ntasks = 0, .task = NULL};
    int total = threads < 2 ? 0 : plan_tasks(jobs, count, &pb);
    if (total > 0) {
        pthread_mutex_init(&pb.lock, NULL);
        pthread_t tid[SB_PREBUILD_THREADS];
        int started = 0, want = threads < total ? threads : total;
        if (want > SB_PREBUILD_THREADS)
            want = SB_PREBUILD_THREADS;
        /* The calling thread is a worker too. */
        while (started < want - 1 &&
               pthread_create(&tid[started], NULL, prebuild_worker, &pb) == 0)
            started++;
        prebuild_worker(&pb);
        for (int i = 0; i < started; i++)
            pthread_join(tid[i], NULL);
        pthread_mutex_destroy(&pb.lock);
    }
    for (int j = 0; j < count; j++)
        if (jobs[j].w)
            jobs[j].w->source = NULL;
    free(pb.task);
    return total < 0 ? 0 : total;
}

int sb_workspace_threads(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus < 1 ? 1 : cpus > SB_PREBUILD_THREADS ? SB_PREBUILD_THREADS : (int)cpus;
}

sb_buffer *sb_workspace_input(sb_workspace *w, const void *init, size_t bytes)
{
    const sb_backend *vt = w->vt;
    for (int i = 0; i < w->ninputs; i++)
        if (w->input[i].init == init && w->input[i].bytes == bytes)
            return w->input[i].buf;
    if (w->ninputs == SB_MAX_CACHED_INPUTS) {
        vt->free(w->input[0].buf);
        memmove(&w->input[0], &w->input[1], sizeof w->input[0] * (SB_MAX_CACHED_INPUTS - 1));
        w->ninputs--;
    }
    sb_buffer *b = NULL;
    if (vt->alloc(w->dev, bytes, &b))
        return NULL;
    if (vt->upload(b, init, bytes)) {
        vt->free(b);
        return NULL;
    }
    w->input[w->ninputs].init = init;
    w->input[w->ninputs].bytes = bytes;
    w->input[w->ninputs++].buf = b;
    return b;
}

sb_buffer *sb_workspace_device_output(sb_workspace *w, int index, int noutputs, size_t bytes)
{
    /* Those the variant does not use go: they would only hold memory. */
    for (int i = noutputs; i < SB_MAX_BUFFERS; i++)
        if (w->dev_out[i]) {
            w->vt->free(w->dev_out[i]);
            w->dev_out[i] = NULL;
            w->dev_out_bytes[i] = 0;
        }
    if (w->dev_out[index] && w->dev_out_bytes[index] >= bytes)
        return w->dev_out[index];
    if (w->dev_out[index])
        w->vt->free(w->dev_out[index]);
    w->dev_out[index] = NULL;
    w->dev_out_bytes[index] = 0;
    if (w->vt->alloc(w->dev, bytes, &w->dev_out[index]))
        return NULL;
    w->dev_out_bytes[index] = bytes;
    return w->dev_out[index];
}

/* A host buffer of at least bytes in *slot, grown as needed. */
static void *grown(void **slot, size_t *have, size_t bytes, char *err, size_t n)
{
    if (*have >= bytes && *slot)
        return *slot;
    free(*slot);
    *slot = sb_host_alloc(bytes, err, n);
    *have = *slot ? bytes : 0;
    return *slot;
}

void *sb_workspace_output(sb_workspace *w, int set, int index, size_t bytes, char *err, size_t n)
{
    return sb_host_sets_get(w->hosts, set, index, bytes, err, n);
}

void *sb_workspace_poison(sb_workspace *w, size_t bytes, char *err, size_t n)
{
    if (w->poison_bytes >= bytes && w->poison)
        return w->poison;
    if (!grown(&w->poison, &w->poison_bytes, bytes, err, n))
        return NULL;
    sb_poison(w->poison, bytes);
    return w->poison;
}
