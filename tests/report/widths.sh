#!/bin/sh
# Every line of the real output keeps within the width: the default suite
# on PoCL (fewer repetitions, so that it is quick), the same run rendered
# again at 80 columns, two PoCL sessions side by side, the H200 run of
# results/, and --list, at 100 columns with COLUMNS unset and within
# COLUMNS where it is set.  TAP output; a line over its width is printed.
SB=${SIMTBENCH:-./simtbench}
top=${SB_TOP_SRCDIR:-.}
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset COLUMNS

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

# within WIDTH FILE: no line of FILE is wider than WIDTH; those that are,
# printed as TAP comments.
within() {
    awk -v w="$1" 'length($0) > w { printf "# %d columns: %s\n", length($0), $0; bad = 1 }
        END { exit bad }' "$2"
}

TESTS=9
echo "1..$TESTS"

"$SB" --list >"$tmp/list" 2>&1
check "--list: every line within 100 columns" 'within 100 "$tmp/list"'
COLUMNS=80 "$SB" --list >"$tmp/list80" 2>&1
check "--list with COLUMNS=80: every line within 80" 'within 80 "$tmp/list80"'

if [ -r "$top/tests/fixtures/h200/suite.json" ]; then
    "$SB" report "$top/tests/fixtures/h200/suite.json" >"$tmp/h200" 2>&1
    rc=$?
    check "the H200 run side by side: every line within 100 columns" \
        '[ $rc -eq 0 ] && within 100 "$tmp/h200" && grep -q "^transpose  8192 x 8192 floats  (" "$tmp/h200"'
else
    not_ok "tests/fixtures/h200/suite.json is not here"
fi

if ! grep -q "^  opencl   available" "$tmp/list"; then
    while [ $n -lt $TESTS ]; do skip "no OpenCL device"; done
    exit 0
fi

# The default suite, every experiment and its default variants and sizes.
"$SB" --backend opencl -q --reps 3 --warmup 0 --save "$tmp/run.json" >"$tmp/run" 2>&1
rc=$?
check "the default run on PoCL: exit 0, every line within 100 columns" \
    '[ $rc -eq 0 ] && [ -s "$tmp/run.json" ] && within 100 "$tmp/run"'
grep -E '^[a-z_]+  .*  \([0-9]+ reps' "$tmp/run" >"$tmp/headings"
units='^[a-z_]+  [0-9 ]+( x [0-9 ]+)? (floats|elements|4-byte words|threads|threads, [0-9 ]+ words each)  \('
check "the default run: all 8 experiment headings give the size with its unit" \
    '[ "$(wc -l <"$tmp/headings")" -eq 8 ] && ! grep -Ev "$units" "$tmp/headings"'
# The widest variant names of the suite keep their rows in line.
check "the default run: the 22-character shared_tile names start their rows" \
    'grep -q "^  32x32-xor-column-store  *opencl  " "$tmp/run"'

COLUMNS=80 "$SB" report "$tmp/run.json" >"$tmp/run80" 2>&1
rc=$?
check "the saved run again with COLUMNS=80: every line within 80" \
    '[ $rc -eq 0 ] && within 80 "$tmp/run80"'
COLUMNS=60 "$SB" report "$tmp/run.json" >"$tmp/run60" 2>&1
rc=$?
check "the saved run again with COLUMNS=60: every line within 60" \
    '[ $rc -eq 0 ] && within 60 "$tmp/run60"'

# Two sessions side by side, the long names included.
"$SB" -q --backend opencl,opencl --experiment transpose,shared_tile --reps 5 --warmup 0 \
    >"$tmp/two" 2>&1
rc=$?
check "two PoCL sessions side by side: every line within 100 columns" \
    '[ $rc -eq 0 ] && within 100 "$tmp/two" && grep -q "opencl#2/opencl#1" "$tmp/two" &&
     grep -q "^  32x32-xor-column-store " "$tmp/two"'
exit 0
