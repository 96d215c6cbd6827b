#!/bin/sh
# A run's provenance (issue 13): a PoCL run's JSON has the revision the
# program was built from, the very command line given (words quoted for a
# shell: split again they are the arguments), the OS, kernel and CPU, and
# start <= end; a saved run read back and written again by `simtbench
# report` keeps all of it, and its table header shows revision and CPU.
# Reads the JSON with python3.  TAP output.
SB=${SIMTBENCH:-./simtbench}
top=${SB_TOP_SRCDIR:-.}
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

TESTS=6
echo "1..$TESTS"
skip_all() {
    i=0
    while [ $i -lt $TESTS ]; do skip "$1"; i=$((i + 1)); done
    exit 0
}
command -v python3 >/dev/null 2>&1 || skip_all "no python3 to read the JSON"
"$SB" --list 2>/dev/null | grep -q "^  opencl   available" || skip_all "no OpenCL device"

# field FILE KEY: provenance.KEY of FILE ("None" where null or absent).
field() {
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("provenance", {}).get(sys.argv[2]))' "$1" "$2"
}

# A word with a space and a quote, to be quoted in the command line.
save="$tmp/it's saved.json"
"$SB" --backend opencl -e vecadd -s 64 -r 2 --quiet -f json --save "$save" >"$tmp/run.json"

version=$("$SB" --version | sed -n '1s/^simtbench //p')
want=$(sh "$top/scripts/git-version" "$top" "$version")
check "the revision is the build's ($want)" '[ "$(field "$tmp/run.json" revision)" = "$want" ]'

python3 - "$tmp/run.json" "$SB" --backend opencl -e vecadd -s 64 -r 2 --quiet -f json \
    --save "$save" <<'PY'
import json, shlex, sys
got = shlex.split(json.load(open(sys.argv[1]))["provenance"]["command"])
sys.exit(0 if got == sys.argv[2:] else print("# got", got) or 1)
PY
rc=$?
check "the command line, split again, is the very arguments given" '[ $rc -eq 0 ]'

check "OS, kernel and CPU are uname's and the CPU's" \
    '[ "$(field "$tmp/run.json" os)" = "$(uname -s)" ] &&
     [ "$(field "$tmp/run.json" kernel)" = "$(uname -r)" ] &&
     [ "$(field "$tmp/run.json" machine)" = "$(uname -m)" ] &&
     [ -n "$(field "$tmp/run.json" cpu)" ] && [ "$(field "$tmp/run.json" cpu)" != None ]'

start=$(field "$tmp/run.json" start)
end=$(field "$tmp/run.json" end)
check "start ($start) is the date and no later than end ($end)" \
    'printf "%s\n" "$start" "$end" | grep -Eqx "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z" &&
     [ "$(printf "%s\n%s\n" "$start" "$end" | sort | head -n 1)" = "$start" ] &&
     grep -q "\"date\": \"$start\"" "$tmp/run.json"'

"$SB" report "$save" -f json >"$tmp/again.json"
check "a saved run read back and written again keeps its provenance" \
    'python3 -c "import json,sys; a, b = (json.load(open(f))[\"provenance\"] for f in sys.argv[1:]); sys.exit(a != b)" "$save" "$tmp/again.json"'

"$SB" report "$save" >"$tmp/table"
check "the report's header shows the revision and the CPU" \
    'grep -q "^revision $want  cpu " "$tmp/table"'
