#!/bin/sh
# The JSON the program writes against the JSON Schemas it installs
# (doc/schema): a PoCL run (a divergence block among them, for ns/element
# and the family's model figures), the same run saved and written again by
# `simtbench report`, a run of the latency and burst families (ns/load,
# model figures in bytes and cycles), a run of the launch and compute
# families (us/launch, host-observed times) saved and written again, and
# `simtbench model`'s output; a deliberately broken
# copy of each must fail, so that the check is known to check.  Needs
# python3's jsonschema (Debian: python3-jsonschema).  TAP output.
SB=${SIMTBENCH:-./simtbench}
top=${SB_TOP_SRCDIR:-.}
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }

TESTS=16
echo "1..$TESTS"
skip_all() {
    i=0
    while [ $i -lt $TESTS ]; do skip "$1"; i=$((i + 1)); done
    exit 0
}
command -v python3 >/dev/null 2>&1 || skip_all "no python3"
python3 -c 'import jsonschema' 2>/dev/null ||
    skip_all "no python3 jsonschema module (Debian: python3-jsonschema)"

# validate SCHEMA DOC [BREAK]: 0 where DOC is valid; BREAK, a Python
# statement on the document d, breaks it first.
validate() {
    python3 - "$1" "$2" "${3:-pass}" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
d = json.load(open(sys.argv[2]))
exec(sys.argv[3])
errors = list(jsonschema.Draft202012Validator(schema).iter_errors(d))
for e in errors[:5]:
    print("#   %s: %s" % ("/".join(map(str, e.absolute_path)), e.message[:200]))
sys.exit(1 if errors else 0)
PY
}
check_valid() { if validate "$1" "$2"; then ok "$3"; else not_ok "$3"; fi; }
check_invalid() {
    if validate "$1" "$2" "$3" >/dev/null; then not_ok "$4"; else ok "$4"; fi
}

result="$top/doc/schema/simtbench-result-1.json"
model="$top/doc/schema/simtbench-model-1.json"

"$SB" model --stride 1-3 --lanes --format json >"$tmp/model.json"
check_valid "$model" "$tmp/model.json" "simtbench model --format json is simtbench-model/1"
check_invalid "$model" "$tmp/model.json" 'd["rows"][0]["ways"] = "one"' \
    "a model row with a mistyped field fails the schema"
"$SB" model --variant transpose/vec64x64 --size 128 --format json >"$tmp/variant.json"
check_valid "$model" "$tmp/variant.json" \
    "simtbench model --variant's accesses and totals are simtbench-model/1"
check_invalid "$model" "$tmp/variant.json" 'd["rows"][0]["kind"] = "copy"' \
    "a declared access of a kind the schema does not know fails it"

if ! "$SB" --list 2>/dev/null | grep -q "^  opencl   available"; then
    for t in 1 2 3 4 5 6 7 8 9 10 11 12; do skip "no OpenCL device"; done
    exit 0
fi
"$SB" --backend opencl -e vecadd,shared_tile,divergence_loop -s 64 -r 3 -f json --save "$tmp/saved.json" \
    >"$tmp/run.json"
check_valid "$result" "$tmp/run.json" "a PoCL run's JSON is simtbench-result/1"
"$SB" report "$tmp/saved.json" -f json >"$tmp/again.json"
check_valid "$result" "$tmp/again.json" "a saved run written again is simtbench-result/1"
"$SB" --backend opencl -e latency,dram_burst -s 512x1024 -r 3 -f json --quiet >"$tmp/memory.json"
check_valid "$result" "$tmp/memory.json" \
    "a PoCL run of the latency and burst families (ns/load, figures) is simtbench-result/1"
check_invalid "$result" "$tmp/run.json" 'd["results"][0]["reps"] = "3"' \
    "a result with a mistyped field fails the schema"
check_invalid "$result" "$tmp/run.json" 'del d["provenance"]["cpu"]' \
    "provenance without its cpu fails the schema"
check_invalid "$result" "$tmp/run.json" 'd["results"][0]["new_field"] = 1' \
    "a member the schema does not describe fails it (the writer outgrew its schema)"
check_invalid "$result" "$tmp/run.json" 'd["results"][1]["model_totals"]["global_ld_sectors"] = "many"' \
    "a result whose model totals are mistyped fails the schema"
check_invalid "$result" "$tmp/run.json" 'del d["summary"]' "a run without its summary fails the schema"
check_invalid "$result" "$tmp/run.json" 'd["summary"]["lines"][0]["topic"] = "gossip"' \
    "a summary line of a topic the schema does not know fails it"
# The launch and compute families and the vendor SGEMM on two sessions:
# host-observed times, launches per second, the FP32 peaks and the
# host-observed comparison.
"$SB" --backend opencl,opencl -e launch,compute -s 256x1 -r 5 -f json --save "$tmp/launch.json" \
    >"$tmp/launch-run.json"
check_valid "$result" "$tmp/launch-run.json" \
    "a PoCL run of the launch and compute families on two sessions is simtbench-result/1"
check_invalid "$result" "$tmp/launch-run.json" \
    'd["results"][0]["host_observed_ms"]["median"] = "fast"' \
    "a host-observed time that is not a number fails the schema"
"$SB" report "$tmp/launch.json" -f json >"$tmp/launch-again.json"
check_valid "$result" "$tmp/launch-again.json" \
    "the saved launch run written again is simtbench-result/1"
