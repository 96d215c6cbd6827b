#!/bin/bash
# Device call 5 of 6: --counters at the second and third quarters of the
# sizes drawn from the seed (every family: the edge families with every
# variant, the others with their default ones).
R=$PWD
. "$R/scripts/h200-calls/call.sh"
export SB_STEPS=counters SB_NCU=0 SB_COUNTERS_DEADLINE=450 SB_COUNTERS_TIMEOUT=120 \
    SB_COUNTERS_SEED=20261225 SB_COUNTERS_RANDOM=20 SB_COUNTERS_PARTS="sizes:2/4 sizes:3/4"
sb_call 5 counters-rows.txt counters.err bundle.tar.gz
