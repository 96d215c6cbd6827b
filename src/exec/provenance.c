/* The run's provenance (provenance.h). */
#include "exec/provenance.h"

#include "config.h"
#include "revision.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "text.h"

const char *sb_provenance_revision(void)
{
    return SB_REVISION;
}

/* Whether a word needs no quoting for a shell. */
static int plain_word(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-",
                    *s))
            return 0;
    return 1;
}

/* Append one character; 0, or -1 where dst is full (the room for the
 * " ..." that says so is kept free). */
static int put(char *dst, size_t n, size_t *at, char c)
{
    if (*at + 5 >= n)
        return -1;
    dst[(*at)++] = c;
    return 0;
}

void sb_shell_join(int argc, const char *const *argv, char *dst, size_t n)
{
    size_t at = 0;
    int full = 0;
    if (n == 0)
        return;
    for (int i = 0; i < argc && !full; i++) {
        const char *w = argv[i];
        int quote = !plain_word(w);
        full |= i && put(dst, n, &at, ' ');
        full |= quote && put(dst, n, &at, '\'');
        for (; *w && !full; w++)
            if (*w == '\'')
                full |= put(dst, n, &at, '\'') || put(dst, n, &at, '\\') ||
                        put(dst, n, &at, '\'') || put(dst, n, &at, '\'');
            else
                full |= put(dst, n, &at, *w);
        full |= quote && put(dst, n, &at, '\'');
    }
    dst[at < n ? at : n - 1] = '\0';
    if (full && n > 5)
        snprintf(dst + at, n - at, " ...");
}

int sb_cpu_model(const char *cpuinfo, char *dst, size_t n)
{
    char line[512];
    FILE *f = fopen(cpuinfo, "r");
    dst[0] = '\0';
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) != 0 || !colon)
            continue;
        char *v = colon + 1;
        v += strspn(v, " \t");
        v[strcspn(v, "\n")] = '\0';
        sb_utf8_copy(dst, n, v);
        break;
    }
    fclose(f);
    return dst[0] ? 0 : -1;
}

void sb_provenance_stamp(sb_run *run, int argc, const char *const *argv)
{
    sb_run_provenance *p = &run->provenance;
    snprintf(p->revision, sizeof p->revision, "%s", SB_REVISION);
    if (argv)
        sb_shell_join(argc, argv, p->command, sizeof p->command);
    struct utsname u;
    if (uname(&u) == 0) {
        snprintf(p->os, sizeof p->os, "%s", u.sysname);
        snprintf(p->kernel, sizeof p->kernel, "%s", u.release);
        snprintf(p->machine, sizeof p->machine, "%s", u.machine);
    }
    if (sb_cpu_model("/proc/cpuinfo", p->cpu, sizeof p->cpu))
        snprintf(p->cpu, sizeof p->cpu, "%s", p->machine);
}

void sb_utc_now(char *dst, size_t n)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    if (!strftime(dst, n, "%Y-%m-%dT%H:%M:%SZ", &tm) && n)
        dst[0] = '\0';
}

void sb_provenance_end(sb_run *run)
{
    sb_utc_now(run->provenance.end, sizeof run->provenance.end);
}
