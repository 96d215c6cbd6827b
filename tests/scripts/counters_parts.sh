#!/bin/bash
# The counters step of scripts/gpu-run.sh without a GPU: its helpers taken
# from the script itself.  The sizes drawn from a seed are the same each
# time and include odd sides, rectangles and sizes below one block; the
# slices sizes:K/N of a call plan give every size once; a row whose
# differences all name a reason is "named", with the reasons, and counted
# by reason in the summary; a row with an unnamed difference is "differs".  TAP output.
set -u
top=${SB_TOP_SRCDIR:-.}
script=$top/scripts/gpu-run.sh
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..8"

for f in random_sizes sizes_slice counters_rows counters_reasons; do
    sed -n "/^$f() {/,/^}/p" "$script"
done >"$tmp/helpers.sh"
# shellcheck disable=SC1091
. "$tmp/helpers.sh"

sizes=$(random_sizes 20261225 20 | paste -sd' ')
check "20 sizes from a seed, the same each time" \
    '[ "$(echo $sizes | wc -w)" = 20 ] && [ "$sizes" = "$(random_sizes 20261225 20 | paste -sd" ")" ]'
below=0 odd=0 rect=0
for s in $sizes; do
    r=${s%x*} c=${s#*x}
    [ "$r" -lt 32 ] && [ "$c" -lt 32 ] && below=$((below + 1))
    [ $((r % 2)) = 1 ] && [ $((c % 2)) = 1 ] && odd=$((odd + 1))
    [ "$r" -ge $((4 * c)) ] || [ "$c" -ge $((4 * r)) ] && rect=$((rect + 1))
done
check "sizes below one block ($below), with odd sides ($odd), long rectangles ($rect)" \
    '[ $below -ge 4 ] && [ $odd -ge 5 ] && [ $rect -ge 4 ]'

all="33x31 100x70 1x1 1000x777 $sizes"
# shellcheck disable=SC2086
quarters=$(for k in 1 2 3 4; do sizes_slice $k 4 $all; done | paste -sd' ')
check "sizes:1/4 .. sizes:4/4 give each of the 24 sizes once, in order" '[ "$quarters" = "$all" ]'
# shellcheck disable=SC2086
threes=$(for k in 1 2 3; do sizes_slice $k 3 1x1 2x2 3x3 4x4 5x5 6x6 7x7; done | paste -sd' ')
check "slices of a list they do not divide: every size once" \
    '[ "$threes" = "1x1 2x2 3x3 4x4 5x5 6x6 7x7" ]'

# Rows as a run's JSON writes them, one a line: a match, one difference
# named by its reason, one not.
out=$tmp
mkdir -p "$out/counters"
row() { # VARIANT FIGURES
    printf '{"experiment": "shared_tile", "variant": "%s", "kernel": "k", "rows": 1, "cols": 256, "verified": true, %s}\n' "$1" "$2"
}
{
    row a '"counter_check": {"verdict": "matches", "figures": []}'
    row b '"counter_check": {"verdict": "differs", "figures": [{"figure": "shared_ld_wavefronts_per_request", "verdict": "differs", "reason": "more passes", "named_reason": "arbitration"}, {"figure": "shared_st_wavefronts_per_request", "verdict": "differs", "reason": "more passes", "named_reason": "arbitration"}]}'
    row c '"counter_check": {"verdict": "differs", "figures": [{"figure": "global_ld_requests", "verdict": "differs", "reason": "3 requests more than declared"}]}'
} >"$out/counters/fixture.json"
SB_COUNTERS_NOT_HELD="" counters_rows >"$tmp/rows"
check "a matching row: matches" 'grep -qx "held matches shared_tile/a 1x256 " "$tmp/rows"'
check "a row whose differences name reasons: named, each reason once" \
    'grep -qx "held named shared_tile/b 1x256 arbitration" "$tmp/rows"'
check "a row with an unnamed difference: differs, with the figure and why" \
    'grep -qx "held differs shared_tile/c 1x256 global_ld_requests: 3 requests more than declared" "$tmp/rows"'
row d '"counter_check": {"verdict": "differs", "figures": [{"figure": "shared_ld_wavefronts_per_request", "verdict": "differs", "reason": "more passes", "named_reason": "arbitration"}]}' \
    >>"$out/counters/fixture.json"
SB_COUNTERS_NOT_HELD="" counters_rows >"$tmp/rows"
check "the summary counts the rows each reason names" \
    '[ "$(counters_reasons "$tmp/rows")" = "  named reason arbitration: 2 rows" ]'
exit $failed
