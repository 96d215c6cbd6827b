#!/bin/sh
# --counters where the backend has no profiler (PoCL's OpenCL: no GPU
# here): the run succeeds, every kernel row says why it has no counts (the
# JSON's "counters": null with "counters_reason", the table's model line),
# one note on stderr says it once, and the timed figures are the run's as
# ever.  A saved run with counts reads back with them.  TAP output.
SB=${SIMTBENCH:-./simtbench}
n=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
check() {
    if eval "$2"; then ok "$1"; else
        not_ok "$1"
        sed "s|^|# |" "$tmp/out" "$tmp/err" 2>/dev/null | head -30
    fi
}
echo "1..4"
if ! "$SB" --list 2>/dev/null | grep -q "^  opencl   available"; then
    for i in 1 2 3 4; do skip "no OpenCL device"; done
    exit 0
fi
RUN='--backend opencl -e shared_stride --variant w4-s1-load,w4-s2-load --size 64 --reps 2 --warmup 0'
"$SB" $RUN --counters --save "$tmp/run.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "exit 0 with --counters and no profiler" '[ $rc -eq 0 ]'
check "one note on stderr, naming the backend and the reason" \
    '[ "$(grep -c "note: opencl: no hardware counters: this backend has no profiler" "$tmp/err")" -eq 1 ]'
check "the JSON: each kernel row's counters null, with the reason" \
    '[ "$(grep -c "\"counters\": null" "$tmp/run.json")" -eq 2 ] &&
     [ "$(grep -c "\"counters_reason\": \"this backend has no profiler\"" "$tmp/run.json")" -eq 2 ]'
# The same record with counts, read back and written again unchanged.
sed 's/"counters": null, "counters_reason": "this backend has no profiler"/"counters": {"global_ld_requests": 64, "global_st_requests": 64, "global_ld_sectors": 256, "global_st_sectors": 256, "shared_ld_requests": 64, "shared_st_requests": 64, "shared_ld_wavefronts": 64, "shared_st_wavefronts": 128, "l2_hit_pct": null}/' \
    "$tmp/run.json" >"$tmp/counted.json"
"$SB" report -f json "$tmp/counted.json" >"$tmp/again.json" 2>"$tmp/err"
check "counts read back and written again" \
    '[ $? -eq 0 ] && [ "$(grep -c "\"shared_st_wavefronts\": 128" "$tmp/again.json")" -eq 2 ] &&
     [ "$(grep -c "\"l2_hit_pct\": null" "$tmp/again.json")" -eq 2 ]'
exit $failed
