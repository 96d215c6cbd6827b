#!/bin/sh
# The pattern family on the OpenCL backend (PoCL in CI): the user's own
# index expressions run, verified, traced, and predicted as worked out by
# hand below; bad expressions refused with the compiler's words and exit
# 2, nothing run.  TAP.
#
# Hand-worked predictions (the first warp's request; 32 banks of 4 bytes,
# 32-byte sectors; 8- and 16-byte words in two half-warp phases):
#   shared, 4 B   lane            word l in bank l: 1 wavefront, no conflict
#                 lane * 2        lanes l and l+16 share bank 2l%32: 2-way, 2
#                 lane * 32       every lane in bank 0: 32-way, 32
#                 lane * 33       bank (33 l)%32 = l: 1, no conflict
#                 lane*32+((warp%32)^lane)  a column of an XOR-swizzled
#                                 [32][32]: bank = w ^ l, distinct: 1
#                 7               one word for all: a broadcast, 1
#                 31 - lane       a permutation of distinct banks: 1
#   shared, 8 B   lane (store)    each half-warp 128 bytes: 2 wavefronts
#                 lane*2 (store)  16 B apart: lanes l, l+8 of a half share a
#                                 bank: 2-way, 2 passes a phase, 4
#   shared, 16 B  lane, lanes < 20 taking part: the first phase's 16 lanes,
#                 256 bytes, 2 passes; the second's 4 lanes, 64 bytes, 1: 3
#   global, 4 B   i + 1           bytes 4..131: sectors 0..4, 5, 80% used;
#                                 the last warp's last lane wraps to 0 (1
#                                 lane reduced), again 5 sectors
#                 warp*32+31-lane a reversed warp: one line, 4, 100%
#                 i * 2           256 bytes, half used: 8, 50%
#   global, 8 B   i               256 bytes: 8, 100%
#   global, 16 B  i (store)       512 bytes: 16, 100%
#   global, 4 B   i, lanes < 20   80 bytes in sectors 0..2: 3, 80/96 used
SB=${SIMTBENCH:-./simtbench}
n=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "${SB_TOP_SRCDIR:-${srcdir:-.}}/tests/pocl_only.sh"
sb_pocl_only "$tmp"
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }

if ! "$SB" -l 2>/dev/null | grep -q "^  opencl *available"; then
    echo "1..0 # SKIP no OpenCL device (PoCL) to run the kernels on"
    exit 0
fi
echo "1..25"

# run NAME ARGS...: a quick run of the pattern family as JSON into $tmp/NAME.
run() {
    name=$1
    shift
    "$SB" -b opencl -q -e pattern -r 1 -w 0 -f json "$@" >"$tmp/$name" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.rc"
}

# expect RUN VARIANT 'KEY: VALUE'...: the row verified, and its first
# (studied) prediction holding each field.
expect() {
    file=$tmp/$1 variant=$2
    shift 2
    line=$(grep "\"variant\": \"$variant\"" "$file")
    pred=$(printf '%s\n' "$line" | sed 's/"prediction": {/\n/; s/^[^\n]*\n//; s/}.*//')
    good=1
    printf '%s' "$line" | grep -q '"verified": true' || good=0
    for want in "$@"; do
        case "$want" in
        reduced*) printf '%s' "$line" | grep -q "\"name\": \"reduced_lanes\", \"value\": ${want#reduced }" || good=0 ;;
        *.*) printf '%s' "$pred" | grep -q -e "\"$want\(0\{10,\}[0-9]*\)\{0,1\}\(,\|\$\)" || good=0 ;;
        *) printf '%s' "$pred" | grep -q -e "\"$want\(,\|\$\)" || good=0 ;;
        esac
    done
    if [ "$good" = 1 ] && [ "$(cat "$file.rc")" = 0 ]; then
        ok "$1 $variant: verified; $*"
    else
        not_ok "$1 $variant: verified; $* (got: $pred; $(head -c 300 "$file.err"))"
    fi
}

run s4 --space shared --index lane --index "lane * 2" --index "lane * 32" --index "lane * 33" \
    --index "lane * 32 + ((warp % 32) ^ lane)" --index 7 --index "31 - lane" -s 1x1024
expect s4 lane 'wavefronts": 1' 'ways": 1'
expect s4 'lane\*2' 'wavefronts": 2' 'ways": 2'
expect s4 'lane\*32' 'wavefronts": 32' 'ways": 32'
expect s4 'lane\*33' 'wavefronts": 1' 'ways": 1'
expect s4 'lane\*32+((warp%32)^lane)' 'wavefronts": 1' 'ways": 1'
expect s4 7 'wavefronts": 1' 'broadcast": 1'
expect s4 '31-lane' 'wavefronts": 1' 'ways": 1'

# The lesson names the costliest row's worst warp and the lanes that
# share its busiest bank, or how much of what moves the lanes use.
lesson() {
    if grep -q -e "\"text\": \"$2" "$tmp/$1"; then ok "lesson of $1: $2"; else
        not_ok "lesson of $1: $2 (got: $(grep -A2 '"lessons"' "$tmp/$1" | tail -1))"; fi
}
lesson s4 'The expression lane\*32 costs the most: its worst sampled warp, warp 0, lanes 0, 1, 2, 3, 4, 5 ... share bank 0: 32-way, 32 wavefronts'

run s8 --space shared --word 8 --store --index lane --index "lane*2" -s 1x1024
expect s8 lane 'wavefronts": 2' 'ways": 1'
expect s8 'lane\*2' 'wavefronts": 4' 'ways": 2'

run s16 --space shared --word 16 --mask "lane < 20" --index lane -s 1x1000
expect s16 lane 'wavefronts": 3' 'lanes": 20'

run g4 --index "i + 1" --index "warp * 32 + 31 - lane" --index "i * 2" -s 1x1024
expect g4 'i+1' 'sectors": 5' 'efficiency": 0.8' 'reduced 1'
expect g4 'warp\*32+31-lane' 'sectors": 4' 'efficiency": 1.0' 'reduced 0'
expect g4 'i\*2' 'sectors": 8' 'efficiency": 0.5'
lesson g4 'The expression i\*2 costs the most: its worst sampled warp, warp 0, its 32 lanes ask for 128 bytes and move 8 sectors (256 bytes): 50% of what moves is used'

run g8 --word 8 --index i -s 1x1024
expect g8 i 'sectors": 8' 'efficiency": 1.0'

run g16 --word 16 --store --index i -s 1x1024
expect g16 i 'sectors": 16' 'efficiency": 1.0'

run gmask --mask "lane < 20" --index i -s 1x1000
expect gmask i 'sectors": 3' 'lanes": 20'

# bad WHAT PATTERN ARGS...: exit 2, no row measured (the device's header
# may be out: it was opened to compile), the line matching PATTERN.
bad() {
    what=$1
    shift
    pattern=$1
    shift
    "$SB" -b opencl -q -e pattern -r 1 -w 0 "$@" >"$tmp/bad.out" 2>"$tmp/bad.err"
    rc=$?
    if [ $rc -eq 2 ] && ! grep -q "^pattern_" "$tmp/bad.out" && grep -q -e "$pattern" "$tmp/bad.err"; then
        ok "$what: exit 2, $pattern"
    else
        not_ok "$what: exit $rc, stderr: $(head -c 400 "$tmp/bad.err")"
    fi
}
bad "a syntax error" "^simtbench: --index '(lane \* 33' does not compile (opencl): expected ')'" \
    --index "(lane * 33" -s 1x256
bad "an unknown name" "--index 'lane + foo' does not compile (opencl): use of undeclared identifier 'foo'.*at character 8 of the expression" \
    --index "lane + foo" -s 1x256
bad "a division by zero" "--index 'lane / 0' does not compile (opencl): division by zero.*at character 6" \
    --index "lane / 0" -s 1x256
bad "a remainder by zero in the mask" "--mask 'lane % 0' does not compile" \
    --index lane --mask "lane % 0" -s 1x256
bad "statements are no expression" "character 5 (';') cannot be part of an index expression" \
    --index "lane; x" -s 1x256
bad "a mask with no --index" "describe an --index expression; none given" --mask lane
bad "a word size the model has not" "^simtbench: --word must be 4, 8 or 16 bytes, not '3'" \
    --index lane --word 3

exit $failed
