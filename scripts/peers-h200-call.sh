#!/bin/bash
# One device call for issue 27: the GPU script's peers step on the H200,
# from the repository root of a checkout that holds
#
#   .carry/simtbench-*.tar.gz   `make dist` of the commit to measure
#   .carry/sysroot              the OpenCL headers and loader (gpu-run.sh's SB_SYSROOT)
#   .peers/{BabelStream,gpu-benches,clpeak,mixbench}   the peers' source trees
#
# and writes to $OUT (at most 8 files): peers.md (the table), summary.txt
# (gpu-run.sh's), run.log (its output and the peers' builds'), peers.tar.gz
# (every peer's and simtbench's raw output, the chases' PTX, the build
# logs).  The peers are built in the background while gpu-run.sh builds
# simtbench; the peers step's runs are the stated short ones of
# scripts/peers.sh (BabelStream's copies in both orders and three float
# sizes; gpu-latency to 376 MiB and two one-change copies to 116 MiB;
# gpu-l2-cache and gpu-cache stopped after 30 / 20 s; clpeak; mixbench;
# simtbench's launch family at 100 repetitions, compute, latency and
# dram_read_set): about 5 minutes on 16 cores, all of it held to 450 s.
set -uo pipefail
R=$PWD P=$R/.peers
: "${OUT:?OUT must name the folder the results go to}"
T=$(ls "$R"/.carry/simtbench-*.tar.gz 2>/dev/null | head -1)
missing=()
[ -n "$T" ] || missing+=(".carry/simtbench-*.tar.gz (make dist)")
[ -d "$R/.carry/sysroot" ] || missing+=(".carry/sysroot")
for p in BabelStream gpu-benches clpeak mixbench; do
    [ -d "$P/$p" ] || missing+=(".peers/$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "peers-h200-call.sh: missing in $R: ${missing[*]}" >&2
    exit 2
fi
export SB_SYSROOT=$R/.carry/sysroot SB_PEER_BABELSTREAM=$P/BabelStream \
    SB_PEER_GPU_BENCHES=$P/gpu-benches SB_PEER_CLPEAK=$P/clpeak SB_PEER_MIXBENCH=$P/mixbench \
    SB_PEERS_WORK=/tmp/pw SB_STEPS=peers
rm -rf /tmp/u /tmp/run /tmp/pw /tmp/pb && mkdir -p /tmp/u && tar -xzf "$T" -C /tmp/u || exit 1
S=$(ls -d /tmp/u/simtbench-* | head -1)
# A tarball of a commit before this call's scripts would run other peers.
grep -q "gpu-latency-1warp" "$S/scripts/peers-build.sh" ||
    { echo "peers-h200-call.sh: $T predates the peers' diagnostics (make dist of wt-peers)" >&2
      exit 2; }
t0=$(date +%s)
(SB_PEERS_JOBS=8 "$S/scripts/peers.sh" --build-only /bin/true /tmp/pb >/tmp/pb.log 2>&1 &)
sleep 2
timeout 450 "$S/scripts/gpu-run.sh" "$T" /tmp/run >/tmp/run.log 2>&1
st=$?
{ cat /tmp/pb.log; echo "gpu-run status $st, $(($(date +%s) - t0)) s wall"; } >>/tmp/run.log
cp /tmp/run/peers/peers.md /tmp/run/summary.txt /tmp/run.log "$OUT"/ 2>/dev/null
tar -czf "$OUT/peers.tar.gz" -C /tmp/run peers 2>/dev/null
cat /tmp/run/peers/peers.md 2>/dev/null
tail -c 3000 /tmp/run.log
exit $st
