#!/bin/bash
# Device call 4 of 6: --counters over every variant of the other families
# at their default sizes (every one call 3 leaves, any added since too:
# the shared families, 122 s in run 31; the histogram and the sums, 28 s
# in probe 29b; the DRAM sweeps, launch, compute and divergence, not timed
# under --counters yet), then the first quarter of the sizes (the fixed
# awkward ones and the first random ones of the seed).
R=$PWD
. "$R/scripts/h200-calls/call.sh"
export SB_STEPS=counters SB_NCU=0 SB_COUNTERS_DEADLINE=440 SB_COUNTERS_TIMEOUT=260 \
    SB_COUNTERS_SEED=20261225 SB_COUNTERS_RANDOM=20 \
    SB_COUNTERS_PARTS="default-except:global_stride,global_offset,global_perm,global_broadcast,global_walk,transpose,matmul,vecadd,latency,occupancy sizes:1/4"
sb_call 4 counters-rows.txt counters.err bundle.tar.gz
