#!/bin/sh
# No result lost, no output lost, on saved runs (no device needed): a
# name too long for its field is cut between characters and written; a
# figure JSON cannot hold is null with a reason;
# report -o and compare -o replace their file only when complete; --plot
# exits 5 when gnuplot fails or writes an image short, and keeps the old
# images.  TAP output.
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
same() { cmp -s "$1" "$2"; }

echo "1..13"

# A saved run of two devices: DEVICE0 and VARIANT1 are spliced in.
saved() {
    cat <<EOF
{"schema": "simtbench-result/1", "tool": {"name": "simtbench", "version": "0"},
 "devices": [{"backend": "b0", "name": "$1"}, {"backend": "b1", "name": "B"}],
 "results": [
  {"backend": "b0", "device": 0, "experiment": "transpose", "variant": "copy", "rows": 64,
   "cols": 64, "reps": 1, "unit": "GB/s", "time_ms": {"median": 0.5, "spread": 0.01}, "value": 8},
  {"backend": "b0", "device": 0, "experiment": "transpose", "variant": "$2", "rows": 64,
   "cols": 64, "reps": 1, "unit": "GB/s", "time_ms": {"median": 0.7, "spread": 0.01}, "value": $3},
  {"backend": "b1", "device": 1, "experiment": "transpose", "variant": "copy", "rows": 64,
   "cols": 64, "reps": 1, "unit": "GB/s", "time_ms": {"median": 0.4, "spread": 0.01}, "value": 10},
  {"backend": "b1", "device": 1, "experiment": "transpose", "variant": "$2", "rows": 64,
   "cols": 64, "reps": 1, "unit": "GB/s", "time_ms": {"median": 0.9, "spread": 0.01}, "value": 5}]}
EOF
}
# Names of multi-byte characters longer than any buffer they are read into.
long_e=$(awk 'BEGIN { for (i = 0; i < 400; i++) printf "\303\251" }')
long_u=$(awk 'BEGIN { for (i = 0; i < 200; i++) printf "\303\274" }')
saved "A" "tiled" 6 >"$tmp/good.json"
saved "$long_e" "tiled" 6 >"$tmp/long-device.json"
saved "A" "$long_u" 6 >"$tmp/long-variant.json"
saved "A" "tiled" null >"$tmp/null-value.json"
printf 'the old file\n' >"$tmp/old"

# A name longer than its field is cut between two characters when read, so
# the run is written whole, and what was written reads back and is written
# again the same.  The fields hold 255 and 47 bytes: 127 e-acute (2 bytes
# each), 23 u-umlaut.
cut_e=$(awk 'BEGIN { for (i = 0; i < 127; i++) printf "\303\251" }')
cut_u=$(awk 'BEGIN { for (i = 0; i < 23; i++) printf "\303\274" }')
cp "$tmp/old" "$tmp/keep.json"
run report -f json -o "$tmp/keep.json" "$tmp/long-device.json"
"$SB" report -f json "$tmp/keep.json" >"$tmp/again.json" 2>/dev/null
rc_again=$?
check "report -f json of a long multi-byte device name: cut between characters, written whole, read back the same" \
    '[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && [ "$(grep -c "\"backend\": \"b[01]\"" "$tmp/keep.json")" = 6 ] &&
     grep -q "\"name\": \"$cut_e\"," "$tmp/keep.json" && [ $rc_again -eq 0 ] && same "$tmp/keep.json" "$tmp/again.json"'

run report -f json "$tmp/long-variant.json"
cp "$tmp/out" "$tmp/variant.json"
"$SB" report -f json "$tmp/variant.json" >"$tmp/again.json" 2>/dev/null
rc_again=$?
check "report -f json of a long multi-byte variant: cut between characters, every result and comparison, read back the same" \
    '[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && [ "$(grep -c "\"variant\": \"$cut_u\"," "$tmp/out")" = 3 ] &&
     [ "$(grep -c "\"variant\": " "$tmp/out")" = 6 ] && [ $rc_again -eq 0 ] && same "$tmp/out" "$tmp/again.json"'

run report -f json "$tmp/null-value.json"
check "a figure that is not known is written as null with its reason, every result kept" \
    '[ $rc -eq 0 ] && grep -q "\"value\": null," "$tmp/out" && grep -q "\"value_reason\": " "$tmp/out" && [ "$(grep -c "\"variant\": " "$tmp/out")" = 6 ]'

cp "$tmp/old" "$tmp/report.csv"
run report -f csv -o "$tmp/report.csv" "$tmp/good.json"
check "report -o FILE: replaced when complete, nothing on stdout, no temporary left" \
    '[ $rc -eq 0 ] && grep -q "^b0,.*,tiled," "$tmp/report.csv" && [ ! -s "$tmp/out" ] && [ -z "$(ls -A "$tmp" | grep "^\.")" ]'

if [ -w /dev/full ]; then
    run report -f json -o /dev/full "$tmp/good.json"
    check "report -o /dev/full: exit 5, one line" \
        '[ $rc -eq 5 ] && [ "$(lines "$tmp/err")" = 1 ] && grep -q "/dev/full" "$tmp/err"'
    run compare -o /dev/full "$tmp/good.json" "$tmp/good.json"
    check "compare -o /dev/full: exit 5, one line" \
        '[ $rc -eq 5 ] && [ "$(lines "$tmp/err")" = 1 ] && grep -q "/dev/full" "$tmp/err"'
else
    skip "no /dev/full"
    skip "no /dev/full"
fi

cp "$tmp/old" "$tmp/page.html"
printf '{"schema": "simtbench-result/1", "devices": [' >"$tmp/broken.json"
run report -f html -o "$tmp/page.html" "$tmp/broken.json"
rc_broken=$rc
GNUPLOT= "$SB" report -f html -o "$tmp/new.html" "$tmp/broken.json" 2>/dev/null
check "report -f html -o of an unreadable run: exit 5, the old page kept, no empty new one" \
    '[ $rc_broken -eq 5 ] && same "$tmp/page.html" "$tmp/old" && [ ! -e "$tmp/new.html" ]'
GNUPLOT= "$SB" report -f html -o "$tmp/page.html" "$tmp/good.json" 2>"$tmp/err"
check "report -f html -o: the whole page" \
    '[ $? -eq 0 ] && grep -q "^<!DOCTYPE html>" "$tmp/page.html" && grep -q "</html>" "$tmp/page.html"'

cp "$tmp/old" "$tmp/cmp.txt"
run compare -o "$tmp/cmp.txt" "$tmp/good.json" "$tmp/good.json"
check "compare -o FILE: the comparison in FILE, nothing on stdout" \
    '[ $rc -eq 0 ] && grep -q "^0 of 4 matched rows changed" "$tmp/cmp.txt" && [ ! -s "$tmp/out" ]'
cp "$tmp/old" "$tmp/cmp.json"
run compare --format json -o "$tmp/cmp.json" "$tmp/good.json" "$tmp/long-variant.json"
check "compare --format json -o of a cut variant: every row written, the cut name whole characters" \
    '[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && [ "$(grep -c "\"verdict\": " "$tmp/cmp.json")" = 6 ] &&
     [ "$(grep -c "\"variant\": \"$cut_u\"," "$tmp/cmp.json")" = 2 ]'

# gnuplot that fails, and one that exits 0 with its images cut short (a
# full disk): exit 5 after the report, and the old images kept.
mkdir "$tmp/plots"
printf 'old png' >"$tmp/plots/transpose-bars.png"
printf 'old svg' >"$tmp/plots/transpose-bars.svg"
cat >"$tmp/failing-gnuplot" <<'EOF'
#!/bin/sh
name=$(basename "$1" .gp)
printf 'half' >"$name.png"
exit 1
EOF
cat >"$tmp/short-gnuplot" <<'EOF'
#!/bin/sh
name=$(basename "$1" .gp)
printf '\211PNG\r\n' >"$name.png"
printf '<svg' >"$name.svg"
exit 0
EOF
chmod +x "$tmp/failing-gnuplot" "$tmp/short-gnuplot"
GNUPLOT="$tmp/failing-gnuplot" "$SB" report --plot "$tmp/plots" "$tmp/good.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "report --plot with a failing gnuplot: exit 5 after the report, the old images kept" \
    '[ $rc -eq 5 ] && grep -q "^  copy " "$tmp/out" && grep -q "gnuplot failed on" "$tmp/err" && [ "$(cat "$tmp/plots/transpose-bars.png")" = "old png" ] && [ -s "$tmp/plots/transpose-bars.gp" ]'
GNUPLOT="$tmp/short-gnuplot" "$SB" report --plot "$tmp/plots" "$tmp/good.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "report --plot with images cut short: exit 5, the old images kept, nothing left behind" \
    '[ $rc -eq 5 ] && grep -q "whole" "$tmp/err" && [ "$(cat "$tmp/plots/transpose-bars.svg")" = "old svg" ] && [ -z "$(ls -A "$tmp/plots" | grep "^\.")" ]'
if command -v "${GNUPLOT:-gnuplot}" >/dev/null 2>&1 && [ -n "${GNUPLOT-x}" ]; then
    run report --plot "$tmp/plots" "$tmp/good.json"
    check "report --plot with gnuplot: the new images replace the old, nothing left behind" \
        '[ $rc -eq 0 ] && grep -q "</svg>" "$tmp/plots/transpose-bars.svg" && [ "$(cat "$tmp/plots/transpose-bars.png")" != "old png" ] && [ -z "$(ls -A "$tmp/plots" | grep "^\.")" ]'
else
    skip "no gnuplot"
fi
exit 0
