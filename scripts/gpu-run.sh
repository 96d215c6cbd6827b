#!/bin/bash
# Build, test and benchmark simtbench on a machine with an NVIDIA GPU, in
# one command, from a `make dist` tarball:
#
#   scripts/gpu-run.sh simtbench-X.Y.Z.tar.gz OUTDIR
#
# 1. configure --with-cuda --with-opencl, build;
# 2. make check: the CUDA and NVIDIA-OpenCL tests run (check.log says which
#    tests skipped and why);
# 3. the default suite on both APIs, side by side, with both APIs' PTX;
#    JSON, Markdown and plots re-rendered from the saved JSON;
# 4. the transpose family with every tuning candidate at 8192^2, and the
#    roofs, references and best shapes at 16384^2;
# 5. the SASS of padded_32x32 from both APIs' PTX (ptxas + cuobjdump);
# 6. with SB_NCU=1, Nsight Compute's sector and wavefront counters for the
#    access experiments, the judge of the model (clocks left alone), one
#    row per kernel launch (ncu's raw page);
# 7. compute-sanitizer's memcheck, racecheck, synccheck and initcheck over
#    every default variant of every family through CUDA, each family at a
#    size where its kernels take every path and racecheck finishes (the
#    shared families at one block, the matrix multiply at 72x40, the
#    histogram and sums at 4097 inputs; racecheck takes the
#    shared-memory-heavy families a variant a process); any error,
#    or a run that does not finish, fails the script;
# 8. --counters (CUPTI) over every family: every variant at its default
#    size, the shared families at one block a multiprocessor, and sizes
#    drawn at random from a printed seed (SB_COUNTERS_SEED; odd sides,
#    rectangles, sizes below one block) besides 33x31, 100x70, 1x1 and
#    1000x777: a row passes where the model's totals match the counts
#    within 2% or every figure that differs names a measured reason; any
#    other row fails the script (SB_COUNTERS_NOT_HELD: families reported,
#    not held); the summary counts the rows each named reason names;
#    SB_COUNTERS_PARTS splits the step over calls (default, default:E,F,
#    default-except:E,F, wave, sizes, sizes:K/N) and SB_COUNTERS_DEADLINE keeps it inside one;
#    with SB_NCU=1 also Nsight Compute on a sample at 1000x777, whose
#    counts must equal CUPTI's.  scripts/h200-calls/ runs every step in
#    calls of under 9 minutes.
# 9. peers (only when SB_STEPS names it): scripts/peers.sh, BabelStream,
#    gpu-benches, clpeak and mixbench built from the trees SB_PEER_* name
#    and run beside simtbench, one table of both (OUTDIR/peers/peers.md).
# SB_STEPS picks the steps after the build (default: "check suite tune sass
# ncu sanitize counters"; ncu only with SB_NCU=1), so that a device lease can split
# them over calls.  Everything lands in OUTDIR; OUTDIR/results/ holds what
# belongs in the repository's results/<gpu>/ (the suite's JSON, the
# 16384^2 transpose JSON, the ncu CSV); bundle.tar.gz holds all of it.
#
# Environment: SB_SYSROOT=DIR, a folder with Debian's opencl-c-headers, libclblast,
# libjansson and libcmocka unpacked (dpkg -x) for machines that lack them;
# SB_SUITE_ARGS adds options to the suite run.  The NVIDIA OpenCL ICD must
# be registered in /etc/OpenCL/vendors; with PoCL present too, the OpenCL
# backend picks the GPU by device type, not by platform number.
set -uo pipefail
usage="usage: gpu-run.sh TARBALL OUTDIR"
tarball=$(readlink -f "${1:?$usage}")
mkdir -p "${2:?$usage}" && out=$(readlink -f "$2")
jobs=$(nproc)
: >"$out/summary.txt"
say() { echo "== $*" | tee -a "$out/summary.txt"; }
keep() { tee -a "$out/summary.txt"; }

if [ -n "${SB_SYSROOT:-}" ]; then
    lib=$SB_SYSROOT/usr/lib/x86_64-linux-gnu
    export PKG_CONFIG_PATH=$lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$SB_SYSROOT
    export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export CPPFLAGS="-I$SB_SYSROOT/usr/include ${CPPFLAGS:-}" LDFLAGS="-L$lib ${LDFLAGS:-}"
fi

work=$(mktemp -d)
tar -xzf "$tarball" -C "$work" || { say "cannot unpack $tarball"; exit 1; }
cd "$work"/simtbench-* || exit 1

say "machine"
{ date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem \
      --format=csv,noheader 2>&1
  nvcc --version 2>/dev/null | tail -1; } | keep

say "configure and build"
./configure --with-cuda --with-opencl >"$out/configure.log" 2>&1 ||
    { tail -30 "$out/configure.log"; exit 1; }
sed -n '/^simtbench /,$p' "$out/configure.log" | keep
make -j"$jobs" >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }

steps=${SB_STEPS:-check suite tune sass ncu sanitize counters}
want() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }
mkdir -p "$out/results"
check_status=0 suite_status=0 tune_status=0 sanitize_status=0 counters_status=0 peers_status=0

if want check; then
say "make check"
t0=$(date +%s)
timeout "${SB_CHECK_TIMEOUT:-300}" make -j"$jobs" check >"$out/check.log" 2>&1
check_status=$?
grep -E "^(FAIL|ERROR|SKIP|XPASS):|^# (TOTAL|PASS|SKIP|FAIL|ERROR)" "$out/check.log" | keep
echo "make check: status $check_status, $(( $(date +%s) - t0 )) s" | keep
fi
./simtbench --list >"$out/list.txt" 2>&1

if want suite; then
say "default suite, both APIs"
t0=$(date +%s%N)
# shellcheck disable=SC2086
SIMTBENCH_TIMINGS=1 timeout "${SB_SUITE_TIMEOUT:-180}" ./simtbench --backend cuda,opencl --quiet --dump-ptx "$out/ptx" \
    --save "$out/suite.json" ${SB_SUITE_ARGS:-} >"$out/suite.txt" 2>"$out/suite.err"
suite_status=$?
echo "suite: status $suite_status, $(( ($(date +%s%N) - t0) / 1000000 )) ms wall, builds included" | keep
keep <"$out/suite.err"
# Timed again as a user's second run meets it: every cache warm (the
# NVRTC cache, NVIDIA's OpenCL cache), nothing saved.
t0=$(date +%s%N)
SIMTBENCH_TIMINGS=1 timeout "${SB_SUITE_TIMEOUT:-180}" ./simtbench --backend cuda,opencl --quiet \
    >/dev/null 2>"$out/suite-warm.err"
echo "suite again, caches warm: status $?, $(( ($(date +%s%N) - t0) / 1000000 )) ms wall" | keep
keep <"$out/suite-warm.err"
./simtbench report "$out/suite.json" --format markdown >"$out/suite.md" 2>>"$out/summary.txt"
./simtbench report "$out/suite.json" --format html >"$out/suite.html" 2>>"$out/summary.txt"
./simtbench report "$out/suite.json" --plot "$out/plots" >/dev/null 2>>"$out/summary.txt"
cp "$out/suite.json" "$out/results/suite.json"
fi

if want tune; then
say "transpose tuning, both APIs"
# Every candidate at 8192^2; at 16384^2 (1 GiB a matrix, seconds of host
# checking per variant) the roofs, the references and the best shapes.
big=${SB_TUNE_BIG_VARIANTS:-memcpy,copy,copy_vec4,vendor,padded,coarsened,tuned,vec64x64,vec64x64_cm,vec64x128_t512_cm,vec128x64_t512_cm}
for n in 8192 16384; do
    variants=all
    [ $n = 16384 ] && variants=$big
    timeout "${SB_TUNE_TIMEOUT:-90}" ./simtbench --backend cuda,opencl --quiet \
        --experiment transpose --variant "$variants" --size $n --dump-ptx "$out/ptx-$n" \
        --save "$out/transpose-$n.json" >"$out/transpose-$n.txt" 2>>"$out/summary.txt" ||
        tune_status=1
    ./simtbench report "$out/transpose-$n.json" --format markdown >"$out/transpose-$n.md" \
        2>>"$out/summary.txt"
done
cp "$out/transpose-16384.json" "$out/results/transpose-16384.json" 2>/dev/null
fi

# Where two APIs' times differ although their PTX memory instructions
# agree, the machine code says why: both PTX files of the seed's padded
# 32 x 32 transpose through ptxas, and the SASS side by side.
if want sass && command -v ptxas >/dev/null && command -v cuobjdump >/dev/null; then
    say "SASS of padded_32x32, both APIs"
    for api in cuda opencl; do
        ptx="$out/ptx-8192/transpose.padded_32x32.$api.ptx"
        [ -f "$ptx" ] || continue
        ptxas -arch=sm_90 "$ptx" -o "$work/padded_32x32.$api.cubin" &&
            cuobjdump -sass -fun transpose_tiled "$work/padded_32x32.$api.cubin" |
            grep -E '^ +/\*[0-9a-f]{4}\*/' >"$out/sass-padded_32x32.$api.txt"
        echo "$api: $(grep -vc 'NOP' "$out/sass-padded_32x32.$api.txt") SASS instructions" \
            "(not counting NOPs), $(grep -c 'c\[0x0\]\[0x4[04]\]' \
            "$out/sass-padded_32x32.$api.txt") reads of the work-group offset" | keep
    done
fi

if want ncu && [ "${SB_NCU:-0}" = 1 ] && command -v ncu >/dev/null; then
    say "Nsight Compute counters (--clock-control none)"
    timeout "${SB_NCU_TIMEOUT:-120}" ncu --clock-control none --csv --page raw --metrics \
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum \
        ./simtbench --backend cuda --quiet --reps 1 --warmup 0 --size 256 \
        --experiment "${SB_NCU_EXPERIMENTS:-transpose,global,shared}" --save "$out/ncu-run.json" \
        >"$out/ncu.csv" 2>"$out/ncu.err" || echo "ncu: status $?" | keep
    # The CSV alone (ncu's own lines and the program's report go elsewhere).
    grep '^"' "$out/ncu.csv" >"$out/results/ncu.csv"
    echo "ncu: $(($(wc -l <"$out/results/ncu.csv") - 2)) kernel launches profiled" | keep
fi

# compute-sanitizer over every default variant of every family (CUDA: the
# tool does not follow NVIDIA's OpenCL), one tool at a time, processes side
# by side, at most one a core: the tool instruments every module a run
# loads, and racecheck, which follows every shared access, takes minutes
# over a family's modules at a GPU size.  So each family runs at a size
# where every kernel still takes all its paths (the shared families at one
# block of threads, the matrix multiply at sizes no tile divides, the
# histogram and the sums at 4097 inputs: 16 full blocks, one of a single
# input, a coarsened block that ends inside), and racecheck takes the
# families with many shared-memory variants (the histogram's 41 among
# them) one variant a process.  Any error, or a run that does not finish, fails the
# script.
sanitize_size() { # EXPERIMENT: the size it is sanitized at
    case $1 in
    shared_*) echo "${SB_SANITIZE_SHARED_SIZE:-1x256}" ;;
    matmul) echo "${SB_SANITIZE_MATMUL_SIZE:-72x40}" ;;
    histogram | sum) echo "${SB_SANITIZE_PRIV_SIZE:-4097x1}" ;;
    *) echo "${SB_SANITIZE_SIZE:-256}" ;;
    esac
}
sanitize_one() { # TOOL EXPERIMENT SIZE [VARIANT]: the run's status; its output in a file
    local name=$2${4:+.$4}
    timeout "${SB_SANITIZE_TIMEOUT:-150}" compute-sanitizer --tool "$1" --error-exitcode 99 \
        --print-limit 20 ./simtbench --backend cuda --quiet --reps 1 --warmup 0 --size "$3" \
        --experiment "$2" ${4:+--variant "$4"} >"$out/sanitize-$1-$name.txt" 2>&1
}
default_variants() { # EXPERIMENT SIZE: its default variants, one a line (a plain run's rows)
    ./simtbench --backend cuda --quiet --reps 1 --warmup 0 --size "$2" --experiment "$1" \
        -f json 2>/dev/null | sed -n 's/.*"experiment": "'"$1"'", [^}]*"variant": "\([^"]*\)".*/\1/p' |
        sort -u
}
# The catalogue's experiments, less the pattern family's, whose rows come
# from --index options (scripts/pattern-h200.sh runs them): a run of one
# without them is refused, and in a group of twelve it took the group's
# other families with it (RESULTS.md run 36).
listed_experiments() {
    ./simtbench --list | awk '/^Backends/{exit} /^  [a-z_]+ +[a-z]+ /{print $1}' | grep -v '^pattern_'
}
if want sanitize && command -v compute-sanitizer >/dev/null; then
    say "compute-sanitizer, every default variant through CUDA"
    experiments=$(listed_experiments)
    split=" ${SB_SANITIZE_SPLIT:-matmul shared_broadcast shared_stride shared_tile histogram} "
    for tool in ${SB_SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck}; do
        t0=$(date +%s)
        rm -f "$out"/sanitize-"$tool"-*.txt
        running=0 failed=0 runs=0
        for e in $experiments; do
            size=$(sanitize_size "$e")
            variants=""
            if [ "$tool" = racecheck ] && [ "${split#* "$e" }" != "$split" ]; then
                variants=$(default_variants "$e" "$size")
            fi
            for v in ${variants:-""}; do
                if [ "$running" -ge "$jobs" ]; then
                    wait -n || failed=$((failed + 1))
                    running=$((running - 1))
                fi
                sanitize_one "$tool" "$e" "$size" "$v" &
                running=$((running + 1)) runs=$((runs + 1))
            done
        done
        while [ "$running" -gt 0 ]; do
            wait -n || failed=$((failed + 1))
            running=$((running - 1))
        done
        # memcheck, synccheck, initcheck: "ERROR SUMMARY: N errors";
        # racecheck: "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)".
        errors=$(cat "$out"/sanitize-"$tool"-*.txt |
            sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p; s/.*SUMMARY: [0-9]* hazards displayed (\([0-9]*\) errors.*/\1/p' |
            awk '{ n += $1; k++ } END { print (k ? n : "?") }')
        echo "compute-sanitizer $tool: ${errors} errors over $runs runs, $failed runs failed," \
            "$(( $(date +%s) - t0 )) s" | keep
        [ "$failed" = 0 ] && [ "$errors" = 0 ] || sanitize_status=1
    done
fi

# The counters step: --counters (CUPTI) over every family, at each one's
# default size and at sizes drawn at random from a printed seed (odd
# sides, rectangles, sizes below one block), and the shared families at
# one block of 256 threads a multiprocessor, where no block's accesses
# meet another's.  A row passes where its counts match the model's
# totals within 2%, or where every figure that differs names a measured
# reason (the JSON's named_reason: arbitration, for shared wavefronts past
# one block a multiprocessor, RESULTS.md runs 26-28).  Any other row, a
# kernel row with no counts, a wrong result or a run that fails, fails the
# script; the families in SB_COUNTERS_NOT_HELD (none by default: every
# family is held) are reported, not held.
# SB_COUNTERS_DEADLINE: seconds into the step after which no further run
# starts (each one that does not is named, and fails the step), so that
# a call's own limit never cuts the summary.
counters_run() { # NAME EXPERIMENT SIZE VARIANTS REPS: one --counters run, saved as NAME
    if [ -n "${SB_COUNTERS_DEADLINE:-}" ] &&
        [ $(( $(date +%s) - t0 )) -ge "$SB_COUNTERS_DEADLINE" ]; then
        echo "counters: $1 not run: past SB_COUNTERS_DEADLINE=$SB_COUNTERS_DEADLINE s" | keep
        return 3
    fi
    echo "== $1" >>"$out/counters.err"
    SIMTBENCH_TIMINGS=1 timeout "${SB_COUNTERS_TIMEOUT:-480}" ./simtbench --backend cuda \
        --counters --quiet --experiment "$2" ${4:+--variant "$4"} ${3:+--size "$3"} \
        --reps "$5" --warmup 0 --save "$out/counters/$1.json" >"$out/counters/$1.txt" \
        2>>"$out/counters.err"
}
# A row a line: "held|not-held STATUS EXPERIMENT/VARIANT ROWSxCOLS WHY", STATUS
# one of matches, named (every difference has a named reason; WHY the
# reasons, joined by +), differs (WHY the first unnamed difference),
# uncounted (a kernel row without counts) or wrong (not verified).
counters_rows() {
    local not_held=" ${SB_COUNTERS_NOT_HELD-} "
    cat "$out"/counters/*.json | awk -v not_held="$not_held" '
        /"experiment": "/ && /"variant": "/ {
            e = $0; sub(/.*"experiment": "/, "", e); sub(/".*/, "", e)
            v = $0; sub(/.*"variant": "/, "", v); sub(/".*/, "", v)
            k = $0; sub(/.*"kernel": "/, "", k); sub(/".*/, "", k)
            r = $0; sub(/.*"rows": /, "", r); sub(/,.*/, "", r)
            c = $0; sub(/.*"cols": /, "", c); sub(/,.*/, "", c)
            held = index(not_held, " " e " ") ? "not-held" : "held"
            why = ""
            if ($0 ~ /"verified": false/) status = "wrong"
            else if ($0 ~ /"counter_check": \{"verdict": "matches"/) status = "matches"
            else if ($0 ~ /"counter_check": \{"verdict": "differs"/) {
                # The figures, one a piece: the first that differs with no
                # named reason says why the row fails.
                status = "named"
                n = split($0, fig, /\{"figure": "/)
                for (i = 2; i <= n && status == "named"; i++)
                    if (fig[i] ~ /"verdict": "differs"/ && fig[i] !~ /"named_reason"/) {
                        status = "differs"
                        why = fig[i]; sub(/".*"reason": "/, ": ", why); sub(/".*/, "", why)
                    } else if (fig[i] ~ /"named_reason"/) {
                        nr = fig[i]; sub(/.*"named_reason": "/, "", nr); sub(/".*/, "", nr)
                        if (index("+" why "+", "+" nr "+") == 0)
                            why = why (why == "" ? "" : "+") nr
                    }
            } else if (k != "" && $0 ~ /"counters": null/) status = "uncounted"
            else next
            print held, status, e "/" v, r "x" c, why
        }'
}
# Each named reason of the held rows in ROWS (counters_rows' lines), and
# how many rows it names (a row may name several, for different figures).
counters_reasons() { # ROWS
    awk '$1 == "held" && $2 == "named" { n = split($5, r, "+"); for (i = 1; i <= n; i++) c[r[i]]++ }
         END { for (x in c) printf "  named reason %s: %d rows\n", x, c[x] }' "$1" | sort
}
# N sizes from the seed: odd sides, rectangles both ways, below one block
# (fewer than 32 x 32 elements or threads) and any, in turn; at most 4M
# elements, so that each host check stays short.
random_sizes() { # SEED N
    RANDOM=$1
    local i r c
    for ((i = 0; i < $2; i++)); do
        case $((i % 4)) in
        0) r=$((2 * (RANDOM % 1024) + 1)) c=$((2 * (RANDOM % 1024) + 1)) ;;
        1) r=$((RANDOM % 4000 + 1)) c=$((RANDOM % 63 + 1))
           [ $((RANDOM % 2)) = 0 ] && { local t=$r; r=$c; c=$t; } ;;
        2) r=$((RANDOM % 31 + 1)) c=$((RANDOM % 31 + 1)) ;;
        *) r=$((RANDOM % 2048 + 1)) c=$((RANDOM % 2048 + 1)) ;;
        esac
        echo "${r}x${c}"
    done
}
# Slice K of N of the sizes, one a line: the K-th run of ceil(count / N)
# in the list's order (which mixes the kinds random_sizes draws); the N
# slices together are the list, each size once.
sizes_slice() { # K N SIZE...
    local k=$1 m=$2
    shift 2
    printf '%s\n' "$@" | awk -v k="$k" -v m="$m" '{ s[NR] = $0 } END {
        w = int((NR + m - 1) / m)
        for (i = (k - 1) * w + 1; i <= k * w && i <= NR; i++) print s[i] }'
}
# The sizes part over the sizes given: the edge families with every
# variant, the others with their default ones; the sweeps over working
# sets refuse sizes under 8192 words (32 KiB), so they run only from
# there; the rest go by twelve (a run takes 16 names).  The exit status of
# the last run that failed.
counters_sizes() { # SIZE...
    local edges=transpose,matmul,global_walk
    local floored=latency,dram_burst,dram_channels,dram_working_set,dram_read_set
    local rest s i group status=0
    rest=$(echo "$experiments" | grep -vxE "${edges//,/|}|${floored//,/|}" |
        paste -d, - - - - - - - - - - - - | sed 's/,*$//')
    for s in "$@"; do
        rm -f "$out/counters/sizes-$s"-*
        counters_run "sizes-$s-edges" "$edges" "$s" all 1 || status=$?
        i=0
        for group in $rest; do
            i=$((i + 1))
            counters_run "sizes-$s-rest$i" "$group" "$s" "" 1 || status=$?
        done
        if [ $(( ${s%x*} * ${s#*x} )) -ge 8192 ]; then
            counters_run "sizes-$s-floored" "$floored" "$s" "" 1 || status=$?
        fi
    done
    return $status
}
if want counters; then
    say "hardware counters against the model (--counters, CUPTI)"
    t0=$(date +%s)
    mkdir -p "$out/counters"
    experiments=$(listed_experiments)
    units=$(./simtbench --list 2>/dev/null | grep -o '[0-9]* compute units' | head -1 | cut -d' ' -f1)
    wave=$((${units:-132} * 256))
    # The parts (SB_COUNTERS_PARTS, so that a device lease can split them
    # over calls; a part run again replaces its rows, and every row in
    # OUTDIR/counters is judged, those of earlier calls too):
    #   default        every variant of every family at its default size
    #   default:E,F    the same for the experiments named
    #   default-except:E,F  for every experiment but those (so that a
    #                  call plan covers a family added since)
    #   wave           the shared families at one block a multiprocessor
    #   sizes          a few fixed awkward sizes and SB_COUNTERS_RANDOM
    #                  drawn from the seed, the transposes, the matrix
    #                  multiply and the walks (whose edges are the model's
    #                  hardest part) with every variant, the other
    #                  families with their default ones
    #   sizes:K/N      the K-th of N slices of those sizes (the whole list
    #                  and the seed printed each time)
    # One run a family at its default size (one that fails or is cut
    # leaves the others' rows), one variant's counts one profiled launch
    # (a launch a CUPTI pass), one repetition timed: the step judges
    # counts, and the suite step the times.
    parts=${SB_COUNTERS_PARTS:-default wave sizes}
    seed=${SB_COUNTERS_SEED:-$(date +%s)}
    sizes="${SB_COUNTERS_FIXED_SIZES-33x31 100x70 1x1 1000x777}"
    sizes="$sizes $(random_sizes "$seed" "${SB_COUNTERS_RANDOM:-20}" | paste -sd' ')"
    st=0
    for part in $parts; do
        tp=$(date +%s)
        case $part in
        default | default:* | default-except:*)
            chosen=$experiments
            case $part in
            default:*) chosen=$(echo "${part#default:}" | tr ',' '\n') ;;
            default-except:*)
                chosen=$(echo "$experiments" | grep -vxF "$(echo "${part#*:}" | tr ',' '\n')") ;;
            esac
            for e in $chosen; do
                rm -f "$out/counters/default-$e".*
                counters_run "default-$e" "$e" "" "${SB_COUNTERS_VARIANTS:-all}" 1 || st=$?
            done ;;
        wave)
            rm -f "$out/counters/wave-shared".*
            counters_run "wave-shared" "shared_stride,shared_broadcast,shared_tile" "${wave}x1" \
                "${SB_COUNTERS_VARIANTS:-all}" 1 || st=$? ;;
        sizes | sizes:*/*)
            echo "counters: sizes (the random ones from SB_COUNTERS_SEED=$seed): $sizes" | keep
            slice=$sizes
            if [ "$part" != sizes ]; then
                k=${part#sizes:} k=${k%/*}
                # shellcheck disable=SC2086
                slice=$(sizes_slice "$k" "${part#*/}" $sizes)
                echo "counters: $part: $(echo "$slice" | paste -sd' ')" | keep
            fi
            counters_sizes $slice || st=$? ;;
        *) echo "counters: no part '$part' (default, default:E,F, default-except:E,F, wave," \
               "sizes, sizes:K/N)" | keep
           st=2 ;;
        esac
        echo "counters: part $part: $(( $(date +%s) - tp )) s" | keep
    done
    # With SB_NCU=1, a sample of variants at an odd size, held like the
    # others, that Nsight Compute counts again below.
    ncu_sample=${SB_NCU_VARIANTS:-global_stride/w4-s2-load global_perm/w4-random1-spread-load \
transpose/padded transpose/vec64x64_cm transpose/tiled matmul/tiled32}
    ncu_size=${SB_NCU_SIZE:-1000x777}
    ncu=0
    [ "${SB_NCU:-0}" = 1 ] && command -v ncu >/dev/null && ncu=1
    rm -f "$out"/counters/ncu-*
    if [ "$ncu" = 1 ]; then
        for ev in $ncu_sample; do
            # Past the deadline too: Nsight Compute's check needs them.
            SB_COUNTERS_DEADLINE='' counters_run "ncu-${ev%%/*}-${ev#*/}" "${ev%%/*}" \
                "$ncu_size" "${ev#*/}" 1 || st=$?
        done
    fi
    counters_rows >"$out/counters-rows.txt"
    for what in matches named differs uncounted wrong; do
        echo "  $what: $(grep -c "^held $what " "$out/counters-rows.txt") rows held," \
            "$(grep -c "^not-held $what " "$out/counters-rows.txt") not held"
    done | keep
    counters_reasons "$out/counters-rows.txt" | keep
    grep -E '^held (differs|uncounted|wrong) ' "$out/counters-rows.txt" | head -50 | keep
    bad=$(grep -cE '^held (differs|uncounted|wrong) ' "$out/counters-rows.txt")
    matched=$(grep -c '^held matches ' "$out/counters-rows.txt")
    echo "counters: status $st, $bad held rows neither match nor name a reason," \
        "$(( $(date +%s) - t0 )) s; every row in counters-rows.txt" | keep
    [ "$st" = 0 ] && [ "$bad" = 0 ] && [ "$matched" -gt 0 ] || counters_status=1
    if [ "$ncu" = 1 ]; then
        say "Nsight Compute against CUPTI"
        ncu_check="$(dirname "$0")/ncu-vs-counters.sh"
        cat "$out"/counters/ncu-*.json >"$out/counters-ncu.json"
        # shellcheck disable=SC2086
        "$ncu_check" ./simtbench "$out/counters-ncu.json" "$ncu_size" $ncu_sample \
            >"$out/ncu-vs-counters.txt" 2>&1 || counters_status=1
        tail -1 "$out/ncu-vs-counters.txt" | keep
        if [ -f "$out/counters/wave-shared.json" ]; then
            # shellcheck disable=SC2086
            "$ncu_check" ./simtbench "$out/counters/wave-shared.json" "${wave}x1" \
                ${SB_NCU_SHARED_VARIANTS:-shared_stride/w8-s2-load shared_tile/32x32-column-load \
                shared_tile/32x32-column-store} >>"$out/ncu-vs-counters.txt" 2>&1 ||
                counters_status=1
            tail -1 "$out/ncu-vs-counters.txt" | keep
        fi
    fi
fi

if want peers; then
    say "beside the peers (scripts/peers.sh)"
    ./scripts/peers.sh ./simtbench "$out/peers" 2>&1 | keep
    peers_status=${PIPESTATUS[0]}
    cp "$out/peers/peers.md" "$out/results/peers.md" 2>/dev/null
fi

(cd "$out" && tar -czf bundle.tar.gz --exclude=bundle.tar.gz ./*)
say "done"
exit $(( check_status != 0 || suite_status != 0 || tune_status != 0 || sanitize_status != 0 ||
         counters_status != 0 || peers_status != 0 ))
