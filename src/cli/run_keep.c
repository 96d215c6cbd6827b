/* What a run has measured, kept on disk for a crash (run_keep.h).
 *
 * Why temporaries renamed by the handler, and not the files written from
 * the handler or a child process that measures: a crash under a memory
 * limit is an abort or a fault inside the backend, with the heap, the
 * runtime's locks and our own state in no known shape, so the handler may
 * only make system calls, and rename() is one; the files it puts in
 * place were written by the ordinary writers, whole, between experiments.
 * A child process would have to hand every result to its parent in some
 * form and keep the streamed table, the progress line and the signals
 * working across two processes, for the same outcome. */
#include "cli/run_keep.h"

#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "exec/fatal_signal.h"
#include "report/output_file.h"
#include "report/report.h"

/* The files kept now, and their number. */
static sb_output_file kept[SB_FATAL_KEEP];
static int nkept;

static void drop_files(sb_output_file *files, int n)
{
    for (int i = 0; i < n; i++)
        sb_output_abort(&files[i]);
}

/* One output of a, written whole to a temporary beside path; 0, or -1
 * with nothing left. */
static int keep_one(sb_format format, const sb_analysis *a, const char *path, sb_output_file *f)
{
    char err[1024];
    if (sb_output_open(f, path, err, sizeof err))
        return -1;
    if (sb_report_write_to(format, a, f->f, err, sizeof err)) {
        sb_output_abort(f);
        return -1;
    }
    return sb_output_finish(f);
}

/* The files of a, all or none, into files; their number, or -1. */
static int keep_all(const sb_options *o, const sb_suite *suite, const sb_analysis *a,
                    sb_output_file *files, char *said, size_t n)
{
    const char *paths[SB_FATAL_KEEP] = {o->output, suite->save};
    sb_format formats[SB_FATAL_KEEP] = {o->format, SB_FORMAT_JSON};
    int m = 0;
    size_t at = (size_t)snprintf(said, n, ", the %zu finished result%s kept in ",
                                 a->run->nresults, a->run->nresults == 1 ? " is" : "s are");
    for (int i = 0; i < SB_FATAL_KEEP; i++) {
        if (!paths[i])
            continue;
        if (keep_one(formats[i], a, paths[i], &files[m])) {
            drop_files(files, m);
            return -1;
        }
        if (at < n)
            at += (size_t)snprintf(said + at, n - at, "%s%s", m ? ", " : "", paths[i]);
        m++;
    }
    if (at < n)
        snprintf(said + at, n - at, ", marked interrupted");
    return m;
}

void sb_run_keep(const sb_options *o, const sb_suite *suite, sb_run *run)
{
    if ((!o->output && !suite->save) || run->nresults == 0 || !sb_fatal_memory_limited())
        return;
    int was = run->interrupted;
    run->interrupted = 1;
    sb_analysis a;
    sb_output_file files[SB_FATAL_KEEP];
    char said[900];
    int m = sb_analyse(run, o->reference, &a) ? -1 : 0;
    if (m == 0) {
        m = keep_all(o, suite, &a, files, said, sizeof said);
        sb_analysis_free(&a);
    }
    run->interrupted = was;
    const char *temps[SB_FATAL_KEEP], *reals[SB_FATAL_KEEP];
    for (int i = 0; i < m; i++)
        temps[i] = files[i].temp, reals[i] = files[i].real;
    if (m <= 0 || sb_fatal_keep(m, temps, reals, said)) {
        drop_files(files, m > 0 ? m : 0);
        return;
    }
    drop_files(kept, nkept);
    memcpy(kept, files, sizeof files);
    nkept = m;
}

void sb_run_keep_drop(void)
{
    sb_fatal_keep_none();
    drop_files(kept, nkept);
    nkept = 0;
}
