#!/bin/bash
# scripts/slurm/simtbench.sbatch under a real Slurm: a single-node
# slurmctld and slurmd (Debian's slurm-wlm, with munge) started here with
# a configuration of their own in a temporary folder, on loopback ports,
# as the current user; the script submitted with two tasks, each on its
# own PoCL device (POCL_DEVICES="pthread pthread"), then its merge.  Every
# test is skipped, with the reason, where Slurm, munge or an OpenCL
# device is missing.  TAP output.
set -u
SB=${SIMTBENCH:-./simtbench}
top=${SB_TOP_SRCDIR:-.}
n=0
TESTS=6
tmp=$(mktemp -d)
pids=()
cleanup() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; return 1; fi; }
skip_all() {
    echo "1..$TESTS"
    for _ in $(seq $TESTS); do n=$((n + 1)); echo "ok $n # SKIP $1"; done
    exit 0
}
# The log of a daemon that did not come up, for the reader of the TAP log.
show() { [ -f "$1" ] && sed 's/^/#   /' "$1" | tail -n 15; }

for p in slurmctld slurmd munged mungekey sbatch sinfo scontrol; do
    command -v $p >/dev/null 2>&1 ||
        skip_all "no $p: Slurm is not installed (Debian: slurm-wlm and munge)"
done
command -v python3 >/dev/null 2>&1 || skip_all "no python3 to read the saved runs"
export POCL_DEVICES="pthread pthread"
# PoCL's platform, wherever it comes (a GPU machine lists NVIDIA's too).
pocl=$(COLUMNS=1000 "$SB" --list 2>/dev/null |
    sed -n 's/^ *platform \([0-9]*\) device 1: .*\[Portable Computing Language\].*/\1/p' | head -n 1)
[ -n "$pocl" ] || skip_all "no PoCL platform with two devices (POCL_DEVICES=\"pthread pthread\")"

user=$(id -un)
node=$(hostname -s)
# Two loopback ports nothing listens on, for slurmctld and slurmd.
port=$((20000 + $$ % 20000))
while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null ||
      (exec 3<>"/dev/tcp/127.0.0.1/$((port + 1))") 2>/dev/null; do
    port=$((port + 2))
done

mkdir -p "$tmp/run" "$tmp/state" "$tmp/spool" "$tmp/out"
chmod 755 "$tmp" "$tmp/run"
mungekey --create --keyfile="$tmp/munge.key" >/dev/null 2>&1 ||
    { dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 2>/dev/null; chmod 600 "$tmp/munge.key"; }
munged -F -f --key-file="$tmp/munge.key" --socket="$tmp/run/munge.sock" \
    --pid-file="$tmp/run/munged.pid" --log-file="$tmp/munged.log" \
    --seed-file="$tmp/munged.seed" >/dev/null 2>&1 &
pids+=($!)

cat >"$tmp/slurm.conf" <<EOF
ClusterName=simtbench-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/run/munge.sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
SlurmdParameters=config_overrides
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=simtbench Nodes=$node Default=YES MaxTime=10 State=UP OverSubscribe=YES
EOF
export SLURM_CONF="$tmp/slurm.conf"
for _ in $(seq 50); do [ -S "$tmp/run/munge.sock" ] && break; sleep 0.1; done
slurmctld -D -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$node" >"$tmp/slurmd.out" 2>&1 &
pids+=($!)

echo "1..$TESTS"
idle=0
for _ in $(seq 100); do
    case $(sinfo -h -n "$node" -o %T 2>/dev/null) in idle*) idle=1; break ;; esac
    sleep 0.2
done
if [ $idle = 0 ]; then
    not_ok "a single-node Slurm came up (slurmctld, slurmd, munged on loopback)"
    show "$tmp/munged.log"; show "$tmp/slurmctld.log"; show "$tmp/slurmd.log"
    for _ in $(seq $((TESTS - 1))); do not_ok "(Slurm did not come up)"; done
    exit 0
fi
ok "a single-node Slurm came up (slurmctld, slurmd, munged on loopback)"

# The batch script as a user submits it: two tasks, tiny sizes.  The job
# is watched here rather than with sbatch --wait, which looks at it only
# every few seconds.
export SIMTBENCH="$SB" SIMTBENCH_OUT="$tmp/out"
job=$(sbatch --parsable --nodes=1 --ntasks=2 --output="$tmp/job.out" \
    "$top/scripts/slurm/simtbench.sbatch" --backend opencl --platform "$pocl" --experiment vecadd \
    --variant coarse2,coarse4 --size 32 --reps 5 --warmup 0 2>"$tmp/sbatch.out")
state=
for _ in $(seq 600); do
    scontrol -o show job "$job" >"$tmp/job" 2>/dev/null
    state=$(sed -n 's/.* JobState=\([A-Z_]*\) .*/\1/p' "$tmp/job")
    case $state in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;; esac
    sleep 0.2
done
check "the script with two tasks ran to the end, exit status 0 ($state)" \
    '[ "$state" = COMPLETED ] && grep -q " ExitCode=0:0 " "$tmp/job"' ||
    { show "$tmp/sbatch.out"; show "$tmp/job"; show "$tmp/job.out"; show "$tmp/out/task-0.txt"; }

check "each task saved its run under its host and task: run-$node-0.json, run-$node-1.json" \
    '[ -s "$tmp/out/run-$node-0.json" ] && [ -s "$tmp/out/run-$node-1.json" ]'

# --device auto took each task's SLURM_LOCALID: task 0 device 0, task 1 device 1.
index_of() {
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(",".join(str(x["device_index"]) for x in d["devices"]))' "$1" 2>/dev/null
}
check "--device auto: task 0 measured device 0, task 1 device 1 (SLURM_LOCALID)" \
    '[ "$(index_of "$tmp/out/run-$node-0.json")" = 0 ] &&
     [ "$(index_of "$tmp/out/run-$node-1.json")" = 1 ]'

# The merge the script ends with: both runs, each device with its source.
python3 - "$tmp/out/fleet.json" "$tmp/out" >"$tmp/merged" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
files = sorted(s["file"].rsplit("/", 1)[-1] for s in d["sources"])
assert len(d["sources"]) == 2 and files[0].endswith("-0.json") and files[1].endswith("-1.json"), files
assert sorted(x["source"] for x in d["devices"]) == [0, 1], d["devices"]
assert {x["device_index"] for x in d["devices"]} == {0, 1}
assert all(r["verified"] for r in d["results"]) and len(d["results"]) == 4
assert len(d["fleet"]) == 2 and all(f["devices"] == 2 for f in d["fleet"]), d["fleet"]
print("merged")
PY
check "fleet.json merges both runs: two sources, each device from its own, a fleet row per variant" \
    'grep -qx merged "$tmp/merged"' || show "$tmp/merged"
check "the job's output is the fleet table of both devices" \
    'grep -q "^  fleet$" "$tmp/job.out" && grep -q "opencl x2" "$tmp/job.out" &&
     grep -q "^Outliers$" "$tmp/job.out"' || show "$tmp/job.out"
exit 0
