#include "analysis/crossapi.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/noise.h"
#include "exec/ptx_summary.h"
#include "text.h"

static int by_value(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

sb_verdict sb_verdict_of(const sb_stats *ref, const sb_stats *other, double threshold)
{
    sb_verdict v = {.kind = SB_VERDICT_NONE, .basis = SB_BASIS_NONE};
    if (!(ref->median > 0) || !(other->median > 0) || !isfinite(ref->median) ||
        !isfinite(other->median))
        return v;
    v.basis = SB_BASIS_SPREAD;
    v.speed_ratio = ref->median / other->median;
    v.change = (other->median - ref->median) / ref->median;
    v.margin = fmax(ref->spread, other->spread) + (threshold > 0 ? threshold : 0.0);
    if (fabs(v.change) <= v.margin) {
        v.kind = SB_VERDICT_SAME;
        return v;
    }
    v.kind = other->median < ref->median ? SB_VERDICT_FASTER : SB_VERDICT_SLOWER;
    v.by = fmax(ref->median, other->median) / fmin(ref->median, other->median) - 1.0;
    return v;
}

/* ---------------------------------------------------------------- interval */

/* A double's bits as an unsigned key in the doubles' order: negative ones
 * flipped whole, positive ones above them.  Between two finite keys every
 * key is a finite double, so a search over keys finds any double. */
static uint64_t order_key(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u >> 63 ? ~u : u | (UINT64_C(1) << 63);
}

static double from_key(uint64_t k)
{
    uint64_t u = k >> 63 ? k & ~(UINT64_C(1) << 63) : ~k;
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* How many differences y[j] - x[i] are at most t, x and y sorted: as x[i]
 * grows, more of y qualify, so one pointer walks y once. */
static size_t count_at_most(const double *x, size_t m, const double *y, size_t n, double t)
{
    size_t count = 0, j = 0;
    for (size_t i = 0; i < m; i++) {
        while (j < n && y[j] - x[i] <= t)
            j++;
        count += j;
    }
    return count;
}

/* The k-th smallest (1-based) of the m x n differences y[j] - x[i]: the
 * smallest double with k differences at or below it, found by halving the
 * keys between the least and the greatest difference (at most 64 steps of
 * m + n each, whatever the sizes). */
static double kth_difference(const double *x, size_t m, const double *y, size_t n, size_t k)
{
    uint64_t lo = order_key(y[0] - x[m - 1]), hi = order_key(y[n - 1] - x[0]);
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (count_at_most(x, m, y, n, from_key(mid)) >= k)
            hi = mid;
        else
            lo = mid + 1;
    }
    return from_key(lo);
}

/* P(U <= u) under no shift, for u = 0..m n, of the Mann-Whitney U of
 * samples of m and n: the coefficients of the Gaussian binomial
 * [m + n choose m] in q (how many orderings of the two samples give each
 * U), built one factor (1 - q^(n+i)) / (1 - q^i) at a time, then summed
 * and divided by their total.  After each factor the coefficients are
 * those of [n + i choose i], so what the subtraction cancels is of their
 * size and the rounding left is some 1e-13 of the total at most, far
 * below the 2.5% looked for.  NULL out of memory. */
static double *mann_whitney_cdf(size_t m, size_t n)
{
    size_t top = m * n;
    double *c = calloc(top + 1, sizeof *c);
    if (!c)
        return NULL;
    c[0] = 1.0;
    for (size_t i = 1; i <= m; i++) {
        for (size_t u = top; u >= n + i; u--)
            c[u] -= c[u - n - i];
        for (size_t u = i; u <= top; u++)
            c[u] += c[u - i];
    }
    double total = 0.0;
    for (size_t u = 0; u <= top; u++)
        total += c[u];
    double below = 0.0;
    for (size_t u = 0; u <= top; u++) {
        below += c[u];
        c[u] = below / total;
    }
    return c;
}

/* The Mann-Whitney critical rank k for a two-sided 95% interval, at least
 * 1: the least u with P(U <= u) >= 2.5%; 0 out of memory. */
static size_t critical_rank(size_t m, size_t n)
{
    const double half_alpha = 0.025, z = 1.959963984540054;
    size_t k;
    if (m * n <= SB_VERDICT_EXACT_PAIRS) {
        double *cdf = mann_whitney_cdf(m < n ? m : n, m < n ? n : m);
        if (!cdf)
            return 0;
        for (k = 0; cdf[k] < half_alpha; k++)
            ;
        free(cdf);
    } else {
        double mn = (double)m * (double)n, sd = sqrt(mn * (double)(m + n + 1) / 12.0);
        double u = ceil(mn / 2.0 - 0.5 - z * sd);
        k = u > 0 ? (size_t)u : 0;
    }
    return k ? k : 1;
}

/* The repetitions' log times, sorted (every one a positive finite time,
 * usable_samples says); NULL out of memory. */
static double *sorted_logs(const sb_result *r)
{
    double *l = malloc(r->nsamples * sizeof *l);
    for (size_t i = 0; l && i < r->nsamples; i++)
        l[i] = log(r->samples[i]);
    if (l)
        qsort(l, r->nsamples, sizeof *l, by_value);
    return l;
}

/* The Hodges-Lehmann time ratio other/ref and its 95% bounds into v; 0,
 * or -1 out of memory. */
static int shift_interval(const sb_result *ref, const sb_result *other, sb_verdict *v)
{
    double *x = sorted_logs(ref), *y = sorted_logs(other);
    size_t m = ref->nsamples, n = other->nsamples, pairs = m * n;
    size_t k = x && y ? critical_rank(m, n) : 0;
    if (k) {
        double mid = kth_difference(x, m, y, n, pairs / 2 + 1);
        if (pairs % 2 == 0)
            mid = 0.5 * (mid + kth_difference(x, m, y, n, pairs / 2));
        v->estimate = exp(mid);
        v->ratio_low = exp(kth_difference(x, m, y, n, k));
        v->ratio_high = exp(kth_difference(x, m, y, n, pairs + 1 - k));
    }
    free(x);
    free(y);
    return k ? 0 : -1;
}

/* Repetitions a result has for the interval: its samples when every one
 * is a positive finite time, else none. */
static size_t usable_samples(const sb_result *r)
{
    for (size_t i = 0; r->samples && i < r->nsamples; i++)
        if (!(r->samples[i] > 0) || !isfinite(r->samples[i]))
            return 0;
    return r->samples ? r->nsamples : 0;
}

/* A verdict made noisy by either side's noise, the figures kept. */
static void make_noisy(sb_verdict *v, const sb_noise_row *a, const sb_noise_row *b)
{
    const sb_noise_row *side[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        if (!side[k]->noisy)
            continue;
        v->kind = SB_VERDICT_NOISY;
        v->noisy |= side[k]->noisy;
        if (side[k]->noisy & SB_NOISY_SPREAD)
            v->noise_spread = fmax(v->noise_spread, side[k]->spread);
        if (side[k]->noisy & SB_NOISY_DRIFT)
            v->noise_drift = fmax(v->noise_drift, side[k]->drift);
        v->noise = fmax(v->noise_spread, v->noise_drift);
    }
    if (v->kind == SB_VERDICT_NOISY)
        v->by = 0.0;
}

sb_verdict sb_verdict_judge(const sb_run *ref_run, const sb_result *ref, const sb_run *other_run,
                            const sb_result *other, double threshold)
{
    sb_verdict v = sb_verdict_of_times(ref, other, threshold);
    if (v.kind == SB_VERDICT_NONE)
        return v;
    sb_noise_row a = sb_noise_row_of(ref_run, ref, threshold);
    sb_noise_row b = sb_noise_row_of(other_run, other, threshold);
    make_noisy(&v, &a, &b);
    return v;
}

sb_verdict sb_verdict_of_times(const sb_result *ref, const sb_result *other, double threshold)
{
    sb_verdict v = sb_verdict_of(&ref->ms, &other->ms, threshold);
    if (v.kind == SB_VERDICT_NONE)
        return v;
    size_t m = usable_samples(ref), n = usable_samples(other);
    sb_verdict by_interval = v;
    if (m < SB_VERDICT_MIN_SAMPLES || n < SB_VERDICT_MIN_SAMPLES ||
        shift_interval(ref, other, &by_interval)) {
        v.fewest = m < n ? m : n;
        return v;
    }
    v = by_interval;
    v.basis = SB_BASIS_INTERVAL;
    v.margin = SB_VERDICT_TOLERANCE + (threshold > 0 ? threshold : 0.0);
    v.kind = v.ratio_low > 1.0 + v.margin           ? SB_VERDICT_SLOWER
             : v.ratio_high < 1.0 / (1.0 + v.margin) ? SB_VERDICT_FASTER
                                                      : SB_VERDICT_SAME;
    v.by = v.kind == SB_VERDICT_SAME
               ? 0.0
               : fmax(ref->ms.median, other->ms.median) / fmin(ref->ms.median, other->ms.median) -
                     1.0;
    return v;
}

sb_verdict sb_verdict_compare(const sb_result *ref, const sb_result *other, double threshold)
{
    sb_verdict v = sb_verdict_of_times(ref, other, threshold);
    if (v.kind == SB_VERDICT_NONE)
        return v;
    double margin = SB_VERDICT_TOLERANCE + (threshold > 0 ? threshold : 0.0);
    sb_noise_row a = {.spread = sb_noise_spread(ref), .drift = -1};
    sb_noise_row b = {.spread = sb_noise_spread(other), .drift = -1};
    a.noisy = a.spread > margin ? SB_NOISY_SPREAD : 0;
    b.noisy = b.spread > margin ? SB_NOISY_SPREAD : 0;
    make_noisy(&v, &a, &b);
    return v;
}

/* Append "; what: ref R, other O" to the note when both compilers' figures
 * are known and differ: the same PTX can still be given other registers or
 * shared bytes (NVIDIA's OpenCL reserves shared bytes of its own, which
 * moves the kernel's arrays off their alignment).  Left out when it would
 * not fit whole. */
static void resource_note(const sb_crossapi *x, long ref, long other, const char *what, int slot,
                          char *buf, size_t n)
{
    if (ref < 0 || other < 0 || ref == other)
        return;
    size_t used = strlen(buf);
    int len = snprintf(buf + used, n - used, "%s%s: %s %ld, %s %ld", used ? "; " : "", what,
                       x->label[x->reference], ref, x->label[slot], other);
    if (len < 0 || (size_t)len >= n - used)
        buf[used] = '\0';
}

/* The PTX note of one slot against the reference, from the records' text
 * forms: both APIs' PTX is summarised when the run measures, so the report
 * needs no file. */
static void ptx_note(const sb_crossapi *x, const sb_result *ref, const sb_result *other,
                     int slot, int differ, char *buf, size_t n)
{
    buf[0] = '\0';
    int same = 0;
    if (ref->ptx_memory[0] && other->ptx_memory[0])
        same = sb_ptx_text_diff(ref->ptx_memory, x->label[x->reference], other->ptx_memory,
                                x->label[slot], buf, n);
    if (same == 1) {
        char rest[200];
        /* The rest of the PTX is named only where the times differ: the
           same few extra instructions in every kernel are noise where they
           cost nothing. */
        if (differ && sb_ptx_text_other(ref->ptx_memory, x->label[x->reference],
                                        other->ptx_memory, x->label[slot], rest,
                                        sizeof rest) == 1)
            snprintf(buf, n, "same memory instructions; %s", rest);
        else
            snprintf(buf, n, "same memory instructions");
    } else if (same == 2) {
        char typed[200];
        snprintf(typed, sizeof typed, "%s", buf);
        snprintf(buf, n, "same memory instructions, element types differ (%s)", typed);
    } else if (same < 0)
        snprintf(buf, n, "PTX summary unreadable");
    /* The compilers' allocations likewise: the shared bytes an OpenCL
       compiler reserves for itself are on every row, and matter on few. */
    if (!differ)
        return;
    resource_note(x, ref->regs, other->regs, "registers", slot, buf, n);
    resource_note(x, ref->shared_bytes, other->shared_bytes, "shared bytes", slot, buf, n);
    resource_note(x, ref->private_bytes, other->private_bytes, "private bytes", slot, buf, n);
}

int sb_crossapi_reference(const sb_run *run, const char *backend)
{
    if (!backend)
        return 0;
    for (int i = 0; i < run->ndevices && i < SB_RUN_MAX_DEVICES; i++)
        if (strcmp(run->devices[i].backend, backend) == 0)
            return i;
    return -1;
}

/* A result and its index, sorted on the result's names: qsort's element. */
typedef struct keyed {
    const sb_result *r;
    size_t i;
} keyed;

/* By experiment, then run order. */
static int by_experiment(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    int c = strcmp(a->r->experiment, b->r->experiment);
    return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* By experiment, variant and size, then run order: one row's candidates
 * side by side, in the order the run met them. */
static int by_row_key(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    int c = strcmp(a->r->experiment, b->r->experiment);
    if (!c)
        c = strcmp(a->r->variant, b->r->variant);
    if (!c)
        c = (a->r->rows > b->r->rows) - (a->r->rows < b->r->rows);
    if (!c)
        c = (a->r->cols > b->r->cols) - (a->r->cols < b->r->cols);
    return c ? c : (a->i > b->i) - (a->i < b->i);
}

static int same_key(const keyed *a, const keyed *b)
{
    return strcmp(a->r->experiment, b->r->experiment) == 0 &&
           strcmp(a->r->variant, b->r->variant) == 0 && a->r->rows == b->r->rows &&
           a->r->cols == b->r->cols;
}

static int by_first(const void *pa, const void *pb)
{
    const sb_cross_row *a = pa, *b = pb;
    return (a->first > b->first) - (a->first < b->first);
}

/* The results of a run on its devices, sorted by by_row_key; how many. */
static size_t keyed_results(const sb_run *run, int ndevices, keyed *k)
{
    size_t n = 0;
    for (size_t i = 0; i < run->nresults; i++)
        if (run->results[i].device_slot >= 0 && run->results[i].device_slot < ndevices)
            k[n++] = (keyed){&run->results[i], i};
    qsort(k, n, sizeof *k, by_row_key);
    return n;
}

/* The rows: each result joins the first row of its variant and size that
 * has no result yet on its device, else starts one; rows in the order of
 * their first results.  Within one variant and size, the k-th result of a
 * device joins the k-th row, so no row is searched for. */
static int pair_rows(const sb_run *run, sb_crossapi *x)
{
    keyed *k = malloc((run->nresults + 1) * sizeof *k);
    if (!k)
        return -1;
    size_t n = keyed_results(run, x->ndevices, k);
    for (size_t start = 0, end; start < n; start = end) {
        size_t base = x->nrows, len = 0, taken[SB_RUN_MAX_DEVICES] = {0};
        for (end = start; end < n && same_key(&k[start], &k[end]); end++) {
            int slot = k[end].r->device_slot;
            size_t at = taken[slot]++;
            sb_cross_row *row = &x->rows[base + at];
            if (at == len) {
                row->first = k[end].i;
                row->result = x->slots + (base + at) * (size_t)x->ndevices;
                for (int s = 0; s < x->ndevices; s++)
                    row->result[s] = -1;
                len++;
            }
            row->result[slot] = (long)k[end].i;
        }
        x->nrows += len;
    }
    free(k);
    qsort(x->rows, x->nrows, sizeof *x->rows, by_first);
    for (size_t j = 0; j < x->nrows; j++)
        for (int s = 0; s < x->ndevices; s++)
            if (x->rows[j].result[s] >= 0)
                x->row_of[x->rows[j].result[s]] = (long)j;
    return 0;
}

static int by_first_result(const void *pa, const void *pb)
{
    const sb_cross_experiment *a = pa, *b = pb;
    return (a->first > b->first) - (a->first < b->first);
}

/* The experiments in first-seen order, each with its results and rows in
 * run order (x->order holds both lists); exp_of gets each result's
 * experiment. */
static int group_experiments(const sb_run *run, sb_crossapi *x, size_t *exp_of)
{
    keyed *k = malloc((run->nresults + 1) * sizeof *k);
    x->experiments = calloc(run->nresults + 1, sizeof *x->experiments);
    if (!k || !x->experiments) {
        free(k);
        return -1;
    }
    for (size_t i = 0; i < run->nresults; i++)
        k[i] = (keyed){&run->results[i], i};
    qsort(k, run->nresults, sizeof *k, by_experiment);
    size_t *results = x->order;
    for (size_t i = 0; i < run->nresults; i++) {
        if (i == 0 || strcmp(k[i].r->experiment, k[i - 1].r->experiment) != 0)
            x->experiments[x->nexperiments++] = (sb_cross_experiment){k[i].i, results + i, 0,
                                                                      NULL, 0};
        x->experiments[x->nexperiments - 1].nresults++;
        results[i] = k[i].i;
    }
    free(k);
    /* First-seen order; each experiment's first result is unique. */
    qsort(x->experiments, x->nexperiments, sizeof *x->experiments, by_first_result);
    for (size_t e = 0; e < x->nexperiments; e++)
        for (size_t m = 0; m < x->experiments[e].nresults; m++)
            exp_of[x->experiments[e].results[m]] = e;
    return 0;
}

/* Each experiment's rows, in row order, after its results in x->order. */
static void group_rows(const sb_run *run, sb_crossapi *x, const size_t *exp_of)
{
    size_t *rows = x->order + run->nresults;
    for (size_t j = 0; j < x->nrows; j++)
        x->experiments[exp_of[x->rows[j].first]].nrows++;
    size_t at = 0;
    for (size_t e = 0; e < x->nexperiments; e++) {
        x->experiments[e].rows = rows + at;
        at += x->experiments[e].nrows;
        x->experiments[e].nrows = 0;
    }
    for (size_t j = 0; j < x->nrows; j++) {
        sb_cross_experiment *e = &x->experiments[exp_of[x->rows[j].first]];
        rows[e->rows - rows + e->nrows++] = j;
    }
}

/* Where verdicts and notes live: none for a run of one device (its only
 * slot is the reference), else one of each per row and slot. */
static const sb_verdict no_verdicts[SB_RUN_MAX_DEVICES];
static const char *const no_notes[SB_RUN_MAX_DEVICES] = {[0 ... SB_RUN_MAX_DEVICES - 1] = ""};

/* Result o against result r of the run: with the noise already judged
   where x has it. */
static sb_verdict judged(const sb_run *run, const sb_crossapi *x, long r, long o)
{
    const sb_result *ref = &run->results[r], *other = &run->results[o];
    const sb_noise_row *a = sb_noise_at(x->noise, (size_t)r), *b = sb_noise_at(x->noise, (size_t)o);
    if (!a || !b)
        return sb_verdict_judge(run, ref, run, other, 0.0);
    sb_verdict v = sb_verdict_of_times(ref, other, 0.0);
    if (v.kind != SB_VERDICT_NONE)
        make_noisy(&v, a, b);
    return v;
}

/* Each other device's verdict and PTX note against the reference's. */
static int judge_row(const sb_run *run, sb_crossapi *x, size_t j)
{
    sb_cross_row *row = &x->rows[j];
    sb_verdict *verdict = x->verdicts + j * (size_t)x->ndevices;
    sb_verdict *host = x->host_verdicts + j * (size_t)x->ndevices;
    const char **notes = x->notes + j * (size_t)x->ndevices;
    row->verdict = verdict;
    row->host_verdict = host;
    row->ptx = notes;
    long ri = row->result[x->reference];
    for (int s = 0; s < x->ndevices; s++) {
        notes[s] = no_notes[s];
        if (s == x->reference || ri < 0 || row->result[s] < 0)
            continue;
        const sb_result *ref = &run->results[ri], *other = &run->results[row->result[s]];
        verdict[s] = judged(run, x, ri, row->result[s]);
        /* The host's times have no samples saved: the spread rule. */
        if (ref->host_observed.n > 0 && other->host_observed.n > 0)
            host[s] = sb_verdict_of(&ref->host_observed, &other->host_observed, 0.0);
        int differ = verdict[s].kind == SB_VERDICT_FASTER || verdict[s].kind == SB_VERDICT_SLOWER;
        char note[384];
        ptx_note(x, ref, other, s, differ, note, sizeof note);
        if (note[0] && !(notes[s] = strdup(note))) {
            notes[s] = no_notes[s];
            return -1;
        }
    }
    return 0;
}

/* The verdicts and notes of every row. */
static int judge_rows(const sb_run *run, sb_crossapi *x)
{
    if (x->ndevices < 2) {
        for (size_t j = 0; j < x->nrows; j++) {
            x->rows[j].verdict = no_verdicts;
            x->rows[j].host_verdict = no_verdicts;
            x->rows[j].ptx = no_notes;
        }
        return 0;
    }
    x->verdicts = calloc(x->nrows * (size_t)x->ndevices + 1, sizeof *x->verdicts);
    x->host_verdicts = calloc(x->nrows * (size_t)x->ndevices + 1, sizeof *x->host_verdicts);
    x->notes = calloc(x->nrows * (size_t)x->ndevices + 1, sizeof *x->notes);
    if (!x->verdicts || !x->host_verdicts || !x->notes)
        return -1;
    for (size_t j = 0; j < x->nrows; j++)
        if (judge_row(run, x, j))
            return -1;
    return 0;
}

/* Free what the rows, groups and notes hold, keeping the labels. */
static void release(sb_crossapi *x)
{
    if (x->notes)
        for (size_t k = 0; k < x->nrows * (size_t)x->ndevices; k++)
            if (x->notes[k] && x->notes[k][0])
                free((char *)x->notes[k]);
    free(x->notes);
    free(x->verdicts);
    free(x->host_verdicts);
    free(x->rows);
    free(x->row_of);
    free(x->order);
    free(x->slots);
    free(x->experiments);
    x->slots = NULL;
    x->notes = NULL;
    x->verdicts = NULL;
    x->host_verdicts = NULL;
    x->rows = NULL;
    x->row_of = NULL;
    x->order = NULL;
    x->experiments = NULL;
    x->nrows = x->nexperiments = 0;
}

/* The pairs, the groups and the verdicts; 0 or -1 out of memory. */
static int build(const sb_run *run, sb_crossapi *x)
{
    size_t n = run->nresults;
    x->rows = calloc(n, sizeof *x->rows);
    x->row_of = malloc(n * sizeof *x->row_of);
    x->order = malloc(2 * n * sizeof *x->order);
    x->slots = malloc(n * (size_t)(x->ndevices ? x->ndevices : 1) * sizeof *x->slots);
    size_t *exp_of = malloc(n * sizeof *exp_of);
    int rc = -1;
    if (x->rows && x->row_of && x->order && x->slots && exp_of) {
        for (size_t i = 0; i < n; i++)
            x->row_of[i] = -1;
        rc = pair_rows(run, x) || group_experiments(run, x, exp_of) ? -1 : 0;
        if (rc == 0)
            group_rows(run, x, exp_of);
        if (rc == 0)
            rc = judge_rows(run, x);
    }
    free(exp_of);
    return rc;
}

int sb_crossapi_build(const sb_run *run, int reference, sb_crossapi *x)
{
    return sb_crossapi_build_judged(run, reference, NULL, x);
}

int sb_crossapi_build_judged(const sb_run *run, int reference, const struct sb_noise *noise,
                             sb_crossapi *x)
{
    memset(x, 0, sizeof *x);
    x->noise = noise;
    x->ndevices = run->ndevices < SB_RUN_MAX_DEVICES ? run->ndevices : SB_RUN_MAX_DEVICES;
    sb_slot_labels(run, x->label);
    x->reference = reference >= 0 && reference < x->ndevices ? reference : 0;
    if (run->nresults == 0)
        return 0;
    if (build(run, x)) {
        release(x);
        return -1;
    }
    return 0;
}

void sb_crossapi_free(sb_crossapi *x)
{
    release(x);
    memset(x, 0, sizeof *x);
}
