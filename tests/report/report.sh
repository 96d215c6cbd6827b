#!/bin/sh
# The cross-API report end to end on the OpenCL backend opened twice (two
# PoCL sessions stand in for CUDA and OpenCL in CI): both columns and a
# verdict on every row, every format, --plot, and `compare` on two saved
# runs.  TAP output.
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

TESTS=15
echo "1..$TESTS"

if ! "$SB" --list 2>/dev/null | grep -q "^  opencl   available"; then
    i=0
    while [ $i -lt $TESTS ]; do skip "no OpenCL device"; i=$((i + 1)); done
    exit 0
fi

ARGS="--backend opencl,opencl --experiment transpose --size 64 --reps 3 --quiet"
# The devices are in the order of --backend; --reference names another
# backend's first device, and one the run has none of is refused before
# anything is measured.
run --backend opencl,opencl --reference cuda --experiment transpose --size 64 --reps 1 --quiet
check "--reference naming no device of the run: exit 2, one line, nothing measured" \
    '[ $rc -eq 2 ] && [ "$(lines "$tmp/err")" = 1 ] && grep -q "reference" "$tmp/err" && [ ! -s "$tmp/out" ]'

# The default variants, from a one-session run, so the test follows the catalogue
# (one result a line, each with one "variant").
VARIANTS=$("$SB" --backend opencl --experiment transpose --size 64 --reps 1 --quiet --format json |
    grep -o '"variant": "[^"]*"' | sed 's/^"variant": "\(.*\)"$/\1/')
NV=$(echo $VARIANTS | wc -w)

# Markdown: one row per variant with both sessions' medians, a ratio and a verdict.
run $ARGS --format markdown
every=1
for v in $VARIANTS; do
    row=$(grep "^| $v |" "$tmp/out")
    [ "$(printf '%s\n' "$row" | grep -c .)" = 1 ] || every=0
    # the spread as the noise analysis gives it (noisy, or "~" without samples)
    sp='(noisy (drift )?|~)?[0-9.]+%'
    printf '%s\n' "$row" | grep -Eq "\| [0-9.]+ \([0-9.]+-[0-9.]+, $sp\) \|.*\| [0-9.]+ \([0-9.]+-[0-9.]+, $sp\) \|" || every=0
    printf '%s\n' "$row" | grep -Eq '\| [0-9.]+ \| (same \(within [0-9.]+%\)|opencl#[12] faster by [0-9.]+%|noisy \((spread|drift) [0-9.]+%(, drift [0-9.]+%)?\)) \|' || every=0
done
check "opencl,opencl markdown: both columns and a verdict on every row" \
    '[ $rc -eq 0 ] && [ $NV -gt 0 ] && [ $every = 1 ] && grep -q "| opencl#2/opencl#1 | verdict |" "$tmp/out"'

# The terminal table: side by side with one line per variant.
run $ARGS
rows=0
for v in $VARIANTS; do
    [ "$(grep -c "^  $v " "$tmp/out")" = 1 ] && rows=$((rows + 1))
done
check "opencl,opencl table: side by side, one line per variant ($NV)" \
    '[ $rc -eq 0 ] && [ $NV -gt 0 ] && [ $rows = $NV ] && grep -q "opencl#2/opencl#1" "$tmp/out"'

# HTML: self-contained, one table row per variant.
run $ARGS --format html
check "opencl,opencl html: a complete page with the side-by-side table" \
    '[ $rc -eq 0 ] && grep -q "^<!DOCTYPE html>" "$tmp/out" && grep -q "</html>" "$tmp/out" && [ "$(grep -c "<tr><td>" "$tmp/out")" -ge $((NV + 2)) ]'

# JSON: saved twice for compare; the comparisons array is there.
run $ARGS --format json --output "$tmp/a.json"
rc_a=$rc
run $ARGS --format json --output "$tmp/b.json"
check "opencl,opencl json: one comparison per variant" \
    '[ $rc_a -eq 0 ] && [ $rc -eq 0 ] && [ "$(grep -c "\"verdict\": " "$tmp/a.json")" = $NV ] && [ "$(grep -c "\"median\": " "$tmp/a.json")" = $((2 * NV)) ]'

# --plot: data and scripts always; PNG and SVG where gnuplot runs.
run $ARGS --plot "$tmp/plots"
if [ -n "${GNUPLOT-x}" ] && command -v "${GNUPLOT:-gnuplot}" >/dev/null 2>&1; then
    check "--plot: transpose bars as .dat, .gp, .png and .svg" \
        '[ $rc -eq 0 ] && [ -s "$tmp/plots/transpose-bars.dat" ] && [ -s "$tmp/plots/transpose-bars.gp" ] && [ -s "$tmp/plots/transpose-bars.png" ] && [ -s "$tmp/plots/transpose-bars.svg" ]'
else
    check "--plot without gnuplot: .dat and .gp, and a note" \
        '[ $rc -eq 0 ] && [ -s "$tmp/plots/transpose-bars.dat" ] && [ -s "$tmp/plots/transpose-bars.gp" ] && grep -q "gnuplot not found" "$tmp/err"'
fi
GNUPLOT= "$SB" $ARGS --plot "$tmp/plots2" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--plot with GNUPLOT empty: data and scripts, exit 0, one note" \
    '[ $rc -eq 0 ] && [ -s "$tmp/plots2/transpose-bars.gp" ] && [ ! -e "$tmp/plots2/transpose-bars.png" ] && [ "$(lines "$tmp/err")" = 1 ]'

# The plan refuses a --plot directory it can see is unwritable before the
# run (tests/plan/plan.sh); one that fails only when the plots are written
# (a directory where a plot's file goes) costs the plots, not the report.
mkdir -p "$tmp/plots-blocked/transpose-bars.dat"
run $ARGS --plot "$tmp/plots-blocked"
check "--plot into an unwritable place: exit 5 after the report" \
    '[ $rc -eq 5 ] && grep -q "^  copy " "$tmp/out" && [ "$(lines "$tmp/err")" = 1 ]'

# compare: a run against itself changes nothing; two runs are compared.
run compare "$tmp/a.json" "$tmp/a.json"
check "compare: a run against itself changes nothing" \
    '[ $rc -eq 0 ] && grep -q "^0 of $((2 * NV)) matched rows changed; 0 only in old, 0 only in new" "$tmp/out"'

printf '{"schema": "simtbench-result/1", "devices": [' >"$tmp/broken.json"
run compare "$tmp/a.json" "$tmp/broken.json"
check "compare: a truncated file is exit 5 with one line" \
    '[ $rc -eq 5 ] && [ "$(lines "$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ] && grep -q "broken.json: not valid JSON" "$tmp/err"'
# report: a saved run written again, side by side, in another format, with plots.
run report "$tmp/a.json" --format markdown --plot "$tmp/plots3"
check "report SAVED.json: the side-by-side markdown and the plots again" \
    '[ $rc -eq 0 ] && grep -q "| opencl#2/opencl#1 | verdict |" "$tmp/out" && [ "$(grep -c "^| [a-z]" "$tmp/out")" -ge $NV ] && [ -s "$tmp/plots3/transpose-bars.gp" ]'

run report "$tmp/broken.json"
check "report: a truncated file is exit 5 with one line" \
    '[ $rc -eq 5 ] && [ "$(lines "$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ]'

run --backend opencl --experiment transpose --size 64 --reps 2 --quiet --save "$tmp/s.json"
rc_s=$rc
run compare --format json "$tmp/s.json" "$tmp/a.json"
check "compare: one session against two: opencl matched, opencl#1/#2 unmatched, exit 0" \
    '[ $rc_s -eq 0 ] && [ $rc -eq 0 ] && grep -q "\"only_in_old\": $NV" "$tmp/out" && grep -q "\"only_in_new\": $((2 * NV))" "$tmp/out"'

# The saved run names its reference; report pairs it the same way again,
# and refuses a reference the run has no device of.
run report "$tmp/a.json" --format json
check "report: the saved reference is kept (opencl#1, slot 0)" \
    '[ $rc -eq 0 ] && grep -q "\"reference\": {" "$tmp/out" && [ "$(sed -n "/^  \"reference\": {/,/}/p" "$tmp/out" | grep -c "\"slot\": 0\|\"device\": \"opencl#1\"")" = 2 ]'
run report "$tmp/a.json" --reference cuda
check "report --reference naming no device of the saved run: exit 2, one line" \
    '[ $rc -eq 2 ] && [ "$(lines "$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ]'
exit 0
