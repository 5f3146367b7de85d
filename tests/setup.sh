#!/usr/bin/env bash
# Installs what the tests need beyond npm packages: Debian's dnsmasq (a real
# DNS server on loopback for reverse-DNS tests) and Chromium (browser tests).
set -euo pipefail
missing=()
command -v dnsmasq >/dev/null 2>&1 || [ -x /usr/sbin/dnsmasq ] || missing+=(dnsmasq)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "tests/setup.sh: installing ${missing[*]} from Debian's packages" >&2
if [ "$(id -u)" -ne 0 ]; then
  SUDO=sudo
  command -v sudo >/dev/null || { echo "need root (or sudo) to apt-get install ${missing[*]}" >&2; exit 1; }
else
  SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# The package may start a system dnsmasq on port 53; tests run their own.
$SUDO pkill -x dnsmasq 2>/dev/null || true
