#!/bin/sh
# A saved run is untrusted (DESIGN.md): names in it that try to break out
# of gnuplot's quoting reach no shell.  The saved H200 runs (every kind of
# plot between them), their experiment, variant, kernel, device, backend,
# architecture and figure names replaced by a catalogue of hostile ones -
# a newline then a !command, backquotes, system(), a quote that closes
# the string, @macros, a trailing backslash (line continuation), the two
# characters \n, ESC and other control sequences, CR, C1 controls and
# other non-ASCII, format directives, names longer than any field - are
# rendered with gnuplot by `report -f html`, `report --plot DIR` and
# `merge -f html`.  Every command tries to create ../../pwned from the
# directory gnuplot runs in, which is $tmp/t for all three (TMPDIR for the
# HTML's, the plot directory's parent for --plot).  Asserted: nothing is
# created there, gnuplot says nothing on standard error, every plot is
# rendered, and every script and data file is printable ASCII with no
# line that starts a shell command.  TAP output.
SB=${SIMTBENCH:-./simtbench}
src=${srcdir:-.}
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
RUNS="suite memory launch-compute-divergence privatization"
TESTS=11

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

echo "1..$TESTS"
[ -r "$src/tests/fixtures/h200/suite.json" ] ||
    { echo "Bail out! $src/tests/fixtures/h200/suite.json is not here"; exit 1; }
if ! command -v gnuplot >/dev/null 2>&1; then
    while [ $n -lt $TESTS ]; do skip "no gnuplot: nothing would run the scripts"; done
    exit 0
fi

# The catalogue, as sed replacements of JSON string values (so JSON
# escapes: \n a newline, \\ one backslash, \u001b ESC).  Names are cut to
# their field (32 bytes an experiment, 48 a variant or kernel, 16 a
# backend) when read, so each payload fits its field.
long=$(printf '%0300d' 0 | tr 0 L)
cat >"$tmp/hostile.sed" <<EOF
s|"experiment": "transpose"|"experiment": "t\\\\n!touch ../../pwned\\\\n"|g
s|"experiment": "global_stride"|"experiment": "g\`touch ../../pwned\`"|g
s|"experiment": "shared_stride"|"experiment": "s'.system('touch ../../pwned').'"|g
s|"experiment": "matmul"|"experiment": "m @GPVAL_PWD @x \\\\\\\\"|g
s|"experiment": "occupancy"|"experiment": "o\\\\u001b[31m\\\\u001b]0;x\\\\u0007\\\\r!id"|g
s|"experiment": "vecadd"|"experiment": "v\\\\\\\\n!touch ../../pwned"|g
s|"experiment": "shared_tile"|"experiment": "\\\\u00e9\\\\u2028\\\\u009b2J\\\\ufffd\\\\u0085!id"|g
s|"experiment": "global_walk"|"experiment": "$long"|g
s|"experiment": "latency"|"experiment": "l\\\\r\\\\n!touch ../../pwned"|g
s|"experiment": "dram_burst"|"experiment": "d\\\\"x\\\\" # '' \\\\t; !id"|g
s|"experiment": "histogram"|"experiment": "h%s%n%x{}^_\\&~\\\\u007f"|g
s|"experiment": "divergence_split"|"experiment": "p\\\\n!touch ../../pwned"|g
s|"experiment": "launch_small"|"experiment": "ls\\\\n\`touch ../../pwned\`"|g
s|"experiment": "compute"|"experiment": "c');system('touch ../../pwned"|g
s|"variant": "copy"|"variant": "c\\\\"\\\\n!touch ../../pwned #"|g
s|"variant": "memcpy"|"variant": "m\\\\u001b[2J\\\\"\\\\"\\\\n\\\\n"|g
s|"variant": "sequential"|"variant": "q\\\\n!touch ../../pwned\\\\\\\\"|g
s|"variant": "global-b\([0-9]*\)-uniform"|"variant": "global-b\\1-u\\\\u001b\\\\n!id"|g
s|"kernel": "transpose_tiled"|"kernel": "k;\\\\n!touch ../../pwned"|g
s|"kernel": "shared_load"|"kernel": "sl\`touch ../../pwned\`"|g
s|"kernel": "split_by_lane"|"kernel": "sbl'\\\\n!touch ../../pwned"|g
s|"name": "NVIDIA H200"|"name": "N\\\\n!touch ../../pwned\\\\u001b"|g
s|"backend": "opencl"|"backend": "o\\\\n!>../../pwned"|g
s|"arch": "sm_90"|"arch": "a\\\\n!touch ../../pwned"|g
s|"name": "working_set"|"name": "w\\\\n!touch ../../pwned"|g
s|"name": "chunk"|"name": "ch'\\\\n!touch ../../pwned"|g
EOF
for r in $RUNS; do
    sed -f "$tmp/hostile.sed" "$src/tests/fixtures/h200/$r.json" >"$tmp/$r.json"
done
mkdir "$tmp/t"
gp=$(command -v gnuplot)

# Nothing but what the commands are meant to make in $tmp/t.
pwned() { [ -n "$(find "$tmp/t" -name 'pwned*')" ] || [ -n "$(ls -A "$tmp/t" | grep -v '^plots-')" ]; }
# A script or data file with a byte outside printable ASCII, or a line a
# gnuplot would hand to a shell.
unsafe() { LC_ALL=C grep -l "$(printf '[^\t -~]')" "$@" || grep -l '^ *!' "$@"; }

changed=$(cat "$tmp"/*.json | grep -c 'pwned')
check "the hostile names are in the saved runs ($changed lines)" '[ "$changed" -ge 20 ]'

for r in $RUNS; do
    # The report's table and HTML read the run: it must be one they accept.
    TMPDIR="$tmp/t" GNUPLOT="$gp" "$SB" report -f html "$tmp/$r.json" >"$tmp/$r.html" 2>"$tmp/$r.err"
    rc=$?
    check "report -f html of hostile $r.json: status 0, charts, nothing on stderr, no command run" \
        '[ $rc -eq 0 ] && [ ! -s "$tmp/$r.err" ] && grep -q "<svg" "$tmp/$r.html" &&
         ! grep -q "charts are not shown" "$tmp/$r.html" && ! pwned'
    [ -s "$tmp/$r.err" ] && sed 's/^/# /' "$tmp/$r.err" | head -5
    d="$tmp/t/plots-$r"
    GNUPLOT="$gp" "$SB" report --plot "$d" "$tmp/$r.json" >/dev/null 2>"$tmp/$r.err"
    rc=$?
    scripts=$(ls "$d"/*.gp | wc -l)
    images=$(ls "$d"/*.png | wc -l)
    check "report --plot of hostile $r.json: $scripts plots rendered, nothing on stderr, no command run, ASCII scripts and data" \
        '[ $rc -eq 0 ] && [ ! -s "$tmp/$r.err" ] && [ "$scripts" -ge 1 ] &&
         [ "$images" -eq "$scripts" ] && ! pwned && [ -z "$(unsafe "$d"/*.gp "$d"/*.dat)" ]'
    [ -s "$tmp/$r.err" ] && sed 's/^/# /' "$tmp/$r.err" | head -5
done

TMPDIR="$tmp/t" GNUPLOT="$gp" "$SB" merge -f html -o "$tmp/merged.json" "$tmp/suite.json" \
    "$tmp/memory.json" >"$tmp/merged.html" 2>"$tmp/merge.err"
rc=$?
check "merge -f html of two hostile runs: status 0, charts, nothing on stderr, no command run" \
    '[ $rc -eq 0 ] && [ ! -s "$tmp/merge.err" ] && grep -q "<svg" "$tmp/merged.html" && ! pwned'
[ -s "$tmp/merge.err" ] && sed 's/^/# /' "$tmp/merge.err" | head -5
# The HTML writers' temporary directories are gone with them.
check "no temporary directory left behind" '[ -z "$(ls -A "$tmp/t" | grep -v "^plots-")" ]'
exit 0
