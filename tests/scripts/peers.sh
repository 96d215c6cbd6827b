#!/bin/bash
# scripts/peers.sh without a GPU: it names every peer tree missing or not
# shaped like its peer, and every tool missing, before it builds anything;
# nothing in it downloads; and its table reads the peers' outputs in the
# formats their sources print (fixtures below, copied from those formats),
# finding the same plateaus simtbench's rule finds.  TAP output.
set -u
top=${SB_TOP_SRCDIR:-.}
peers="$top/scripts/peers.sh"
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }
echo "1..7"

env -u SB_PEER_BABELSTREAM -u SB_PEER_GPU_BENCHES -u SB_PEER_CLPEAK -u SB_PEER_MIXBENCH \
    bash "$peers" /bin/true "$tmp/out" >"$tmp/stdout" 2>"$tmp/err"
rc=$?
check "no trees given: exit 2, each peer named with how to give it" \
    '[ $rc = 2 ] && grep -q "BabelStream: no source tree given (--babelstream DIR or SB_PEER_BABELSTREAM=DIR)" "$tmp/err" &&
     grep -q "gpu-benches: no source tree given" "$tmp/err" && grep -q "clpeak: no source tree" "$tmp/err" &&
     grep -q "mixbench: no source tree" "$tmp/err" && [ ! -e "$tmp/out/peers.md" ]'

# Trees shaped like their peers, but BabelStream's is empty.
mkdir -p "$tmp/bs" "$tmp/gb"/{gpu-latency,gpu-l2-cache,gpu-cache} "$tmp/cp/src/opencl" \
    "$tmp/mb/mixbench-cuda"
touch "$tmp/gb/MeasurementSeries.hpp" "$tmp/cp/CMakeLists.txt" "$tmp/cp/src/opencl/cl_peak.cpp" \
    "$tmp/mb/mixbench-cuda/CMakeLists.txt" "$tmp/mb/mixbench-cuda/main-cuda.cpp"
for d in gpu-latency gpu-l2-cache gpu-cache; do touch "$tmp/gb/$d/main.cu" "$tmp/gb/$d/Makefile"; done
bash "$peers" --babelstream "$tmp/bs" --gpu-benches "$tmp/gb" --clpeak "$tmp/cp" \
    --mixbench "$tmp/mb" /bin/true "$tmp/out" >"$tmp/stdout" 2>"$tmp/err"
rc=$?
check "a tree not shaped like its peer: exit 2, the file it lacks named" \
    '[ $rc = 2 ] && grep -q "BabelStream: $tmp/bs has no CMakeLists.txt: not a BabelStream source tree" "$tmp/err" &&
     ! grep -q "gpu-benches:" "$tmp/err" && ! grep -q "mixbench:" "$tmp/err"'

# No tool on PATH but bash's own: each missing tool named.
mkdir -p "$tmp/bin" "$tmp/bs/src/cuda" "$tmp/bs/src/ocl"
touch "$tmp/bs/CMakeLists.txt" "$tmp/bs/src/main.cpp" "$tmp/bs/src/cuda/CUDAStream.cu" \
    "$tmp/bs/src/ocl/OCLStream.cpp"
for t in dirname readlink mkdir; do ln -s "$(command -v $t)" "$tmp/bin/$t"; done
PATH=$tmp/bin "$(command -v bash)" "$peers" --babelstream "$tmp/bs" --gpu-benches "$tmp/gb" \
    --clpeak "$tmp/cp" --mixbench "$tmp/mb" /bin/true "$tmp/out" >"$tmp/stdout" 2>"$tmp/err"
rc=$?
check "tools missing: exit 2, each named" \
    '[ $rc = 2 ] && grep -q "nvcc: not on PATH" "$tmp/err" && grep -q "cmake: not on PATH" "$tmp/err" &&
     grep -q "python3: not on PATH" "$tmp/err"'

check "nothing in the peers' scripts downloads; every build runs disconnected" \
    '! grep -nE "curl|wget|git clone|git fetch|pip install|FetchContent_Populate" \
        "$top"/scripts/peers.sh "$top"/scripts/peers-build.sh "$top"/scripts/peers-table.py &&
     grep -q "FETCHCONTENT_FULLY_DISCONNECTED=ON" "$top/scripts/peers-build.sh" &&
     grep -q "http_proxy=http://127.0.0.1:9" "$top/scripts/peers-build.sh"'

# ---- the table from fixtures in the peers' own print formats ---------------
o=$tmp/fx
mkdir -p "$o"
printf 'date=2026-12-01T00:00:00Z\ngpu=NVIDIA H200, 580.159.04\nbabelstream=57637d57\n' >"$o/peers.env"
# BabelStream --csv (main.cpp's fmt_csv_header / fmt_csv)
cat >"$o/run-babelstream-cuda-double.txt" <<'EOF'
function,num_times,n_elements,sizeof,max_MBytes_per_sec,min_runtime,max_runtime,avg_runtime
Copy,100,33554432,8,3845000,0.00013962,0.00015,0.000142
Mul,100,33554432,8,3800000,0.00014,0.00015,0.000142
EOF
# gpu-latency: iters clock kB ms cycles (its main.cu's cout)
gl() { printf '%9d %5d %8d %8.1f %7.1f\n' 200000 1980 "$1" 1.0 "$2"; }
{ for kb in 16 32 64 128; do gl $kb 34.5; done; gl 256 90
  for kb in 512 2048 8192 16384 24576 28672; do gl $kb 283; done
  for kb in 33792 38912 44032; do gl $kb 481; done
  for kb in 65536 131072 262144; do gl $kb 690; done; } >"$o/run-gpu-latency.txt"
# clpeak's text logger
printf '      Single-precision compute (GFLOPS)\n        float    : 60000.10\n        float4   : 64500.40\n\n' \
    >"$o/run-clpeak.txt"
# mixbench-cuda's CSV rows
printf '            0,      0.000,    0.30,    0.00,3580.00,   0.000,    0.30,   0.00,3500.00\n      256,     64.000,    1.10,58200.00, 909.40,  32.000, 2.2, 29000.00, 906.00\n' \
    >"$o/run-mixbench.txt"
# simtbench's JSON: the copy row and a chase sweep at 1980 MHz
python3 - "$o" <<'EOF'
import json, sys
ws = [16384 << i for i in range(10)] + [m << 20 for m in (16, 24, 28, 32, 36, 40, 44, 48, 56, 64, 128)]
ns = [17.4] * 4 + [45, 143] + [144] * 4 + [145, 146, 147, 240, 243, 244, 246, 345, 348, 349, 350]
lat = [{"backend": "cuda", "device": 0, "experiment": "latency", "variant": "w%d" % i,
        "verified": True, "value": v, "figures": [{"name": "working_set", "value": w, "unit": "B"}]}
       for i, (w, v) in enumerate(zip(ws, ns))]
copy = {"backend": "cuda", "device": 0, "experiment": "launch_small", "variant": "copy",
        "verified": True, "value": 150.0, "rows": 33554432, "cols": 1, "grid": [32768, 1, 1],
        "block": [256, 1, 1], "bytes": 2.0 * 8 * 33554432, "time_ms": {"median": 0.1420},
        "host_observed_ms": {"min": 0.1410}, "figures": [{"name": "element_bytes", "value": 8, "unit": ""}]}
dev = [{"backend": "cuda", "clock_mhz": 1980}]
json.dump({"devices": dev, "results": [copy]}, open(sys.argv[1] + "/simtbench-launch.json", "w"))
json.dump({"devices": dev, "results": lat}, open(sys.argv[1] + "/simtbench-memory.json", "w"))
EOF
python3 "$top/scripts/peers-table.py" "$o" >"$tmp/table" 2>"$tmp/err"
rc=$?
row() { grep -F "| $1 |" "$tmp/table"; }
check "the table: BabelStream's copy from its CSV, 2 x sizeof x n over its fastest time, beside ours" \
    '[ $rc = 0 ] && cmp -s "$tmp/table" "$o/peers.md" &&
     row "copy GB/s, 2^25 doubles, cuda (BabelStream cuda-double)" | grep -q "| 3808 GB/s | 3845 GB/s | 0.990 |"'
check "the table: every level of the gpu-latency curve, the far L2 included, beside ours in cycles" \
    'row "L1 latency, cycles (gpu-latency)" | grep -q "| 34.5 cycles | 34.5 cycles |" &&
     row "L2 near latency, cycles (gpu-latency)" | grep -q "| 285.1 cycles | 283.0 cycles |" &&
     row "L2 far latency, cycles (gpu-latency)" | grep -q "| 482.1 cycles | 481.0 cycles |" &&
     row "L2 far latency, cycles (gpu-latency)" | grep -q "plateaus: simtbench 32 MiB-44 MiB, gpu-latency 33 MiB-43 MiB" &&
     row "DRAM latency, cycles (gpu-latency)" | grep -q "| 690.0 cycles | 690.0 cycles |"'
check "the table: the best clpeak vector width and mixbench point; a peer not run says so" \
    'row "FP32 FMA peak, GFLOP/s, cuda (clpeak, OpenCL)" | grep -q "| - | 64500 GFLOP/s | - |" &&
     row "FP32 peak, GFLOP/s, cuda (mixbench-cuda)" | grep -q "| 58200 GFLOP/s |" &&
     row "L2 read bandwidth plateau, GB/s (gpu-l2-cache)" | grep -q "gpu-l2-cache did not run"'
