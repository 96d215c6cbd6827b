/* simtbench: the door.  Which command, then hand over: the subcommands
 * (model, compare, report, merge) parse their own arguments; everything
 * else is the run command's options (or --help, --version, --list). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmd_compare.h"
#include "cli/cmd_list.h"
#include "cli/cmd_merge.h"
#include "cli/cmd_model.h"
#include "cli/cmd_report.h"
#include "cli/cmd_run.h"
#include "cli/options.h"

typedef int (*subcommand_fn)(int argc, char **argv);

static const struct {
    const char *name;
    subcommand_fn run;
} subcommands[] = {
    {"model", sb_cmd_model},
    {"compare", sb_cmd_compare},
    {"report", sb_cmd_report},
    {"merge", sb_cmd_merge},
};

/* What was printed on stdout must have reached it (a full disk, a closed
   descriptor): SB_EXIT_OK, or SB_EXIT_IO with one line. */
static int stdout_status(void)
{
    int error = fflush(stdout) ? errno : 0;
    if (!error && !ferror(stdout))
        return SB_EXIT_OK;
    fprintf(stderr, "simtbench: cannot write to standard output: %s\n",
            error ? strerror(error) : "a write failed");
    return SB_EXIT_IO;
}

int main(int argc, char **argv)
{
    for (size_t i = 0; argc > 1 && i < sizeof subcommands / sizeof subcommands[0]; i++)
        if (strcmp(argv[1], subcommands[i].name) == 0)
            return subcommands[i].run(argc - 1, argv + 1);

    sb_options o;
    char err[512];
    sb_options_defaults(&o);
    if (sb_options_parse(argc, argv, &o, err, sizeof err)) {
        fprintf(stderr, "simtbench: %s\n", err);
        return SB_EXIT_USAGE;
    }
    o.argc = argc;
    o.argv = (const char *const *)argv;
    if (o.help) {
        sb_options_usage(stdout);
        return stdout_status();
    }
    if (o.version) {
        sb_options_version(stdout);
        return stdout_status();
    }
    if (o.list) {
        sb_cmd_list(stdout);
        return stdout_status();
    }
    return sb_cmd_run(&o);
}
