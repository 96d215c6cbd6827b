#!/bin/sh
# The pictures, checked from the scripts --plot writes (no gnuplot or
# device needed for most): every series of every plot has its own title;
# the model's steps are dashed in their series' colour; the roofline has
# its memory and compute roofs, the compute roof at multiprocessors x
# clock x 128 FP32 lanes x 2 for the H200 run, and numbered points with a
# key instead of names; the transpose bars their copy roof and shares;
# the HTML of a PoCL run is well-formed and says in one sentence why it
# has no charts when GNUPLOT is empty; the histogram of a PoCL run its
# throughput against bins; the memory families' sweeps of a PoCL run (log
# x with a tic per size, the rows at no one size and 90% of the fastest as
# lines, plateaus where the axis is a working set) and the occupancy rows
# against their bytes in flight with the knee measured; the divergence
# split of a PoCL run its slowdown against paths, log-log, each series
# titled, no model line on a CPU (no warp); and gnuplot, where present,
# renders every script, one of every plot kind among them, without a word
# on stderr both in the C locale and in C.UTF-8.  TAP output.
SB=${SIMTBENCH:-./simtbench}
src=${srcdir:-.}
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TESTS=18

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

# The first plot command of a script, one series a line.
series() { grep -m1 '^plot ' "$1" | sed "s/^plot //; s/, \('\|NaN \)/\n\1/g"; }
# Titles said twice among a script's series; empty when all differ.
twice() { series "$1" | grep -o "title '\([^']\|''\)*'" | sort | uniq -d; }

echo "1..$TESTS"

suite="$src/tests/fixtures/h200/suite.json"
if [ ! -r "$suite" ]; then
    while [ $n -lt 6 ]; do not_ok "tests/fixtures/h200/suite.json is not here"; done
else
    GNUPLOT= "$SB" report --plot "$tmp/h200" "$suite" >/dev/null 2>&1
    dup=""
    for gp in "$tmp/h200"/*.gp; do
        [ -n "$(twice "$gp")" ] && dup="$dup $(basename "$gp")"
    done
    check "every series of every plot has its own title (repeated in:$dup)" \
        '[ -z "$dup" ] && [ "$(ls "$tmp/h200"/*.gp | wc -l)" -ge 6 ]'

    # Conflicts: a dashed step per word size, in the colour of that word
    # size's measured series; log-log.
    c="$tmp/h200/shared_stride-conflicts.gp"
    steps_ok=1
    for w in 4 8 16; do
        model=$(series "$c" | grep "with steps dt 2 .*title 'model: wavefront ratio, $w-byte words'" |
            grep -o "lc rgb '#[0-9a-f]*'")
        measured=$(series "$c" | grep "with linespoints .*title 'cuda, shared_load, $w-byte words'" |
            grep -o "lc rgb '#[0-9a-f]*'")
        [ -n "$model" ] && [ "$model" = "$measured" ] || steps_ok=0
    done
    colours=$(series "$c" | grep "with steps" | grep -o "lc rgb '#[0-9a-f]*'" | sort -u | wc -l)
    check "conflicts: one dashed model step per word size, each in its word size's colour, log-log" \
        '[ $steps_ok = 1 ] && [ "$colours" -eq 3 ] && grep -q "^set logscale xy 2" "$c" &&
         grep -q "^set title .*dashed steps" "$c" && grep -q "^set ylabel .*(x)" "$c"'

    # Bandwidth: each series' model dashed in the series' own colour.
    b="$tmp/h200/global_stride-bandwidth.gp"
    series "$b" | grep "with linespoints" | grep -o "title '[^']*'" | sed "s/^title '//; s/'$//" |
        while IFS= read -r name; do
            m=$(series "$b" | grep -F "title 'model, $name'" | grep "dt 2" | grep -o "lc rgb '#[0-9a-f]*'")
            s=$(series "$b" | grep -F "title '$name'" | grep -o "lc rgb '#[0-9a-f]*'")
            [ -n "$m" ] && [ "$m" = "$s" ] || echo "$name"
        done >"$tmp/bw-bad"
    check "bandwidth: every series has its model dashed in the same colour" \
        '[ ! -s "$tmp/bw-bad" ] && [ "$(series "$b" | grep -c "with lines dt 2")" -eq 8 ]'

    # Roofline: both roofs per device, the compute roof at the formula for
    # the run's own device.
    r="$tmp/h200/matmul-roofline"
    peak=$(tr ',' '\n' <"$suite" | awk -F': *' '/"compute_units"/ { u = $2 } /"clock_mhz"/ { c = $2 }
        END { printf "%.0f", u * c * 128 * 2 / 1000 }')
    check "roofline: a memory and a compute roof per device, the compute roof = units x MHz x 128 x 2 ($peak GFLOP/s)" \
        '[ "$peak" = 66908 ] && [ "$(series "$r.gp" | grep -c "title .[a-z]* memory roof: ")" -eq 2 ] &&
         [ "$(series "$r.gp" | grep -c "title .[a-z]* compute roof: FP32 peak $peak GFLOP/s")" -eq 2 ] &&
         grep -q "^66908.2$\|^[0-9.e+-]* 66908.2$" "$r.dat" && grep -q "^set logscale xy" "$r.gp"'
    variants=$(awk '/^# cuda$/ { on = 1; next } on && NF == 0 { exit } on { k++ } END { print k }' "$r.dat")
    keys=$(grep -c "^set label at screen .* left '[ 0-9][0-9]  " "$r.gp")
    check "roofline: numbered point labels and a key of all $variants variants, no names at the points" \
        '[ "$keys" -eq "$variants" ] && grep -q "^set label .1. at 0.25," "$r.gp" &&
         grep -q "^set label .3,4,10,11. at 8," "$r.gp" && ! grep -q "with labels" "$r.gp"'

    t="$tmp/h200/transpose-bars.gp"
    check "transpose bars: each device's copy roof as a line and each bar's share of it" \
        '[ "$(grep -c "^set arrow from graph 0, first [0-9.]* to graph 1" "$t")" -eq 2 ] &&
         [ "$(series "$t" | grep -c "sprintf(.%.0f%%., 100 \* column([23]) / ")" -eq 2 ] &&
         series "$t" | grep -q "title .cuda copy roof: [0-9]* GB/s"'
fi

# The HTML of a PoCL run: well-formed, and without gnuplot one sentence why.
balanced() {
    python3 - "$1" <<'EOF'
import sys
from html.parser import HTMLParser
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
class Strict(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.bad = [], []
    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))
    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1][0] != tag:
            self.bad.append("</%s> at %s, open: %s" % (tag, self.getpos(),
                            self.stack[-1] if self.stack else None))
        else:
            self.stack.pop()
p = Strict()
p.feed(open(sys.argv[1], encoding="utf-8").read())
p.close()
bad = p.bad + ["<%s> at %s never closed" % t for t in p.stack]
for b in bad[:5]:
    print("# " + b)
sys.exit(1 if bad else 0)
EOF
}
if ! "$SB" --list 2>/dev/null | grep -q "^  opencl   available"; then
    while [ $n -lt 9 ]; do skip "no OpenCL device"; done
elif ! command -v python3 >/dev/null 2>&1; then
    while [ $n -lt 9 ]; do skip "no python3 to parse the HTML with"; done
else
    # The default suite's experiments and variants (its charts); how long
    # each is measured is no part of what is checked.
    "$SB" --backend opencl --quiet --reps 2 --warmup 0 --format json >"$tmp/pocl.json" 2>/dev/null
    GNUPLOT= "$SB" report -f html "$tmp/pocl.json" >"$tmp/none.html" 2>"$tmp/err"
    rc=$?
    check "HTML of a PoCL run with GNUPLOT empty: well-formed" '[ $rc -eq 0 ] && balanced "$tmp/none.html"'
    check "HTML with GNUPLOT empty: one visible sentence says no charts and why, no figure" \
        '[ "$(grep -c "<p class=\"note\">No charts are shown: GNUPLOT is set but empty, which turns gnuplot off" "$tmp/none.html")" -eq 1 ] &&
         ! grep -q "<figure>" "$tmp/none.html"'
    if command -v gnuplot >/dev/null 2>&1; then
        GNUPLOT=$(command -v gnuplot) "$SB" report -f html "$tmp/pocl.json" >"$tmp/charts.html" 2>/dev/null
        check "HTML of a PoCL run with gnuplot: charts inline, still well-formed, no note" \
            'grep -q "<svg" "$tmp/charts.html" && balanced "$tmp/charts.html" && ! grep -q "No charts" "$tmp/charts.html"'
    else
        skip "no gnuplot"
    fi
fi

# The histogram's plot of a PoCL run: bins on a log axis with a tic per
# bin count, input GB/s and bin updates per ns with their units, a title
# per series, and gnuplot renders it without a word on stderr.
if ! "$SB" --list 2>/dev/null | grep -q "^  opencl   available"; then
    skip "no OpenCL device"
    skip "no OpenCL device"
else
    GNUPLOT= "$SB" --backend opencl --experiment histogram --size 3000x1 --reps 2 --quiet \
        --plot "$tmp/hist" >/dev/null 2>&1
    h="$tmp/hist/histogram-bins.gp"
    check "histogram: throughput against bins, log x, both axes in units, every series titled once" \
        '[ -s "$h" ] && [ -z "$(twice "$h")" ] && grep -q "^set logscale x 2" "$h" &&
         grep -q "^set xtics (1, 32, 256, 4096, 65536)" "$h" && grep -q "^set ylabel .*GB/s" "$h" &&
         grep -q "^set y2label .bin updates per ns" "$h" &&
         [ "$(series "$h" | grep -c "with linespoints .*title .opencl, [a-z_]*, \(uniform\|skewed\).")" -eq 10 ]'
    if command -v gnuplot >/dev/null 2>&1; then
        (cd "$tmp/hist" && gnuplot histogram-bins.gp >/dev/null 2>err)
        check "histogram: gnuplot renders the bins plot without a warning" \
            '[ -s "$tmp/hist/histogram-bins.png" ] && [ ! -s "$tmp/hist/err" ]'
    else
        skip "no gnuplot"
    fi
fi

# The memory families on PoCL, at their CPU default sizes (seconds).
m="$tmp/memory"
if ! "$SB" --list 2>/dev/null | grep -q "^  opencl   available"; then
    while [ $n -lt 13 ]; do skip "no OpenCL device"; done
else
    GNUPLOT= "$SB" --backend opencl --experiment latency,occupancy,dram --reps 3 --quiet \
        --plot "$m" >/dev/null 2>&1
    check "memory sweeps: log x, a tic per size, plateaus only over a working set, references and 90% of the fastest" \
        'grep -q "^set logscale x 2" "$m/latency-sweep.gp" && grep -q "^set logscale y" "$m/latency-sweep.gp" &&
         grep -q "^set xtics rotate by -45 (.16K. 16384, .32K. 32768" "$m/latency-sweep.gp" &&
         series "$m/latency-sweep.gp" | grep -q "title .opencl plateaus (" &&
         series "$m/dram_working_set-sweep.gp" | grep -q "title .opencl plateaus (" &&
         series "$m/dram_burst-sweep.gp" | grep -q "dt 3 .*title .opencl 90% of sequential: " &&
         series "$m/dram_channels-sweep.gp" | grep -q "dt 2 .*title .opencl random: " &&
         ! grep -q "plateaus" "$m/dram_burst-sweep.gp" && [ -z "$(twice "$m/dram_burst-sweep.gp")" ]'
    check "occupancy against bytes in flight: sorted, its knee measured as a line, bars kept" \
        'series "$m/occupancy-inflight.gp" | grep -q "dt 2 .*title .opencl knee measured: [0-9.]* MB (" &&
         grep -q "^set logscale x 2" "$m/occupancy-inflight.gp" && [ -s "$m/occupancy-bars.gp" ] &&
         awk "/^# opencl: bytes in flight/ { on = 1; next } on && NF == 0 { exit }
              on { if (\$1 + 0 < last) bad = 1; last = \$1 + 0 } END { exit bad }" "$m/occupancy-inflight.dat"'
fi

# The divergence split of a PoCL run: slowdown against paths.
if ! "$SB" --list 2>/dev/null | grep -q "^  opencl   available"; then
    while [ $n -lt 15 ]; do skip "no OpenCL device"; done
else
    GNUPLOT= "$SB" --backend opencl -e divergence_split -s 1000x1 -r 3 --warmup 0 --quiet \
        --plot "$tmp/div" --save "$tmp/div.json" >/dev/null 2>&1
    p="$tmp/div/divergence_split-paths.gp"
    check "divergence_split: slowdown against paths, log-log, both axes with units, a title per series" \
        '[ -s "$p" ] && grep -q "^set logscale xy 2" "$p" && grep -q "^set xlabel .k: paths" "$p" &&
         grep -q "^set ylabel .slowdown (x)" "$p" && [ -z "$(twice "$p")" ] &&
         [ "$(series "$p" | grep -c "with linespoints")" -eq 2 ]'
    # The OpenCL device is PoCL's CPU in CI, a GPU where its driver is
    # registered (the H200's): a warp there, so the model's line.
    if grep -q '"is_gpu": true' "$tmp/div.json"; then
        check "divergence_split on a GPU: the model's line dashed beside each series" \
            'series "$p" | grep -q "dt 2"'
    else
        check "divergence_split on a CPU: no warp, so no model line" \
            '! series "$p" | grep -q "dt 2" && grep -q "? ?$" "$tmp/div/divergence_split-paths.dat"'
    fi
fi

# Every script renders, gnuplot saying nothing on stderr, whatever the
# locale: in the C locale (LANG and LC_* unset, as in a root with no
# locale at all) and in C.UTF-8.  One of every plot kind is among them
# when the saved H200 runs are here.
render_all() { # $1: C or C.UTF-8; prints the scripts that failed or warned
    for d in "$tmp/h200" "$tmp/h200-launch" "$tmp/div" "$m" "$tmp/hist"; do
        [ -d "$d" ] || continue
        for gp in "$d"/*.gp; do
            name=$(basename "$gp" .gp)
            rm -f "$d/$name.png"
            if [ "$1" = C ]; then
                (cd "$d" && env -u LANG -u LC_ALL -u LC_CTYPE -u LC_MESSAGES \
                    gnuplot "$name.gp" >/dev/null 2>"$name.err")
            else
                (cd "$d" && env -u LC_ALL -u LC_CTYPE LANG=C.UTF-8 \
                    gnuplot "$name.gp" >/dev/null 2>"$name.err")
            fi && [ ! -s "$d/$name.err" ] && [ -s "$d/$name.png" ] || {
                printf ' %s' "$name"
                sed 's/^/# /' "$d/$name.err" | head -3 >>"$tmp/render.why"
            }
        done
    done
}
if [ -r "$suite" ]; then
    GNUPLOT= "$SB" report --plot "$tmp/h200-launch" "$src/tests/fixtures/h200/launch-compute-divergence.json" \
        >/dev/null 2>&1
fi
if command -v gnuplot >/dev/null 2>&1 && ls "$tmp"/*/*.gp >/dev/null 2>&1; then
    for loc in C C.UTF-8; do
        : >"$tmp/render.why"
        bad=$(render_all $loc)
        check "gnuplot renders every plot in the $loc locale without a word on stderr (failed:$bad)" \
            '[ -z "$bad" ]'
        cat "$tmp/render.why"
    done
else
    skip "no gnuplot, or no plots"
    skip "no gnuplot, or no plots"
fi
kinds=$(ls "$tmp"/*/*.gp 2>/dev/null | sed 's/.*-//; s/\.gp$//' | sort -u | tr '\n' ' ')
if [ -r "$suite" ] && "$SB" --list 2>/dev/null | grep -q "^  opencl   available"; then
    check "every plot kind among those rendered (got: $kinds)" \
        '[ "$kinds" = "bandwidth bars bins conflicts inflight launch paths roofline sweep " ]'
else
    skip "one of every plot kind needs the saved H200 runs and an OpenCL device"
fi
exit 0
