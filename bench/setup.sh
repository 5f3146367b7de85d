#!/usr/bin/env bash
# Installs what the benchmark needs beyond npm packages: dnsmasq (PTR lookups
# on loopback), wrk (HTTP load) and PostgreSQL 15+ (--scale starts a
# throwaway server from its binaries). wrk is optional: without it the
# lookup rate is measured with a fetch loop.
set -uo pipefail
missing=()
[ -x /usr/sbin/dnsmasq ] || command -v dnsmasq >/dev/null 2>&1 || missing+=(dnsmasq)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
# shellcheck source=../scripts/has_postgres.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/has_postgres.sh"
has_postgres || missing+=(postgresql)
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=
[ "$(id -u)" -ne 0 ] && SUDO=sudo
echo "bench/setup.sh: installing ${missing[*]} from Debian's packages" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
  || echo "bench/setup.sh: could not install ${missing[*]}; continuing without" >&2
# The package may start a system dnsmasq on port 53; stop that one only (by
# its pid file), never other dnsmasq processes (tests of other checkouts).
if [[ " ${missing[*]} " == *" dnsmasq "* ]] && [ -s /run/dnsmasq/dnsmasq.pid ]; then
  $SUDO kill "$(cat /run/dnsmasq/dnsmasq.pid)" 2>/dev/null || true
fi
# Likewise the packaged PostgreSQL cluster; --scale starts its own server.
if [[ " ${missing[*]} " == *" postgresql "* ]]; then
  $SUDO service postgresql stop >/dev/null 2>&1 || true
fi
exit 0
