#!/bin/sh
# Every device of a node, on PoCL configured with two devices
# (POCL_DEVICES="pthread pthread"): --device all and lists open each,
# devices are measured at the same time unless --serial (the fault module's
# overlap count says how many were inside a batch at once), the results
# read the same either way, a device made slow (the fault module's
# slow-device, its device times reported a hundred times longer) is the one
# outlier the fleet names, in the table and the JSON; runs saved with
# --save escapes merge into one result that every format and compare
# read.  TAP output.
SB=${SIMTBENCH:-./simtbench}
BUILD=${SB_TOP_BUILDDIR:-.}
top=${SB_TOP_SRCDIR:-.}
n=0
TESTS=14
tmp=$(mktemp -d)
trap '[ -n "${SB_KEEP:-}" ] || rm -rf "$tmp"' EXIT

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; return 1; fi; }
show() { sed 's/^/#   /' "$1" | head -n 20; }

echo "1..$TESTS"
skip_all() {
    while [ $n -lt $TESTS ]; do n=$((n + 1)); echo "ok $n # SKIP $1"; done
    exit 0
}
export POCL_DEVICES="pthread pthread"
# PoCL's platform, wherever it comes (a GPU machine lists NVIDIA's too).
pocl=$(COLUMNS=1000 "$SB" --list 2>/dev/null |
    sed -n 's/^ *platform \([0-9]*\) device 1: .*\[Portable Computing Language\].*/\1/p' | head -n 1)
[ -n "$pocl" ] ||
    skip_all "no PoCL platform with two devices (POCL_DEVICES=\"pthread pthread\")"
command -v python3 >/dev/null 2>&1 || skip_all "no python3 to read the saved runs"

# Tiny and quick: one experiment, its three steadiest variants, at a size
# whose launches are long beside a CPU's scheduling hiccups.
TINY="--backend opencl --platform $pocl --experiment vecadd --variant coarse2,coarse4,coarse8
      --size 128 --reps 7 --warmup 0 --quiet"
FAULT_ENV="SIMTBENCH_BACKEND_PATH=$BUILD/tests/faults/opencl/.libs
           SB_FAULT_REAL=$BUILD/opencl/.libs/simtbench_opencl.so"

# What a saved run holds, as "KEY=VALUE" lines for the checks.
facts() {
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("devices=%s" % ",".join("%d" % x["device_index"] for x in d["devices"]))
print("verified=%d/%d" % (sum(r["verified"] for r in d["results"]), len(d["results"])))
print("order=%s" % " ".join("%d:%s" % (r["device"], r["variant"]) for r in d["results"]))
print("outliers=%s" % ",".join(sorted({o["device"] for f in d["fleet"] for o in f["outliers"]})))
print("flagged=%d/%d" % (sum(1 for f in d["fleet"] if f["outliers"]), len(d["fleet"])))
print("sources=%d" % len(d.get("sources", [])))
print("identity=%s" % ",".join("%s/%s" % (o["device_index"], o["uuid"]) for f in d["fleet"]
                                 for o in f["outliers"]))
PY
}
fact() { facts "$1" | sed -n "s/^$2=//p"; }

# --device all: both devices, every row verified, side by side.  Each
# launch 5 ms late (the fault module's slow), so that the two devices'
# batches last long enough to meet however busy the host's cores are.
env $FAULT_ENV SB_FAULT=slow+overlap SB_FAULT_OVERLAP="$tmp/overlap" "$SB" $TINY --device all \
    --save "$tmp/all.json" >"$tmp/all.txt" 2>"$tmp/err"
rc=$?
check "--device all opens both PoCL devices and verifies every row" \
    '[ $rc -eq 0 ] && [ "$(fact "$tmp/all.json" devices)" = 0,1 ] &&
     [ "$(fact "$tmp/all.json" verified)" = 6/6 ]' || show "$tmp/err"
check "the table puts opencl:0 and opencl:1 side by side with a verdict" \
    'grep -q "opencl:0 .*opencl:1 .*opencl:1/opencl:0" "$tmp/all.txt" &&
     grep -q "device 1 of platform $pocl" "$tmp/all.txt"'
check "by default the devices are measured at the same time (both inside a batch at once)" \
    '[ "$(cat "$tmp/overlap" 2>/dev/null)" = 2 ]'

env $FAULT_ENV SB_FAULT=slow+overlap SB_FAULT_OVERLAP="$tmp/overlap" "$SB" $TINY --device 0,1 \
    --serial --save "$tmp/serial.json" >/dev/null 2>"$tmp/err"
rc=$?
check "--serial: one device after another" \
    '[ $rc -eq 0 ] && [ "$(cat "$tmp/overlap" 2>/dev/null)" = 1 ]' || show "$tmp/err"
check "at the same time or not, the results come in the same order, device by device" \
    '[ "$(fact "$tmp/all.json" order)" = "$(fact "$tmp/serial.json" order)" ] &&
     [ "$(fact "$tmp/all.json" order)" = "0:coarse2 0:coarse4 0:coarse8 1:coarse2 1:coarse4 1:coarse8" ]'

"$SB" $TINY --device 1,0 --save "$tmp/list.json" >/dev/null 2>"$tmp/err"
check "--device 1,0 opens the listed devices in the order given" \
    '[ "$(fact "$tmp/list.json" devices)" = 1,0 ]' || show "$tmp/err"

# Two devices, the second slow: it alone is named, on every variant.
# (Three or more, and the spread of their peers, are test_fleet's: here
# the CPU devices share two cores, which may spread like devices further
# than any rule can see past.)
env $FAULT_ENV SB_FAULT=slow-device=1 "$SB" $TINY \
    --device all --save "$tmp/slow.json" >"$tmp/slow.txt" 2>"$tmp/err"
rc=$?
check "one slow device of two: the fleet names opencl:1, and only it, on every variant" \
    '[ $rc -eq 0 ] && [ "$(fact "$tmp/slow.json" outliers)" = opencl:1 ] &&
     [ "$(fact "$tmp/slow.json" flagged)" = 3/3 ] &&
     [ "$(fact "$tmp/slow.json" identity)" = "1/None,1/None,1/None" ]' ||
    { show "$tmp/err"; facts "$tmp/slow.json" | sed 's/^/#   /'; }
check "the table names the outlier under its row and in the Outliers summary" \
    'grep -q "^      outlier opencl:1 (device 1 of platform $pocl): [0-9.]*% below its peers" "$tmp/slow.txt" &&
     grep -q "^  opencl:1 (device 1 of platform $pocl): an outlier in 3 of the 3 variants" "$tmp/slow.txt" &&
     ! grep -q "outlier opencl:0" "$tmp/slow.txt"' || show "$tmp/slow.txt"

# One task per device, as a launcher starts them: --device auto and the
# --save escapes; the second task's device slow.
host=$(hostname)
PMI_LOCAL_RANK=0 PMI_RANK=0 "$SB" $TINY --device auto --save "$tmp/r-%h-%d-%t.json" \
    >/dev/null 2>"$tmp/err0"
PMI_LOCAL_RANK=1 PMI_RANK=1 env $FAULT_ENV SB_FAULT=slow-device=1 "$SB" $TINY --device auto \
    --save "$tmp/r-%h-%d-%t.json" >/dev/null 2>"$tmp/err1"
check "--device auto and --save r-%h-%d-%t.json: each task's file, named by host, device, task" \
    '[ -s "$tmp/r-$host-0-0.json" ] && [ -s "$tmp/r-$host-1-1.json" ] &&
     [ "$(fact "$tmp/r-$host-1-1.json" devices)" = 1 ]' || show "$tmp/err1"

"$SB" merge -o "$tmp/fleet.json" "$tmp/r-$host-0-0.json" "$tmp/r-$host-1-1.json" \
    >"$tmp/merge.txt" 2>"$tmp/err"
rc=$?
check "merge: one result of both runs, each device with its source, the slow one named" \
    '[ $rc -eq 0 ] && [ "$(fact "$tmp/fleet.json" sources)" = 2 ] &&
     [ "$(fact "$tmp/fleet.json" devices)" = 0,1 ] &&
     [ "$(fact "$tmp/fleet.json" outliers)" = opencl:1 ] &&
     grep -q "^  fleet$" "$tmp/merge.txt" &&
     grep -q "run 2 of 2, r-$host-1-1.json on $host" "$tmp/merge.txt"' ||
    show "$tmp/err"

formats_ok=1
for f in table csv json markdown html; do
    "$SB" report --format $f "$tmp/fleet.json" >"$tmp/report.$f" 2>"$tmp/err" &&
        [ -s "$tmp/report.$f" ] || { formats_ok=0; show "$tmp/err"; }
done
check "every format renders the merged result" '[ $formats_ok = 1 ]'
"$SB" compare "$tmp/fleet.json" "$tmp/fleet.json" >"$tmp/compare.txt" 2>"$tmp/err"
rc=$?
check "compare reads merged results: matched on every row, nothing changed" \
    '[ $rc -eq 0 ] && grep -q "^0 of 6 matched rows changed" "$tmp/compare.txt"' ||
    show "$tmp/compare.txt"

printf 'kept\n' >"$tmp/kept.json"
"$SB" merge -o "$tmp/kept.json" "$tmp/r-$host-0-0.json" "$tmp/r-$host-0-0.json" \
    >/dev/null 2>"$tmp/err"
rc=$?
check "merge of one run twice: exit 2, one line naming it, the output left as it was" \
    '[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "given twice" "$tmp/err" &&
     [ "$(cat "$tmp/kept.json")" = kept ]'
"$SB" merge -o "$tmp/kept.json" "$tmp/r-$host-0-0.json" "$top/README.md" >/dev/null 2>"$tmp/err"
rc=$?
check "merge of a file that is no saved run: exit 5, the output left as it was" \
    '[ $rc -eq 5 ] && grep -q "README.md" "$tmp/err" && [ "$(cat "$tmp/kept.json")" = kept ]'
exit 0
