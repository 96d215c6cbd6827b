# Sourced by peers.sh: how each peer is built and run.  Expects babelstream,
# gpubenches, clpeak, mixbench, simtbench and out; defines build_all and
# run_all.  Every build's log is OUTDIR/build-NAME.log, every run's output
# OUTDIR/run-NAME.txt, and each one's exit status OUTDIR/status-NAME.

jobs=${SB_PEERS_JOBS:-$(nproc)}
growth=${SB_LATENCY_GROWTH:-1.2}
# SB_PEERS_WORK keeps the builds for a later call (peers.sh --build-only,
# then the runs): a call finds a peer built there and builds it no more,
# and waits while another call is still building there.
if [ -n "${SB_PEERS_WORK:-}" ]; then
    work=$SB_PEERS_WORK
    mkdir -p "$work"
    while [ -e "$work/.building" ]; do sleep 2; done
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi
nvcc=$(command -v nvcc)
cuda=$(dirname "$(dirname "$(readlink -f "$nvcc")")")
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
arch=${SB_CUDA_ARCH:-sm_${cap:-90}}

# Nothing may be fetched: no proxy that answers, CMake's fetches off, git
# limited to local files.  A build that wants the network fails instead.
export http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9 ALL_PROXY=http://127.0.0.1:9
export HTTP_PROXY=$http_proxy HTTPS_PROXY=$https_proxy GIT_ALLOW_PROTOCOL=file
cmake_offline=(-DFETCHCONTENT_FULLY_DISCONNECTED=ON -DCMAKE_BUILD_TYPE=Release)

# Where the toolkit keeps CUPTI, NVML's header and its link stub: the
# peers' Makefiles and CMake files look in one place; this finds them.
first_dir_of() { # NAME DIR...: the folder of the first NAME found under the DIRs
    find "$@" -name "$1" -print -quit 2>/dev/null | xargs -r dirname
}
cupti_inc=$(first_dir_of cupti.h "$cuda/extras/CUPTI/include" "$cuda/include" "$cuda/targets")
cupti_lib=$(first_dir_of libcupti.so "$cuda/extras/CUPTI/lib64" "$cuda/lib64" "$cuda/targets")
nvml_stub=$(first_dir_of libnvidia-ml.so "$cuda/lib64/stubs" "$cuda/targets")
export CPATH=${cupti_inc:+$cupti_inc:}$cuda/include${CPATH:+:$CPATH}
export LIBRARY_PATH=${nvml_stub:+$nvml_stub:}${cupti_lib:+$cupti_lib:}$cuda/lib64${LIBRARY_PATH:+:$LIBRARY_PATH}
export LD_LIBRARY_PATH=${cupti_lib:+$cupti_lib:}${LD_LIBRARY_PATH:-}
ocl_root=${SB_SYSROOT:+$SB_SYSROOT/usr}
ocl_inc=${ocl_root:-/usr}/include
ocl_lib=$(ls "${ocl_root:-/usr}"/lib/x86_64-linux-gnu/libOpenCL.so* "${ocl_root:-/usr}"/lib*/libOpenCL.so* 2>/dev/null | head -1)

# ---- builds ----------------------------------------------------------------
build_babelstream() { # MODEL: BabelStream's CMake build of one model
    local b="$work/babelstream-$1" extra=()
    if [ "$1" = cuda ]; then
        extra=(-DCMAKE_CUDA_COMPILER="$nvcc" -DCUDA_ARCH="$arch")
    else
        # Its OpenCL model fetches Khronos' headers: the sysroot's instead.
        extra=(-DFETCHCONTENT_SOURCE_DIR_OPENCL_HEADER="$ocl_inc" -DOpenCL_LIBRARY="$ocl_lib")
    fi
    cmake -S "$babelstream" -B "$b" -DMODEL="$1" "${cmake_offline[@]}" "${extra[@]}" &&
        cmake --build "$b" -j"$jobs"
}

# One gpu-benches Makefile for this GPU: its flags with -arch=sm_70 made
# this GPU's, CUPTI's folders where this toolkit has them.
build_gpu_benches_one() { # DIR NAME LIBS [INCLUDES]: make in DIR, binary cuda-NAME
    sed "s/-arch=sm_[0-9]*/-arch=$arch/" "$1/Makefile" >"$work/Makefile.$2"
    make -C "$1" -f "$work/Makefile.$2" PREFIX="$work/gpu-benches" NAME="$2" \
        INCLUDES="${4:-${cupti_inc:+-I$cupti_inc}} -I$cuda/include" \
        LDFLAGS="-L$cuda/lib64 ${cupti_lib:+-L$cupti_lib} ${nvml_stub:+-L$nvml_stub} $3" \
        "$work/gpu-benches/cuda-$2"
}

# gpu-l2-cache and gpu-cache initialise gpu-benches' CUPTI metrics and
# print none of them (the calls are commented out in their main.cu): where
# this toolkit's CUPTI does not build them, again with the header's guard
# set and an empty initialiser in its place (the table says so).
build_gpu_benches_metrics() { # DIR NAME
    build_gpu_benches_one "$1" "$2" "$metrics_libs" && return 0
    echo "== $2 again without gpu-benches' CUPTI metrics"
    # nvcc pre-includes it in more than one pass: guarded.
    printf '#ifndef SB_NO_METRICS\n#define SB_NO_METRICS\nstatic inline void initMeasureMetric() {}\n#endif\n' \
        >"$work/no-metrics.h"
    build_gpu_benches_one "$1" "$2" "-lcuda -lnvidia-ml" \
        "-DGPU_MEASURE_METRICS_H_ -include $work/no-metrics.h" &&
        touch "$out/note-$2-no-metrics"
}
metrics_libs="-lcupti -lcuda -lnvidia-ml -lnvperf_host -lnvperf_target"

# gpu-latency's size loop, thinned in a copy of main.cu; the headers it
# includes from its parent folder stay the tree's.  With a variant, the
# diagnostics: "1warp" launches its chase with 32 threads, not 64 (one warp
# on the chain), "global" loads each link with __ldca (ld.global.ca, as
# simtbench's chase does) in place of its generic load; both stop at 128
# MiB (DRAM's first points), the full copy at SB_LATENCY_TOP_LOG2 (22:
# 2^22 links of 64 bytes, its last point 376 MiB).
build_gpu_latency() { # [VARIANT]
    local v=${1:-} src="$work/gb-src/gpu-latency${1:+-$1}" top=${SB_LATENCY_TOP_LOG2:-22}
    local edits=() want=("LEN \* $growth + 32" "(int64_t)200000")
    [ -n "$v" ] && top=21
    want+=("LEN < (1 << $top)")
    case $v in
    1warp) edits=(-e 's/<<<1, 64>>>/<<<1, 32>>>/g'); want+=("<<<1, 32>>>") ;;
    global) edits=(-e 's/idx = (int64_t \*)\*idx;/idx = (int64_t *)__ldca((const long long *)idx);/')
        want+=("__ldca") ;;
    esac
    mkdir -p "$src" "$work/gpu-benches"
    for f in "$gpubenches"/*.hpp "$gpubenches"/*.h "$gpubenches"/*.cuh; do
        ln -sf "$f" "$work/gb-src/"
    done
    cp "$gpubenches/gpu-latency/Makefile" "$src/"
    sed -e "s/LEN = LEN \* 1\.04 + 32/LEN = LEN * $growth + 32/" \
        -e "s/LEN < (1 << 24)/LEN < (1 << $top)/" \
        -e 's/max(LEN, (int64_t)1000000)/max(LEN, (int64_t)200000)/' "${edits[@]}" \
        "$gpubenches/gpu-latency/main.cu" >"$src/main.cu"
    for w in "${want[@]}"; do
        grep -q "$w" "$src/main.cu" ||
            { echo "gpu-latency's source is not the one this script edits ($w)"; return 1; }
    done
    build_gpu_benches_one "$src" "latency${v:+-$v}" "-lcublas -lnvidia-ml"
}

build_clpeak() {
    [ -f "$ocl_inc/CL/opencl.hpp" ] && [ -n "$ocl_lib" ] ||
        { echo "clpeak needs CL/opencl.hpp and libOpenCL (SB_SYSROOT with opencl-clhpp-headers" \
              "and ocl-icd-opencl-dev); without them its CMake would download an SDK"; return 1; }
    local off=()
    for b in VULKAN CUDA ROCM METAL ONEAPI CPU GUI; do off+=(-DCLPEAK_ENABLE_$b=OFF); done
    cmake -S "$clpeak" -B "$work/clpeak" "${cmake_offline[@]}" "${off[@]}" \
        -DOpenCL_INCLUDE_DIR="$ocl_inc" -DOpenCL_LIBRARY="$ocl_lib" &&
        cmake --build "$work/clpeak" -j"$jobs"
}

build_mixbench() {
    cmake -S "$mixbench/mixbench-cuda" -B "$work/mixbench" "${cmake_offline[@]}" \
        -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES="${arch#sm_}" &&
        cmake --build "$work/mixbench" -j"$jobs"
}

build_one() { # NAME COMMAND...: the build into its log, its status into status-build-NAME
    local name=$1
    shift
    if [ -f "$work/status-build-$name" ]; then
        cp "$work/status-build-$name" "$work/build-$name.log" "$out/" 2>/dev/null
        return
    fi
    "$@" >"$out/build-$name.log" 2>&1
    echo $? >"$out/status-build-$name"
    cp "$out/status-build-$name" "$out/build-$name.log" "$work/"
}

# Every peer's build at once, each with its share of the cores.
build_all() {
    local t0=$SECONDS
    echo "== building the peers (logs: $out/build-*.log)"
    mkdir -p "$work/gpu-benches"
    touch "$work/.building"
    build_one babelstream-cuda build_babelstream cuda &
    build_one babelstream-ocl build_babelstream ocl &
    build_one gpu-latency build_gpu_latency &
    build_one gpu-latency-1warp build_gpu_latency 1warp &
    build_one gpu-latency-global build_gpu_latency global &
    build_one gpu-l2-cache build_gpu_benches_metrics "$gpubenches/gpu-l2-cache" l2-cache &
    build_one gpu-cache build_gpu_benches_metrics "$gpubenches/gpu-cache" cache &
    build_one clpeak build_clpeak &
    build_one mixbench build_mixbench &
    wait
    rm -f "$work/.building"
    for f in "$out"/status-build-*; do
        [ "$(cat "$f")" = 0 ] || echo "   ${f##*/status-build-} did not build (status $(cat "$f")):" \
            "$(tail -3 "$out/build-${f##*/status-build-}.log" | tr '\n' ' ')"
    done
    echo "   builds: $((SECONDS - t0)) s"
}

# ---- runs, one at a time ---------------------------------------------------
run_one() { # NAME SECONDS COMMAND...: output into run-NAME.txt, status into status-NAME
    local name=$1 limit=$2 t0=$SECONDS
    shift 2
    timeout "$limit" "$@" >"$out/run-$name.txt" 2>&1
    local st=$?
    # A sweep stopped by its time limit keeps what it printed: not a failure.
    case " ${SB_PEERS_STOPPED_OK:-gpu-l2-cache gpu-cache} " in
    *" $name "*) [ $st = 124 ] && st=0 ;;
    esac
    echo $st >"$out/status-$name"
    echo "   $name: status $st, $((SECONDS - t0)) s"
}

built() { [ "$(cat "$out/status-build-$1" 2>/dev/null)" = 0 ]; }

run_babelstream() {
    local cu="$work/babelstream-cuda/cuda-stream" cl="$work/babelstream-ocl/ocl-stream"
    if built babelstream-cuda; then
        run_one babelstream-cuda-double 60 "$cu" --csv
        run_one babelstream-cuda-float 60 "$cu" --csv --float
        run_one babelstream-cuda-double-1g 90 "$cu" --csv -s 134217728
        run_one babelstream-cuda-float-1g 90 "$cu" --csv --float -s 268435456
        # Its Copy alone (--only Copy: each launch after another copy, as
        # simtbench's host-timed launches are), and in floats at half and
        # twice the default size, both ways: what its order (Copy after
        # Dot's read-only pass) is worth as the arrays outgrow the L2.
        run_one babelstream-cuda-double-only 60 "$cu" --csv --only Copy
        run_one babelstream-cuda-float-only 60 "$cu" --csv --float --only Copy
        run_one babelstream-cuda-double-1g-only 90 "$cu" --csv -s 134217728 --only Copy
        run_one babelstream-cuda-float-1g-only 90 "$cu" --csv --float -s 268435456 --only Copy
        local n
        for n in 16777216 67108864; do
            run_one babelstream-cuda-float-n$n 60 "$cu" --csv --float -s $n
            run_one babelstream-cuda-float-n$n-only 60 "$cu" --csv --float -s $n --only Copy
        done
    fi
    if built babelstream-ocl; then
        "$cl" --list >"$out/run-babelstream-ocl-list.txt" 2>&1
        local dev
        dev=$(grep -iE '^ *[0-9]+:.*(nvidia|h[0-9]00|gpu)' "$out/run-babelstream-ocl-list.txt" |
            head -1 | sed 's/^ *\([0-9]*\):.*/\1/')
        run_one babelstream-ocl-double 60 "$cl" --csv --device "${dev:-0}"
        run_one babelstream-ocl-float 60 "$cl" --csv --float --device "${dev:-0}"
    fi
}

# The launch family at BabelStream's 100 times (its first, like
# simtbench's first host-timed launch, not counted), so that both fastest
# host-timed launches are of as many; each experiment a run of its own, so
# that no host work of the next one (its inputs, made ahead on every core)
# shares the host's clock with this one's launches.
run_simtbench() {
    local x
    for x in launch_small launch_large; do
        run_one simtbench-$x 150 "$simtbench" --backend cuda,opencl --quiet --reps 100 \
            --dump-ptx "$out/ptx" --experiment $x --save "$out/simtbench-$x.json"
    done
    run_one simtbench-compute 120 "$simtbench" --backend cuda,opencl --quiet \
        --experiment compute --save "$out/simtbench-compute.json"
    run_one simtbench-memory 300 "$simtbench" --backend cuda --quiet --dump-ptx "$out/ptx" \
        --experiment latency,dram_read_set --save "$out/simtbench-memory.json"
}

# The chase's instructions, ours from the PTX we ran and gpu-benches' from
# its binary: what a step costs besides the load; and BabelStream's copy
# kernels' PTX from its binary, to hold against the launch family's.
ptx_of_chases() {
    local ours theirs v
    ours=$(ls "$out"/ptx/latency.ws16K.cuda.ptx 2>/dev/null | head -1)
    [ -n "$ours" ] && cp "$ours" "$out/chase-simtbench.ptx"
    [ -x "$work/babelstream-cuda/cuda-stream" ] && command -v cuobjdump >/dev/null &&
        cuobjdump -ptx "$work/babelstream-cuda/cuda-stream" >"$out/copy-babelstream.ptx" 2>/dev/null
    for v in "" -1warp -global; do
        theirs="$work/gpu-benches/cuda-latency$v"
        [ -x "$theirs" ] && command -v cuobjdump >/dev/null &&
            cuobjdump -ptx "$theirs" >"$out/chase-gpu-latency$v.ptx" 2>/dev/null
    done
    return 0
}

run_all() {
    local t0=$SECONDS
    echo "== running, one at a time"
    run_simtbench
    run_babelstream
    built gpu-latency && run_one gpu-latency 150 "$work/gpu-benches/cuda-latency"
    built gpu-latency-1warp && run_one gpu-latency-1warp 90 "$work/gpu-benches/cuda-latency-1warp"
    built gpu-latency-global && run_one gpu-latency-global 90 "$work/gpu-benches/cuda-latency-global"
    built gpu-l2-cache && run_one gpu-l2-cache "${SB_L2_SECONDS:-30}" "$work/gpu-benches/cuda-l2-cache"
    built gpu-cache && run_one gpu-cache "${SB_CACHE_SECONDS:-20}" "$work/gpu-benches/cuda-cache"
    built clpeak && run_one clpeak 120 "$work/clpeak/clpeak" --opencl \
        --single-precision-compute --global-memory-bandwidth
    built mixbench && run_one mixbench 90 "$work/mixbench/mixbench-cuda"
    ptx_of_chases
    echo "   runs: $((SECONDS - t0)) s"
}
