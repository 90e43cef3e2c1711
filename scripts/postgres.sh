#!/usr/bin/env bash
# Debian's PostgreSQL server for the table's PostgreSQL tests (tests/test_table_postgres.py)
# and for trying `moonrules table --db postgresql://...` on this machine.
#
#   bash scripts/postgres.sh          install it if missing; print the directory of its programs
#   bash scripts/postgres.sh bindir   print that directory (exit 1 if it is not installed)
#
# The tests start a throwaway server of their own from these programs (initdb into a temporary
# directory, listening on 127.0.0.1 and a socket in that directory, stopped and removed at the
# end: tests/postgres_support.py); this script starts no server and leaves none running. If the
# package's postinst starts the stock cluster (port 5432), it is stopped again.
set -euo pipefail

bindir() {
    # the newest major version installed: /usr/lib/postgresql/<major>/bin
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -n | tail -n 1 || true)
    if [[ -n "$dir" && -x "$dir/initdb" && -x "$dir/postgres" ]]; then
        echo "$dir"
        return 0
    fi
    return 1
}

case "${1:-install}" in
bindir)
    bindir || { echo "PostgreSQL is not installed; bash scripts/postgres.sh installs it" >&2; exit 1; }
    ;;
install)
    if ! bindir >/dev/null; then
        if [[ $(id -u) -ne 0 ]]; then
            echo "installing PostgreSQL needs root (apt-get install postgresql)" >&2
            exit 1
        fi
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq postgresql >/dev/null
        # Debian starts its stock cluster where it can; the tests start their own
        if command -v pg_lsclusters >/dev/null 2>&1; then
            pg_lsclusters --no-header 2>/dev/null | while read -r version cluster _ status _; do
                if [[ "$status" == online* ]]; then
                    pg_ctlcluster "$version" "$cluster" stop || true
                fi
            done
        fi
    fi
    bindir
    ;;
*)
    echo "usage: bash scripts/postgres.sh [install|bindir]" >&2
    exit 2
    ;;
esac
