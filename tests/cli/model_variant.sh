#!/bin/sh
# `simtbench model --variant EXP/VARIANT --size MxN` plans without a device
# what a run plans with one: the same counts per launch as the saved run's
# model_totals, at sizes that are not multiples of any tile (rectangles,
# odd sides, below one block) and at the experiment's own; for the
# histogram and the sum (4097 inputs: 16 blocks and one of a single
# input) the costs their random inputs decide too, drawn from the same
# seed in both.  The run is a
# PoCL one (no GPU here); the counts do not depend on the device.  TAP.
SB=${SIMTBENCH:-./simtbench}
n=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }

# The counts of one JSON object of totals, one "name=value" a line: the
# ratios are the counts' quotients, printed to other precisions.
counts() {
    sed -n "s/.*\"$1\": {\([^}]*\)}.*/\1/p" | tr ',' '\n' | grep -v per_request |
        sed 's/[ "]//g; s/:/=/' | sort
}

# Experiment, variants, sizes: each variant at each size.
CASES='transpose naive_read,naive_write,tiled,padded,swizzled,coarsened,tuned,t64x16,copy,copy_vec4_i2,vec64x64,vec64x64_cm,vec128x32,vec32x128 33x31,100x70,68x64,1x1,5x200
global_walk row,column 7x33,33x300
global_stride w4-s2-load,w16-s3-store 33x1
vecadd coarse1,coarse4 4097x1
matmul simple,tiled16,coarse4,corner_turning,colmajor_naive 33x47,1
histogram global-b1-uniform,global-b1-skewed,global-b32-uniform,global-b32-skewed,global-b256-uniform,global-b256-skewed,global-b4096-uniform,global-b4096-skewed,global-b65536-uniform,global-b65536-skewed 4097x1
histogram shared-b1-uniform,shared-b1-skewed,shared-b32-uniform,shared-b32-skewed,shared-b256-uniform,shared-b256-skewed,shared-b4096-uniform,shared-b4096-skewed 4097x1
histogram shared_coarse-b1-uniform,shared_coarse-b1-skewed,shared_coarse-b32-uniform,shared_coarse-b32-skewed,shared_coarse-b256-uniform,shared_coarse-b256-skewed,shared_coarse-b4096-uniform,shared_coarse-b4096-skewed 4097x1
histogram warp-b1-uniform,warp-b1-skewed,warp-b32-uniform,warp-b32-skewed,warp-b256-uniform,warp-b256-skewed,thread-b1-uniform,thread-b1-skewed,thread-b32-uniform,thread-b32-skewed 4097x1
sum global,block,block_coarse 4097x1,70x3'

ncases=0
echo "$CASES" | while read -r exp variants sizes; do
    for v in $(echo "$variants" | tr ',' ' '); do
        for s in $(echo "$sizes" | tr ',' ' '); do echo "$exp $v $s"; done
    done
done >"$tmp/cases"
ncases=$(wc -l <"$tmp/cases")
echo "1..$((ncases + 1))"

if ! "$SB" --list 2>/dev/null | grep -q "^  opencl   available"; then
    i=0
    while [ $i -le "$ncases" ]; do skip "no OpenCL device"; i=$((i + 1)); done
    exit 0
fi

"$SB" model --variant transpose/tiled --size 1000x777 --format json >"$tmp/m.json" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q '"pattern": "transpose/tiled at 1000x777' "$tmp/m.json"; then
    ok "model --variant takes a rectangle with odd sides"
else
    not_ok "model --variant takes a rectangle with odd sides"
    sed 's/^/# /' "$tmp/err" "$tmp/m.json" | head -5
fi

# One run a line of cases and size, every variant of the line in it (a
# run takes 16 names, so an experiment may take several lines, each run's
# JSON added to the experiment's file at that size).
echo "$CASES" | while read -r exp variants sizes; do
    for s in $(echo "$sizes" | tr ',' ' '); do
        "$SB" --backend opencl -e "$exp" --variant "$variants" --size "$s" --reps 1 \
            --warmup 0 -f json >>"$tmp/run-$exp-$s.json" 2>>"$tmp/err-$exp-$s"
    done
done
while read -r exp v s; do
    what="$exp/$v at $s: model --variant counts = the run's plan"
    run="$tmp/run-$exp-$s.json"
    if ! grep -q '"variant": "'"$v"'".*"model_totals"' "$run"; then
        not_ok "$what (no model totals in the run)"
        sed 's/^/# /' "$tmp/err-$exp-$s" | head -5
        continue
    fi
    grep '"variant": "'"$v"'"' "$run" | counts model_totals >"$tmp/run.counts"
    "$SB" model --variant "$exp/$v" --size "$s" --format json | counts totals >"$tmp/model.counts"
    if [ -s "$tmp/run.counts" ] && cmp -s "$tmp/run.counts" "$tmp/model.counts"; then
        ok "$what"
    else
        not_ok "$what"
        diff "$tmp/run.counts" "$tmp/model.counts" | sed 's/^/# /' | head -10
    fi
done <"$tmp/cases"
exit $failed
