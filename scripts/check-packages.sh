#!/bin/bash
# The Debian packages as a distribution would build and a user install
# them, on stock Debian 12 (main only, no CUDA toolkit anywhere):
#
# 1. a minimal Debian 12 root (debootstrap) builds the source and binary
#    packages from the tarball of HEAD (`dpkg-buildpackage -us -uc`, build
#    dependencies from debian/control, its tests included);
# 2. lintian --pedantic -E -I on the result: no error and no warning but
#    initial-upload-closes-no-bugs;
# 3. a second fresh root installs the .debs with `apt-get install ./...`
#    and, as an unprivileged user, runs `simtbench --list`, a small PoCL
#    run and `simtbench model --stride 6`;
# 4. with SB_RPM=1, Debian's rpm builds the source and binary RPMs from the
#    same tarball (`rpmbuild -ba --nodeps`, its %check included) and
#    rpmlint checks them with packaging/simtbench.rpmlintrc.
#
#   scripts/check-packages.sh [WORKDIR]
#
# Needs root (debootstrap, chroot, mounts) and Debian's archive; the
# packages are left in WORKDIR/out.  SB_DEBIAN_MIRROR picks the archive.
# Exit status 0 when every step passes.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
work=${1:-$(mktemp -d /tmp/simtbench-pkg.XXXXXX)}
mirror=${SB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
mkdir -p "$work/out"
command -v debootstrap >/dev/null || { apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null; }

roots=()
cleanup() {
    for r in "${roots[@]}"; do
        for m in dev sys proc; do umount -R "$r/$m" 2>/dev/null || umount -l "$r/$m" 2>/dev/null || true; done
        grep -q " $r/" /proc/mounts || rm -rf "$r"
    done
}
trap cleanup EXIT

# fresh DIR: a minimal bookworm root with /proc, /sys and /dev mounted.
fresh() {
    local r=$1
    roots+=("$r")
    debootstrap --variant=minbase bookworm "$r" "$mirror" >"$r.debootstrap.log" 2>&1 ||
        { tail -20 "$r.debootstrap.log"; exit 1; }
    mount -t proc proc "$r/proc"
    mount --rbind /sys "$r/sys"
    mount --rbind /dev "$r/dev"
    cp /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true
}
# in DIR COMMAND: COMMAND in the root, as root, with a clean environment.
in_root() {
    local r=$1
    shift
    chroot "$r" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
        DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 /bin/sh -c "$*"
}

version=$(sed -n '1s/.*(\([^-)]*\).*/\1/p' debian/changelog)
# The upstream tarball is `make dist`'s (which leaves debian/ out); the
# Debian directory is the tree's.
echo "== make dist of $(git describe --always --dirty), as simtbench_$version.orig.tar.gz"
[ -f Makefile ] || { autoreconf -fi >/dev/null 2>&1 && ./configure >/dev/null; }
make dist >"$work/dist.log" 2>&1 || { tail -20 "$work/dist.log"; exit 1; }
cp "simtbench-$version.tar.gz" "$work/simtbench_$version.orig.tar.gz"

echo "== build root: dpkg-buildpackage -us -uc"
b=$work/build
fresh "$b"
mkdir -p "$b/build"
cp "$work/simtbench_$version.orig.tar.gz" "$b/build/"
tar -xzf "$work/simtbench_$version.orig.tar.gz" -C "$b/build"
cp -r debian "$b/build/simtbench-$version/"
t0=$(date +%s)
in_root "$b" "apt-get update -qq && apt-get install -y -qq --no-install-recommends dpkg-dev \
    debhelper lintian fakeroot >/dev/null && cd /build/simtbench-$version && \
    apt-get build-dep -y -qq ./ >/dev/null && dpkg-buildpackage -us -uc" >"$work/build.log" 2>&1 ||
    { tail -40 "$work/build.log"; echo "check-packages: the build failed"; exit 1; }
echo "   built in $(( $(date +%s) - t0 )) s:"
cp "$b"/build/*.deb "$b"/build/*.dsc "$b"/build/*.changes "$b"/build/*.debian.tar.* "$work/out/"
ls "$work/out" | sed 's/^/   /'
ls "$work/out"/simtbench_*.deb >/dev/null 2>&1 || { echo "check-packages: no simtbench package"; exit 1; }
ls "$work/out"/simtbench-cuda_*.deb >/dev/null 2>&1 ||
    { echo "check-packages: no simtbench-cuda package was built"; exit 1; }

echo "== lintian --pedantic -E -I"
in_root "$b" "cd /build && lintian --pedantic -E -I --tag-display-limit 0 *.changes" \
    >"$work/lintian.log" 2>&1 || true
sed 's/^/   /' "$work/lintian.log"
if grep -E '^[EW]: ' "$work/lintian.log" | grep -v 'initial-upload-closes-no-bugs' | grep -q .; then
    echo "check-packages: lintian reports errors or warnings beyond initial-upload-closes-no-bugs"
    exit 1
fi

echo "== install root: apt-get install ./simtbench*.deb, run as a user"
i=$work/install
fresh "$i"
mkdir -p "$i/debs"
cp "$work/out"/*.deb "$i/debs/"
in_root "$i" "apt-get update -qq && apt-get install -y -qq ./debs/*.deb pocl-opencl-icd >/dev/null && \
    useradd -m user" >"$work/install.log" 2>&1 ||
    { tail -30 "$work/install.log"; echo "check-packages: the packages do not install"; exit 1; }
status=0
for cmd in "simtbench --list" "simtbench --backend opencl --experiment transpose --size 64 --reps 3" \
    "simtbench model --stride 6"; do
    if in_root "$i" "su user -c 'cd && $cmd'" >"$work/run.log" 2>&1; then
        echo "   ok: $cmd"
    else
        echo "   FAILED: $cmd"; tail -20 "$work/run.log"; status=1
    fi
done
if [ "${SB_RPM:-0}" = 1 ]; then
    echo "== rpmbuild -ba --nodeps, rpmlint"
    command -v rpmbuild >/dev/null && command -v rpmlint >/dev/null ||
        apt-get install -y -qq rpm rpmlint >/dev/null
    r=$work/rpm
    mkdir -p "$r/SOURCES"
    cp "simtbench-$version.tar.gz" "$r/SOURCES/"
    if rpmbuild --define "_topdir $r" -ba --nodeps packaging/simtbench.spec >"$work/rpmbuild.log" 2>&1; then
        ls "$r"/RPMS/*/*.rpm "$r"/SRPMS/*.rpm | sed 's/^/   /'
        rpmlint -r packaging/simtbench.rpmlintrc packaging/simtbench.spec "$r"/SRPMS/*.rpm \
            "$r"/RPMS/*/*.rpm >"$work/rpmlint.log" 2>&1
        tail -1 "$work/rpmlint.log" | sed 's/^/   /'
        grep -q " 0 errors, 0 warnings" "$work/rpmlint.log" || { echo "   rpmlint is not clean"; status=1; }
    else
        tail -20 "$work/rpmbuild.log"; echo "   rpmbuild FAILED"; status=1
    fi
fi
[ $status = 0 ] && echo "check-packages: passed" || echo "check-packages: FAILED"
exit $status
