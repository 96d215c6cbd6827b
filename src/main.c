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
#include "text.h"

typedef int (*subcommand_fn)(int argc, char **argv);

static const struct {
    const char *name;
    subcommand_fn run;
    void (*complete)(FILE *out); /* its options, for the shell (cli/complete.h) */
} subcommands[] = {
    {"model", sb_cmd_model, sb_cmd_model_complete},
    {"compare", sb_cmd_compare, sb_cmd_compare_complete},
    {"report", sb_cmd_report, sb_cmd_report_complete},
    {"merge", sb_cmd_merge, sb_cmd_merge_complete},
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

/* `simtbench --complete [COMMAND]`, for completions/simtbench: the
 * command's options (the run's, and the commands, without one). */
static int complete(int argc, char **argv)
{
    const size_t n = sizeof subcommands / sizeof subcommands[0];
    if (argc == 2) {
        sb_options_complete(stdout);
        fputs("commands", stdout);
        for (size_t i = 0; i < n; i++)
            printf(" %s", subcommands[i].name);
        fputc('\n', stdout);
        return stdout_status();
    }
    for (size_t i = 0; argc == 3 && i < n; i++)
        if (strcmp(argv[2], subcommands[i].name) == 0) {
            subcommands[i].complete(stdout);
            return stdout_status();
        }
    fprintf(stderr, "simtbench: --complete: expected nothing or a command\n");
    return SB_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--complete") == 0)
        return complete(argc, argv);
    for (size_t i = 0; argc > 1 && i < sizeof subcommands / sizeof subcommands[0]; i++)
        if (strcmp(argv[1], subcommands[i].name) == 0)
            return subcommands[i].run(argc - 1, argv + 1);

    sb_options o;
    char err[512];
    sb_options_defaults(&o);
    if (sb_options_parse(argc, argv, &o, err, sizeof err)) {
        sb_text_message(stderr, "simtbench", err);
        return SB_EXIT_USAGE;
    }
    o.argc = argc;
    o.argv = (const char *const *)argv;
    sb_pattern_configure(&o.pattern);
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
