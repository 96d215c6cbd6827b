/* The latency family: a dependent pointer chase.  One thread follows a
 * cycle of links, each load's address the word the last load returned, so
 * that no load can start before the one before it ends and the time of the
 * launch is the sum of their latencies.
 *
 * A link is the address of the next one, so that a step is the load and
 * nothing else: a link kept as an index would put an address computation
 * (a wide multiply-add) on the chain between two loads, and its latency
 * into every load's (gpu-benches' gpu-latency chases addresses too).  The
 * host cannot know the device's addresses: it writes each link as the
 * index of the next link's 8-byte word with LINK_TAG set, and the first
 * launch of a working set turns its links into addresses (link_cycle), in
 * place.  A link without the tag is converted already, so that a second
 * run over the same buffer converts nothing.
 *
 * `next` holds a cycle per working set: working set j's links are word
 * `slot` of `lines` consecutive 128-byte lines from line `first` on (the
 * host packs the working sets into the 16 words of a line), visited in a
 * random order made on the host from the seed; every load is a line of
 * its own.
 *
 * state[0] is where the last launch stopped (a word index), state[1] how
 * many launches there have been and state[2] the sum (modulo 2^32) of the
 * byte offsets of every link followed: each launch goes on from where the
 * one before stopped, so that a working set larger than one launch's
 * steps is walked through rather than its first steps over and over
 * (which would stay in a cache).  The output, the end, the count and the
 * sum, lets the host walk the same cycle as far and check that the chase
 * ends where its walk does, having followed the same links.  The sum is
 * off the chain of addresses: it costs no latency.  steps is a multiple
 * of CHASE_UNROLL. */
#define LINK_TAG 0x8000000000000000UL
#define LINE_LINKS 16
#define CHASE_UNROLL 8
/* A link read back is an integer: cast to a pointer, CUDA C++ would load
   it through a generic address (ld, not ld.global); __ldca is the global
   load that OpenCL's GLOBAL pointer gives, so both APIs chase with the
   same instruction. */
#ifdef SB_CUDA
#define LOAD_LINK(p) __ldca((const ulong *)(p))
#else
#define LOAD_LINK(p) (*(p))
#endif
#define CHASE_STEP                                                                           \
    p = (GLOBAL ulong *)LOAD_LINK(p);                                                        \
    sum += (uint)(ulong)p;

/* The working set's tagged links into addresses, by the one thread:
   LINK_CHUNK links loaded before any is stored, so that the loads of a
   chunk are in flight together (a store between them would make each
   load wait for the last, a DRAM latency a line over a 4 GiB set). */
#define LINK_CHUNK 16
DEVICE_FN void link_cycle(int slot, int first, int lines, GLOBAL ulong *next)
{
    GLOBAL ulong *w = next + (ulong)first * LINE_LINKS + (ulong)slot;
    int line = 0;
    for (; line + LINK_CHUNK <= lines; line += LINK_CHUNK) {
        ulong link[LINK_CHUNK];
#pragma unroll
        for (int k = 0; k < LINK_CHUNK; k++)
            link[k] = w[(ulong)(line + k) * LINE_LINKS];
#pragma unroll
        for (int k = 0; k < LINK_CHUNK; k++)
            if (link[k] & LINK_TAG)
                w[(ulong)(line + k) * LINE_LINKS] = (ulong)(next + (link[k] & ~LINK_TAG));
    }
    for (; line < lines; line++) {
        ulong link = w[(ulong)line * LINE_LINKS];
        if (link & LINK_TAG)
            w[(ulong)line * LINE_LINKS] = (ulong)(next + (link & ~LINK_TAG));
    }
}

KERNEL void chase(int steps, int slot, int first, int lines, GLOBAL ulong *RESTRICT next,
                  GLOBAL uint *RESTRICT state, GLOBAL uint *RESTRICT out)
{
    if (GROUP_ID(0) != 0 || LOCAL_ID(0) != 0)
        return;
    uint launches = state[1];
    if (launches == 0u)
        link_cycle(slot, first, lines, next);
    GLOBAL ulong *p = next + state[0];
    uint sum = 0u;
    for (int i = 0; i < steps; i += CHASE_UNROLL) {
        CHASE_STEP CHASE_STEP CHASE_STEP CHASE_STEP
        CHASE_STEP CHASE_STEP CHASE_STEP CHASE_STEP
    }
    /* The addresses' low words less the base's, one per step: the byte
       offsets the host's walk adds up. */
    sum = state[2] + (sum - (uint)steps * (uint)(ulong)next);
    uint at = (uint)(p - next);
    launches += 1u;
    state[0] = at;
    state[1] = launches;
    state[2] = sum;
    out[0] = at;
    out[1] = launches;
    out[2] = sum;
}
