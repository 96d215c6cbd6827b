#!/bin/sh
# tests/arch.sh, held to account: in a scratch copy of the sources, plant
# one include against the stages' direction at a time and check that
# arch.sh fails on it, naming the file and the header; the copy as it is
# passes.  The plants are DESIGN.md's three: the executor including the
# command line's header, a family including the executor's, and a writer
# including analysis's own pairing header (analysis.h names the public
# ones).  Only the source checks run (SB_ARCH_SOURCES_ONLY): the object
# files are the build's, which no plant changes; tests/arch.sh runs them
# all on the tree.  TAP output.
set -u
src=${SB_TOP_SRCDIR:-${srcdir:-.}}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0
echo "1..4"

result() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then
        echo "ok $n - $2"
    else
        echo "not ok $n - $2"
        sed 's/^/# /' "$tmp/out"
        failed=1
    fi
}

# The scratch tree: every C source and header arch.sh reads.
(cd "$src" && find src common cuda opencl -name '*.[ch]') >"$tmp/list"
(cd "$src" && tar cf - -T "$tmp/list") | (mkdir "$tmp/tree" && cd "$tmp/tree" && tar xf -)

arch() {
    SB_ARCH_SOURCES_ONLY=1 SB_TOP_SRCDIR="$tmp/tree" sh "$src/tests/arch.sh" >"$tmp/out" 2>&1
}

arch
result $? "arch.sh passes on the unchanged copy"

# plant FILE HEADER EXPECTED: with FILE including HEADER arch.sh must fail,
# and its report must name FILE and HEADER.
plant() {
    cp "$tmp/tree/$1" "$tmp/saved"
    printf '#include "%s"\n' "$2" >>"$tmp/tree/$1"
    arch
    status=$?
    cp "$tmp/saved" "$tmp/tree/$1"
    if [ "$status" -ne 0 ] && grep -q "^not ok .*$3" "$tmp/out" &&
        grep -q "^# $1 includes.*$2" "$tmp/out"; then
        result 0 "arch.sh fails on $1 including $2"
    else
        echo "arch.sh exited $status" >>"$tmp/out"
        result 1 "arch.sh fails on $1 including $2"
    fi
}

plant src/exec/executor.c cli/options.h "against the stages' direction"
plant src/experiments/vecadd.c exec/executor.h "against the stages' direction"
plant src/report/table.c analysis/crossapi.h "analysis's public API"

exit $failed
