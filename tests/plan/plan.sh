#!/bin/sh
# The suite plan as a user meets it: a run that cannot succeed stops before
# any device opens, with its documented status, one line on stderr, nothing
# on stdout, and an existing --output file left as it was.  TAP output.
SB=${SIMTBENCH:-./simtbench}
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

run() { "$SB" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
lines() { wc -l <"$1" | tr -d ' '; }
quiet_fail() { [ $rc -eq "$1" ] && [ ! -s "$tmp/out" ] && [ "$(lines "$tmp/err")" = 1 ]; }

echo "1..8"

# 16 backends on 5 devices each: 80 sessions, more than the 64 a run holds.
many=opencl,opencl,opencl,opencl,opencl,opencl,opencl,opencl,opencl,opencl,opencl,opencl,opencl,opencl,opencl,opencl
run --backend $many --device 0,1,2,3,4 --experiment transpose --size 64 --reps 2 --quiet
check "80 sessions: exit 2 before any opens, one line, nothing on stdout" \
    'quiet_fail 2 && grep -q -- "--backend" "$tmp/err"'

printf 'an earlier report\n' >"$tmp/existing"
cp "$tmp/existing" "$tmp/expected"
unchanged() { cmp -s "$tmp/existing" "$tmp/expected"; }

run --backend $many --device 0,1,2,3,4 --experiment transpose --size 64 --quiet \
    -o "$tmp/existing"
check "80 sessions with -o EXISTING: EXISTING unchanged" 'quiet_fail 2 && unchanged'

run --experiment nosuch -o "$tmp/existing"
check "unknown experiment with -o EXISTING: exit 2, EXISTING unchanged" 'quiet_fail 2 && unchanged'

run --experiment transpose --size 64 --quiet -o "$tmp/existing" --save /nonexistent/dir/run.json
check "unwritable --save with -o EXISTING: exit 5 naming it, EXISTING unchanged" \
    'quiet_fail 5 && grep -q /nonexistent/dir/run.json "$tmp/err" && unchanged'

run --experiment transpose --size 64 --quiet -o /proc/x
check "--output /proc/x: exit 5 before the run" 'quiet_fail 5 && grep -q /proc/x "$tmp/err"'

run --experiment transpose --size 64 --quiet --plot /nonexistent/dir/plots
check "--plot under a missing directory: exit 5 before the run" 'quiet_fail 5'

run --experiment transpose --size 64 --quiet --dump-ptx "$tmp/existing"
check "--dump-ptx naming a file: exit 5 before the run, the file unchanged" 'quiet_fail 5 && unchanged'

if "$SB" --list | grep -q "^  cuda     unavailable"; then
    run --backend cuda --experiment transpose --size 64 --quiet -o "$tmp/existing"
    check "a backend that cannot open, with -o EXISTING: exit 3, EXISTING unchanged" \
        'quiet_fail 3 && unchanged'
else
    skip "a CUDA device is present, so a backend that cannot open cannot be shown"
fi
exit 0
