/* What a parallel launcher (Slurm's srun, an MPI mpirun) tells one of its
 * tasks about its place, read from the environment it sets: which device
 * the task should take (--device auto), the job and the task's number; and
 * --save's patterns, expanded from them.  Read while the suite is planned,
 * so that a run that cannot say where it is stops before a device opens. */
#ifndef SB_LAUNCHER_H
#define SB_LAUNCHER_H

#include <stddef.h>

/* The index, among the devices this process sees, of the one the launcher
 * gave this task: its local number on the node (SLURM_LOCALID, else
 * OMPI_COMM_WORLD_LOCAL_RANK, else PMI_LOCAL_RANK) counted among the
 * devices CUDA_VISIBLE_DEVICES (else ROCR_VISIBLE_DEVICES) names where
 * one is set: 0 where it names one (the launcher bound the task to that
 * device, which the process sees as its device 0), the local number where
 * it names more (which must be fewer than it names).  -1 with one line
 * in err where no launcher said, or the numbers do not fit. */
int sb_launcher_device(char *err, size_t n);

/* The task's number in its job: SLURM_PROCID, else OMPI_COMM_WORLD_RANK,
 * else PMI_RANK, into buf; -1 (buf "") where none is set. */
int sb_launcher_task(char *buf, size_t n);

/* The values --save's escapes stand for; NULL where there is none. */
typedef struct sb_save_values {
    const char *host;   /* %h */
    const char *device; /* %d */
    const char *job;    /* %j */
    const char *task;   /* %t */
} sb_save_values;

/* The values of this process: the host's name, the device text given,
 * SLURM_JOB_ID and the task (sb_launcher_task); the strings live in
 * storage of n bytes each at host, job and task. */
void sb_save_values_here(sb_save_values *v, const char *device, char *host, char *job,
                         char *task, size_t n);

/* pattern with %h, %d, %j and %t replaced by their values (each '/' in a
 * value made '_', so that a value never adds a folder) and %% by one '%',
 * into out; 0, or -1 with one line in err for an unknown escape, a '%'
 * at the end, an escape whose value is unknown, or a path too long. */
int sb_save_expand(const char *pattern, const sb_save_values *v, char *out, size_t n, char *err,
                   size_t en);

#endif
