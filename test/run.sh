#!/usr/bin/env bash
# The whole suite: PostgreSQL up, type-check, then every test (each database test runs on PostgreSQL and on PGlite).
set -euo pipefail
cd "$(dirname "$0")/.."
bash test/pg-up.sh
bash test/tools-up.sh
node_modules/.bin/tsc --noEmit
# Every test file, fixture process and pool thread loads much the same modules: their compiled code is
# kept between processes (inside node_modules, so a fresh install starts it anew).
export NODE_COMPILE_CACHE="$PWD/node_modules/.cache/node-compile"
exec node --test --test-concurrency="${TEST_CONCURRENCY:-3}" --test-timeout=300000 'test/**/*.test.ts'
