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
echo "1..8"

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
# The same alone (--only Copy), slower than after Dot's read-only pass.
sed 's/^Copy,100,33554432,8,3845000,0.00013962,/Copy,100,33554432,8,3700000,0.00014509,/' \
    "$o/run-babelstream-cuda-double.txt" >"$o/run-babelstream-cuda-double-only.txt"
# The copies' PTX: ours as --dump-ptx names it, BabelStream's from its
# binary (cuobjdump -ptx), each entry's body as ptxas prints it.
mkdir -p "$o/ptx"
printf '.visible .entry stream_copy(\n)\n{\n\t.reg .b64 %%rd<4>;\n\tld.global.u64 \t%%rd1, [%%rd2];\n\tst.global.u64 \t[%%rd3], %%rd1;\n\tret;\n}\n' \
    >"$o/ptx/launch_small.copy.cuda.ptx"
printf '.visible .entry _Z15for_each_kernelIZN10CUDAStreamIdE4copyEvEUlmE_EvmmT_(\n)\n{\n\tld.global.f64 \t%%fd1, [%%rd2];\n\tadd.s64 \t%%rd3, %%rd3, 8;\n\tst.global.f64 \t[%%rd3], %%fd1;\n\tret;\n}\n' \
    >"$o/copy-babelstream.ptx"
# gpu-latency: iters clock kB ms cycles (its main.cu's cout), shaped like
# its H200 curve: the far L2 from 38 to 56 MiB, then one point 1.18x above
# it on the way to DRAM (a step under 1.25x: only a run's span ends it).
gl() { printf '%9d %5d %8d %8.1f %7.1f\n' 200000 1980 "$1" 1.0 "$2"; }
{ for kb in 16 32 64 128; do gl $kb 34.5; done; gl 256 90
  for kb in 512 2048 8192 16384 24576 28672; do gl $kb 283; done
  gl 33792 398; gl 38912 496; gl 46694 514; gl 57344 519.5
  gl 68855 614.9; gl 82628 656.1; gl 99155 660.8; gl 131072 660.6; gl 262144 662.0; } \
    >"$o/run-gpu-latency.txt"
# clpeak's text logger
printf '      Single-precision compute (GFLOPS)\n        float    : 60000.10\n        float4   : 64500.40\n\n' \
    >"$o/run-clpeak.txt"
# mixbench-cuda's CSV rows
printf '            0,      0.000,    0.30,    0.00,3580.00,   0.000,    0.30,   0.00,3500.00\n      256,     64.000,    1.10,58200.00, 909.40,  32.000, 2.2, 29000.00, 906.00\n' \
    >"$o/run-mixbench.txt"
# simtbench's JSON: the copy row and a chase sweep at 1980 MHz
python3 - "$o" <<'EOF'
import json, sys
# The chase shaped like simtbench's H200 curve (run 30, ns): its far L2
# from 36 to 56 MiB, then 64 MiB on the way to DRAM.
ws = [16384 << i for i in range(11)] + [m << 20 for m in (24, 28, 32, 36, 40, 44, 48, 56, 64, 128,
                                                         256, 512, 1024, 2048, 4096)]
ns = [16.7, 16.9, 17.4, 18.4, 82.2, 142.2, 142.1, 142.1, 142.2, 142.1, 142.1, 142.1, 146.3, 225.8,
      255.1, 258.8, 258.9, 258.9, 260.9, 315.5, 332.6, 332.5, 335.0, 336.7, 337.2, 337.5]
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
# 2 x 8 x 2^25 bytes over 0.14509 ms, and 3845 / 3700.
check "the table: BabelStream's Copy alone beside ours, and what its default order is worth, measured" \
    'row "copy GB/s, 2^25 doubles, cuda (BabelStream cuda-double --only Copy)" |
         grep -q "| 3808 GB/s | 3700 GB/s | 1.029 | .*its Copy alone, each launch after a copy" &&
     row "copy GB/s, 2^25 doubles, cuda (BabelStream cuda-double)" |
         grep -q "alone (--only Copy) it gives 3700 GB/s: its order is worth 1.039x" &&
     row "copy GB/s, 2^25 doubles, cuda (BabelStream cuda-double)" |
         grep -q "PTX of the copies: simtbench 3 instructions (1 global loads, 1 stores), BabelStream.s 4 (1, 1)"'
# Ours: 16.9 ns x 1.98 at 16-64 KiB; far 258.9 ns over 40-56 MiB (their
# far run from 38 MiB), theirs 496, 514, 519.5; DRAM over their 67.2-256
# MiB: ours 128 and 256 MiB (332.6, 332.5 ns), theirs 614.9..662.0.
check "the table: every level of the gpu-latency curve, the far L2 included, over the sizes both cover" \
    'row "L1 latency, cycles (gpu-latency)" | grep -q "| 33.5 cycles | 34.5 cycles |" &&
     row "L2 near latency, cycles (gpu-latency)" | grep -q "| 281.4 cycles | 283.0 cycles |" &&
     row "L2 far latency, cycles (gpu-latency)" | grep -q "| 512.6 cycles | 514.0 cycles |" &&
     row "L2 far latency, cycles (gpu-latency)" | grep -q "plateaus: simtbench 36 MiB-56 MiB, gpu-latency 38 MiB-56 MiB; both over 38 MiB-56 MiB" &&
     row "DRAM latency, cycles (gpu-latency)" | grep -q "| 658.4 cycles | 660.6 cycles |" &&
     row "DRAM latency, cycles (gpu-latency)" | grep -q "simtbench 64 MiB-4 GiB, gpu-latency 67.2 MiB-256 MiB"'
check "the table: the best clpeak vector width and mixbench point; a peer not run says so" \
    'row "FP32 FMA peak, GFLOP/s, cuda (clpeak, OpenCL)" | grep -q "| - | 64500 GFLOP/s | - |" &&
     row "FP32 peak, GFLOP/s, cuda (mixbench-cuda)" | grep -q "| 58200 GFLOP/s |" &&
     row "L2 read bandwidth plateau, GB/s (gpu-l2-cache)" | grep -q "gpu-l2-cache did not run"'
