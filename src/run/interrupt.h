/* SIGINT and SIGTERM stop a run after the variant it is measuring: the
 * executor asks between variants, sessions and experiments, and the run
 * command writes what finished, marked interrupted, and exits 128 plus
 * the signal's number.  A second signal ends the program at once. */
#ifndef SB_INTERRUPT_H
#define SB_INTERRUPT_H

/* From now on, SIGINT and SIGTERM are caught rather than fatal. */
void sb_interrupt_catch(void);

/* The signal caught since sb_interrupt_catch, or 0. */
int sb_interrupted(void);

#endif
