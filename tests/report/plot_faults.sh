#!/bin/sh
# gnuplot that hangs, or a signal while it runs, through the commands: a
# fake gnuplot that never exits is stopped at SIMTBENCH_GNUPLOT_TIMEOUT
# (one line, exit status 5); one that sends SIGINT or SIGTERM to
# simtbench, as a Ctrl-C or a kill would, makes `report --plot`, `report
# -f html -o` and `merge -f html` stop and exit 128 + the signal with one
# line, an existing -o file kept as it was and no temporary file or
# directory left (TMPDIR for the HTML's, the plot directory for the
# rendering's), no fake left running; a run plotting after its last
# variant likewise.  TAP output.
SB=${SIMTBENCH:-./simtbench}
src=${srcdir:-.}
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TESTS=7

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

echo "1..$TESTS"
saved="$src/tests/fixtures/h200/transpose-16384.json"
[ -r "$saved" ] || { echo "Bail out! $saved is not here"; exit 1; }

# Fakes: each writes its pid, then hangs (after a signal to its parent).
fake() { # $1: name, $2: what it does before hanging
    printf '#!/bin/sh\necho $$ >>"%s/pids"\n%s\nexec sleep 600\n' "$tmp" "$2" >"$tmp/$1"
    chmod +x "$tmp/$1"
}
fake hang ":"
fake int 'kill -INT $PPID'
fake term 'kill -TERM $PPID'
# Every fake that ran has been stopped.
stopped() {
    for p in $(cat "$tmp/pids" 2>/dev/null); do kill -0 "$p" 2>/dev/null && return 1; done
    return 0
}
lines() { grep -c '' "$1"; }
mkdir "$tmp/t"

GNUPLOT="$tmp/hang" SIMTBENCH_GNUPLOT_TIMEOUT=0.5 "$SB" report --plot "$tmp/t/hang" "$saved" \
    >/dev/null 2>"$tmp/err"
rc=$?
check "a gnuplot that never exits: stopped, one line, status 5, no render directory" \
    '[ $rc -eq 5 ] && [ "$(lines "$tmp/err")" -eq 1 ] && grep -q "did not finish .* within 0.5 s" "$tmp/err" &&
     stopped && [ -z "$(ls -A "$tmp/t/hang" | grep "^\.")" ]'
sed 's/^/# /' "$tmp/err"

GNUPLOT="$tmp/int" "$SB" report --plot "$tmp/t/int" "$saved" >/dev/null 2>"$tmp/err"
rc=$?
check "SIGINT during report --plot: status 130, the interruption said, data and scripts kept, no render directory" \
    '[ $rc -eq 130 ] && grep -q "^simtbench report: interrupted by SIGINT" "$tmp/err" &&
     [ "$(lines "$tmp/err")" -le 2 ] && [ -s "$tmp/t/int/transpose-bars.gp" ] && stopped &&
     [ -z "$(ls -A "$tmp/t/int" | grep "^\.")" ]'
sed 's/^/# /' "$tmp/err"

echo old >"$tmp/page.html"
TMPDIR="$tmp/t" GNUPLOT="$tmp/term" "$SB" report -f html -o "$tmp/page.html" "$saved" \
    >/dev/null 2>"$tmp/err"
rc=$?
check "SIGTERM during report -f html: status 143, one line, -o's file kept, no temporary directory" \
    '[ $rc -eq 143 ] && [ "$(lines "$tmp/err")" -eq 1 ] && grep -q "interrupted by SIGTERM" "$tmp/err" &&
     [ "$(cat "$tmp/page.html")" = old ] && stopped && [ -z "$(ls -A "$tmp/t" | grep -v "^hang$\|^int$")" ] &&
     [ -z "$(ls -A "$tmp" | grep "page.html.")" ]'
sed 's/^/# /' "$tmp/err"

TMPDIR="$tmp/t" GNUPLOT="$tmp/int" "$SB" merge -f html -o "$tmp/merged.json" "$saved" \
    >"$tmp/merged.html" 2>"$tmp/err"
rc=$?
check "SIGINT during merge -f html: status 130, one line, no page, no temporary directory" \
    '[ $rc -eq 130 ] && [ "$(lines "$tmp/err")" -eq 1 ] && [ ! -s "$tmp/merged.html" ] && stopped &&
     [ -z "$(ls -A "$tmp/t" | grep -v "^hang$\|^int$")" ]'
sed 's/^/# /' "$tmp/err"

# The run command: a signal after the last variant, while plotting.
if "$SB" --list 2>/dev/null | grep -q "^  opencl   available"; then
    GNUPLOT="$tmp/int" "$SB" --backend opencl -e vecadd -s 4096x1 -r 2 --warmup 0 --quiet \
        --plot "$tmp/t/run" --save "$tmp/run.json" >/dev/null 2>"$tmp/err"
    rc=$?
    check "SIGINT while a run plots: status 130, the saved run whole, the interruption said" \
        '[ $rc -eq 130 ] && grep -q "interrupted by SIGINT after the last variant" "$tmp/err" &&
         grep -q "\"results\"" "$tmp/run.json" && stopped && [ -z "$(ls -A "$tmp/t/run" | grep "^\.")" ]'
    sed 's/^/# /' "$tmp/err"
else
    skip "no OpenCL device"
fi

# Without a signal the same commands still render (the fakes aside).
if command -v gnuplot >/dev/null 2>&1; then
    TMPDIR="$tmp/t" "$SB" report -f html -o "$tmp/page.html" "$saved" 2>"$tmp/err"
    rc=$?
    check "report -f html with gnuplot: status 0, the page replaced, charts in it" \
        '[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q "<svg" "$tmp/page.html"'
    "$SB" report --plot "$tmp/t/real" "$saved" >/dev/null 2>"$tmp/err"
    rc=$?
    check "report --plot with gnuplot: status 0, images, no render directory" \
        '[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && [ -s "$tmp/t/real/transpose-bars.png" ] &&
         [ -z "$(ls -A "$tmp/t/real" | grep "^\.")" ]'
else
    skip "no gnuplot"
    skip "no gnuplot"
fi
exit 0
