#!/usr/bin/env bash
# Installs what the tests need beyond npm packages: Debian's dnsmasq (a real
# DNS server on loopback for reverse-DNS tests), Chromium (browser tests) and
# PostgreSQL 15+ (tests start throwaway servers from its binaries).
set -euo pipefail
missing=()
command -v dnsmasq >/dev/null 2>&1 || [ -x /usr/sbin/dnsmasq ] || missing+=(dnsmasq)
[ -x /usr/bin/chromium ] || missing+=(chromium)
# shellcheck source=../scripts/has_postgres.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/has_postgres.sh"
has_postgres || missing+=(postgresql)
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
# The package may start a system dnsmasq on port 53; stop that one only (by
# its pid file), never the dnsmasq servers tests of other checkouts started.
if [[ " ${missing[*]} " == *" dnsmasq "* ]] && [ -s /run/dnsmasq/dnsmasq.pid ]; then
  $SUDO kill "$(cat /run/dnsmasq/dnsmasq.pid)" 2>/dev/null || true
fi
# Likewise the packaged PostgreSQL cluster; tests start their own servers.
if [[ " ${missing[*]} " == *" postgresql "* ]]; then
  $SUDO service postgresql stop >/dev/null 2>&1 || true
fi
