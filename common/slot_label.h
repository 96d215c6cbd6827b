/* The short names of a run's device slots ("cuda", "opencl:1",
 * "gpu07/cuda"), from the run's record alone: every stage that shows a
 * device uses them, so they sit below the stages. */
#ifndef SB_SLOT_LABEL_H
#define SB_SLOT_LABEL_H

#include <stddef.h>

#include "result.h"

/* How long a slot's label may be, NUL included. */
#define SB_SLOT_LABEL 48

/* A short name of a run's device slot: its backend's name; then, where
 * the run holds another device of that backend with another index, the
 * index (":1", or ":P.D" where their platforms differ too), or, at one
 * index (tasks a launcher bound to one GPU each), the PCI address where
 * theirs differ ("@3b:00.0", without a domain of 0000); before it all,
 * in a run whose devices come from more than one host, the host and a
 * slash ("gpu07/cuda:1"); and last, where two slots would still read the
 * same (one device opened twice, or two runs of one host merged), "#k",
 * 1-based in slot order ("opencl#2"). */
void sb_slot_label(const sb_run *run, int slot, char *buf, size_t n);

/* Every slot's label at once (labels[0..run->ndevices)): what
 * sb_slot_label gives each, in time that grows with the square of the
 * devices rather than the cube. */
void sb_slot_labels(const sb_run *run, char (*labels)[SB_SLOT_LABEL]);

#endif
