/* What a backend says about its devices, built once per backend
 * (TEST_BACKEND): every string read whole at the API's own length and
 * valid UTF-8, the largest allocation, and the memory entry the suite
 * plan's preflight asks.  Skips where the backend has no device. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "exec/registry.h"

static sb_backend_slot slot;
static const sb_backend *vt;
static sb_device *dev;
static sb_device_info info;

/* Whether the n bytes of field hold a NUL-terminated, valid UTF-8 string. */
static int valid_field(const char *field, size_t n)
{
    const unsigned char *s = (const unsigned char *)field;
    size_t len = strnlen(field, n);
    if (len == n)
        return 0;
    for (size_t i = 0; i < len;) {
        int more = s[i] < 0x80 ? 0 : (s[i] & 0xE0) == 0xC0 ? 1 : (s[i] & 0xF0) == 0xE0 ? 2
                 : (s[i] & 0xF8) == 0xF0 ? 3 : -1;
        if (more < 0 || i + (size_t)more >= len)
            return 0;
        for (int k = 1; k <= more; k++)
            if ((s[i + (size_t)k] & 0xC0) != 0x80)
                return 0;
        i += (size_t)more + 1;
    }
    return 1;
}

static void check_strings(const sb_device_info *in)
{
#define FIELD(f)                                                                                   \
    if (!valid_field(in->f, sizeof in->f))                                                         \
        fail_msg(#f " of device %d.%d is not a terminated UTF-8 string", in->platform_index,     \
                 in->device_index);
    FIELD(platform) FIELD(name) FIELD(vendor) FIELD(driver) FIELD(api_version) FIELD(arch)
    FIELD(cache_name)
#undef FIELD
    /* Every device has a version ("OpenCL 3.0 ...", "CUDA 13.0"): an empty
       one is a string that did not fit its field. */
    const char *api = strcmp(TEST_BACKEND, "cuda") == 0 ? "CUDA " : "OpenCL ";
    if (strncmp(in->api_version, api, strlen(api)) != 0)
        fail_msg("device %d.%d: api_version \"%s\" does not start with \"%s\"",
                 in->platform_index, in->device_index, in->api_version, api);
    assert_true(in->name[0] != '\0');
    assert_true(in->platform[0] != '\0');
}

static void every_device_string_is_whole(void **state)
{
    (void)state;
    sb_device_info all[16];
    int n = vt->enumerate(all, 16);
    if (n < 0)
        fail_msg("enumerate: %s", vt->last_error());
    assert_true(n > 0);
    for (int i = 0; i < n; i++)
        check_strings(&all[i]);
    check_strings(&info);
}

static void the_largest_allocation_is_known(void **state)
{
    (void)state;
    assert_true(info.global_mem_bytes > 0);
    assert_true(info.max_alloc_bytes > 0);
    assert_true(info.max_alloc_bytes <= info.global_mem_bytes);
    if (strcmp(TEST_BACKEND, "cuda") == 0)
        assert_true(info.max_alloc_bytes == info.global_mem_bytes);
}

/* OpenCL cannot say what is free: 0, and the total the device reports. */
static void memory_reports_the_total(void **state)
{
    (void)state;
    uint64_t free_bytes = 1, total_bytes = 0;
    assert_non_null(vt->memory);
    if (vt->memory(dev, &free_bytes, &total_bytes))
        fail_msg("memory: %s", vt->last_error());
    printf("# %s: %llu bytes free of %llu (0: unknown)\n", info.name,
           (unsigned long long)free_bytes, (unsigned long long)total_bytes);
    assert_true(total_bytes > 0);
    assert_true(free_bytes <= total_bytes);
    if (strcmp(TEST_BACKEND, "opencl") == 0) {
        assert_true(total_bytes == info.global_mem_bytes);
        assert_true(free_bytes == 0);
    } else {
        assert_true(free_bytes > 0);
    }
}

int main(void)
{
    char why[1400];
    if (sb_registry_load(TEST_BACKEND, &slot)) {
        snprintf(why, sizeof why, "the " TEST_BACKEND " backend is not available: %s",
                 slot.reason);
        sb_registry_unload(&slot);
        return sb_test_skip_all(why);
    }
    vt = slot.vt;
    sb_device_request req = {-1, -1};
    if (vt->open(&req, &dev, &info)) {
        snprintf(why, sizeof why, "no " TEST_BACKEND " device could be opened: %s",
                 vt->last_error());
        sb_registry_unload(&slot);
        return sb_test_skip_all(why);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_device_string_is_whole),
        cmocka_unit_test(the_largest_allocation_is_known),
        cmocka_unit_test(memory_reports_the_total),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    vt->close(dev);
    sb_registry_unload(&slot);
    return failed;
}
