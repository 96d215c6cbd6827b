#!/bin/sh
# The run as a person meets it on a terminal, under a pseudo-terminal made
# by script(1): each experiment's table appears as soon as it is measured,
# before the next experiment starts; the progress line gives the overall
# count, the time spent and an estimate of what is left; a note clears the
# line before it is printed; nothing of it reaches a non-terminal or a
# --quiet run; and the table printed as the run goes is the table
# `simtbench report` renders from the saved run.  TAP output.
SB=${SIMTBENCH:-./simtbench}
BUILD=${SB_TOP_BUILDDIR:-.}
n=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

echo "1..8"

# A run on PoCL (or any OpenCL device) is what this checks.
if ! "$SB" --backend opencl -e vecadd -s 64 -r 1 -q >/dev/null 2>&1; then
    for i in 1 2 3 4 5 6 7 8; do skip "no OpenCL device to run on"; done
    exit 0
fi
if ! command -v script >/dev/null 2>&1; then
    for i in 1 2 3 4 5 6 7 8; do skip "no script(1) (util-linux) to make a pseudo-terminal"; done
    exit 0
fi

# pty FILE ARGS...: the run under a pseudo-terminal, 100 columns, every
# byte it wrote (stdout and stderr, as the terminal saw them) into FILE.
pty() {
    out=$1
    shift
    COLUMNS=100 script -qfec "$SB $*" /dev/null >"$out" 2>&1 </dev/null
}

small="--backend opencl -s 64 -r 3"
pty "$tmp/tty" $small -e vecadd,occupancy
# Bytes as lines, split at carriage returns too: the progress line is drawn
# with \r, so each drawing becomes a line of its own.
tr '\r' '\n' <"$tmp/tty" >"$tmp/lines"
first_table=$(grep -n '^vecadd ' "$tmp/lines" | head -1 | cut -d: -f1)
second_start=$(grep -n 'occupancy/' "$tmp/lines" | head -1 | cut -d: -f1)
check "the first experiment's table is printed before the second experiment starts" \
    '[ -n "$first_table" ] && [ -n "$second_start" ] && [ "$first_table" -lt "$second_start" ]'

# The same run's results, one record a line in the saved JSON.
"$SB" $small -e vecadd,occupancy -q --save "$tmp/count.json" >/dev/null 2>&1
total=$(grep -c '"variant": ' "$tmp/count.json")
check "progress counts every variant of the run: [i/$total], the same total throughout" \
    '[ "$(grep -o "\[[0-9]*/[0-9]*\]" "$tmp/lines" | cut -d/ -f2 | sort -u)" = "$total]" ]'
check "progress shows the time spent and what is left" \
    'grep -q "[0-9]:[0-9][0-9] elapsed, about [0-9]*:[0-9][0-9] left" "$tmp/lines"'
check "the progress line fits the terminal" \
    '! grep "elapsed" "$tmp/lines" | sed "s/\x1b\[K//g" | awk "length(\$0) > 99 { bad = 1 } END { exit !bad }"'

# A note while the line is drawn: the fault module without a vendor entry
# makes transpose's vendor row a note.
real=$BUILD/opencl/.libs/simtbench_opencl.so fault=$BUILD/tests/faults/opencl/.libs
if [ -f "$real" ] && [ -d "$fault" ]; then
    SIMTBENCH_BACKEND_PATH=$fault SB_FAULT_REAL=$real SB_FAULT=optional-null \
        pty "$tmp/note" $small -e transpose
    tr '\r' '\n' <"$tmp/note" | sed 's/\x1b\[K//g' >"$tmp/notelines"
    check "a note starts a line of its own, the progress line cleared before it" \
        'grep -q "^simtbench: note: .*vendor" "$tmp/notelines" &&
         ! grep -q ".simtbench: note" "$tmp/notelines"'
else
    skip "no fault module built"
fi

# Not a terminal: no progress at all.
"$SB" $small -e vecadd >"$tmp/out" 2>"$tmp/err"
check "nothing of the progress line on a standard error that is not a terminal" \
    '! grep -q "elapsed" "$tmp/err" && ! tr "\r\033" "XY" <"$tmp/err" | grep -q "[XY]"'

pty "$tmp/quiet" $small -e vecadd --quiet
check "--quiet: no progress line on a terminal" '! grep -q "elapsed" "$tmp/quiet"'

# The streamed table is the saved run's table.
"$SB" $small -e vecadd,occupancy --save "$tmp/run.json" >"$tmp/streamed" 2>/dev/null
"$SB" report "$tmp/run.json" >"$tmp/rendered" 2>/dev/null
# Unless the device drifted (run/noise.h): the drift check ends the session,
# after the blocks were printed, and makes every row of the saved run noisy,
# which the streamed table's last lines say.
check "the table printed as the run goes is what simtbench report renders from its save" \
    'cmp -s "$tmp/streamed" "$tmp/rendered" ||
     { grep -q "every row of it is noisy" "$tmp/streamed" && grep -q "every row of it is noisy" "$tmp/rendered"; } ||
     { diff "$tmp/streamed" "$tmp/rendered" | sed "s/^/# /"; false; }'
exit $failed
