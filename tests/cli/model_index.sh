#!/bin/sh
# `simtbench model --index EXPR`: the model of a written access from a
# trace pass on any OpenCL device (PoCL here), in the model's table and
# JSON rows; a bad expression gets the compiler's words and exit 2, with
# nothing on stdout.  TAP.
#
# Hand-worked: shared, 4-byte words, 4096 threads (its buffer 4096 words):
#   (lane * 33) % 1024   bank l for lane l: 1 wavefront, 1 way
#   lane * 32            all in bank 0: 32 ways, 32 wavefronts
#   i + 1                stride 1 from word 1: no conflict, but the last
#                        thread's 4096 wraps to word 0: 1 lane reduced
# global, 16-byte words: (31 - lane) + warp * 32   a reversed warp over
#   512 bytes: 16 sectors, 100% used
SB=${SIMTBENCH:-./simtbench}
n=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "${SB_TOP_SRCDIR:-${srcdir:-.}}/tests/pocl_only.sh"
sb_pocl_only "$tmp"
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

if ! "$SB" -l 2>/dev/null | grep -q "^  opencl *available"; then
    echo "1..0 # SKIP no OpenCL device (PoCL) to trace on"
    exit 0
fi
echo "1..5"

"$SB" model -b opencl --index "(lane * 33) % 1024" --index "lane * 32" --index "i + 1" \
    --format json >"$tmp/json" 2>"$tmp/err"
rc=$?
row() { grep "\"expression\": \"$1\"" "$tmp/json"; }
check "json: (lane * 33) % 1024 is conflict-free" \
    '[ $rc -eq 0 ] && row "(lane \* 33) % 1024" | grep -q "\"wavefronts\": 1, .*\"ways\": 1,"'
check "json: lane * 32 is 32-way" \
    'row "lane \* 32" | grep -q "\"wavefronts\": 32, .*\"ways\": 32,"'
check "json: i + 1 says one lane's index was reduced into the buffer" \
    'row "i + 1" | grep -q "\"ways\": 1, .*\"reduced_lanes\": 1}"'

"$SB" model -b opencl --space global --word 16 --index "(31 - lane) + warp * 32" >"$tmp/table" \
    2>"$tmp/err"
check "table: a reversed warp of 16-byte words, 16 sectors, 100%, in the model's columns" \
    'grep -q "^pattern  *sectors" "$tmp/table" &&
     grep -q "^(31 - lane) + warp \* 32  *16 .*100.0%" "$tmp/table"'

"$SB" model -b opencl --index "lane + * 2" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "a syntax error: exit 2, the compiler's words, nothing on stdout" \
    '[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] &&
     grep -q -e "--index .lane + \* 2. does not compile (opencl): indirection requires pointer operand.*at character 8" "$tmp/err"'
exit $failed
