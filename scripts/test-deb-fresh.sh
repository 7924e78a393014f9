#!/bin/sh
# Installs the Debian packages built by scripts/test-package.sh (build/package/deb/) with apt on a
# fresh Debian 12 root made by debootstrap, then runs `mmdkit --version`, a generate/check/convert
# round trip, `man mmdkit-info` and a consumer build against mmdkit-dev there. Not part of CI (it
# downloads a Debian base system from the mirror, a few minutes); run it as root after the test
# command:   sh scripts/run-tests.sh && sh scripts/test-deb-fresh.sh
# Needs: debootstrap (installed if missing), network access to the Debian mirror.
set -eu
cd "$(dirname "$0")/.."
mirror=${MMDKIT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
debs=$(ls build/package/deb/mmdkit_*.deb build/package/deb/mmdkit-dev_*.deb)
root=${MMDKIT_FRESH_ROOT:-/tmp/mmdkit-fresh-debian12}
command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap
if [ ! -x "$root/usr/bin/apt-get" ]; then
  rm -rf "$root"
  debootstrap --variant=minbase bookworm "$root" "$mirror"
fi
# The packages' versioned dependencies come from the build machine's Debian 12, point releases
# and security updates included: the fresh root gets the same suites, and the host's resolver.
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb ${MMDKIT_DEBIAN_SECURITY:-http://deb.debian.org/debian-security} bookworm-security main
EOF
cp /etc/resolv.conf "$root/etc/resolv.conf"
rm -rf "$root/tmp/mmdkit"
mkdir -p "$root/tmp/mmdkit"
cp $debs "$root/tmp/mmdkit/"
cp -r tests/install/consumer "$root/tmp/mmdkit/consumer"
mount --bind /proc "$root/proc" 2>/dev/null || true
trap 'umount "$root/proc" 2>/dev/null || true' EXIT
chroot "$root" sh -eu -c '
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends /tmp/mmdkit/mmdkit_*.deb
  mmdkit --version
  cd /tmp/mmdkit
  mmdkit generate pmx -o m.pmx --vertices 50
  mmdkit check m.pmx
  mmdkit convert m.pmx m.json && mmdkit convert m.json back.pmx && cmp m.pmx back.pmx
  apt-get install -y -q --no-install-recommends man-db
  man -P cat mmdkit-info | grep -q "mmdkit info"
  apt-get install -y -q --no-install-recommends /tmp/mmdkit/mmdkit-dev_*.deb g++ cmake ninja-build
  cmake -S consumer -B consumer-build -G Ninja >/dev/null
  cmake --build consumer-build >/dev/null
  consumer-build/consumer_static
  consumer-build/consumer_shared
  consumer-build/consumer_vmd_layer
  g++ -o pc consumer/main.cpp -DCONSUMER_EXPECTED_VERSION="\"$(pkg-config --modversion mmdkit)\"" $(pkg-config --cflags --libs mmdkit) && ./pc
'
echo "test-deb-fresh: ok (packages installed with apt on a fresh Debian 12 root: $root)"
