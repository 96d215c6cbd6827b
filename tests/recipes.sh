#!/bin/sh
# README.md's two recipes, followed to the letter from outside the source
# tree: a family is its own files (NAME.c with its variants, model, lesson
# rules and plot offers, and its kernel NAME.cl) plus one line X(NAME) in
# the catalogue's list and its two names in Makefile.am, four files in
# all; a format is one writer file plus one row in the writer table (and
# the writer's name in the declaration above it).  The test copies
# catalogue.c, writers.c and Makefile.am into a scratch folder, makes
# exactly those edits, compiles the copies with
# tests/fixtures/recipes/fixture.c and fixture_format.c using the build's
# compiler and flags, links them before the build's own objects into a
# scratch simtbench, and runs it with its kernel beside the program's
# (SIMTBENCH_KERNEL_PATH): the new experiment is listed and runs verified
# on OpenCL, the new format writes it, `report` renders a saved run in it,
# and the family's lesson and plot are in the table, Markdown, HTML and
# --plot output.  TAP output.
#
# Needs the build's objects (src/main.o, .libs/libsimtbench.a) and the
# SB_CC, SB_CPPFLAGS, SB_CFLAGS, SB_LDFLAGS, SB_LIBS that make check passes
# (Makefile.am's AM_TESTS_ENVIRONMENT); skips without them, and skips the
# runs without an OpenCL device.  SB_RECIPES_KEEP=1 keeps the scratch folder.
#
# shellcheck disable=SC2016,SC2034,SC2317
# (check's conditions are single-quoted and reach the variables and
# functions through eval)
set -u
src=${SB_TOP_SRCDIR:-${srcdir:-.}}
build=${SB_TOP_BUILDDIR:-.}
n=0
tmp=$(mktemp -d) || exit 1
[ -n "${SB_RECIPES_KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; sed 's/^/# /' "$tmp/err" 2>/dev/null; fi; }
lines() { wc -l <"$1" | tr -d ' '; }

main_o=$build/src/main.o
archive=$build/.libs/libsimtbench.a
for f in "$main_o" "$archive" "$src/src/experiments/catalogue.c" "$src/src/report/writers.c"; do
    if [ ! -f "$f" ]; then
        echo "1..0 # SKIP $f is missing: build first"
        exit 0
    fi
done
if [ -z "${SB_CC:-}" ]; then
    echo "1..0 # SKIP SB_CC is not set: run through make check"
    exit 0
fi
echo "1..16"

# 1. The experiment recipe: one line X(fixture) in the catalogue's list.
awk '{ print } /^#define SB_EXPERIMENTS\(X\)/ { print "    X(fixture) \\" }' \
    "$src/src/experiments/catalogue.c" >"$tmp/catalogue.c"
diff "$src/src/experiments/catalogue.c" "$tmp/catalogue.c" >"$tmp/catalogue.diff"
: >"$tmp/err"
check "catalogue.c: the recipe is exactly one added line, X(fixture)" \
    '[ "$(grep -c "^[<>]" "$tmp/catalogue.diff")" = 1 ] &&
     grep -q "^>  *X(fixture) \\\\$" "$tmp/catalogue.diff"'

# 1b. The build's source list: the family's file and its kernel, a line each.
awk '{ print }
     /^EXPERIMENT_SOURCES = \\$/ { print "\tsrc/experiments/fixture.c \\" }
     /^dist_kernels_DATA = \\$/ { print "\tcommon/kernels/fixture.cl \\" }' \
    "$src/Makefile.am" >"$tmp/Makefile.am"
diff "$src/Makefile.am" "$tmp/Makefile.am" >"$tmp/makefile.diff"
check "Makefile.am: the recipe is exactly two added lines, the source and the kernel" \
    '[ "$(grep -c "^[<>]" "$tmp/makefile.diff")" = 2 ] &&
     grep -q "^>.*src/experiments/fixture.c" "$tmp/makefile.diff" &&
     grep -q "^>.*common/kernels/fixture.cl" "$tmp/makefile.diff"'
fixture_files=0
for f in fixture.c fixture.cl; do
    [ -f "$src/tests/fixtures/recipes/$f" ] && fixture_files=$((fixture_files + 1))
done
edited=0
for d in catalogue makefile; do [ -s "$tmp/$d.diff" ] && edited=$((edited + 1)); done
check "the family is $fixture_files files of its own and $edited edited: at most 4 touched" \
    '[ "$fixture_files" = 2 ] && [ $((fixture_files + edited)) -le 4 ]'

# 2. The format recipe: one line X(fixture, NULL) at the end of the
#    writer table's list.
awk '/^    \/\* new formats go above this line \*\/$/ { print "    X(fixture, NULL) \\" }
     { print }' "$src/src/report/writers.c" >"$tmp/writers.c"
diff "$src/src/report/writers.c" "$tmp/writers.c" >"$tmp/writers.diff"
check "writers.c: the recipe is exactly one added line, X(fixture, NULL)" \
    '[ "$(grep -c "^[<>]" "$tmp/writers.diff")" = 1 ] &&
     grep -q "^>  *X(fixture, NULL) \\\\$" "$tmp/writers.diff"'

# 3. The four files, compiled as the build compiles the program's, then
#    linked ahead of the build's objects: the copies' catalogue.o and
#    writers.o define every symbol of the archive's, so the archive's are
#    never pulled.  Word splitting of the flags is on purpose.
compile() {
    # shellcheck disable=SC2086
    $SB_CC ${SB_CPPFLAGS:-} -I"$build" -I"$src/common" -I"$src/src" ${SB_CFLAGS:-} -c "$1" -o "$2" \
        2>>"$tmp/err"
}
: >"$tmp/err"
built=1
compile "$tmp/catalogue.c" "$tmp/catalogue.o" || built=0
compile "$tmp/writers.c" "$tmp/writers.o" || built=0
compile "$src/tests/fixtures/recipes/fixture.c" "$tmp/fixture.o" || built=0
compile "$src/tests/fixtures/recipes/fixture_format.c" "$tmp/fixture_format.o" || built=0
check "the two copies and the two fixture files compile without a warning" \
    '[ $built = 1 ] && [ ! -s "$tmp/err" ]'

: >"$tmp/err"
# shellcheck disable=SC2086
$SB_CC ${SB_CFLAGS:-} ${SB_LDFLAGS:-} -o "$tmp/simtbench" "$tmp/catalogue.o" "$tmp/writers.o" \
    "$tmp/fixture.o" "$tmp/fixture_format.o" "$main_o" "$archive" ${SB_LIBS:-} 2>"$tmp/err"
linked=$?
check "they link with src/main.o and the build's libsimtbench.a" \
    '[ $linked = 0 ] && [ -x "$tmp/simtbench" ] && [ ! -s "$tmp/err" ]'

SB=$tmp/simtbench
# The family's kernel beside the program's, where its Makefile.am line
# would install it.
mkdir "$tmp/kernels" && cp "$src"/common/kernels/* "$src/tests/fixtures/recipes/fixture.cl" \
    "$tmp/kernels/"
SIMTBENCH_KERNEL_PATH=$tmp/kernels
export SIMTBENCH_KERNEL_PATH
run() { "$SB" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }

# 4. The scratch program knows both.
run --list
cp "$tmp/out" "$tmp/list"
check "--list shows the fixture experiment" \
    '[ $rc -eq 0 ] && grep -q "^  fixture  *fixture  *the recipe test" "$tmp/out"'
run --format nosuch --experiment fixture
check "--format's message names the fixture format, from the table" \
    '[ $rc -eq 2 ] && grep -Eq "(, | or )fixture[, ]" "$tmp/err"'

if ! grep -q "^  opencl   available" "$tmp/list"; then
    for t in 1 2 3 4 5 6 7 8; do skip "no OpenCL device"; done
    exit 0
fi

# 5. A run of the new experiment in the new format: every variant verified,
#    one fixture line each and nothing else.
run --backend opencl --experiment fixture --size 512x512 --reps 9 --warmup 1 --format fixture \
    --quiet --save "$tmp/run.json"
cp "$tmp/out" "$tmp/run.out"
line='^fixture-format: fixture (one-per-thread|four-per-thread) opencl [0-9]+\.[0-9]+ GB/s verified$'
check "--experiment fixture --format fixture: exit 0, both variants verified" \
    '[ $rc -eq 0 ] && [ "$(lines "$tmp/out")" = 2 ] && [ "$(grep -Ec "$line" "$tmp/out")" = 2 ] &&
     grep -q " one-per-thread " "$tmp/out" && grep -q " four-per-thread " "$tmp/out"'
check "the saved run holds both variants" \
    '[ -s "$tmp/run.json" ] && grep -q "\"variant\": \"one-per-thread\"" "$tmp/run.json" &&
     grep -q "\"variant\": \"four-per-thread\"" "$tmp/run.json"'

# 6. report renders the saved run in the new format: the same lines (a
#    saved run keeps its figures).
run report "$tmp/run.json" --format fixture
check "report RUN.json --format fixture: the run's lines again, as they were" \
    '[ $rc -eq 0 ] && [ -s "$tmp/out" ] && cmp -s "$tmp/out" "$tmp/run.out"'

# 7. The family's lesson, drawn by its rule, in each writer that prints
#    lessons; and its plot, drawn from its offer.  A shared CPU's timing
#    noise would withhold the lesson (a noisy block teaches only that), so
#    the saved run's repetitions are each set to its median first: the
#    figures are the run's, their scatter is not what this test is about.
awk '/"samples_ms": \[/ && match($0, /"reps": [0-9]+/) {
         reps = substr($0, RSTART + 8, RLENGTH - 8)
         if (match($0, /"median": [0-9.eE+-]+/)) {
             m = substr($0, RSTART + 10, RLENGTH - 10); s = m
             for (i = 1; i < reps; i++) s = s ", " m
             sub(/"samples_ms": \[[^]]*\]/, "\"samples_ms\": [" s "]")
         }
     }
     { print }' "$tmp/run.json" >"$tmp/steady.json"
lesson='[Cc]opying four elements a thread instead of one'
for f in table markdown html; do
    run report "$tmp/steady.json" --format "$f"
    cp "$tmp/out" "$tmp/report.$f"
    check "report --format $f: the fixture's lesson" \
        '[ $rc -eq 0 ] && grep -q "$lesson" "$tmp/out"'
done
GNUPLOT='' "$SB" report "$tmp/steady.json" --plot "$tmp/plots" >"$tmp/out" 2>"$tmp/err"
rc=$?
gp=$tmp/plots/fixture-per-thread.gp
check "report --plot: the fixture's plot, both variants against k, the model dashed" \
    '[ $rc -eq 0 ] && [ -s "$gp" ] && grep -q "elements k each thread copies" "$gp" &&
     grep -q "model, " "$gp" && [ "$(grep -Ec "^[14] " "$tmp/plots/fixture-per-thread.dat")" = 2 ]'
if command -v gnuplot >/dev/null 2>&1; then
    check "report --format html with gnuplot: the fixture's plot among the charts" \
        'grep -q "elements k each thread copies" "$tmp/report.html" && grep -q "<svg" "$tmp/report.html"'
else
    skip "no gnuplot: the HTML has no charts"
fi
exit 0
