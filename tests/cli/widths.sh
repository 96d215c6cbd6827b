#!/bin/sh
# Every line of compare, model, --list, each command's --help, and report
# and merge of saved H200 runs keeps within the width: 100 columns with COLUMNS unset, and COLUMNS=80 and 60.
# compare runs on a fixture pair whose variant names pass 18 characters
# (41 the longest, and one only in the new run): each such name starts its
# row in full, and the verdicts of the rows stay in one column.  No device
# is needed.  TAP output; a line over its width is printed.
SB=${SIMTBENCH:-./simtbench}
top=${SB_TOP_SRCDIR:-.}
old=$top/tests/fixtures/compare-long-names-old.json
new=$top/tests/fixtures/compare-long-names-new.json
n=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset COLUMNS

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; failed=1; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

# within WIDTH FILE: no line of FILE is wider than WIDTH (in characters);
# those that are, printed as TAP comments.
within() {
    awk -v w="$1" 'length($0) > w { printf "# %d columns: %s\n", length($0), $0; bad = 1 }
        END { exit bad }' "$2"
}

# run WIDTH ARGS...: simtbench ARGS with COLUMNS=WIDTH (100: unset) into
# $tmp/out, stderr with it; its exit status.
run() {
    w=$1
    shift
    if [ "$w" = 100 ]; then
        "$SB" "$@" >"$tmp/out" 2>&1
    else
        COLUMNS=$w "$SB" "$@" >"$tmp/out" 2>&1
    fi
}

# one_column FILE: every verdict ("faster by", "slower by", "same (",
# "only in") of FILE starts at the same column.
one_column() {
    awk 'match($0, /(faster by|slower by|same \(|only in (old|new))/) { at[RSTART] = 1 }
        END { k = 0; for (c in at) k++; exit k != 1 }' "$1"
}

echo "1..41"
for w in 100 80 60; do
    run $w compare "$old" "$new"
    rc=$?
    check "compare at $w columns: exit 0, every line within $w" '[ $rc -eq 0 ] && within $w "$tmp/out"'
    check "compare at $w: the 41-character name starts its row in full" \
        'grep -q "^  shared_tile/32x33-column-load-padded-by-one-word-long$" "$tmp/out"'
    check "compare at $w: the verdicts in one column, long names or not" \
        'sed "/^Unmatched/,\$d" "$tmp/out" | sed -n "/^  experiment.variant/,\$p" >"$tmp/rows" && one_column "$tmp/rows"'
    run $w compare --all "$old" "$new"
    rc=$?
    check "compare --all at $w: exit 0, every line within $w, the unmatched rows too" \
        '[ $rc -eq 0 ] && within $w "$tmp/out" && grep -q "tiled-with-a-new-and-long-name" "$tmp/out"'
    for args in "--stride 1-4" "--space global --stride 8" "--tile 32x32 --pad 1 --lanes" \
        "--variant transpose/tiled --size 1000" \
        "--variant global_perm/w4-random1-spread-load --size 8192"; do
        # shellcheck disable=SC2086
        run $w model $args
        rc=$?
        check "model $args at $w: exit 0, every line within $w" '[ $rc -eq 0 ] && within $w "$tmp/out"'
    done
    run $w --list
    rc=$?
    check "--list at $w: exit 0, every line within $w" '[ $rc -eq 0 ] && within $w "$tmp/out"'
    bad=
    for cmd in "" model compare report merge; do
        # shellcheck disable=SC2086
        run $w $cmd --help
        within $w "$tmp/out" || bad="$bad '${cmd:-run}'"
    done
    check "--help of every command at $w: every line within $w" '[ -z "$bad" ] || { echo "# over:$bad"; false; }'
done
# The report and merge tables of saved H200 runs (report of the fleet, a
# merge's report on stdout).
for w in 100 80 60; do
    if [ ! -r "$top/tests/fixtures/h200/fleet.json" ]; then
        n=$((n + 2))
        echo "not ok $((n - 1)) - tests/fixtures/h200/fleet.json is not here"
        echo "not ok $n - tests/fixtures/h200/fleet.json is not here"
        continue
    fi
    run $w report "$top/tests/fixtures/h200/fleet.json"
    rc=$?
    check "report of the H200 fleet at $w: exit 0, every line within $w" \
        '[ $rc -eq 0 ] && within $w "$tmp/out"'
    run $w merge -o "$tmp/merged.json" "$top/tests/fixtures/h200/memory.json" \
        "$top/tests/fixtures/h200/privatization.json"
    rc=$?
    check "merge's report of two H200 runs at $w: exit 0, every line within $w" \
        '[ $rc -eq 0 ] && within $w "$tmp/out"'
done
# What gave way is said under its row, not lost.
run 60 compare "$old" "$new"
check "compare at 60: the times that gave way are under their row" \
    'grep -q "^      size 8192x8192; ms old 0.1530, new 0.1913" "$tmp/out"'
run 60 model --space global --stride 8
check "model at 60: the byte counts that gave way are under their row" \
    'grep -q "requested 128 B; unique 128 B; transferred" "$tmp/out"'
exit $failed
