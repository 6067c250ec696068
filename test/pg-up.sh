#!/usr/bin/env bash
# Makes sure the PostgreSQL server of TEST_DATABASE_URL (default 127.0.0.1:5432, trust auth) answers; starts the local cluster if not.
set -uo pipefail
url="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
ready() { pg_isready -q -d "$url" 2>/dev/null || node -e "const c=new (require('pg').Client)({connectionString:process.argv[1]});c.connect().then(()=>c.end()).then(()=>process.exit(0),()=>process.exit(1))" "$url"; }
if ready; then exit 0; fi
echo "PostgreSQL is not answering at $url; starting the local cluster" >&2
if command -v pg_ctlcluster >/dev/null 2>&1; then
  for v in $(ls /etc/postgresql 2>/dev/null); do pg_ctlcluster --skip-systemctl-redirect "$v" main start || true; done
fi
for _ in $(seq 1 30); do ready && exit 0; sleep 1; done
echo "PostgreSQL did not come up at $url; set TEST_DATABASE_URL to a server the tests may create databases on" >&2
exit 1
