/* Reading what NVIDIA's ptxas said about one kernel out of a build log
 * (OpenCL's -cl-nv-verbose, or nvcc -Xptxas -v).  Pure text work, no API. */
#ifndef SB_PTXAS_LOG_H
#define SB_PTXAS_LOG_H

/* In log, find the block that starts at the line
 *     ptxas info    : Compiling entry function 'NAME' for 'sm_90a'
 * and ends before the next "Compiling entry function"; from the first
 * "Used N registers" line of that block set *regs = N and, when the same
 * line says "M bytes smem", *smem_bytes = M.  What is not found is -1.
 * Returns 0 when the entry's registers were found, -1 otherwise (no log,
 * no such entry, or no "Used" line in its block). */
int sb_ptxas_log_resources(const char *log, const char *name, int *regs, long *smem_bytes);

#endif
