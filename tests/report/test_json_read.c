/* The saved-run reader checks each field's type and range before it
 * converts it, and says which file, record and field is wrong; it refuses
 * schema versions it does not read and says so of a directory; and it
 * reads every file the program writes. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/json_read.h"

static char dir[] = "/tmp/simtbench-json-read-XXXXXX";

/* A saved run of one device and one result, with `device` and `result`
 * spliced into their objects (each "" or ", \"key\": value..."). */
static void write_run(const char *path, const char *schema, const char *device,
                      const char *result)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "{\"schema\": \"%s\", \"tool\": {\"name\": \"simtbench\", \"version\": \"1.0\"},\n"
            " \"devices\": [{\"backend\": \"b0\", \"name\": \"GPU\"%s}],\n"
            " \"results\": [{\"backend\": \"b0\", \"device\": 0, \"experiment\": \"e\",\n"
            "   \"variant\": \"v\", \"unit\": \"GB/s\", \"time_ms\": {\"median\": 0.5}%s}]}\n",
            schema, device, result);
    assert_int_equal(fclose(f), 0);
}

/* The reader's message on the run with those fields, or "" when it reads. */
static const char *read_error(const char *schema, const char *device, const char *result)
{
    static char err[1024];
    char path[128];
    snprintf(path, sizeof path, "%s/run.json", dir);
    write_run(path, schema, device, result);
    sb_run run;
    err[0] = '\0';
    if (sb_run_read_json(path, &run, err, sizeof err) == 0) {
        sb_run_free(&run);
        return "";
    }
    assert_non_null(strstr(err, path)); /* every message names the file */
    assert_null(strchr(err, '\n'));
    return err;
}

#define EXPECT(says, schema, device, result)                                                       \
    do {                                                                                           \
        const char *got_ = read_error(schema, device, result);                                     \
        if (!strstr(got_, says))                                                                   \
            fail_msg("expected '%s' in: '%s'", says, got_);                                        \
    } while (0)

static const char v1[] = "simtbench-result/1";

static void out_of_range_is_an_error(void **state)
{
    (void)state;
    EXPECT("", v1, "", ""); /* the fixture itself reads */
    EXPECT("results[0].rows: 1e+300 is out of range (1..2147483647)", v1, "",
           ", \"rows\": 1e300");
    EXPECT("results[0].cols: -4 is out of range (1..2147483647)", v1, "", ", \"cols\": -4");
    EXPECT("results[0].reps: 2.5 is not a whole number", v1, "", ", \"reps\": 2.5");
    EXPECT("results[0].grid[1]: -1 is out of range (0..4294967295)", v1, "",
           ", \"grid\": [1, -1, 1]");
    EXPECT("results[0].grid: expected an array of 3 whole numbers", v1, "", ", \"grid\": [1]");
    EXPECT("devices[0].compute_units: 1e+19 is out of range (0..2147483647)", v1,
           ", \"compute_units\": 1e19", "");
    EXPECT("devices[0].global_mem_bytes: -1 is out of range", v1, ", \"global_mem_bytes\": -1",
           "");
    EXPECT("results[0].registers: -5 is out of range", v1, "", ", \"registers\": -5");
    EXPECT("results[0].time_ms.fastest_rep: 1e+30 is out of range", v1, "",
           ", \"time_ms\": {\"median\": 0.5, \"fastest_rep\": 1e30}");
    EXPECT("results[0].model[0].pattern.stride: 1e+300 is out of range", v1, "",
           ", \"model\": [{\"pattern\": {\"stride\": 1e300}}]");
    EXPECT("results[0].model[0].prediction.ways: 4294967296 is out of range", v1, "",
           ", \"model\": [{\"prediction\": {\"ways\": 4294967296}}]");
    EXPECT("results[0].bytes: -3 is out of range (0 or more)", v1, "", ", \"bytes\": -3");
    EXPECT("results[0].device: 3 is not a device of the run (it has 1)", v1, "",
           ", \"device\": 3");
    /* whole reals in range are whole numbers */
    EXPECT("", v1, ", \"compute_units\": 132.0", ", \"rows\": 4096.0");
}

static void wrong_type_is_an_error(void **state)
{
    (void)state;
    EXPECT("results[0].rows: expected a whole number, got the string \"4096\"", v1, "",
           ", \"rows\": \"4096\"");
    EXPECT("results[0].verified: expected true or false, got a number", v1, "",
           ", \"verified\": 1");
    EXPECT("results[0].kernel: expected a string, got a number", v1, "", ", \"kernel\": 7");
    EXPECT("results[0].unit: expected a string, got a number", v1, "", ", \"unit\": 7");
    EXPECT("devices[0].name: expected a string, got null", v1, ", \"name\": null", "");
    EXPECT("results[0].time_ms.min: expected a number, got the string \"x\"", v1, "",
           ", \"time_ms\": {\"median\": 0.5, \"min\": \"x\"}");
    EXPECT("results[0].model[0].pattern.perm: \"sideways\" is not one of none, reverse, xor, "
           "random",
           v1, "", ", \"model\": [{\"pattern\": {\"perm\": \"sideways\"}}]");
    EXPECT("results[0].model: expected an array, got an object", v1, "", ", \"model\": {}");
    /* null where the writer writes null: unknown, and not finite */
    EXPECT("", v1, ", \"memcpy_gbs\": null",
           ", \"registers\": null, \"value\": null, \"value_reason\": \"not finite\"");
}

static void schemas_and_directories(void **state)
{
    (void)state;
    EXPECT("schema \"simtbench-result/9\" is a version this program does not read (it reads "
           "simtbench-result/1)",
           "simtbench-result/9", "", "");
    EXPECT("not a simtbench result (schema \"other-tool/3\"", "other-tool/3", "", "");
    /* a wrong record in a foreign file: the schema is what is wrong */
    EXPECT("not a simtbench result", "other-tool/3", "", ", \"rows\": \"x\"");
    sb_run run;
    char err[512];
    assert_int_equal(sb_run_read_json(dir, &run, err, sizeof err), -1);
    assert_non_null(strstr(err, "it is a directory"));
    char path[128];
    snprintf(path, sizeof path, "%s/run.json", dir);
    FILE *f = fopen(path, "w");
    fputs("{\"schema\": \"simtbench-result/1\", \"devices\": [], \"results\": [] } x", f);
    fclose(f);
    assert_int_equal(sb_run_read_json(path, &run, err, sizeof err), -1);
    assert_non_null(strstr(err, "not valid JSON"));
    f = fopen(path, "w");
    fputs("{\"schema\": \"simtbench-result/1\", \"devices\": [], \"results\": [], "
          "\"results\": []}",
          f);
    fclose(f);
    assert_int_equal(sb_run_read_json(path, &run, err, sizeof err), -1);
    assert_non_null(strstr(err, "\"results\" appears twice"));
}

/* Every repetition's time: as many as the repetitions, each a positive
 * finite number, and no more than a result holds; absent is none. */
static void samples_are_checked(void **state)
{
    (void)state;
    EXPECT("", v1, "", ", \"reps\": 2, \"samples_ms\": [0.5, 0.25]");
    EXPECT("", v1, "", ", \"reps\": 0, \"samples_ms\": []");
    EXPECT("results[0].samples_ms: 2 times for 3 repetitions", v1, "",
           ", \"reps\": 3, \"samples_ms\": [0.5, 0.25]");
    EXPECT("results[0].samples_ms: 1 time for 0 repetitions", v1, "", ", \"samples_ms\": [0.5]");
    EXPECT("results[0].samples_ms[1]: -0.25 is not a positive time", v1, "",
           ", \"reps\": 2, \"samples_ms\": [0.5, -0.25]");
    EXPECT("results[0].samples_ms[0]: 0 is not a positive time", v1, "",
           ", \"reps\": 1, \"samples_ms\": [0]");
    EXPECT("results[0].samples_ms[0]: expected a positive number, got null", v1, "",
           ", \"reps\": 1, \"samples_ms\": [null]");
    EXPECT("results[0].samples_ms: expected an array of times, got an object", v1, "",
           ", \"reps\": 1, \"samples_ms\": {}");
    /* more than --reps allows, however many repetitions the file claims */
    size_t n = SB_RESULT_MAX_SAMPLES + 1;
    char *many = malloc(64 + 4 * n);
    assert_non_null(many);
    int at = sprintf(many, ", \"reps\": %zu, \"samples_ms\": [", n);
    for (size_t i = 0; i < n; i++)
        at += sprintf(many + at, i ? ",1.5" : "1.5");
    strcpy(many + at, "]");
    EXPECT("results[0].samples_ms: 100001 times for 100001 repetitions (more than a result "
           "holds)",
           v1, "", many);
    free(many);
    /* a file without them reads as none */
    char path[128], err[512];
    snprintf(path, sizeof path, "%s/run.json", dir);
    write_run(path, v1, "", ", \"reps\": 4");
    sb_run run;
    assert_int_equal(sb_run_read_json(path, &run, err, sizeof err), 0);
    assert_int_equal(run.results[0].nsamples, 0);
    assert_null(run.results[0].samples);
    sb_run_free(&run);
}

/* A name longer than its field is cut between two characters, never
 * inside one: 16 euro signs (3 bytes each) into the variant's 47 bytes
 * are 15 of them, and a device name of 200 two-byte characters keeps 127. */
static void long_names_cut_between_characters(void **state)
{
    (void)state;
    char path[128], euro[16 * 3 + 1] = "", e_acute[200 * 2 + 1] = "", err[512];
    for (int i = 0; i < 16; i++)
        strcat(euro, "\xe2\x82\xac");
    for (int i = 0; i < 200; i++)
        strcat(e_acute, "\xc3\xa9");
    snprintf(path, sizeof path, "%s/long.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "{\"schema\": \"simtbench-result/1\", \"devices\": [{\"backend\": \"b0\", "
            "\"name\": \"%s\"}], \"results\": [{\"backend\": \"b0\", \"device\": 0, "
            "\"experiment\": \"e\", \"variant\": \"%s\", \"unit\": \"GB/s\", "
            "\"time_ms\": {\"median\": 0.5}}]}\n",
            e_acute, euro);
    assert_int_equal(fclose(f), 0);
    sb_run run;
    if (sb_run_read_json(path, &run, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(strlen(run.results[0].variant), 15 * 3);
    assert_memory_equal(run.results[0].variant, euro, 15 * 3);
    assert_int_equal(strlen(run.devices[0].info.name), 127 * 2);
    assert_memory_equal(run.devices[0].info.name, e_acute, 127 * 2);
    sb_run_free(&run);
    unlink(path);
}

/* The run's "unavailable" member, spliced in as `member` ("" for none):
 * the reader's message, or "" with the run read into *run. */
static const char *read_unavailable(const char *member, sb_run *run)
{
    static char err[1024];
    char path[128];
    snprintf(path, sizeof path, "%s/unavailable.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "{\"schema\": \"simtbench-result/1\", \"devices\": [{\"backend\": \"b0\", "
            "\"name\": \"GPU\"}],%s \"results\": [{\"backend\": \"b0\", \"device\": 0, "
            "\"experiment\": \"e\", \"variant\": \"v\", \"unit\": \"GB/s\", "
            "\"time_ms\": {\"median\": 0.5}}]}\n",
            member);
    assert_int_equal(fclose(f), 0);
    err[0] = '\0';
    int rc = sb_run_read_json(path, run, err, sizeof err);
    unlink(path);
    if (rc == 0)
        return "";
    assert_non_null(strstr(err, path));
    return err;
}

/* The backends a default run left out: optional (a file older than the
 * field has none), each a backend and its reason, read back whole. */
static void unavailable_backends(void **state)
{
    (void)state;
    sb_run run;
    assert_string_equal(read_unavailable("", &run), "");
    assert_int_equal(run.nunavailable, 0);
    sb_run_free(&run);
    assert_string_equal(read_unavailable(" \"unavailable\": [],", &run), "");
    assert_int_equal(run.nunavailable, 0);
    sb_run_free(&run);
    assert_string_equal(
        read_unavailable(" \"unavailable\": [{\"backend\": \"b1\", \"reason\": \"no driver\"},"
                         " {\"backend\": \"b2\", \"reason\": \"no device\"}],",
                         &run),
        "");
    assert_int_equal(run.nunavailable, 2);
    assert_string_equal(run.unavailable[0].backend, "b1");
    assert_string_equal(run.unavailable[0].reason, "no driver");
    assert_string_equal(run.unavailable[1].backend, "b2");
    assert_string_equal(run.unavailable[1].reason, "no device");
    sb_run_free(&run);
    const char *err = read_unavailable(" \"unavailable\": {},", &run);
    if (!strstr(err, "malformed simtbench result: \"unavailable\": expected an array, got an "
                     "object"))
        fail_msg("%s", err);
    err = read_unavailable(" \"unavailable\": [{\"backend\": \"b1\"}],", &run);
    if (!strstr(err, "unavailable[0] has no string \"reason\""))
        fail_msg("%s", err);
    err = read_unavailable(" \"unavailable\": [{\"backend\": \"b1\", \"reason\": 3}],", &run);
    if (!strstr(err, "unavailable[0].reason: expected a string, got a number"))
        fail_msg("%s", err);
    err = read_unavailable(" \"unavailable\": [\"b1\"],", &run);
    if (!strstr(err, "unavailable[0] is not an object"))
        fail_msg("%s", err);
    char many[32 + 4 * (SB_RUN_MAX_DEVICES + 1)] = " \"unavailable\": [{}";
    for (int i = 0; i < SB_RUN_MAX_DEVICES; i++)
        strcat(many, ", {}");
    strcat(many, "],");
    err = read_unavailable(many, &run);
    char want[64];
    snprintf(want, sizeof want, "more than %d unavailable backends", SB_RUN_MAX_DEVICES);
    if (!strstr(err, want))
        fail_msg("%s", err);
}

/* The size's kind read from a result of that experiment and family, with
 * `more` spliced into it ("" or ", \"size_kind\": ..."). */
static sb_size_kind size_kind_read(const char *experiment, const char *family, const char *more)
{
    char path[128], err[1024];
    snprintf(path, sizeof path, "%s/run.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "{\"schema\": \"%s\", \"devices\": [{\"backend\": \"b0\", \"name\": \"GPU\"}],\n"
            " \"results\": [{\"backend\": \"b0\", \"device\": 0, \"experiment\": \"%s\",\n"
            "   \"family\": \"%s\", \"variant\": \"v\", \"unit\": \"GB/s\", "
            "\"time_ms\": {\"median\": 0.5}%s}]}\n",
            v1, experiment, family, more);
    assert_int_equal(fclose(f), 0);
    sb_run run;
    if (sb_run_read_json(path, &run, err, sizeof err))
        fail_msg("%s", err);
    sb_size_kind kind = run.results[0].size_kind;
    sb_run_free(&run);
    return kind;
}

/* size_kind is read where the file has it, null is "not said", and a file
 * older than the field gets its experiment's kind of that time. */
static void size_kind_read_or_guessed(void **state)
{
    (void)state;
    const char *threads = ", \"size_kind\": \"threads\"", *null = ", \"size_kind\": null";
    assert_int_equal(size_kind_read("e", "f", threads), SB_SIZE_THREADS);
    assert_int_equal(size_kind_read("transpose", "transpose", threads), SB_SIZE_THREADS);
    assert_int_equal(size_kind_read("matmul", "tiling", null), SB_SIZE_UNKNOWN);
    assert_int_equal(size_kind_read("e", "f", ""), SB_SIZE_UNKNOWN);
    assert_int_equal(size_kind_read("transpose", "transpose", ""), SB_SIZE_MATRIX);
    assert_int_equal(size_kind_read("matmul", "tiling", ""), SB_SIZE_MATRIX);
    assert_int_equal(size_kind_read("vecadd", "coarsening", ""), SB_SIZE_ELEMENTS);
    assert_int_equal(size_kind_read("occupancy", "occupancy", ""), SB_SIZE_ELEMENTS);
    assert_int_equal(size_kind_read("global_walk", "global", ""), SB_SIZE_WALKS);
    assert_int_equal(size_kind_read("global_perm", "global", ""), SB_SIZE_WORDS);
    assert_int_equal(size_kind_read("shared_tile", "shared", ""), SB_SIZE_THREADS);
    EXPECT("results[0].size_kind: \"pixels\" is not one of matrix, elements, words, threads, "
           "walks",
           v1, "", ", \"size_kind\": \"pixels\"");
    EXPECT("results[0].size_kind: expected a string, got a number", v1, "",
           ", \"size_kind\": 2");
}


/* The result of a run with `result` spliced in; the caller frees it. */
static void read_result_of(const char *result, sb_run *run)
{
    char path[128], err[1024];
    snprintf(path, sizeof path, "%s/run.json", dir);
    write_run(path, v1, "", result);
    if (sb_run_read_json(path, run, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(run->nresults, 1);
}

#define PATTERN_FIELDS                                                                            \
    "\"space\": \"global\", \"word_bytes\": 4, \"stride\": 1, \"offset\": 0, \"perm\": "         \
    "\"none\", \"perm_arg\": 0, \"spread\": 0, \"same\": 0, \"tile_rows\": 0, \"tile_cols\": 0, " \
    "\"pad\": 0, \"swizzle\": 0, \"walk_index\": 0"
#define PREDICTION "\"prediction\": {}, \"summary\": \"\""

/* A file older than the accesses' kinds and counts reads as studied loads
 * of requests unknown and no totals; one that has them reads them all,
 * the totals' ratios made again from their counts. */
static void accesses_and_totals(void **state)
{
    (void)state;
    sb_run run;
    read_result_of(", \"model\": [{\"label\": \"load\", \"pattern\": {" PATTERN_FIELDS
                   ", \"walk\": \"none\"}, " PREDICTION "}]",
                   &run);
    const sb_result *r = &run.results[0];
    assert_int_equal(r->npatterns, 1);
    assert_int_equal(r->pattern_kind[0], SB_ACCESS_LOAD);
    assert_true(r->pattern_requests[0] == 0.0);
    assert_int_equal(r->pattern_extra[0], 0);
    assert_int_equal(r->pattern[0].active, 0);
    assert_int_equal(r->has_totals, 0);
    sb_run_free(&run);

    char lanes[400] = "[0";
    for (int l = 1; l < SB_WARP_LANES; l++)
        snprintf(lanes + strlen(lanes), sizeof lanes - strlen(lanes), ", %d", l % 16);
    char result[2048];
    snprintf(result, sizeof result,
             ", \"model\": [{\"label\": \"st\", \"kind\": \"store\", \"requests\": 40, "
             "\"studied\": false, \"pattern\": {" PATTERN_FIELDS ", \"walk\": \"list\", "
             "\"active\": 65535, \"lane_index\": %s]}, " PREDICTION "}], \"model_totals\": "
             "{\"global_st_requests\": 40, \"global_st_sectors\": 50, "
             "\"global_st_sectors_per_request\": 99}",
             lanes);
    read_result_of(result, &run);
    r = &run.results[0];
    assert_int_equal(r->pattern_kind[0], SB_ACCESS_STORE);
    assert_true(r->pattern_requests[0] == 40.0);
    assert_int_equal(r->pattern_extra[0], 1);
    assert_int_equal(r->pattern[0].walk, SB_WALK_LIST);
    assert_int_equal(r->pattern[0].active, 0xffffu);
    assert_int_equal(r->pattern[0].lane_index[17], 1);
    assert_int_equal(r->has_totals, 1);
    assert_true(r->totals.global_st_sectors == 50.0);
    assert_true(r->totals.global_st_sectors_per_request == 1.25); /* made again, not read */
    sb_run_free(&run);

    EXPECT("results[0].model[0].kind: \"swap\" is not one of load, store, atomic", v1, "",
           ", \"model\": [{\"label\": \"x\", \"kind\": \"swap\"}]");
    EXPECT("results[0].model[0].requests: -1 is out of range", v1, "",
           ", \"model\": [{\"label\": \"x\", \"requests\": -1}]");
    EXPECT("model[0].pattern.lane_index: expected an array of 32 lane indices", v1, "",
           ", \"model\": [{\"label\": \"x\", \"pattern\": {\"walk\": \"list\"}}]");
    EXPECT("model[0].pattern.lane_index: expected an array of 32 lane indices", v1, "",
           ", \"model\": [{\"label\": \"x\", \"pattern\": {\"walk\": \"list\", \"lane_index\": "
           "[1, 2]}}]");
    EXPECT("results[0].model_totals.shared_ld_requests: expected a number", v1, "",
           ", \"model_totals\": {\"shared_ld_requests\": \"many\"}");
}

/* What the program itself wrote reads back, whatever its size. */
static void reads_what_the_program_writes(void **state)
{
    (void)state;
    const char *top = getenv("SB_TOP_SRCDIR");
    const char *files[] = {"tests/fuzz/corpus/json_read/pocl-small.json",
                           "tests/fuzz/corpus/json_read/h200-transpose.json",
                           "tests/fixtures/h200/suite.json", "tests/fixtures/h200/transpose-16384.json"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[1024], err[1024];
        snprintf(path, sizeof path, "%s/%s", top ? top : ".", files[i]);
        sb_run run;
        int reference;
        if (sb_run_read_saved(path, &run, &reference, err, sizeof err))
            fail_msg("%s", err);
        assert_true(run.nresults > 0);
        assert_true(run.ndevices > 0);
        assert_int_equal(run.nunavailable, 0); /* older than the field */
        sb_run_free(&run);
    }
}

int main(void)
{
    if (!mkdtemp(dir))
        return sb_test_skip_all("cannot make a temporary directory");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(out_of_range_is_an_error),
        cmocka_unit_test(wrong_type_is_an_error),
        cmocka_unit_test(schemas_and_directories),
        cmocka_unit_test(samples_are_checked),
        cmocka_unit_test(long_names_cut_between_characters),
        cmocka_unit_test(unavailable_backends),
        cmocka_unit_test(reads_what_the_program_writes),
        cmocka_unit_test(size_kind_read_or_guessed),
        cmocka_unit_test(accesses_and_totals),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/run.json", dir);
    unlink(path);
    rmdir(dir);
    return failed;
}
