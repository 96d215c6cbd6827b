/* The file dlopen would map for a library name, found before dlopen runs,
 * so that a damaged one (sb_elf_check) is refused with a message instead
 * of crashing the process. */
#ifndef SB_LIB_SEARCH_H
#define SB_LIB_SEARCH_H

#include <stddef.h>

/* Where the dynamic loader would find soname ("libcuda.so.1"): the
 * directories of LD_LIBRARY_PATH, then /etc/ld.so.cache, then the standard
 * library directories (multiarch, lib64, lib, the NVIDIA container and
 * CUDA toolkit directories), passing over files of another class or
 * machine as the loader does.  A name with a '/' is itself the path.  An
 * approximation: an object's RUNPATH is not read.  0 with the file in
 * path (n bytes), -1 when no directory holds it. */
int sb_lib_find(const char *soname, char *path, size_t n);

/* 0 when the file sb_lib_find gives for soname is a sound shared object,
 * or when there is none (dlopen then says it is missing); -1 with
 * "damaged: PATH (why)" in why (n bytes) when dlopen would map a file
 * that sb_elf_check refuses. */
int sb_lib_check(const char *soname, char *why, size_t n);

/* The file soname resolves to (sb_lib_find), for dlopen to open by that
 * path and never by the bare soname, whose resolution by the loader could
 * open a FIFO or a device and block: 0 with the path in path (n bytes)
 * when it is a sound shared object; 1 when no directory holds it, -1 when
 * it is damaged (sb_elf_check), each with the reason in why (wn bytes),
 * "SONAME: ... No such file ..." or "damaged: PATH (why)". */
int sb_lib_resolve(const char *soname, char *path, size_t n, char *why, size_t wn);
/* -1 with the reason in why (n bytes) when a directory of LD_LIBRARY_PATH
 * holds something named like a shared library ("x.so", "x.so.N") that is
 * not a regular file (a FIFO, a device, a socket): any library that loads
 * that name through the dynamic loader (a driver, an ICD, the loader's own
 * dependencies of a module) would block or fail there, inside code that
 * cannot be made to check first; 0 when there is none. */
int sb_lib_path_hazard(char *why, size_t n);
#endif
