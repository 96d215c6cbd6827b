#!/bin/bash
# The README's first ten minutes on a fresh machine: make a minimal Debian
# 12 root with debootstrap, put the source tree of HEAD in it, and run the
# README's two commands there, unchanged, as root (a root with no sudo, as
# in a container or a cloud image).  Needs root (debootstrap, chroot,
# mounts) and Debian's package archive.
#
#   scripts/fresh-debian.sh [ROOTDIR]
#
# SB_DEBIAN_MIRROR picks the archive (default deb.debian.org); SB_KEEP_ROOT=1
# keeps the root afterwards; SB_FRESH_CUDA=DIR shows the root a CUDA toolkit
# (bound read-only at /usr/local/cuda, where ./configure looks), so that the
# CUDA module and its NVRTC tests are built and run there too.  Each
# command's output, and make check's test-suite.log, are kept in ROOTDIR.logs
# (or SB_FRESH_LOGS), named at the end.  Exit status: 0 when both commands
# succeed.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
root=${1:-$(mktemp -d /tmp/simtbench-fresh.XXXXXX)}
mirror=${SB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
logs=${SB_FRESH_LOGS:-$root.logs}
mkdir -p "$logs"

if ! command -v debootstrap >/dev/null; then
    apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null
fi

# The two commands, exactly as the README shows them: the first block of
# shell in it, one command a line.
mapfile -t commands < <(awk '/^```sh$/ { on = 1; next } on && /^```$/ { exit } on' README.md)
[ ${#commands[@]} = 2 ] || { echo "fresh-debian: the README's first block has ${#commands[@]} commands, not 2"; exit 1; }

cleanup() {
    cp "$root/root/simtbench/test-suite.log" "$logs/test-suite.log" 2>/dev/null || true
    for m in usr/local/cuda dev sys proc; do umount -R "$root/$m" 2>/dev/null || umount -l "$root/$m" 2>/dev/null || true; done
    # Never remove a root that still has the host's /dev or /sys inside.
    if grep -q " $root/" /proc/mounts; then
        echo "fresh-debian: $root still has mounts; left in place"
    elif [ "${SB_KEEP_ROOT:-0}" != 1 ]; then
        rm -rf "$root"
    fi
}
trap cleanup EXIT

echo "== debootstrap bookworm (minbase) into $root"
t0=$(date +%s)
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$logs/debootstrap.log" 2>&1 ||
    { tail -20 "$logs/debootstrap.log"; echo "fresh-debian: debootstrap failed; its log: $logs/debootstrap.log"; exit 1; }
echo "   done in $(( $(date +%s) - t0 )) s" 
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --rbind /dev "$root/dev"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
if [ -n "${SB_FRESH_CUDA:-}" ]; then
    [ -d "$SB_FRESH_CUDA/include" ] || { echo "fresh-debian: SB_FRESH_CUDA=$SB_FRESH_CUDA is no CUDA toolkit"; exit 1; }
    mkdir -p "$root/usr/local/cuda"
    mount --bind "$SB_FRESH_CUDA" "$root/usr/local/cuda"
    mount -o remount,bind,ro "$root/usr/local/cuda"
    echo "== the CUDA toolkit of $SB_FRESH_CUDA, read-only at /usr/local/cuda"
fi

echo "== the source tree of $(git -C "$top" describe --always --dirty)"
mkdir -p "$root/root/simtbench"
git -C "$top" archive HEAD | tar -x -C "$root/root/simtbench"
# The commit it is, as a tarball says it (an archive has no .git).
sh scripts/git-version "$top" unknown >"$root/root/simtbench/.tarball-version"

status=0
for i in 0 1; do
    echo "== README command $((i + 1)): ${commands[$i]:0:100}..."
    t0=$(date +%s)
    if chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb \
        /bin/sh -c "cd /root/simtbench && ${commands[$i]}" >"$logs/cmd$((i + 1)).log" 2>&1; then
        echo "   passed in $(( $(date +%s) - t0 )) s"
    else
        echo "   FAILED (status $?) after $(( $(date +%s) - t0 )) s; the end of its output:"
        tail -30 "$logs/cmd$((i + 1)).log"
        echo "   its whole output: $logs/cmd$((i + 1)).log; make check's log (if it ran): $logs/test-suite.log"
        status=1
        break
    fi
done
tail -5 "$logs/cmd1.log" 2>/dev/null | sed 's/^/   | /'
echo "== logs kept in $logs"
exit $status
