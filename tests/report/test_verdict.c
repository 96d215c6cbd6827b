/* The verdict from saved repetitions (run/crossapi.h): the Hodges-Lehmann
 * estimate and its Mann-Whitney interval match a brute force over every
 * pair at the critical ranks of the published tables; simulated runs of
 * one distribution are "same", a row slowed by 20% is flagged with an
 * interval that excludes 1, a real difference inside the tolerance is not;
 * a side with fewer than SB_VERDICT_MIN_SAMPLES repetitions falls back to
 * the spread rule and says so; every format shows the interval. */
#include "test_util.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "analysis/analysis.h"
#include "analysis/crossapi.h"
#include "analysis/noise.h"

/* ---------------------------------------------------------------- noise */

/* splitmix64: a fixed seed gives the same draws everywhere. */
static uint64_t next_u64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* A standard normal draw (Box-Muller). */
static double normal(uint64_t *state)
{
    double u1 = ((double)(next_u64(state) >> 11) + 0.5) / 9007199254740992.0;
    double u2 = ((double)(next_u64(state) >> 11) + 0.5) / 9007199254740992.0;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* n lognormal times around median ms, sigma the log noise (0.02: 2%). */
static void draw(double *t, size_t n, double ms, double sigma, uint64_t *state)
{
    for (size_t i = 0; i < n; i++)
        t[i] = ms * exp(sigma * normal(state));
}

/* A result of those times, with their statistics, pointing at t. */
static sb_result timed(double *t, size_t n)
{
    sb_result r;
    memset(&r, 0, sizeof r);
    r.reps = (int)n;
    r.samples = t;
    r.nsamples = n;
    assert_int_equal(sb_stats_compute(t, n, &r.ms), 0);
    return r;
}

/* ---------------------------------------------------------------- the math */

static int by_value(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* At the critical ranks of the published two-sided 5% tables of the
 * Mann-Whitney U (k = U_crit + 1) and at one rank of the normal
 * approximation, the interval is the k-th smallest and k-th largest of
 * all m x n log differences, and the estimate their median. */
static void interval_matches_every_pair(void **state)
{
    (void)state;
    const struct {
        size_t m, n, k;
    } cases[] = {{5, 5, 3},    {6, 6, 6},    {8, 8, 14},  {10, 10, 24},
                 {20, 20, 128}, {5, 10, 9},   {10, 5, 9},
                 /* 3600 pairs: normal, ceil(1800 - 0.5 - 1.96 x 190.53) */
                 {60, 60, 1427}};
    uint64_t seed = 42;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t m = cases[c].m, n = cases[c].n, pairs = m * n;
        double x[60], y[60], *d = malloc(pairs * sizeof *d);
        assert_non_null(d);
        draw(x, m, 1.0, 0.05, &seed);
        draw(y, n, 1.1, 0.05, &seed);
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++)
                d[i * n + j] = log(y[j]) - log(x[i]);
        qsort(d, pairs, sizeof *d, by_value);
        sb_result ref = timed(x, m), other = timed(y, n);
        sb_verdict v = sb_verdict_compare(&ref, &other, 0.0);
        assert_int_equal(v.basis, SB_BASIS_INTERVAL);
        size_t k = cases[c].k;
        assert_double_equal(log(v.ratio_low), d[k - 1], 1e-12);
        assert_double_equal(log(v.ratio_high), d[pairs - k], 1e-12);
        double mid = pairs % 2 ? d[pairs / 2] : 0.5 * (d[pairs / 2 - 1] + d[pairs / 2]);
        assert_double_equal(log(v.estimate), mid, 1e-12);
        assert_double_equal(v.speed_ratio, ref.ms.median / other.ms.median, 1e-12);
        free(d);
    }
}

/* ------------------------------------------------------------- verdicts */

#define REPS 20
#define ROWS 400

/* Two runs of one distribution, row by row: at least 90% "same" (the rule
 * flags only differences beyond the tolerance, so nearly all are), and
 * the interval holds the true ratio, 1, about 95% of the time. */
static void same_distribution_is_same(void **state)
{
    (void)state;
    uint64_t seed = 7;
    int same = 0, covered = 0;
    for (int row = 0; row < ROWS; row++) {
        double a[REPS], b[REPS], ms = 0.05 + 0.01 * (row % 37);
        draw(a, REPS, ms, 0.02, &seed);
        draw(b, REPS, ms, 0.02, &seed);
        sb_result ref = timed(a, REPS), other = timed(b, REPS);
        sb_verdict v = sb_verdict_compare(&ref, &other, 0.0);
        assert_int_equal(v.basis, SB_BASIS_INTERVAL);
        same += v.kind == SB_VERDICT_SAME;
        covered += v.ratio_low <= 1.0 && 1.0 <= v.ratio_high;
    }
    if (same < ROWS * 9 / 10)
        fail_msg("%d of %d rows same", same, ROWS);
    /* 95% nominal, 96.2% for 20 and 20 (the ranks are whole numbers) */
    if (covered < ROWS * 92 / 100 || covered > ROWS * 99 / 100)
        fail_msg("the interval held 1 in %d of %d rows", covered, ROWS);
}

/* A row 20% slower is flagged, its interval well clear of 1 and (about
 * 95% of the time) holding 1.2; the same the other way round is faster;
 * the text names who is faster.  A side whose draw happens to be noisy
 * (noise.h: rare at this scatter) is called noisy, never anything else. */
static void slowed_by_20_percent_is_flagged(void **state)
{
    (void)state;
    uint64_t seed = 11;
    int covered = 0, noisy = 0;
    for (int row = 0; row < 50; row++) {
        double a[REPS], b[REPS];
        draw(a, REPS, 0.2, 0.02, &seed);
        draw(b, REPS, 0.2 * 1.2, 0.02, &seed);
        sb_result ref = timed(a, REPS), other = timed(b, REPS);
        sb_verdict v = sb_verdict_compare(&ref, &other, 0.0);
        if (sb_noise_spread(&ref) > SB_VERDICT_TOLERANCE ||
            sb_noise_spread(&other) > SB_VERDICT_TOLERANCE) {
            assert_int_equal(v.kind, SB_VERDICT_NOISY);
            covered++;
            assert_true(++noisy <= 3);
            continue;
        }
        assert_int_equal(v.kind, SB_VERDICT_SLOWER);
        assert_true(v.ratio_low > 1.0 + SB_VERDICT_TOLERANCE);
        covered += v.ratio_low < 1.2 && 1.2 < v.ratio_high;
        assert_double_equal(v.by, other.ms.median / ref.ms.median - 1.0, 1e-12);
        char text[96];
        sb_verdict_text(&v, "cuda", "opencl", text, sizeof text);
        assert_non_null(strstr(text, "cuda faster by "));
        v = sb_verdict_compare(&other, &ref, 0.0);
        assert_int_equal(v.kind, SB_VERDICT_FASTER);
        assert_true(v.ratio_high < 1.0 / (1.0 + SB_VERDICT_TOLERANCE));
        sb_verdict_text(&v, "cuda", "opencl", text, sizeof text);
        assert_non_null(strstr(text, "opencl faster by "));
    }
    assert_true(covered >= 45);
}

/* The tolerance decides, not whether the interval holds 1: 1% slower with
 * quiet repetitions is significant and still "same" (within the few percent
 * the interval reaches); 5% slower is flagged; a threshold widens the
 * tolerance. */
static void tolerance_not_significance(void **state)
{
    (void)state;
    uint64_t seed = 5;
    double a[100], b[100], c[100];
    draw(a, 100, 1.0, 0.002, &seed);
    draw(b, 100, 1.01, 0.002, &seed);
    draw(c, 100, 1.05, 0.002, &seed);
    sb_result ref = timed(a, 100), slightly = timed(b, 100), clearly = timed(c, 100);
    sb_verdict v = sb_verdict_compare(&ref, &slightly, 0.0);
    assert_true(v.ratio_low > 1.0); /* a real difference */
    assert_int_equal(v.kind, SB_VERDICT_SAME);
    char text[96];
    sb_verdict_text(&v, "a", "b", text, sizeof text);
    assert_string_equal(text, "same (within 1.1%)");
    assert_double_equal(v.margin, SB_VERDICT_TOLERANCE, 0.0);
    v = sb_verdict_compare(&ref, &clearly, 0.0);
    assert_int_equal(v.kind, SB_VERDICT_SLOWER);
    v = sb_verdict_compare(&ref, &clearly, 0.05);
    assert_int_equal(v.kind, SB_VERDICT_SAME);
    assert_double_equal(v.margin, SB_VERDICT_TOLERANCE + 0.05, 1e-15);
    /* The rule's sentence says the tolerance the code uses. */
    assert_double_equal(SB_VERDICT_TOLERANCE, 0.02, 0.0);
    assert_non_null(strstr(SB_VERDICT_RULE, "beyond 2% either way"));
    assert_non_null(strstr(SB_VERDICT_RULE, "fewer than 5 repetitions"));
    assert_int_equal(SB_VERDICT_MIN_SAMPLES, 5);
}

/* Without samples, with fewer than SB_VERDICT_MIN_SAMPLES, or with one that
 * is not a positive time: the spread rule, and the row says which. */
static void fallback_to_the_spread_rule(void **state)
{
    (void)state;
    uint64_t seed = 3;
    double a[REPS], b[REPS];
    draw(a, REPS, 1.0, 0.02, &seed);
    draw(b, REPS, 1.3, 0.02, &seed);
    sb_result ref = timed(a, REPS), other = timed(b, REPS);
    sb_result bare = other;
    bare.samples = NULL;
    bare.nsamples = 0;
    sb_verdict v = sb_verdict_compare(&ref, &bare, 0.0);
    sb_verdict spread = sb_verdict_of(&ref.ms, &other.ms, 0.0);
    assert_int_equal(v.basis, SB_BASIS_SPREAD);
    assert_int_equal(v.kind, spread.kind);
    assert_double_equal(v.margin, spread.margin, 0.0);
    assert_int_equal(v.fewest, 0);
    char text[64];
    sb_verdict_interval_text(&v, SB_INTERVAL_SPEED, text, sizeof text);
    assert_string_equal(text, "spread rule (no samples)");
    assert_string_equal(sb_verdict_basis_name(&v), "spread rule");
    sb_result few = other;
    few.nsamples = SB_VERDICT_MIN_SAMPLES - 1;
    v = sb_verdict_compare(&few, &ref, 0.0);
    assert_int_equal(v.basis, SB_BASIS_SPREAD);
    sb_verdict_interval_text(&v, SB_INTERVAL_CHANGE, text, sizeof text);
    assert_string_equal(text, "spread rule (4 samples)");
    b[3] = 0.0; /* a time no log can take */
    v = sb_verdict_compare(&ref, &other, 0.0);
    assert_int_equal(v.basis, SB_BASIS_SPREAD);
    /* Enough of both: the interval, in either form. */
    b[3] = 1.3;
    v = sb_verdict_compare(&ref, &other, 0.0);
    assert_int_equal(v.basis, SB_BASIS_INTERVAL);
    assert_string_equal(sb_verdict_basis_name(&v), "interval");
    char want[64];
    sb_verdict_interval_text(&v, SB_INTERVAL_SPEED, text, sizeof text);
    snprintf(want, sizeof want, "[%.3f, %.3f]", 1.0 / v.ratio_high, 1.0 / v.ratio_low);
    assert_string_equal(text, want);
    sb_verdict_interval_text(&v, SB_INTERVAL_CHANGE, text, sizeof text);
    snprintf(want, sizeof want, "[%+.1f%%, %+.1f%%]", 100.0 * (v.ratio_low - 1.0),
             100.0 * (v.ratio_high - 1.0));
    assert_string_equal(text, want);
    /* No verdict: no interval. */
    bare.ms.median = 0.0;
    v = sb_verdict_compare(&ref, &bare, 0.0);
    assert_int_equal(v.kind, SB_VERDICT_NONE);
    sb_verdict_interval_text(&v, SB_INTERVAL_SPEED, text, sizeof text);
    assert_string_equal(text, "");
}

/* ------------------------------------------------------------- reports */

/* Two devices and two variants: "same" with samples on both sides, and
 * "slow" 20% slower on opencl with only 3 samples there. */
static void two_device_run(sb_run *run)
{
    memset(run, 0, sizeof *run);
    run->ndevices = 2;
    const char *backends[2] = {"cuda", "opencl"};
    for (int d = 0; d < 2; d++)
        snprintf(run->devices[d].backend, sizeof run->devices[d].backend, "%s", backends[d]);
    uint64_t seed = 9;
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < 2; i++) {
            double t[REPS];
            size_t n = d == 1 && i == 1 ? 3 : REPS;
            draw(t, n, i && d ? 0.24 : 0.2, 0.02, &seed);
            sb_result r = timed(t, n);
            snprintf(r.backend, sizeof r.backend, "%s", backends[d]);
            r.device_slot = d;
            snprintf(r.experiment, sizeof r.experiment, "transpose");
            snprintf(r.variant, sizeof r.variant, "%s", i ? "slow" : "same");
            r.rows = r.cols = 1024;
            r.quantity = SB_QUANTITY_BANDWIDTH;
            r.value = 8.0 / r.ms.median;
            r.occupancy = r.regs = -1;
            r.threads_in_flight = r.shared_bytes = r.private_bytes = -1;
            r.verified = 1;
            assert_int_equal(sb_run_add(run, &r), 0);
        }
}

static char *render(sb_format f, const sb_analysis *a)
{
    char *buf = NULL, err[256];
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    assert_int_equal(sb_report_write_to(f, a, out, err, sizeof err), 0);
    fclose(out);
    return buf;
}

/* The line of text holding needle. */
static const char *line_with(const char *text, const char *needle, char *buf, size_t n)
{
    const char *p = strstr(text, needle);
    if (!p)
        return NULL;
    while (p > text && p[-1] != '\n')
        p--;
    snprintf(buf, n, "%.*s", (int)strcspn(p, "\n"), p);
    return buf;
}

/* text with every run of spaces and newlines made one space, in place:
 * what folding a paragraph into lines does not change. */
static char *squashed(char *text)
{
    char *to = text;
    for (const char *p = text; *p; p++)
        if (!((*p == ' ' || *p == '\n') && to > text && to[-1] == ' '))
            *to++ = *p == '\n' ? ' ' : *p;
    *to = '\0';
    return text;
}

/* The line after the one holding needle (past its first character): what
 * the table puts under a row. */
static const char *line_under(const char *text, const char *needle, char *buf, size_t n)
{
    const char *p = strstr(text, needle);
    if (!p || !strchr(p + 1, '\n'))
        return NULL;
    p = strchr(p + 1, '\n') + 1;
    snprintf(buf, n, "%.*s", (int)strcspn(p, "\n"), p);
    return buf;
}

static void every_format_shows_the_interval(void **state)
{
    (void)state;
    sb_run run;
    two_device_run(&run);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    const sb_verdict *v = &a.cross.rows[0].verdict[1];
    assert_int_equal(v->basis, SB_BASIS_INTERVAL);
    assert_int_equal(v->kind, SB_VERDICT_SAME);
    char interval[48], line[2048];
    sb_verdict_interval_text(v, SB_INTERVAL_SPEED, interval, sizeof interval);
    char *t = render(SB_FORMAT_TABLE, &a), rule[] = SB_VERDICT_RULE;
    /* The interval on the line under the row, the rule folded into lines. */
    assert_non_null(line_under(t, "\n  same ", line, sizeof line));
    assert_non_null(strstr(line, "opencl/cuda 95% interval "));
    assert_non_null(strstr(line, interval));
    assert_non_null(line_under(t, "\n  slow ", line, sizeof line));
    assert_non_null(strstr(line, "opencl/cuda: spread rule (3 samples)"));
    assert_non_null(strstr(squashed(t), squashed(rule)));
    free(t);
    t = render(SB_FORMAT_MARKDOWN, &a);
    assert_non_null(strstr(t, "| opencl/cuda | verdict | 95% interval |"));
    assert_non_null(line_with(t, "| same |", line, sizeof line));
    assert_non_null(strstr(line, interval));
    assert_non_null(line_with(t, "| slow |", line, sizeof line));
    assert_non_null(strstr(line, "| spread rule (3 samples) |"));
    free(t);
    t = render(SB_FORMAT_CSV, &a);
    assert_non_null(strstr(t, ",speed_ratio,verdict,ci_low,ci_high,verdict_basis,"));
    char csv[64];
    snprintf(csv, sizeof csv, ",%.4f,%.4f,interval,", 1.0 / v->ratio_high, 1.0 / v->ratio_low);
    assert_non_null(strstr(t, csv));
    assert_non_null(strstr(t, ",,,spread rule (3 samples),"));
    free(t);
    t = render(SB_FORMAT_HTML, &a);
    assert_non_null(strstr(t, "<th>95% interval</th>"));
    assert_non_null(strstr(t, interval));
    free(t);
    t = render(SB_FORMAT_JSON, &a);
    json_t *root = json_loads(t, 0, NULL);
    assert_non_null(root);
    assert_string_equal(json_string_value(json_object_get(root, "verdict_rule")),
                        SB_VERDICT_RULE);
    json_t *c0 = json_array_get(json_object_get(root, "comparisons"), 0);
    json_t *c1 = json_array_get(json_object_get(root, "comparisons"), 1);
    assert_double_equal(json_real_value(json_object_get(c0, "ci_low")), 1.0 / v->ratio_high, 1e-8);
    assert_double_equal(json_real_value(json_object_get(c0, "ci_high")), 1.0 / v->ratio_low, 1e-8);
    assert_string_equal(json_string_value(json_object_get(c0, "basis")), "interval");
    assert_true(json_is_null(json_object_get(c1, "ci_low")));
    assert_string_equal(json_string_value(json_object_get(c1, "basis")),
                        "spread rule (3 samples)");
    json_decref(root);
    free(t);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(interval_matches_every_pair),
        cmocka_unit_test(same_distribution_is_same),
        cmocka_unit_test(slowed_by_20_percent_is_flagged),
        cmocka_unit_test(tolerance_not_significance),
        cmocka_unit_test(fallback_to_the_spread_rule),
        cmocka_unit_test(every_format_shows_the_interval),
    };
    SB_TEST_MAIN(tests);
}
