#!/bin/bash
# The pattern family's acceptance on the H200 (issue 29): the expressions
# tests/experiments/pattern.sh works out by hand, through CUDA and OpenCL
# side by side with --counters, at the family's default (device-filling)
# size; each run's JSON is saved beside the others, and the report of each
# (the table on stdout) holds the counters against the model per row and
# the two APIs' times with their verdict.  Then `model --index` on the GPU
# for the same shared-memory expressions, which the trace on PoCL must match.
#
#   scripts/pattern-h200.sh [SIMTBENCH] [OUTDIR]
#
# Run from a configured build (./configure --with-cuda --with-opencl && make).
set -uo pipefail
sb=${1:-./simtbench}
out=${2:-results/h200/pattern}
mkdir -p "$out"
status=0

# run NAME OPTIONS...: one block of rows, saved as OUTDIR/NAME.json.
run() {
    name=$1
    shift
    echo "== $name: $*"
    "$sb" -b cuda,opencl -e pattern --counters --save "$out/$name.json" "$@" || status=1
}

run shared-w4 --space shared --index lane --index "lane * 2" --index "lane * 32" \
    --index "lane * 33" --index "lane * 32 + ((warp % 32) ^ lane)" --index 7 --index "31 - lane"
run shared-w8-store --space shared --word 8 --store --index lane --index "lane*2"
run shared-w16-tail --space shared --word 16 --mask "lane < 20" --index lane
run global-w4 --index "i + 1" --index "warp * 32 + 31 - lane" --index "i * 2"
run global-w8 --word 8 --index i
run global-w16-store --word 16 --store --index i
run global-tail --mask "lane < 20" --index i

echo "== model --index on the GPU (the trace on CUDA)"
"$sb" model -b cuda --space shared --format json --index lane --index "lane * 2" \
    --index "lane * 32" --index "lane * 33" --index "lane * 32 + ((warp % 32) ^ lane)" \
    --index 7 --index "31 - lane" >"$out/model-shared-w4.json" || status=1
exit $status
