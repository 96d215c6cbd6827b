#!/bin/bash
# Device call 1 of 6: make check, the default suite on both APIs, and the
# peers beside simtbench (built in the background while the check runs,
# from the trees at .peers/, as .carry/gpuA.sh does).  About 9 minutes
# (run 30: these steps in one call).
R=$PWD P=$R/.peers
. "$R/scripts/h200-calls/call.sh"
export SB_PEER_BABELSTREAM=$P/BabelStream SB_PEER_GPU_BENCHES=$P/gpu-benches \
    SB_PEER_CLPEAK=$P/clpeak SB_PEER_MIXBENCH=$P/mixbench SB_PEERS_WORK=/tmp/pw \
    SB_STEPS="check suite peers" SB_CHECK_TIMEOUT=200
mkdir -p /tmp/pu && tar -xzf "$(ls "$R"/.carry/simtbench-*.tar.gz | head -1)" -C /tmp/pu &&
    (SB_PEERS_JOBS=8 /tmp/pu/simtbench-*/scripts/peers.sh --build-only /bin/true /tmp/pb \
        >/tmp/pb.log 2>&1 &)
sb_call 1 check.log suite.md results/peers.md bundle.tar.gz
