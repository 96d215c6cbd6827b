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
# 7. Folder direction through includes: the stages run cli -> plan ->
#    exec -> analysis -> report; no stage includes a header of a later
#    stage or of cli/, and src/experiments/ and common/, below every
#    stage, include none.
# 8. Folder direction through symbols: the same rule, for every symbol an
#    object file uses from another.
# 9. Writers read analysis through its public API: a file of src/report/
#    includes from src/analysis/ only the headers analysis.h names
#    (PUBLIC_ANALYSIS below), and its object uses no symbol defined by
#    analysis's own objects (INTERNAL_ANALYSIS).
# 10. The lesson engine and the plot renderer name no experiment of the
#     catalogue: what a family teaches and plots is in its own file
#     (experiments/offers.h).
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
# SB_ARCH_SOURCES_ONLY=1 (tests/arch_plant.sh): the checks of the sources
# alone, the ones of the object files skipped.
skip_check() {
    n=$((n + 1))
    echo "ok $n # SKIP $1: sources only"
    : >"$tmp/why"
}
only_sources=${SB_ARCH_SOURCES_ONLY:-}
: >"$tmp/why"
echo "1..10"

frontend=$(cd "$src" && find src -name '*.[ch]' | sort)

# The analysis headers a writer may include (analysis.h says why), and
# the analysis objects whose symbols no writer uses.
PUBLIC_ANALYSIS='analysis compare compare_diff compare_match counter_check cross_pairs fleet lessons memory_levels noise summary verdict'
INTERNAL_ANALYSIS='analysis compare_diff compare_match crossapi drift merge'

# The edges of $1 ("from to" lines) that point against the stages:
# printed "from VERB to: stage F -> T".  A path's stage is its rank in
# the pipeline, "base" below every stage, or "-" outside them (main.c,
# the tools, the backends); cli may point anywhere.
against_direction() {
    awk -v verb="$2" '
        function stage(p) {
            if (p ~ /^(src\/)?cli\//) return 0
            if (p ~ /^(src\/)?plan\//) return 1
            if (p ~ /^(src\/)?exec\//) return 2
            if (p ~ /^(src\/)?analysis\//) return 3
            if (p ~ /^(src\/)?report\//) return 4
            if (p ~ /^(src\/)?experiments\// || p ~ /^common\//) return "base"
            return "-"
        }
        function against(f, t) {
            if (f == "-" || t == "-") return 0
            if (f == "base") return t != "base"
            if (t == "base" || f == 0) return 0
            return t == 0 || t + 0 > f + 0
        }
        { f = stage($1); t = stage($2)
          if (against(f, t)) printf "%s %s %s: stage %s -> %s\n", $1, verb, $2, f, t }' "$1"
}

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
# common/'s objects of the program (not the copies built into a backend);
# only objects of a source that exists (not one left from a moved file).
[ -z "$objs" ] || objs="$objs $(cd "$build" && find common -path '*/.libs/*.o' ! -name '*_la-*' 2>/dev/null | sort)"
kept=
for o in $objs; do
    c=$(echo "$o" | sed 's|/\.libs/|/|; s|\.o$|.c|')
    [ -f "$src/$c" ] && kept="$kept $o"
done
objs=$kept

if [ -n "$only_sources" ]; then
    :
elif [ -z "$objs" ]; then
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
if [ -n "$only_sources" ]; then skip_check "no cycle among src/ objects through the symbols they share"
else check "no cycle among src/ objects through the symbols they share"; fi

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

# 7. Every quoted include of a folder's header, from src/ or common/.
for f in $frontend $(cd "$src" && find common -maxdepth 1 -name '*.[ch]' | sort); do
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([a-z_]*\/[^"]*\)".*/\1/p' "$src/$f" |
        sed "s|^|$f |"
done >"$tmp/folder_includes"
against_direction "$tmp/folder_includes" includes >"$tmp/why"
check "no include against the stages' direction"

# 8. The symbol links of check 2, folder to folder.
if [ -n "$only_sources" ]; then
    skip_check "no symbol used against the stages' direction"
else
    if [ -s "$tmp/links" ]; then
        against_direction "$tmp/links" "uses a symbol of" >"$tmp/why"
    else
        echo "no symbol links read from the object files under $build: build first" >"$tmp/why"
    fi
    check "no symbol used against the stages' direction"
fi

# 9. The writers and analysis's public API.
for f in $(cd "$src" && find src/report -name '*.[ch]' | sort); do
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"analysis\/\([^"]*\)\.h".*/\1/p' "$src/$f" |
        while read -r h; do
            case " $PUBLIC_ANALYSIS " in
                *" $h "*) ;;
                *) echo "$f includes analysis/$h.h, analysis's own (public: $PUBLIC_ANALYSIS)" ;;
            esac
        done
done >"$tmp/why"
if [ -z "$only_sources" ] && [ -s "$tmp/links" ]; then
    while read -r user definer; do
        case $user in src/report/*) ;; *) continue ;; esac
        for i in $INTERNAL_ANALYSIS; do
            [ "$definer" = "src/analysis/$i.o" ] &&
                echo "$user uses a symbol of $definer, analysis's own"
        done
    done <"$tmp/links" >>"$tmp/why"
fi
check "writers use only analysis's public API"

# 10. Every experiment in the catalogue's list, as a string literal, in the
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
