#!/bin/sh
# The command line as a user meets it: exit statuses, one-line errors, and a
# real run on the OpenCL backend (PoCL in CI).  TAP output.
SB=${SIMTBENCH:-./simtbench}
n=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

# run ARGS...: stdout, stderr and status into $tmp/out, $tmp/err, $rc
run() { "$SB" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
lines() { wc -l <"$1" | tr -d ' '; }

echo "1..23"

run --help
check "--help exits 0 and documents exit status 3" \
    '[ $rc -eq 0 ] && grep -q "^  3  a requested backend" "$tmp/out"'

run --version
check "--version in the GNU style: name and version first, then copyright and license" \
    '[ $rc -eq 0 ] && sed -n 1p "$tmp/out" | grep -qx "simtbench [0-9][0-9.]*" &&
     sed -n 2p "$tmp/out" | grep -q "^Copyright (C) [0-9]* " && grep -q "^License MIT" "$tmp/out" &&
     grep -q "NO WARRANTY" "$tmp/out"'
# Each backend --version names as built has the line saying where its
# module is looked for, this build tree's folder last.
built=$(sed -n "s/^Backends built: //p" "$tmp/out" | tr -d ,)
check "--version says the backends built and where each module is looked for" \
    '[ -n "$built" ] && (for b in $built; do
         grep -q "^  simtbench_$b.so looked for in: .*/$b/.libs$" "$tmp/out" || exit 1; done) &&
     grep -q "CLBlast, cuBLAS, NVRTC" "$tmp/out" && grep -q "^gnuplot for plots: " "$tmp/out"'

run --frobnicate
check "unknown option: exit 2, one line on stderr, nothing on stdout" \
    '[ $rc -eq 2 ] && [ "$(lines "$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ]'

run --size 0
check "--size 0: exit 2 naming --size" '[ $rc -eq 2 ] && grep -q -- "--size" "$tmp/err"'

run --size 65536x65536
check "--size past 2^31 elements: exit 2" '[ $rc -eq 2 ]'

run --reps 0
check "--reps 0: exit 2" '[ $rc -eq 2 ] && [ "$(lines "$tmp/err")" = 1 ]'

run --experiment nosuch
check "unknown experiment: exit 2 naming it" '[ $rc -eq 2 ] && grep -q nosuch "$tmp/err"'

run --backend vulkan
check "unknown backend: exit 2" '[ $rc -eq 2 ] && grep -q vulkan "$tmp/err"'

run --experiment transpose --variant nosuch
check "unknown variant: exit 2" '[ $rc -eq 2 ] && grep -q nosuch "$tmp/err"'

run --list
check "--list shows experiments and both backends" \
    '[ $rc -eq 0 ] && grep -q "transpose" "$tmp/out" && grep -q "^  cuda" "$tmp/out" && grep -q "^  opencl" "$tmp/out"'
check "--list names the dram family's three experiments and the latency one, each saying its family" \
    '[ "$(grep -c "^  dram_[a-z_]*  *dram  .*" "$tmp/out")" = 3 ] &&
     grep -q "^  latency  *latency  .*pointer chase" "$tmp/out" &&
     [ "$(tr -s " \n" "  " <"$tmp/out" | grep -o "(family dram)" | wc -l)" = 3 ] &&
     [ "$(tr -s " \n" "  " <"$tmp/out" | grep -o "(family latency)" | wc -l)" = 1 ]'

if grep -q "^  cuda     unavailable" "$tmp/out"; then
    run --backend cuda --experiment transpose --size 64
    check "--backend cuda without a driver: exit 3, one line, nothing on stdout" \
        '[ $rc -eq 3 ] && [ "$(lines "$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ] && grep -q "cuda" "$tmp/err"'
else
    skip "a CUDA device is present, so the no-driver error cannot be shown"
fi

run model --stride 6
check "model: stride 6 is a 2-way conflict" '[ $rc -eq 0 ] && grep -q "2-way" "$tmp/out"'

run model --word 5
check "model: word 5 is refused with exit 2" '[ $rc -eq 2 ] && [ ! -s "$tmp/out" ]'

if grep -q "^  opencl   available" "$tmp/out" || "$SB" --list | grep -q "^  opencl   available"; then
    run --backend opencl --experiment transpose --size 512 --reps 3 --quiet
    all=1
    for v in memcpy copy copy_vec4 naive_read naive_write tiled_32x32 padded_32x32 tiled padded swizzled coarsened; do
        grep -q "^  $v " "$tmp/out" || all=0
    done
    check "opencl transpose 512: every variant printed, verified, exit 0" \
        '[ $rc -eq 0 ] && [ $all = 1 ] && grep -q "every row verified" "$tmp/out"'

    run --backend opencl --experiment transpose --size 33x31 --reps 2 --format json --quiet
    nv=$(grep -c '"variant":' "$tmp/out")
    check "JSON output has the schema and every default variant verified" \
        '[ $rc -eq 0 ] && grep -q "\"schema\": \"simtbench-result/1\"" "$tmp/out" && [ "$nv" -ge 11 ] && [ "$(grep -c "\"verified\": true" "$tmp/out")" = "$nv" ]'

    run --backend opencl --experiment transpose --size 64 --reps 2 --format csv --quiet
    check "CSV output: a header and one line per variant, then the summary's comments" \
        '[ $rc -eq 0 ] && [ "$(grep -vc "^#" "$tmp/out")" = $((nv + 1)) ] && grep -q "^# summary: roof" "$tmp/out"'

    run --backend opencl --experiment transpose --size 64 --reps 2 --quiet --output /nonexistent/dir/x
    check "unwritable --output: exit 5" '[ $rc -eq 5 ]'

    # Issue 6's acceptance, small: every row verified and the seed's
    # intensities printed with the GFLOP/s, on the line under each row.
    under() { awk -v v="$1" 'index($0, "  " v " ") == 1 { getline; print; exit }' "$tmp/out"; }
    run --backend opencl --experiment matmul,vecadd,occupancy --size 48 --reps 2 --quiet
    check "opencl matmul,vecadd,occupancy: verified, with 0.25, 8 and 12.8 FLOP/B" \
        '[ $rc -eq 0 ] && [ "$(grep -c "every row verified" "$tmp/out")" = 3 ] && under simple | grep -q "^      0.25 FLOP/B" && under tiled32 | grep -q "^      8 FLOP/B" && under coarse4 | grep -q "^      12.8 FLOP/B"'

    # Issue 17: --experiment dram runs the family, its figures in the CSV,
    # a note for the working sets past the size; the lessons of a saved
    # run read back are the run's.
    run --backend opencl --experiment dram --size 512x1024 --reps 2 --format csv
    check "opencl --experiment dram: its three experiments in the CSV with their size figures, a note for what the size leaves out" \
        '[ $rc -eq 0 ] && (for e in dram_burst dram_channels dram_working_set; do
         grep -q "^opencl,[^,]*,[^,]*,[^,]*,$e," "$tmp/out" || exit 1; done) &&
         grep -q ",chunk,1024,B," "$tmp/out" && grep -q ",distance,4096,B," "$tmp/out" &&
         grep -q ",working_set,4194304,B," "$tmp/out" &&
         grep -q "^simtbench: note: opencl: dram_working_set: [0-9]* variants left out at this size (ws8M .. ws8G)" "$tmp/err"'
    run --backend opencl --experiment latency,occupancy --size 256x256 --reps 3 --quiet --save "$tmp/mem.json"
    grep "Lesson:" -A3 "$tmp/out" >"$tmp/lessons.run"
    check "latency,occupancy: the latency in ns/load with its cycles, and Little's law's lesson under occupancy" \
        '[ $rc -eq 0 ] && grep -q "ns/load" "$tmp/out" && grep -q "cycles per load [0-9.]* cycles" "$tmp/out" &&
         grep -q "Lesson: Little.s law" "$tmp/out"'
    run report "$tmp/mem.json"
    # Unless the device drifted (noise.h): the drift check ends the session,
    # after the blocks were printed, and makes every row of the saved run
    # noisy, which the run's last lines say.
    check "the saved run read back gives the same lessons" \
        '[ $rc -eq 0 ] && { grep "Lesson:" -A3 "$tmp/out" | cmp -s - "$tmp/lessons.run" ||
         grep -q "every row of it is noisy" "$tmp/out"; }'
else
    for i in 1 2 3 4 5 6 7 8; do skip "no OpenCL device"; done
fi
exit 0
