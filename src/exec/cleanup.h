/* Temporary files and folders that must not outlive the program, however
 * it ends: each is registered while it exists, and a signal that ends the
 * program at once (interrupt.h) removes every one still registered.  The
 * removal only uses calls that are safe inside a signal handler. */
#ifndef SB_CLEANUP_H
#define SB_CLEANUP_H

/* Register path (a file, or a folder when is_dir) for removal; 0, or -1
 * when every slot is taken (the path is then only removed by its owner). */
int sb_cleanup_add(const char *path, int is_dir);

/* Forget path (its owner renamed or removed it itself). */
void sb_cleanup_forget(const char *path);

/* Remove everything registered: files unlinked, folders emptied and
 * removed.  Async-signal-safe. */
void sb_cleanup_now(void);

#endif
