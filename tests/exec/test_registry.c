/* What the frontend does not take on trust from a backend module: its
 * reasons (never NULL or empty), its device counts (never past the room
 * given), its strings (always ended inside their fields, between UTF-8
 * characters), its optional entries (filled), its device times (positive
 * and finite, or a failure); and the signal flag the executor reads.  No
 * module is loaded: the backends are fakes. */
#include "test_util.h"

#include <signal.h>
#include <string.h>
#include <time.h>

#include "exec/interrupt.h"
#include "exec/registry.h"
#include "exec/timing.h"

static const char *reason;

static const char *fake_last_error(void)
{
    return reason;
}

static int claimed; /* what the fake enumerate returns */

/* Every string filled to its last byte with two-byte characters (é). */
static void fill(char *field, size_t n)
{
    for (size_t i = 0; i + 1 < n; i += 2) {
        field[i] = (char)0xc3;
        field[i + 1] = (char)0xa9;
    }
    if (n % 2)
        field[n - 1] = (char)0xc3;
}

static void fill_info(sb_device_info *d)
{
    fill(d->platform, sizeof d->platform);
    fill(d->name, sizeof d->name);
    fill(d->vendor, sizeof d->vendor);
    fill(d->driver, sizeof d->driver);
    fill(d->api_version, sizeof d->api_version);
    fill(d->arch, sizeof d->arch);
    fill(d->cache_name, sizeof d->cache_name);
}

static int fake_enumerate(sb_device_info *out, int max)
{
    for (int i = 0; i < max && i < claimed; i++)
        fill_info(&out[i]);
    return claimed;
}

static int fake_open(const sb_device_request *req, sb_device **dev, sb_device_info *info)
{
    (void)req;
    *dev = (sb_device *)info;
    fill_info(info);
    return 0;
}

static double next_ms = 1.0;

static int fake_launch(sb_kernel *k, const sb_launch *g, const sb_arg *a, int n, double *ms)
{
    (void)k, (void)g, (void)a, (void)n;
    if (ms)
        *ms = next_ms;
    return 0;
}

static void fake_slot(sb_backend_slot *slot)
{
    memset(slot, 0, sizeof *slot);
    snprintf(slot->name, sizeof slot->name, "fake");
    slot->ops = (sb_backend){.abi = SB_BACKEND_ABI, .name = "fake",
                             .last_error = fake_last_error, .enumerate = fake_enumerate,
                             .open = fake_open, .launch = fake_launch};
    sb_registry_fill_defaults(&slot->ops, &slot->provides);
    slot->vt = &slot->ops;
    slot->available = 1;
}

/* A reason from the module, else one of the frontend's own. */
static void reasons(void **state)
{
    (void)state;
    sb_backend_slot slot;
    fake_slot(&slot);
    reason = "no device";
    assert_string_equal(sb_registry_error(slot.vt), "no device");
    reason = "";
    assert_string_equal(sb_registry_error(slot.vt), "the module gave no reason");
    reason = NULL;
    assert_string_equal(sb_registry_error(slot.vt), "the module gave no reason");
}

/* The optional memory() entry answers "not known" when the module has none. */
static void memory_default(void **state)
{
    (void)state;
    sb_backend_slot slot;
    fake_slot(&slot);
    assert_false(slot.provides.memory);
    uint64_t free_bytes = 1, total_bytes = 1;
    assert_int_equal(slot.vt->memory(NULL, &free_bytes, &total_bytes), 0);
    assert_true(free_bytes == 0 && total_bytes == 0);
}

/* A module without launch_queued or vendor_sgemm gets the "cannot"
 * answer for each, and an empty name for the library call. */
static void launch_queued_and_sgemm_defaults(void **state)
{
    (void)state;
    sb_backend_slot slot;
    fake_slot(&slot);
    assert_false(slot.provides.launch_queued);
    assert_false(slot.provides.vendor_sgemm);
    assert_int_equal(slot.vt->launch_queued(NULL, NULL, NULL, 0, 1), -1);
    double ms = 7;
    assert_int_equal(slot.vt->vendor_sgemm(NULL, NULL, NULL, 1, 1, 1, &ms), -1);
    assert_true(ms == 7);
    assert_string_equal(slot.vt->vendor_sgemm_name, "");
}

static void assert_ended(const char *field, size_t n)
{
    size_t len = strnlen(field, n);
    assert_true(len < n);
    assert_true(len + 2 >= n - 1);                   /* no more cut than one character */
    assert_true(len % 2 == 0);                       /* between two characters */
}

static void assert_info_ended(const sb_device_info *d)
{
    assert_ended(d->platform, sizeof d->platform);
    assert_ended(d->name, sizeof d->name);
    assert_ended(d->vendor, sizeof d->vendor);
    assert_ended(d->driver, sizeof d->driver);
    assert_ended(d->api_version, sizeof d->api_version);
    assert_ended(d->arch, sizeof d->arch);
    assert_ended(d->cache_name, sizeof d->cache_name);
}

/* Counts clamped to the room given, strings ended, a failure is -1. */
static void devices(void **state)
{
    (void)state;
    sb_backend_slot slot;
    fake_slot(&slot);
    sb_device_info infos[4];
    claimed = 4 + 100000;
    assert_int_equal(sb_registry_enumerate(&slot, infos, 4), 4);
    for (int i = 0; i < 4; i++)
        assert_info_ended(&infos[i]);
    claimed = 2;
    assert_int_equal(sb_registry_enumerate(&slot, infos, 4), 2);
    claimed = -7;
    assert_int_equal(sb_registry_enumerate(&slot, infos, 4), -1);
    slot.available = 0;
    claimed = 1;
    assert_int_equal(sb_registry_enumerate(&slot, infos, 4), -1);
    slot.available = 1;
    sb_device *dev = NULL;
    sb_device_info info;
    assert_int_equal(sb_registry_open(&slot, &(sb_device_request){-1, -1}, &dev, &info), 0);
    assert_non_null(dev);
    assert_info_ended(&info);
}

/* A device time that is not a positive, finite number fails the launches. */
static void device_times(void **state)
{
    (void)state;
    sb_backend_slot slot;
    fake_slot(&slot);
    sb_plan plan;
    memset(&plan, 0, sizeof plan);
    sb_timed_op op = {.vt = slot.vt, .role = SB_ROLE_KERNEL, .plan = &plan};
    double ms[3];
    char err[256];
    next_ms = 0.25;
    assert_int_equal(sb_time_launches(&op, 3, 0, ms, err, sizeof err), 0);
    assert_double_equal(ms[2], 0.25, 0);
    const double bad[] = {0.0, -1.0, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        next_ms = bad[i];
        err[0] = '\0';
        assert_int_equal(sb_time_launches(&op, 3, 0, ms, err, sizeof err), -1);
        assert_non_null(strstr(err, "the device returned a time that is not positive"));
        double warm;
        assert_int_equal(sb_warm_up(&op, 1, SB_WARM_MS, &warm, err, sizeof err), -1);
    }
}

/* The warm-up lasts its launches and then until the floor is reached; a
   device already warm (floor 0) gets the launches alone. */
static void warm_up_floor(void **state)
{
    (void)state;
    sb_backend_slot slot;
    fake_slot(&slot);
    sb_plan plan;
    memset(&plan, 0, sizeof plan);
    sb_timed_op op = {.vt = slot.vt, .role = SB_ROLE_KERNEL, .plan = &plan};
    char err[256];
    double warm;
    next_ms = 0.25;
    assert_int_equal(sb_warm_up(&op, 2, SB_WARM_MS, &warm, err, sizeof err), 0);
    assert_true(warm >= SB_WARM_MS && warm < SB_WARM_MS + 0.25 + 1e-9);
    assert_int_equal(sb_warm_up(&op, 2, 0.0, &warm, err, sizeof err), 0);
    assert_double_equal(warm, 0.5, 1e-12);
    assert_int_equal(sb_warm_up(&op, 0, 1.0, &warm, err, sizeof err), 0);
    assert_double_equal(warm, 1.0, 1e-12);
    assert_int_equal(sb_warm_up(&op, 0, 0.0, &warm, err, sizeof err), 0);
    assert_true(warm == 0.0);
    /* A warm device: the warm-up launches open the timed batch, their
       times dropped from the samples and summed apart (unbatched here, so
       none are made). */
    double ms[4], lead_ms = -1;
    assert_int_equal(sb_time_launches_led(&op, 4, 2, 5, ms, &lead_ms, err, sizeof err), 0);
    assert_double_equal(ms[3], 0.25, 0);
    assert_true(lead_ms == 0.0);
}

/* What a fake launch_queued was asked for, and how long it takes. */
static int queued_calls, queued_total, queued_last;

static int fake_launch_queued(sb_kernel *k, const sb_launch *g, const sb_arg *a, int n, int count)
{
    (void)k, (void)g, (void)a, (void)n;
    queued_calls++;
    queued_total += count;
    queued_last = count;
    struct timespec t = {0, 20000L * count}; /* 20 us a launch */
    nanosleep(&t, NULL);
    return 0;
}

/* The host's view: a queue as long as SB_QUEUE_TRIAL_MS of device time
 * holds, within SB_QUEUE_MIN..SB_QUEUE_MAX; one untimed launch, then one
 * launch alone per repetition, each timed on the host, then SB_QUEUE_TRIALS trials of the
 * queue, their median launches per second; a failure is the backend's. */
static void host_timing(void **state)
{
    (void)state;
    assert_int_equal(sb_queue_length(0.0021), SB_QUEUE_MAX);
    assert_int_equal(sb_queue_length(0.6), (int)(SB_QUEUE_TRIAL_MS / 0.6));
    assert_int_equal(sb_queue_length(100.0), SB_QUEUE_MIN);
    assert_int_equal(sb_queue_length(0.0), SB_QUEUE_MAX);
    sb_backend_slot slot;
    fake_slot(&slot);
    slot.ops.launch_queued = fake_launch_queued;
    sb_plan plan;
    memset(&plan, 0, sizeof plan);
    sb_timed_op op = {.vt = slot.vt, .role = SB_ROLE_KERNEL, .plan = &plan};
    char err[256];
    double host[3], per_s = 0;
    int queued = 0;
    queued_calls = queued_total = 0;
    assert_int_equal(sb_time_on_host(&op, 3, 0.5, host, &per_s, &queued, err, sizeof err), 0);
    assert_int_equal(queued, 100);
    assert_int_equal(queued_calls, 1 + 3 + SB_QUEUE_TRIALS); /* the first untimed */
    assert_int_equal(queued_total, 1 + 3 + SB_QUEUE_TRIALS * 100);
    assert_int_equal(queued_last, 100);
    for (int i = 0; i < 3; i++)
        assert_true(host[i] >= 0.02 && host[i] < 1000.0);
    /* 100 launches of at least 20 us each: at most 50 000 a second */
    assert_true(per_s > 0 && per_s <= 50000.0);
    slot.ops.launch_queued = NULL;
    sb_registry_fill_defaults(&slot.ops, &slot.provides);
    reason = "no queue";
    assert_int_equal(sb_time_on_host(&op, 3, 0.5, host, &per_s, &queued, err, sizeof err), -1);
    assert_string_equal(err, "no queue");
}

/* Once measuring (deferred), SIGTERM is caught, not fatal, and
 * remembered for the executor (tests/exec/test_interrupt.c has the rest). */
static void signals(void **state)
{
    (void)state;
    assert_int_equal(sb_interrupted(), 0);
    sb_interrupt_catch("test");
    sb_interrupt_defer(0);
    assert_int_equal(raise(SIGTERM), 0);
    assert_int_equal(sb_interrupted(), SIGTERM);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reasons),
        cmocka_unit_test(memory_default),
        cmocka_unit_test(launch_queued_and_sgemm_defaults),
        cmocka_unit_test(devices),
        cmocka_unit_test(device_times),
        cmocka_unit_test(warm_up_floor),
        cmocka_unit_test(host_timing),
        cmocka_unit_test(signals),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
