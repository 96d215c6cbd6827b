#!/bin/bash
# Device call 3 of 6: --counters over every variant of the global, transpose,
# matrix multiply, vecadd, latency and occupancy families at their default
# sizes (run 31 took 392 s over them with CUPTI's kernel replay).
R=$PWD
. "$R/scripts/h200-calls/call.sh"
export SB_STEPS=counters SB_NCU=0 SB_COUNTERS_DEADLINE=440 SB_COUNTERS_TIMEOUT=260 \
    SB_COUNTERS_PARTS="default:global_stride,global_offset,global_perm,global_broadcast,global_walk default:transpose,matmul,vecadd,latency,occupancy"
sb_call 3 counters-rows.txt counters.err bundle.tar.gz
