/* A backend module for the fault table (tests/faults/faults.sh): the real
 * OpenCL module with one fault injected.
 *
 * Built as tests/faults/opencl/simtbench_opencl.so, so that the registry
 * finds it under a real backend's name when $SIMTBENCH_BACKEND_PATH points
 * at its folder.  When loaded it opens the module named by $SB_FAULT_REAL
 * and copies its vtable, so every entry forwards to the real one; then the
 * faults named in $SB_FAULT (a '+' list, "download-noop-after=1+error-null")
 * replace the entries they break.  The fault table (see FAULTS below) says
 * what each one does.  Not installed: a test fixture only. */
#include "backend.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

/* Filled when the module is loaded: see load_real(). */
sb_backend simtbench_backend;

static void *real_handle;
static const sb_backend *real;   /* the real module's vtable */
static char load_error[600];     /* why the real module could not be loaded */
static const char *injected;     /* the message of the last injected failure */
static long download_calls_left; /* download-noop-after=N: real downloads left */
static double bad_time;          /* what a timing fault reports */
static int in_batch;
static int fault_arg_slow = -1;  /* slow-device=N: N */
static int nbatch_times;
static double *batch_times[SB_BATCH_MAX]; /* ms pointers of the open batch */

/* ---------------------------------------------------------------- errors */

static const char *fault_last_error(void)
{
    return injected ? injected : real->last_error();
}

static const char *null_last_error(void)
{
    return NULL;
}

/* Fail the way a backend fails: a message for last_error(), then -1. */
static int inject(const char *what)
{
    injected = what;
    return -1;
}

/* ------------------------------------------------------- failing entries */

static int fail_probe_empty(void)
{
    injected = "";
    return 1;
}

static int fail_open(const sb_device_request *req, sb_device **dev, sb_device_info *info)
{
    (void)req, (void)dev, (void)info;
    return inject("fault injected: open failed");
}

static int fail_build(sb_device *dev, const char *source, const char *const *defines,
                      int ndefines, sb_program **prog)
{
    (void)dev, (void)source, (void)defines, (void)ndefines, (void)prog;
    return inject("fault injected: build failed");
}

static int fail_kernel(sb_program *prog, const char *name, sb_kernel **k)
{
    (void)prog, (void)name, (void)k;
    return inject("fault injected: no such kernel");
}

static int fail_alloc(sb_device *dev, size_t bytes, sb_buffer **buf)
{
    (void)dev, (void)bytes, (void)buf;
    return inject("fault injected: out of device memory");
}

static int fail_upload(sb_buffer *dst, const void *src, size_t bytes)
{
    (void)dst, (void)src, (void)bytes;
    return inject("fault injected: upload failed");
}

static int fail_download(void *dst, sb_buffer *src, size_t bytes)
{
    (void)dst, (void)src, (void)bytes;
    return inject("fault injected: download failed");
}

static int fail_copy(sb_buffer *dst, sb_buffer *src, size_t bytes, double *ms)
{
    (void)dst, (void)src, (void)bytes, (void)ms;
    return inject("fault injected: copy failed");
}

static int fail_launch(sb_kernel *k, const sb_launch *geometry, const sb_arg *args, int nargs,
                       double *ms)
{
    (void)k, (void)geometry, (void)args, (void)nargs, (void)ms;
    return inject("fault injected: launch failed");
}

static int fail_launch_queued(sb_kernel *k, const sb_launch *geometry, const sb_arg *args,
                              int nargs, int count)
{
    (void)k, (void)geometry, (void)args, (void)nargs, (void)count;
    return inject("fault injected: queued launches failed");
}

static int fail_batch_begin(sb_device *dev, int max)
{
    (void)dev, (void)max;
    return inject("fault injected: cannot begin a batch");
}

/* The batch is ended for real, so the device stays usable, then reported
 * as failed (a fault while waiting). */
static int fail_batch_end(sb_device *dev)
{
    real->batch_end(dev);
    return inject("fault injected: waiting for the batch failed");
}

/* -------------------------------------------------------- lying entries */

/* Success, but after the first N calls nothing is copied: the host buffer
 * keeps whatever it held, as a driver that lost the transfer would. */
static int noop_download(void *dst, sb_buffer *src, size_t bytes)
{
    if (download_calls_left > 0) {
        download_calls_left--;
        return real->download(dst, src, bytes);
    }
    return 0;
}

static int enumerate_negative(sb_device_info *out, int max)
{
    (void)out, (void)max;
    return -7;
}

/* Claims far more devices than there is room for, and fills none. */
static int enumerate_overflow(sb_device_info *out, int max)
{
    (void)out;
    return max + 100000;
}

/* Every string of info filled to its last byte, no terminating NUL; each
 * field with its own letter so that a reader running past one is seen. */
static void fill_strings(sb_device_info *info)
{
    memset(info->platform, 'P', sizeof info->platform);
    memset(info->name, 'N', sizeof info->name);
    memset(info->vendor, 'V', sizeof info->vendor);
    memset(info->driver, 'D', sizeof info->driver);
    memset(info->api_version, 'A', sizeof info->api_version);
    memset(info->arch, 'R', sizeof info->arch);
    memset(info->cache_name, 'C', sizeof info->cache_name);
    memset(info->pci_bus_id, 'B', sizeof info->pci_bus_id);
    memset(info->uuid, 'U', sizeof info->uuid);
}

static int long_strings_enumerate(sb_device_info *out, int max)
{
    int n = real->enumerate(out, max);
    for (int i = 0; i < n && i < max; i++)
        fill_strings(&out[i]);
    return n;
}

static int long_strings_open(const sb_device_request *req, sb_device **dev, sb_device_info *info)
{
    int st = real->open(req, dev, info);
    if (st == 0)
        fill_strings(info);
    return st;
}

/* A time the frontend must refuse, written where the real one went: at
 * once outside a batch, at batch_end inside one. */
static void spoil_time(double *ms)
{
    if (!ms)
        return;
    if (!in_batch)
        *ms = bad_time;
    else if (nbatch_times < SB_BATCH_MAX)
        batch_times[nbatch_times++] = ms;
}

static int bad_time_launch(sb_kernel *k, const sb_launch *geometry, const sb_arg *args,
                           int nargs, double *ms)
{
    int st = real->launch(k, geometry, args, nargs, ms);
    if (st == 0)
        spoil_time(ms);
    return st;
}

static int bad_time_copy(sb_buffer *dst, sb_buffer *src, size_t bytes, double *ms)
{
    int st = real->copy(dst, src, bytes, ms);
    if (st == 0)
        spoil_time(ms);
    return st;
}

static int bad_time_batch_begin(sb_device *dev, int max)
{
    int st = real->batch_begin(dev, max);
    in_batch = st == 0;
    nbatch_times = 0;
    return st;
}

static int bad_time_batch_end(sb_device *dev)
{
    int st = real->batch_end(dev);
    for (int i = 0; i < nbatch_times; i++)
        *batch_times[i] = bad_time;
    in_batch = 0;
    nbatch_times = 0;
    return st;
}

/* Every launch and copy a few milliseconds late (its own device time
 * unchanged), so that a run lasts long enough to be interrupted on any
 * machine, however fast its device. */
/* The first slowed launch touches $SB_FAULT_MARK, so that a test knows
 * the run is under way before it sends a signal. */
static void mark_started(void)
{
    static int marked;
    const char *mark = getenv("SB_FAULT_MARK");
    if (marked || !mark || !*mark)
        return;
    marked = 1;
    FILE *f = fopen(mark, "w");
    if (f)
        fclose(f);
}

static int slow_launch(sb_kernel *k, const sb_launch *geometry, const sb_arg *args, int nargs,
                       double *ms)
{
    mark_started();
    usleep(5000);
    return real->launch(k, geometry, args, nargs, ms);
}

static int slow_copy(sb_buffer *dst, sb_buffer *src, size_t bytes, double *ms)
{
    usleep(5000);
    return real->copy(dst, src, bytes, ms);
}

/* ------------------------------------------------- one device slow, and
 * devices at the same time
 *
 * slow-device=N: every device time of the device opened at index N is
 * reported SLOW_FACTOR times longer, so that a run of several like devices
 * has one that the fleet's outlier rule must name, whatever the noise of a
 * CPU device.  Its programs, kernels and buffers are remembered (entries
 * of other devices pass through untouched), its batch times scaled at
 * batch_end.  overlap: the most devices inside a batch at one time, written
 * to $SB_FAULT_OVERLAP at exit, so that a test can tell devices measured
 * at the same time from one after another. */
#define SLOW_FACTOR 100.0
#define SLOW_OBJECTS 8192

static pthread_mutex_t slow_lock = PTHREAD_MUTEX_INITIALIZER;
static sb_device *slow_dev;
static const void *slow_objects[SLOW_OBJECTS];
static int nslow_objects;
static double *slow_pending[SB_BATCH_MAX]; /* touched by the slow device's calls only */
static int nslow_pending, slow_in_batch;
static _Atomic int busy_devices, most_busy;

static int is_slow(const void *p)
{
    int found = 0;
    pthread_mutex_lock(&slow_lock);
    for (int i = 0; i < nslow_objects && !found; i++)
        found = slow_objects[i] == p;
    pthread_mutex_unlock(&slow_lock);
    return found;
}

static void mark_slow(const void *p, int slow)
{
    pthread_mutex_lock(&slow_lock);
    for (int i = 0; i < nslow_objects; i++)
        if (slow_objects[i] == p) {
            slow_objects[i] = slow_objects[--nslow_objects]; /* freed: its address is reused */
            break;
        }
    if (slow && nslow_objects < SLOW_OBJECTS)
        slow_objects[nslow_objects++] = p;
    pthread_mutex_unlock(&slow_lock);
}

/* A time of the slow device: scaled now, or at its batch's end. */
static void slow_time(double *ms)
{
    if (!ms)
        return;
    if (!slow_in_batch)
        *ms *= SLOW_FACTOR;
    else if (nslow_pending < SB_BATCH_MAX)
        slow_pending[nslow_pending++] = ms;
}

static int slow_dev_open(const sb_device_request *req, sb_device **dev, sb_device_info *info)
{
    int st = real->open(req, dev, info);
    if (st == 0 && info->device_index == fault_arg_slow)
        slow_dev = *dev;
    return st;
}

static int slow_dev_build(sb_device *dev, const char *source, const char *const *defines,
                          int ndefines, sb_program **prog)
{
    int st = real->build(dev, source, defines, ndefines, prog);
    if (st == 0)
        mark_slow(*prog, dev == slow_dev);
    return st;
}

static void slow_dev_release_program(sb_program *prog)
{
    mark_slow(prog, 0);
    real->release_program(prog);
}

static int slow_dev_kernel(sb_program *prog, const char *name, sb_kernel **k)
{
    int st = real->kernel(prog, name, k);
    if (st == 0)
        mark_slow(*k, is_slow(prog));
    return st;
}

static void slow_dev_release_kernel(sb_kernel *k)
{
    mark_slow(k, 0);
    real->release_kernel(k);
}

static int slow_dev_alloc(sb_device *dev, size_t bytes, sb_buffer **buf)
{
    int st = real->alloc(dev, bytes, buf);
    if (st == 0)
        mark_slow(*buf, dev == slow_dev);
    return st;
}

static void slow_dev_free(sb_buffer *buf)
{
    mark_slow(buf, 0);
    real->free(buf);
}

static int slow_dev_launch(sb_kernel *k, const sb_launch *geometry, const sb_arg *args,
                           int nargs, double *ms)
{
    int st = real->launch(k, geometry, args, nargs, ms);
    if (st == 0 && is_slow(k))
        slow_time(ms);
    return st;
}

static int slow_dev_copy(sb_buffer *dst, sb_buffer *src, size_t bytes, double *ms)
{
    int st = real->copy(dst, src, bytes, ms);
    if (st == 0 && is_slow(dst))
        slow_time(ms);
    return st;
}

static int slow_dev_vendor(sb_buffer *dst, sb_buffer *src, int rows, int cols, double *ms)
{
    int st = real->vendor_transpose(dst, src, rows, cols, ms);
    if (st == 0 && is_slow(dst))
        slow_time(ms);
    return st;
}

static int counted_batch_begin(sb_device *dev, int max)
{
    int st = real->batch_begin(dev, max);
    if (st == 0) {
        int now = ++busy_devices, most = most_busy;
        while (now > most && !atomic_compare_exchange_weak(&most_busy, &most, now))
            ;
    }
    if (st == 0 && dev == slow_dev) {
        slow_in_batch = 1;
        nslow_pending = 0;
    }
    return st;
}

static int counted_batch_end(sb_device *dev)
{
    int st = real->batch_end(dev);
    busy_devices--;
    if (dev == slow_dev) {
        for (int i = 0; i < nslow_pending; i++)
            *slow_pending[i] *= SLOW_FACTOR;
        slow_in_batch = 0;
        nslow_pending = 0;
    }
    return st;
}

/* A probe that dies the way dlopen of a damaged library does. */
static int crash_probe(void)
{
    raise(SIGBUS);
    return -1;
}

static void fault_probe_crash(sb_backend *b) { b->probe = crash_probe; }

static void fault_slow(sb_backend *b)
{
    b->launch = slow_launch;
    b->copy = slow_copy;
}

/* ------------------------------------------------ signals at a known point
 *
 * signal-at-open=N sends the process signal N as the first device opens
 * (before anything is measured); signal-at-build=N as the first program is
 * built (a variant under way), and signal-again-at-build=N twice there.
 * They wrap the entry as it is when they are named, so that
 * "build-fail+signal-at-build=2" signals, then fails the build. */
static int signal_number, signal_times;
static int (*next_open)(const sb_device_request *, sb_device **, sb_device_info *);
static int (*next_build)(sb_device *, const char *, const char *const *, int, sb_program **);

static void send_signals(void)
{
    for (; signal_times > 0; signal_times--)
        kill(getpid(), signal_number);
}

static int signal_open(const sb_device_request *req, sb_device **dev, sb_device_info *info)
{
    send_signals();
    return next_open(req, dev, info);
}

static int signal_build(sb_device *dev, const char *source, const char *const *defines,
                        int ndefines, sb_program **prog)
{
    send_signals();
    return next_build(dev, source, defines, ndefines, prog);
}

/* ------------------------------------------------------------ the table */

static void install_timing(sb_backend *b, double t)
{
    bad_time = t;
    b->launch = bad_time_launch;
    b->copy = bad_time_copy;
    if (b->batch_begin && b->batch_end) {
        b->batch_begin = bad_time_batch_begin;
        b->batch_end = bad_time_batch_end;
    }
}

/* Each fault changes the copied vtable b; fault_arg is the number after
 * '=' in its name (0 when none). */
static long fault_arg;

static void fault_probe_empty(sb_backend *b) { b->probe = fail_probe_empty; }
static void fault_enum_negative(sb_backend *b) { b->enumerate = enumerate_negative; }
static void fault_enum_overflow(sb_backend *b) { b->enumerate = enumerate_overflow; }
static void fault_open(sb_backend *b) { b->open = fail_open; }
static void fault_build(sb_backend *b) { b->build = fail_build; }

static void fault_signal_at_open(sb_backend *b)
{
    signal_number = (int)fault_arg;
    signal_times = 1;
    next_open = b->open;
    b->open = signal_open;
}

static void fault_signal_at_build(sb_backend *b)
{
    signal_number = (int)fault_arg;
    signal_times = 1;
    next_build = b->build;
    b->build = signal_build;
}

static void fault_signal_again_at_build(sb_backend *b)
{
    fault_signal_at_build(b);
    signal_times = 2;
}
/* crash-at-new-kernel: the first launch of a kernel named otherwise than
   the first one launched aborts, as a runtime out of memory under
   `ulimit -v` does (std::bad_alloc into std::terminate): the run's first
   experiment finishes, the next one crashes. */
#define NAMED 512
static struct {
    sb_kernel *k;
    char name[64];
} named[NAMED];
static atomic_int nnamed;
static char first_launched[64];
static int (*next_kernel)(sb_program *prog, const char *name, sb_kernel **k);
static int (*next_launch)(sb_kernel *k, const sb_launch *geometry, const sb_arg *args, int nargs,
                          double *ms);

static int naming_kernel(sb_program *prog, const char *name, sb_kernel **k)
{
    int rc = next_kernel(prog, name, k);
    int at = atomic_fetch_add(&nnamed, 1);
    if (rc == 0 && at < NAMED) {
        named[at].k = *k;
        snprintf(named[at].name, sizeof named[at].name, "%s", name);
    }
    return rc;
}

static int crash_launch(sb_kernel *k, const sb_launch *geometry, const sb_arg *args, int nargs,
                        double *ms)
{
    int n = atomic_load(&nnamed);
    for (int i = 0; i < n && i < NAMED; i++) {
        if (named[i].k != k)
            continue;
        if (!first_launched[0])
            snprintf(first_launched, sizeof first_launched, "%s", named[i].name);
        else if (strcmp(first_launched, named[i].name) != 0)
            abort();
    }
    return next_launch(k, geometry, args, nargs, ms);
}

static void fault_crash_at_new_kernel(sb_backend *b)
{
    next_kernel = b->kernel;
    next_launch = b->launch;
    b->kernel = naming_kernel;
    b->launch = crash_launch;
}

static void fault_kernel(sb_backend *b) { b->kernel = fail_kernel; }
static void fault_alloc(sb_backend *b) { b->alloc = fail_alloc; }
static void fault_upload(sb_backend *b) { b->upload = fail_upload; }
static void fault_download(sb_backend *b) { b->download = fail_download; }
static void fault_copy(sb_backend *b) { b->copy = fail_copy; }
static void fault_launch(sb_backend *b) { b->launch = fail_launch; }
static void fault_launch_queued(sb_backend *b) { b->launch_queued = fail_launch_queued; }
static void fault_batch_begin(sb_backend *b) { b->batch_begin = fail_batch_begin; }
static void fault_batch_end(sb_backend *b) { b->batch_end = fail_batch_end; }
static void fault_timing_nan(sb_backend *b) { install_timing(b, NAN); }
static void fault_timing_negative(sb_backend *b) { install_timing(b, -1.0); }
static void fault_timing_zero(sb_backend *b) { install_timing(b, 0.0); }
static void fault_timing_inf(sb_backend *b) { install_timing(b, INFINITY); }
static void fault_error_null(sb_backend *b) { b->last_error = null_last_error; }
static void fault_abi_old(sb_backend *b) { b->abi = SB_BACKEND_ABI - 1; }

static void fault_overlap(sb_backend *b)
{
    if (b->batch_begin && b->batch_end) {
        b->batch_begin = counted_batch_begin;
        b->batch_end = counted_batch_end;
    }
}

static void fault_download_noop(sb_backend *b)
{
    download_calls_left = fault_arg;
    b->download = noop_download;
}

static void fault_long_strings(sb_backend *b)
{
    b->enumerate = long_strings_enumerate;
    b->open = long_strings_open;
}

/* The entries the ABI lets a backend leave NULL, all left NULL. */
static void fault_optional_null(sb_backend *b)
{
    b->compile_offline = NULL;
    b->program_ptx = NULL;
    b->occupancy = NULL;
    b->kernel_resources = NULL;
    b->vendor_transpose = NULL;
    b->vendor_transpose_name = NULL;
    b->batch_begin = NULL;
    b->batch_end = NULL;
    b->memory = NULL;
    b->fill = NULL;
    b->host_alloc = NULL;
    b->host_free = NULL;
    b->launch_counted = NULL;
    b->clocks = NULL;
    b->launch_queued = NULL;
    b->vendor_sgemm = NULL;
    b->vendor_sgemm_name = NULL;
}

static void fault_slow_device(sb_backend *b)
{
    fault_arg_slow = (int)fault_arg;
    b->open = slow_dev_open;
    b->build = slow_dev_build;
    b->release_program = slow_dev_release_program;
    b->kernel = slow_dev_kernel;
    b->release_kernel = slow_dev_release_kernel;
    b->alloc = slow_dev_alloc;
    b->free = slow_dev_free;
    b->launch = slow_dev_launch;
    b->copy = slow_dev_copy;
    if (b->vendor_transpose)
        b->vendor_transpose = slow_dev_vendor;
    fault_overlap(b);
}

/* A required entry missing: the registry must refuse the module. */
static void fault_missing_download(sb_backend *b) { b->download = NULL; }

static const struct {
    const char *name;
    void (*install)(sb_backend *b);
} FAULTS[] = {
    {"probe-fail-empty", fault_probe_empty},     /* probe fails, last_error "" */
    {"enumerate-negative", fault_enum_negative}, /* enumerate returns -7 */
    {"enumerate-overflow", fault_enum_overflow}, /* enumerate returns max + 100000 */
    {"open-fail", fault_open},
    {"build-fail", fault_build},
    {"kernel-fail", fault_kernel},
    {"alloc-fail", fault_alloc},
    {"crash-at-new-kernel", fault_crash_at_new_kernel}, /* another kernel's launch aborts */
    {"upload-fail", fault_upload},
    {"download-fail", fault_download},
    {"download-noop-after", fault_download_noop}, /* =N: success, nothing copied */
    {"copy-fail", fault_copy},
    {"launch-fail", fault_launch},
    {"launch-queued-fail", fault_launch_queued},  /* launches for the host's clock fail */
    {"slow", fault_slow},
    {"probe-crash", fault_probe_crash},           /* the probe dies of SIGBUS */                         /* 5 ms before each launch and copy */
    {"batch-begin-fail", fault_batch_begin},
    {"batch-fail", fault_batch_end},              /* batch_end fails */
    {"timing-nan", fault_timing_nan},             /* device times NaN */
    {"timing-negative", fault_timing_negative},   /* -1 ms */
    {"timing-zero", fault_timing_zero},           /* 0 ms */
    {"timing-inf", fault_timing_inf},             /* +inf ms */
    {"long-strings", fault_long_strings},         /* info strings with no NUL */
    {"error-null", fault_error_null},             /* last_error returns NULL */
    {"abi-old", fault_abi_old},                   /* the previous ABI number */
    {"optional-null", fault_optional_null},       /* every optional entry NULL */
    {"missing-download", fault_missing_download}, /* a required entry NULL */
    {"slow-device", fault_slow_device},           /* =N: device N's times x100; overlap too */
    {"overlap", fault_overlap},                   /* devices in a batch at once, to a file */
    {"signal-at-open", fault_signal_at_open},     /* =N: signal N as the first device opens */
    {"signal-at-build", fault_signal_at_build},   /* =N: signal N at the first build */
    {"signal-again-at-build", fault_signal_again_at_build}, /* =N: twice */
};

/* ------------------------------------------------------------- loading */

static int unknown_fault(void)
{
    return inject(load_error);
}

/* A module that cannot do anything: probe says why. */
static void disable(void)
{
    memset(&simtbench_backend, 0, sizeof simtbench_backend);
    simtbench_backend.abi = SB_BACKEND_ABI;
    simtbench_backend.name = "opencl";
    simtbench_backend.probe = unknown_fault;
    simtbench_backend.last_error = fault_last_error;
    injected = load_error;
}

/* Apply one "NAME" or "NAME=N"; -1 for a name not in FAULTS. */
static int apply_fault(const char *spec)
{
    const char *eq = strchr(spec, '=');
    size_t len = eq ? (size_t)(eq - spec) : strlen(spec);
    for (size_t i = 0; i < sizeof FAULTS / sizeof FAULTS[0]; i++)
        if (strlen(FAULTS[i].name) == len && strncmp(FAULTS[i].name, spec, len) == 0) {
            fault_arg = eq ? strtol(eq + 1, NULL, 10) : 0;
            FAULTS[i].install(&simtbench_backend);
            return 0;
        }
    return -1;
}

static int apply_faults(const char *list)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save = NULL, *f = strtok_r(copy, "+", &save); f; f = strtok_r(NULL, "+", &save))
        if (apply_fault(f)) {
            snprintf(load_error, sizeof load_error, "SB_FAULT: unknown fault '%s'", f);
            return -1;
        }
    return 0;
}

__attribute__((constructor)) static void load_real(void)
{
    const char *path = getenv("SB_FAULT_REAL");
    if (!path || !*path) {
        snprintf(load_error, sizeof load_error, "SB_FAULT_REAL is not set");
        disable();
        return;
    }
    real_handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    real = real_handle ? dlsym(real_handle, SB_BACKEND_SYMBOL) : NULL;
    if (!real) {
        snprintf(load_error, sizeof load_error, "SB_FAULT_REAL=%s: %s", path, dlerror());
        disable();
        return;
    }
    simtbench_backend = *real;
    simtbench_backend.last_error = fault_last_error;
    const char *faults = getenv("SB_FAULT");
    if (faults && *faults && apply_faults(faults))
        disable();
}

__attribute__((destructor)) static void unload_real(void)
{
    const char *overlap = getenv("SB_FAULT_OVERLAP");
    FILE *f = overlap && *overlap ? fopen(overlap, "w") : NULL;
    if (f) {
        fprintf(f, "%d\n", most_busy);
        fclose(f);
    }
    if (real_handle)
        dlclose(real_handle);
}
