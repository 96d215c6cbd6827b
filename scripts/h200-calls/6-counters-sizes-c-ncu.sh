#!/bin/bash
# Device call 6 of 6: --counters at the last quarter of the sizes, the
# shared families at one block a multiprocessor, and (SB_NCU=1) Nsight
# Compute on a sample at 1000x777 and on three shared variants at one
# block a multiprocessor, whose counts must equal CUPTI's.
R=$PWD
. "$R/scripts/h200-calls/call.sh"
export SB_STEPS=counters SB_NCU=1 SB_COUNTERS_DEADLINE=420 SB_COUNTERS_TIMEOUT=120 \
    SB_COUNTERS_SEED=20261225 SB_COUNTERS_RANDOM=20 SB_COUNTERS_PARTS="sizes:4/4 wave"
sb_call 6 counters-rows.txt counters.err ncu-vs-counters.txt bundle.tar.gz
