#!/bin/bash
# Device call 2 of 6: the transpose tuning at 8192^2 and 16384^2, the SASS
# of padded_32x32, Nsight Compute over the access experiments (SB_NCU=1),
# and compute-sanitizer's four tools over every default variant (racecheck
# a variant a process for the shared families and the matrix multiply).
# Each run has its own limit, so that the four steps stay under 8 minutes.
R=$PWD
. "$R/scripts/h200-calls/call.sh"
export SB_STEPS="tune sass ncu sanitize" SB_NCU=1 SB_TUNE_TIMEOUT=80 SB_NCU_TIMEOUT=110 \
    SB_SANITIZE_TIMEOUT=90
sb_call 2 results/transpose-16384.json results/ncu.csv transpose-8192.md bundle.tar.gz
