/* Whether a shared library can be handed to dlopen without crashing.
 *
 * The dynamic loader maps a library's segments where its headers say they
 * are; a file shorter than that (a copy cut off, a disk that filled up) is
 * mapped past its end, and the first touch of the missing pages kills the
 * process with SIGBUS inside dlopen, before any error can be returned.
 * The check reads the headers with pread, never mapping the file. */
#ifndef SB_ELF_CHECK_H
#define SB_ELF_CHECK_H

#include <stddef.h>

/* 0 when path is a whole ELF shared object (ET_DYN) of this process's
 * class, byte order and machine: every program header, loadable segment
 * and the section header table lie inside the file.  Else -1 with the
 * reason in why (n bytes): "not an ELF file", "ELF class 32, this program
 * is 64-bit", "truncated: 12345 bytes, segments need 67890", "not a regular
 * file: a FIFO" (the kind is looked at first: nothing that could block is
 * opened). */
int sb_elf_check(const char *path, char *why, size_t n);

/* 1 when path is an ELF file of another class, byte order or machine than
 * this process: the dynamic loader passes such a file over in its search
 * path and looks further.  0 otherwise, unreadable files included. */
int sb_elf_is_foreign(const char *path);

#endif
