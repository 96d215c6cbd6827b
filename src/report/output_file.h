/* Output files that are never lost: written to a temporary name beside the
 * target and renamed over it only when complete, so that a run that fails
 * (or is killed) never truncates or replaces a file that was there.  A
 * target that exists and is not a regular file (/dev/null, a FIFO, a
 * terminal) is written in place: there is nothing to replace.
 *
 * Replacing a file keeps what an editor's save keeps: a symlink is
 * followed and its target replaced (the temporary is made beside the
 * target, not the link); the new file gets the old one's mode and owner.
 * Where a rename would lose something of the old file (its other hard
 * links, or an owner this process cannot give a new file), the complete
 * content is copied back into the old file instead, in place: the space
 * it needs is reserved first, so a full disk leaves it as it was, and
 * signals wait until the copy is done; only a crash of the machine during
 * that copy can leave it part old, part new.  The check a path gets before
 * any of this, and the path arithmetic both use, are plan/output_path.h's. */
#ifndef SB_OUTPUT_FILE_H
#define SB_OUTPUT_FILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct sb_output_file {
    FILE *f;           /* write here */
    char *target;      /* the path asked for (for messages) */
    char *real;        /* where it goes: target with its symlinks followed */
    char *temp;        /* the temporary beside real; NULL when written in place */
    int copy_back;     /* the temporary is copied into real, not renamed over it */
} sb_output_file;

/* Open an output for path; 0, or -1 with one line in err (nothing made). */
int sb_output_open(sb_output_file *o, const char *path, char *err, size_t n);

/* Flush, sync and rename (or copy back) the finished file over its target;
 * 0, or -1 with one line in err, the temporary removed and the target
 * untouched. */
int sb_output_commit(sb_output_file *o, char *err, size_t n);

/* Flush, sync and close the finished temporary, but leave it where it is
 * (o->temp, still registered for removal), for a rename over o->real
 * later (a crash's, fatal_signal.h); sb_output_abort removes it.  0, or
 * -1 with nothing left (the target is written in place, or a rename
 * would lose its links or owner, or a write failed). */
int sb_output_finish(sb_output_file *o);

/* Give up: close and remove the temporary, leaving the target as it was. */
void sb_output_abort(sb_output_file *o);

#endif
