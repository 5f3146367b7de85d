# Sourced by tests/setup.sh and bench/setup.sh: has_postgres succeeds when
# Debian's PostgreSQL 15 or newer is installed (its server binaries, which
# the tests and the benchmark start throwaway servers from).
has_postgres() {
  local bin
  for bin in /usr/lib/postgresql/*/bin/initdb; do
    [ -x "$bin" ] || continue
    local version=${bin#/usr/lib/postgresql/}
    [ "${version%%/*}" -ge 15 ] 2>/dev/null && return 0
  done
  return 1
}
