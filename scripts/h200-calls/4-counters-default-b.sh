#!/bin/bash
# Device call 4 of 6: --counters over every variant of the other families
# at their default sizes (the shared families, the histogram and the sums,
# the DRAM sweeps, launch, compute, divergence), then the first quarter of
# the sizes (the fixed awkward ones and the first random ones of the seed).
R=$PWD
. "$R/scripts/h200-calls/call.sh"
export SB_STEPS=counters SB_NCU=0 SB_COUNTERS_DEADLINE=440 SB_COUNTERS_TIMEOUT=260 \
    SB_COUNTERS_SEED=20261225 SB_COUNTERS_RANDOM=20 \
    SB_COUNTERS_PARTS="default:shared_stride,shared_broadcast,shared_tile,histogram,sum,dram_burst,dram_channels,dram_working_set,dram_read_set,launch_small,launch_large,compute,divergence_split,divergence_branch,divergence_predication,divergence_loop sizes:1/4"
sb_call 4 counters-rows.txt counters.err bundle.tar.gz
