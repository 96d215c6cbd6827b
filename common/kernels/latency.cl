/* The latency family: a dependent pointer chase.  One thread follows a
 * cycle of links, each load's address the word the last load returned, so
 * that no load can start before the one before it ends and the time of the
 * launch is the sum of their latencies.
 *
 * `next` holds a cycle per working set: word j of each 128-byte line is a
 * link of working set j's cycle, which visits the first lines of the
 * buffer in a random order (made on the host from the seed); a link is
 * the index of the next line's word j, so every load is a line of its own.
 *
 * state[0] is where the last launch stopped, state[1] how many launches
 * there have been and state[2] the sum (modulo 2^32) of every link
 * followed: each launch goes on from where the one before stopped, so
 * that a working set larger than one launch's steps is walked through
 * rather than its first steps over and over (which would stay in a cache).
 * The output, the end, the count and the sum, lets the host walk the same
 * cycle as far and check that the chase ends where its walk does, having
 * followed the same links (an end alone cannot tell whole laps from none).
 * The sum is off the chain of addresses: it costs no latency. */
KERNEL void chase(int steps, GLOBAL const uint *RESTRICT next, GLOBAL uint *RESTRICT state,
                  GLOBAL uint *RESTRICT out)
{
    if (GROUP_ID(0) != 0 || LOCAL_ID(0) != 0)
        return;
    uint p = state[0], sum = state[2];
    for (int i = 0; i < steps; i++) {
        p = next[p];
        sum += p;
    }
    uint launches = state[1] + 1u;
    state[0] = p;
    state[1] = launches;
    state[2] = sum;
    out[0] = p;
    out[1] = launches;
    out[2] = sum;
}
