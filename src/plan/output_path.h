/* Output paths, checked before anything is measured or read: the one
 * check the run plan and every command make (--output, --save, --plot,
 * --dump-ptx), and the path arithmetic the writers' output files
 * (report/output_file.h) share with it, so that the check follows a path
 * exactly as the writing will.  It writes nothing that stays. */
#ifndef SB_OUTPUT_PATH_H
#define SB_OUTPUT_PATH_H

#include <stddef.h>

/* Whether path could be written as sb_output_open writes it, without
 * writing it: not a directory; a file can be made in its directory (the
 * file system is asked: one is made and removed); an existing FIFO or
 * terminal is writable.  Symlinks are followed as sb_output_open follows
 * them.  0, or -1 with one line in err ("OPTION: the path is empty",
 * "cannot write PATH: why"). */
int sb_output_check(const char *option, const char *path, char *err, size_t n);

/* Whether files could be written into dir (--plot, --dump-ptx): it exists
 * and takes a new file, or it can be made (the writers make one level),
 * which is tried and undone; 0, or -1 with one line in err. */
int sb_output_check_dir(const char *option, const char *dir, char *err, size_t n);

/* The directory part of path ("." for a bare name), malloc'd. */
char *sb_path_dir(const char *path);

/* dir/name, malloc'd. */
char *sb_path_join(const char *dir, const char *name);

/* path with the symlinks of its last component followed, to the file they
 * end at (which need not exist: a dangling link names the file to make),
 * malloc'd; NULL with errno set.  The folders on the way need no such
 * care: a rename inside the target's folder goes through them. */
char *sb_path_resolve_links(const char *path);

#endif
