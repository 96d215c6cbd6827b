/* The NVRTC cache (cuda/nvrtc_cache.h), without NVRTC: keys that tell
 * every input apart, an entry read back byte for byte, and entries that
 * are not whole (cut short, another file's magic, trailing bytes) or a
 * cache turned off never handed out. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvrtc_cache.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/sb-nvcache-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    setenv("SIMTBENCH_CACHE_DIR", dir, 1);
    unsetenv("SIMTBENCH_NVRTC_CACHE");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void keys_tell_inputs_apart(void **state)
{
    (void)state;
    const char *d1[] = {"TILE=32"}, *d2[] = {"TILE=16"}, *d3[] = {"TILE=3", "2"};
    const char *d4[] = {"TILE=32"};
    uint64_t k = sb_nvcache_key("src", d1, 1, "sm_90", 13, 0);
    assert_true(k == sb_nvcache_key("src", d4, 1, "sm_90", 13, 0));
    assert_true(k != sb_nvcache_key("src", d2, 1, "sm_90", 13, 0));
    assert_true(k != sb_nvcache_key("src", d3, 2, "sm_90", 13, 0));
    assert_true(k != sb_nvcache_key("src ", d1, 1, "sm_90", 13, 0));
    assert_true(k != sb_nvcache_key("src", d1, 1, "sm_89", 13, 0));
    assert_true(k != sb_nvcache_key("src", d1, 1, "sm_90", 13, 1));
    assert_true(k != sb_nvcache_key("src", d1, 0, "sm_90", 13, 0));
}

static void round_trip(void **state)
{
    (void)state;
    const char cubin[] = {0x7f, 'E', 'L', 'F', 0, 1, 2, 0, 3};
    uint64_t key = 0x1234;
    char *c, *p, *l;
    size_t n;
    assert_int_equal(sb_nvcache_load(key, &c, &n, &p, &l), -1); /* not there yet */
    sb_nvcache_store(key, cubin, sizeof cubin, "// ptx", NULL);
    assert_int_equal(sb_nvcache_load(key, &c, &n, &p, &l), 0);
    assert_int_equal(n, sizeof cubin);
    assert_memory_equal(c, cubin, sizeof cubin);
    assert_string_equal(p, "// ptx");
    assert_string_equal(l, "");
    free(c), free(p), free(l);
    /* Off: nothing handed out, nothing kept. */
    setenv("SIMTBENCH_NVRTC_CACHE", "0", 1);
    assert_int_equal(sb_nvcache_load(key, &c, &n, &p, &l), -1);
    sb_nvcache_store(0x99, cubin, sizeof cubin, "x", "y");
    unsetenv("SIMTBENCH_NVRTC_CACHE");
    assert_int_equal(sb_nvcache_load(0x99, &c, &n, &p, &l), -1);
}

/* The entry's file rewritten as given. */
static void write_entry(uint64_t key, const void *bytes, size_t n)
{
    char path[128];
    snprintf(path, sizeof path, "%s/nvrtc/%016llx", dir, (unsigned long long)key);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void damaged_entries_are_ignored(void **state)
{
    (void)state;
    const char cubin[] = "0123456789";
    uint64_t key = 0x77;
    sb_nvcache_store(key, cubin, sizeof cubin, "ptx", "log");
    char path[128], whole[512];
    snprintf(path, sizeof path, "%s/nvrtc/%016llx", dir, (unsigned long long)key);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t size = fread(whole, 1, sizeof whole, f);
    fclose(f);
    char *c, *p, *l;
    size_t n;
    for (size_t cut = 0; cut < size; cut++) {
        write_entry(key, whole, cut);
        assert_int_equal(sb_nvcache_load(key, &c, &n, &p, &l), -1);
    }
    char longer[520];
    memcpy(longer, whole, size);
    longer[size] = 'x';
    write_entry(key, longer, size + 1);
    assert_int_equal(sb_nvcache_load(key, &c, &n, &p, &l), -1);
    whole[0] = 'X';
    write_entry(key, whole, size);
    assert_int_equal(sb_nvcache_load(key, &c, &n, &p, &l), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keys_tell_inputs_apart),
        cmocka_unit_test_setup_teardown(round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(damaged_entries_are_ignored, setup, teardown),
    };
    SB_TEST_MAIN(tests);
}
