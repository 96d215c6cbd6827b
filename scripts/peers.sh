#!/bin/bash
# simtbench beside the benchmarks a GPU engineer trusts, on the same GPU in
# the same call (issue 27):
#
#   scripts/peers.sh [--babelstream DIR] [--gpu-benches DIR] [--clpeak DIR]
#                    [--mixbench DIR] [--build-only] SIMTBENCH OUTDIR
#
# Each peer is built from the source tree given (or SB_PEER_BABELSTREAM,
# SB_PEER_GPU_BENCHES, SB_PEER_CLPEAK, SB_PEER_MIXBENCH), where it lies,
# into a build folder of its own under a temporary directory; nothing is
# downloaded (every build runs with its fetches disconnected and no proxy
# that answers).  A tree not given, or not shaped like its peer, fails
# before anything is built; a peer that does not build or run is a line in
# the table and fails the script at the end, the other rows still made.
#
# What runs, with its parameters (the table repeats them):
#   BabelStream 57637d5-era CUDA model (cmake MODEL=cuda): its defaults
#     (double, 2^25 elements, 100 times), --float, and 1 GiB a buffer
#     (-s 134217728 doubles, --float -s 268435456), each also with --only
#     Copy (its copy after copies, as simtbench's launches run), and floats
#     at 2^24 and 2^26 both ways; its OpenCL model, double and --float at
#     2^25; every run --csv, its figure the fastest time.
#   gpu-benches gpu-latency, from a copy of main.cu with its size loop
#     thinned (x SB_LATENCY_GROWTH, 1.2, a step, not 1.04; 200000 loads a
#     point, not 10^6; up to 2^SB_LATENCY_TOP_LOG2 (22) links of 64 bytes,
#     its last point 376 MiB, not 2^24), so that it takes a minute, not
#     several; two diagnostic copies to 2^21 links, one warp on the chain
#     (32 threads, not 64) and ld.global.ca loads (not generic ones), each
#     one thing changed; gpu-l2-cache and gpu-cache as they are, each
#     stopped after SB_L2_SECONDS (30) / SB_CACHE_SECONDS (20) (what they
#     printed by then is kept);
#     all of them built by their Makefiles for this GPU's architecture.
#   clpeak (OpenCL only): --single-precision-compute --global-memory-bandwidth.
#   mixbench-cuda: its one sweep.
#   simtbench: launch_small and launch_large on both APIs with --reps 100
#     (BabelStream's 100 times), each a run of its own; compute on both;
#     latency and dram_read_set on CUDA.
# The table (OUTDIR/peers.md, and printed): quantity | simtbench | peer |
# ratio | why they differ, made by scripts/peers-table.py from the outputs.
#
# --build-only builds the peers and stops (with SB_PEERS_WORK=DIR, the
# builds a later call runs, so that they can go on beside simtbench's).
#
# Environment: SB_SYSROOT as gpu-run.sh takes it (OpenCL headers and
# loader for BabelStream's and clpeak's OpenCL builds); SB_CUDA_ARCH (sm_90
# by default, else what nvidia-smi reports); SB_PEERS_JOBS.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage="usage: peers.sh [--babelstream DIR] [--gpu-benches DIR] [--clpeak DIR] [--mixbench DIR] [--build-only] SIMTBENCH OUTDIR"
babelstream=${SB_PEER_BABELSTREAM:-} gpubenches=${SB_PEER_GPU_BENCHES:-}
clpeak=${SB_PEER_CLPEAK:-} mixbench=${SB_PEER_MIXBENCH:-} build_only=0
while [ $# -gt 0 ]; do
    case $1 in
    --babelstream) babelstream=${2:-}; shift 2 ;;
    --gpu-benches) gpubenches=${2:-}; shift 2 ;;
    --clpeak) clpeak=${2:-}; shift 2 ;;
    --mixbench) mixbench=${2:-}; shift 2 ;;
    --build-only) build_only=1; shift ;;
    -h | --help) echo "$usage"; exit 0 ;;
    --*) echo "peers.sh: unknown option $1; $usage" >&2; exit 2 ;;
    *) break ;;
    esac
done
[ $# -eq 2 ] || { echo "peers.sh: $usage" >&2; exit 2; }
simtbench=$(readlink -f "$1")
mkdir -p "$2" && out=$(readlink -f "$2")

# ---- what must be there before anything is built --------------------------
missing=()
need_tree() { # NAME VARIABLE DIR FILE...: the tree given and shaped like NAME
    local name=$1 var=$2 dir=$3
    shift 3
    if [ -z "$dir" ]; then
        missing+=("$name: no source tree given (--${name,,} DIR or $var=DIR)")
        return
    fi
    for f in "$@"; do
        [ -f "$dir/$f" ] || { missing+=("$name: $dir has no $f: not a $name source tree"); return; }
    done
}
need_tree BabelStream SB_PEER_BABELSTREAM "$babelstream" CMakeLists.txt src/main.cpp \
    src/cuda/CUDAStream.cu src/ocl/OCLStream.cpp
need_tree gpu-benches SB_PEER_GPU_BENCHES "$gpubenches" MeasurementSeries.hpp \
    gpu-latency/main.cu gpu-latency/Makefile gpu-l2-cache/main.cu gpu-l2-cache/Makefile \
    gpu-cache/main.cu gpu-cache/Makefile
need_tree clpeak SB_PEER_CLPEAK "$clpeak" CMakeLists.txt src/opencl/cl_peak.cpp
need_tree mixbench SB_PEER_MIXBENCH "$mixbench" mixbench-cuda/CMakeLists.txt \
    mixbench-cuda/main-cuda.cpp
[ -x "$simtbench" ] || missing+=("simtbench: $1 is not an executable simtbench")
for tool in nvcc cmake make c++ python3; do
    command -v $tool >/dev/null || missing+=("$tool: not on PATH (the peers' builds need it)")
done
if [ ${#missing[@]} -gt 0 ]; then
    printf 'peers.sh: cannot run, missing:\n' >&2
    printf '  %s\n' "${missing[@]}" >&2
    exit 2
fi
[ "${gpubenches:0:1}" = / ] || gpubenches=$(readlink -f "$gpubenches")
babelstream=$(readlink -f "$babelstream") clpeak=$(readlink -f "$clpeak")
mixbench=$(readlink -f "$mixbench")

. "$here/peers-build.sh"

# ---- the machine, and what each peer is -------------------------------------
commit_of() { # DIR: the commit a tree was checked out at, as well as it says
    if [ -f "$1/.peer-commit" ]; then head -c 40 "$1/.peer-commit"
    elif git -C "$1" rev-parse HEAD 2>/dev/null; then :
    else echo unknown; fi
}
{
    echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "gpu=$(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null | head -1)"
    echo "simtbench=$("$simtbench" --version 2>/dev/null | head -1)"
    echo "babelstream=$(commit_of "$babelstream")"
    echo "gpu_benches=$(commit_of "$gpubenches")"
    echo "clpeak=$(commit_of "$clpeak")"
    echo "mixbench=$(commit_of "$mixbench")"
    echo "cuda_arch=$arch"
    echo "latency_growth=$growth"
    echo "latency_top_log2=${SB_LATENCY_TOP_LOG2:-22}"
} >"$out/peers.env"

build_all
[ $build_only = 1 ] && exit 0
run_all
python3 "$here/peers-table.py" "$out" | tee "$out/peers.txt"
status=$?
[ -s "$out/peers.md" ] || status=1
for f in "$out"/status-*; do
    [ "$(cat "$f")" = 0 ] || { echo "peers.sh: ${f##*/status-}: status $(cat "$f")" >&2; status=1; }
done
exit $status
