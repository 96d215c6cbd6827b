#!/bin/sh
# The architecture, checked: what DESIGN.md draws must stay true as the code
# grows.  TAP output; run by `make check` after the build (it reads the
# object files for the link-level check).
#
# 1. No include cycle among the frontend's files.
# 2. No cycle among the frontend's object files through the symbols one
#    defines and another uses (report.c -> table.c -> report.c was one).
# 3. No CUDA or OpenCL header outside cuda/ and opencl/.
# 4. No backend named in frontend code outside the registry: the literals
#    "cuda" and "opencl" (help text and messages may mention them inside
#    longer strings).
# 5. No report writer includes the CLI's headers.
# 6. No function over 80 lines (between its braces) in the program.
# 7. The lesson engine and the plot renderer name no experiment of the
#    catalogue: what a family teaches and plots is in its own file
#    (experiments/offers.h).
set -u
src=${SB_TOP_SRCDIR:-${srcdir:-.}}
build=${SB_TOP_BUILDDIR:-.}
n=0
failed=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

check() {
    n=$((n + 1))
    if [ -s "$tmp/why" ]; then
        echo "not ok $n - $1"
        sed 's/^/# /' "$tmp/why"
        failed=1
    else
        echo "ok $n - $1"
    fi
    : >"$tmp/why"
}
: >"$tmp/why"
echo "1..7"

frontend=$(cd "$src" && find src -name '*.[ch]' | sort)

# 1. Edges "includer included" for tsort, with paths relative to src/ (the
#    way frontend files include each other) or to common/.
for f in $frontend; do
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$src/$f" |
        while read -r inc; do
            if [ -f "$src/src/$inc" ]; then echo "$f src/$inc"
            elif [ -f "$src/common/$inc" ]; then echo "$f common/$inc"; fi
        done
done >"$tmp/includes"
tsort "$tmp/includes" >/dev/null 2>"$tmp/why" || true
sed -i "s|$tmp/||" "$tmp/why"
check "no include cycle among src/ files"

# 2. The same through symbols: object A uses a symbol object B defines.
objs=$(cd "$build" && find src -path '*/.libs/*.o' 2>/dev/null | sort)
[ -n "$objs" ] || objs=$(cd "$build" && find src -name '*.o' 2>/dev/null | sort)
if [ -z "$objs" ]; then
    echo "no object files under $build/src: build first" >"$tmp/why"
else
    for o in $objs; do
        nm -g --defined-only "$build/$o" | awk -v o="$o" 'NF == 3 { print $3, o }'
    done | sort >"$tmp/defs"
    for o in $objs; do
        nm -u "$build/$o" | awk -v o="$o" '{ print $NF, o }'
    done | sort >"$tmp/uses"
    join "$tmp/uses" "$tmp/defs" | awk '$2 != $3 { print $2, $3 }' |
        sed 's|/\.libs/|/|g' | sort -u >"$tmp/links"
    tsort "$tmp/links" >/dev/null 2>"$tmp/why" || true
    sed -i "s|$tmp/||" "$tmp/why"
fi
check "no cycle among src/ objects through the symbols they share"

# 3. Vendor headers stay in their backend's folder.
(cd "$src" && grep -nE '#[[:space:]]*include[[:space:]]*[<"](cuda|cudaTypedefs|nvrtc|cublas|cublas_v2|cupti[a-z_]*|nvml|CL/[a-z_.]+|OpenCL/[a-z_.]+|clblast[a-z_]*)(\.h)?[>"]' \
    $(find src common -name '*.[ch]' | sort) tests/*.h) >"$tmp/why" 2>/dev/null || true
check "no CUDA or OpenCL header outside cuda/ and opencl/"

# 4. Backends are named by the registry alone.
(cd "$src" && grep -nE '"(cuda|opencl)"' $(echo "$frontend" | grep -v '^src/exec/registry\.[ch]$')) \
    >"$tmp/why" || true
check "no backend named in frontend code outside the registry"

# 5. Writers format; they do not reach into the command line.
(cd "$src" && grep -nE '#[[:space:]]*include[[:space:]]*"cli/' $(find src/report -name '*.[ch]')) \
    >"$tmp/why" || true
check "no report writer includes a CLI header"

# 6. Function length: from a line "{" in column 0 to the next "}" in
#    column 0, the way the project's style writes every function.
for f in $(cd "$src" && find src common cuda opencl -name '*.c' | sort); do
    awk -v f="$f" '
        /^\{/ { start = NR; name = prev }
        /^\}/ && start { if (NR - start - 1 > 80) printf "%s:%d: %s: %d lines\n", f, start, name, NR - start - 1; start = 0 }
        { prev = $0 }' "$src/$f"
done >"$tmp/why"
check "no function over 80 lines"

# 7. Every experiment in the catalogue's list, as a string literal, in the
#    lessons and plot files.  (Family names are not all distinct from the
#    renderer's own words: "launch" is a kind of plot, drawn for any rows
#    the host timed.)
names=$(cd "$src" && sed -n 's/^ *X(\([a-z_0-9]*\)).*/\1/p' src/experiments/catalogue.c | sort -u)
generic=$(cd "$src" && ls src/analysis/lessons*.[ch] src/report/plot*.[ch])
for name in $names; do
    # shellcheck disable=SC2086
    (cd "$src" && grep -n "\"$name\"" $generic) | sed "s/\$/  ($name)/"
done >"$tmp/why"
[ -n "$names" ] || echo "no experiment names found in src/experiments/catalogue.c" >"$tmp/why"
check "the lesson engine and the plot renderer name no experiment"

exit $failed
