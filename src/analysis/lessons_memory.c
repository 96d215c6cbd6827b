#include "analysis/lessons_memory.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dram.h"
#include "plateau.h"
#include "analysis/lessons_noise.h"

/* Camping: a distance whose time is beyond this share longer than random
   order's, by the verdict (on top of its own tolerance). */
#define CAMPING 0.10

/* A share of the copy in place the burst rule asks of a chunk. */
#define BURST_SHARE 0.90

static void add(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Append to the clause; what does not fit is cut. */
static void add(char *buf, size_t n, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, n - used, fmt, ap);
    va_end(ap);
}

/* A size the sweeps step through: "96 B", "16 KiB", "4 GiB", "1.5 MiB". */
static void binary_bytes(double b, char *buf, size_t n)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int k = 0;
    while (b >= 1024 && k < 4) {
        b /= 1024;
        k++;
    }
    snprintf(buf, n, "%.3g %s", b, unit[k]);
}

/* Bytes in flight, in the decimal units GB/s x ns gives: "1.28 MB". */
static void decimal_bytes(double b, char *buf, size_t n)
{
    if (b >= 1e9)
        snprintf(buf, n, "%.3g GB", b / 1e9);
    else if (b >= 1e6)
        snprintf(buf, n, "%.3g MB", b / 1e6);
    else if (b >= 1e3)
        snprintf(buf, n, "%.3g kB", b / 1e3);
    else
        snprintf(buf, n, "%.0f bytes", b);
}

/* "16.3x", "2.41x". */
static void factor(double f, char *buf, size_t n)
{
    snprintf(buf, n, f >= 10 ? "%.1fx" : "%.2fx", f);
}

static const char *name_of(const sb_analysis *a, const sb_cross_experiment *e)
{
    return a->run->results[e->first].experiment;
}

/* Slot s's row of the block whose variant is `variant`; NULL if none. */
static const sb_result *row_named(const sb_analysis *a, const sb_cross_experiment *e, int s,
                                  const char *variant)
{
    for (size_t j = 0; j < e->nrows; j++) {
        long i = a->cross.rows[e->rows[j]].result[s];
        if (i >= 0 && strcmp(a->run->results[i].variant, variant) == 0)
            return &a->run->results[i];
    }
    return NULL;
}

/* The block's sweep on slot s: a thread's own, it is large. */
static const sb_sweep *sweep_of(const sb_analysis *a, const sb_cross_experiment *e, int s)
{
    static _Thread_local sb_sweep sw;
    sb_sweep_of(a->run, name_of(a, e), s, a->run->nresults, &sw);
    return &sw;
}

/* Whether the sector model sees every point's chunks used whole. */
static int model_sees_whole(const sb_analysis *a, const sb_sweep *sw)
{
    for (int i = 0; i < sw->n; i++) {
        const sb_result *r = &a->run->results[sw->row[i]];
        if (r->npatterns < 1 || r->pattern[0].space != SB_SPACE_GLOBAL ||
            r->prediction[0].efficiency < 1.0)
            return 0;
    }
    return sw->n > 0;
}

int sb_lesson_burst(const sb_analysis *a, const sb_cross_experiment *e, int s,
                    const char *in_place, char *buf, size_t n)
{
    const sb_result *seq = row_named(a, e, s, in_place);
    const sb_sweep *sw = sweep_of(a, e, s);
    if (!seq || !(seq->value > 0) || sw->n < 2)
        return 0;
    const sb_run *run = a->run;
    int at = sb_sweep_reaches(sw->y, sw->n, BURST_SHARE * seq->value);
    int shown = at >= 0 ? at : sw->n - 1;
    char size[32], small[32];
    binary_bytes(sw->x[shown], size, sizeof size);
    buf[0] = '\0';
    add(buf, n, at >= 0 ? "chunks of %s or more" : "no chunk up to %s", size);
    add(buf, n, " reach%s %.0f%% of the same copy in place, %.0f %s (%s: %.0f%%)",
        at >= 0 ? "" : "es", 100 * BURST_SHARE, seq->value, sb_quantity_unit(seq->quantity),
        run->results[sw->row[shown]].variant, 100 * sw->y[shown] / seq->value);
    double share = sw->y[0] / seq->value;
    binary_bytes(sw->x[0], small, sizeof small);
    add(buf, n, "; %s chunks move at %.0f%% of it, each taking the time of %.0f sequential bytes",
        small, 100 * share, sb_burst_fetched_bytes((long)sw->x[0], share));
    if (model_sees_whole(a, sw))
        add(buf, n, ", where the sector model sees every chunk used whole");
    return 1;
}

int sb_lesson_channels(const sb_analysis *a, const sb_cross_experiment *e, int s,
                       const char *random, char *buf, size_t n)
{
    const sb_result *rnd = row_named(a, e, s, random);
    const sb_sweep *sw = sweep_of(a, e, s);
    if (!rnd || !(rnd->ms.median > 0) || sw->n < 1)
        return 0;
    const sb_run *run = a->run;
    int slower = 0, first = -1, last = -1, worst = -1, best = -1, noisy = 0;
    double worst_by = 0, best_by = 0;
    for (int i = 0; i < sw->n; i++) {
        sb_verdict v = sb_lesson_judge(a, rnd, &run->results[sw->row[i]], CAMPING);
        noisy += v.kind == SB_VERDICT_NOISY;
        if (v.kind == SB_VERDICT_SLOWER) {
            slower++;
            first = first < 0 ? i : first;
            last = i;
            if (v.by > worst_by)
                worst_by = v.by, worst = i;
        } else if (v.kind == SB_VERDICT_FASTER && v.by > best_by) {
            best_by = v.by, best = i;
        }
    }
    char lo[32], hi[32], f[32];
    buf[0] = '\0';
    if (noisy == sw->n)
        return 0; /* every distance noisy: nothing to say (the block says they are) */
    if (slower == 0 && noisy) {
        add(buf, n, "no quiet power-of-two distance runs %.0f%% slower than the same chunks at "
                    "random; %d of the %d distances are noisy, so whether a stride camps is "
                    "not shown",
            100 * CAMPING, noisy, sw->n);
    } else if (slower == 0) {
        binary_bytes(sw->x[0], lo, sizeof lo);
        binary_bytes(sw->x[sw->n - 1], hi, sizeof hi);
        add(buf, n, "no power-of-two distance from %s to %s runs %.0f%% slower than the same "
                    "chunks at random: the address mapping spreads them over the channels, so "
                    "no stride camps here",
            lo, hi, 100 * CAMPING);
    } else {
        factor(worst_by + 1, f, sizeof f);
        add(buf, n, "%d of the %d distances (%s to %s) run slower than the same chunks at "
                    "random, up to %s (%s): those strides camp on few channels",
            slower, sw->n, run->results[sw->row[first]].variant,
            run->results[sw->row[last]].variant, f, run->results[sw->row[worst]].variant);
    }
    if (best >= 0) {
        factor(best_by + 1, f, sizeof f);
        add(buf, n, "; %s runs %s faster than random order", run->results[sw->row[best]].variant,
            f);
    }
    return 1;
}

/* What plateau k of m is, by its place: L1, L2 and DRAM where the sweep
   went past the device's cache (cache bytes, 0 when unknown), else only
   its number.  Past the L2 and before DRAM, a level within the cache's
   size is the L2's far part (a split L2: the partition of the other half
   of the chip), and the first L2 level then its near part. */
static void level_name(const sb_memory_levels *m, int k, double cache, char *buf, size_t n)
{
    int last = k == m->nlevels - 1;
    int far = m->nlevels >= 4 && k >= 2 && !last && cache > 0 && m->level[k].to_bytes <= cache;
    if (!m->past_cache || (m->nlevels == 1 && m->level[k].to_bytes < m->largest_bytes))
        snprintf(buf, n, "level %d", k + 1);
    else if (last)
        snprintf(buf, n, "DRAM");
    else if (m->nlevels == 2)
        snprintf(buf, n, "cache");
    else if (k == 0)
        snprintf(buf, n, "L1");
    else if (k == 1)
        snprintf(buf, n, m->nlevels >= 4 && m->level[2].to_bytes <= cache ? "near L2" : "L2");
    else if (far)
        snprintf(buf, n, "far L2");
    else
        snprintf(buf, n, "level %d", k + 1);
}

/* ", the largest working set, 4 MiB, is within twice the 32 MiB the
   device reports as its cache, so none of them is DRAM's". */
static void within_cache(const sb_run *run, int s, double largest, char *buf, size_t n)
{
    char big[32], cache[32];
    binary_bytes(largest, big, sizeof big);
    binary_bytes((double)run->devices[s].info.l2_bytes, cache, sizeof cache);
    add(buf, n, "; the largest working set, %s, is within twice the %s the device reports as "
                "its cache, so none of them is DRAM's",
        big, cache);
}

int sb_lesson_latency(const sb_analysis *a, const sb_cross_experiment *e, int s, char *buf,
                      size_t n)
{
    const sb_memory_levels *m = &a->memory[s];
    if (strcmp(m->latency, name_of(a, e)) != 0 || m->npoints < 2)
        return 0;
    buf[0] = '\0';
    if (m->nlevels == 0) {
        add(buf, n, "no plateau: every working set's latency differs from the next one's by "
                    "more than %.0f%%",
            100 * (SB_PLATEAU_JUMP - 1));
        return 1;
    }
    int mhz = a->run->devices[s].info.clock_mhz;
    add(buf, n, m->nlevels > 1 ? "plateaus: " : "one plateau: ");
    for (int k = 0; k < m->nlevels; k++) {
        const sb_memory_level *l = &m->level[k];
        char name[16], from[32], to[32];
        level_name(m, k, (double)a->run->devices[s].info.l2_bytes, name, sizeof name);
        binary_bytes(l->from_bytes, from, sizeof from);
        binary_bytes(l->to_bytes, to, sizeof to);
        add(buf, n, "%s%s %.3g ns", k ? "; " : "", name, l->level);
        if (mhz > 0)
            add(buf, n, " (%.0f cycles)", l->level * mhz * 1e-3);
        add(buf, n, " from %s to %s", from, to);
    }
    if (!m->past_cache && a->run->devices[s].info.l2_bytes > 0)
        within_cache(a->run, s, m->largest_bytes, buf, n);
    return 1;
}

/* "; two buffers of four times the 60 MiB the device reports as its cache
   (ws512M) copy at 4120 GB/s, on the DRAM plateau: ...". */
static void four_caches(const sb_analysis *a, const sb_sweep *sw, int s, double dram_from,
                        char *buf, size_t n)
{
    double cache = (double)a->run->devices[s].info.l2_bytes;
    int i = 0;
    while (i < sw->n && sw->x[i] < 8 * cache)
        i++;
    if (!(cache > 0) || i == sw->n)
        return;
    const sb_result *r = &a->run->results[sw->row[i]];
    char size[32];
    binary_bytes(cache, size, sizeof size);
    int on = dram_from > 0 && sw->x[i] >= dram_from;
    add(buf, n, "; two buffers of four times the %s the device reports as its cache (%s) copy "
                "at %.0f %s, %s the DRAM plateau",
        size, r->variant, r->value, sb_quantity_unit(r->quantity), on ? "on" : "not yet on");
    if (on)
        add(buf, n, ": why the bandwidth experiments' default buffers are at least four caches");
}

int sb_lesson_working_set(const sb_analysis *a, const sb_cross_experiment *e, int s, char *buf,
                          size_t n)
{
    const sb_sweep *sw = sweep_of(a, e, s);
    if (sw->n < 2)
        return 0;
    sb_plateau p[SB_PLATEAUS_MAX];
    int np = sb_plateaus(sw->y, sw->n, p, SB_PLATEAUS_MAX);
    double cache = (double)a->run->devices[s].info.l2_bytes, largest = sw->x[sw->n - 1];
    int past = cache > 0 ? largest > 2 * cache : np >= 2;
    const char *unit = sb_quantity_unit(a->run->results[sw->row[0]].quantity);
    buf[0] = '\0';
    if (np == 0) {
        add(buf, n, "no plateau: the bandwidth changes by more than %.0f%% from each working "
                    "set to the next",
            100 * (SB_PLATEAU_JUMP - 1));
        return 1;
    }
    int fastest = 0;
    for (int k = 1; k < np - 1; k++)
        fastest = p[k].level > p[fastest].level ? k : fastest;
    for (int k = 0; k < np; k++) {
        if (past && np >= 2 && k != fastest && k != np - 1)
            continue;
        char from[32], to[32];
        binary_bytes(sw->x[p[k].first], from, sizeof from);
        binary_bytes(sw->x[p[k].last], to, sizeof to);
        const char *what = !past || np < 2 ? "a plateau" : k == np - 1 ? "DRAM's" : "the cache's";
        add(buf, n, "%s%s: %.0f %s from %s to %s", buf[0] ? "; " : "", what, p[k].level, unit,
            from, to);
    }
    if (past && np >= 2)
        four_caches(a, sw, s, sw->x[p[np - 1].first], buf, n);
    else if (!past && cache > 0)
        within_cache(a->run, s, largest, buf, n);
    return 1;
}

/* "b256-g8x reaches 95% of the best bandwidth with 1.08 MB in flight
   (270336 threads in flight x 4 B)". */
static void knee_measured(const sb_analysis *a, const sb_memory_levels *m, char *buf, size_t n)
{
    const sb_result *k = &a->run->results[m->knee_row];
    char bytes[32];
    decimal_bytes(m->knee_bytes, bytes, sizeof bytes);
    add(buf, n, "%s reaches %.0f%% of the best bandwidth with %s in flight (%.0f threads %s x "
                "%.0f B)",
        k->variant, 100 * SB_KNEE_NEAR_BEST, bytes, m->knee_bytes / m->bytes_per_thread,
        m->in_flight ? "in flight" : "launched", m->bytes_per_thread);
}

int sb_lesson_littles_law(const sb_analysis *a, const sb_cross_experiment *e, int s, char *buf,
                          size_t n)
{
    const sb_memory_levels *m = &a->memory[s];
    const char *name = name_of(a, e);
    if (strcmp(m->inflight, name) != 0 || m->knee_row < 0)
        return 0;
    char need[32];
    buf[0] = '\0';
    if (m->need_bytes > 0) {
        decimal_bytes(m->need_bytes, need, sizeof need);
        add(buf, n, "Little's law: the copy's reads, %.0f GB/s (half its %.0f), x the DRAM "
                    "latency, %.3g ns, need %s of loads in flight, %.0f threads of %.0f B; "
                    "measured, ",
            m->copy_gbs / 2, m->copy_gbs, m->dram_ns, need, m->need_bytes / m->bytes_per_thread,
            m->bytes_per_thread);
        knee_measured(a, m, buf, n);
        add(buf, n, ": %.2fx the prediction", m->knee_bytes / m->need_bytes);
        return 1;
    }
    if (!m->latency[0] || !m->latency_before)
        add(buf, n, "Little's law needs the DRAM latency measured before this block to predict "
                    "the knee (--experiment latency,%s)",
            name);
    else if (!(m->dram_ns > 0))
        add(buf, n, "Little's law has no DRAM latency to predict the knee from: the latency "
                    "sweep stayed within the device's cache");
    else
        add(buf, n, "Little's law has no copy bandwidth to predict the knee from: no copy "
                    "roof was measured");
    add(buf, n, "; measured, ");
    knee_measured(a, m, buf, n);
    return 1;
}
