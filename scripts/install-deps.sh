#!/bin/sh
# Installs the Debian packages listed in deps/debian-packages.txt that are not installed yet.
# Run as root (or with sudo available). Extra list files may be passed as arguments
# (e.g. deps/debian-packages-fuzz.txt).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
lists="$here/deps/debian-packages.txt $*"
missing=""
for pkg in $(cat $lists | sed 's/#.*//' | tr -s ' \t' '\n' | grep -v '^$'); do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing="$missing $pkg"
  fi
done
if [ -n "$missing" ]; then
  echo "install-deps: installing:$missing" >&2
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
fi
