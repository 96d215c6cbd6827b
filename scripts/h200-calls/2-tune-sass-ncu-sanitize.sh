#!/bin/bash
# Device call 2 of 6: the transpose tuning at 8192^2 and 16384^2, the SASS
# of padded_32x32, Nsight Compute over the access experiments (SB_NCU=1),
# and compute-sanitizer's four tools over every default variant (racecheck
# a variant a process for the shared families, the matrix multiply and the
# histogram).
# Each run has its own limit (tune 90 s a size, ncu 120 s, a sanitizer
# process 120 s); run 19's sanitizer runs took seconds but racecheck's,
# which now go a variant a process, about 6 s a shared variant.
R=$PWD
. "$R/scripts/h200-calls/call.sh"
export SB_STEPS="tune sass ncu sanitize" SB_NCU=1 SB_SANITIZE_TIMEOUT=120
sb_call 2 results/transpose-16384.json results/ncu.csv transpose-8192.md bundle.tar.gz
