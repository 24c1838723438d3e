#!/usr/bin/env bash
# Runs the benchmarks of README's "Performance" section: installs the sqlite3
# shell if missing (the floor the import is measured against), then the
# solver and import benchmarks. Extra arguments go to both, for example
# `scripts/bench.sh --millions 5` or `scripts/bench.sh --corpora DIR`.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v sqlite3 >/dev/null; then
    apt-get update -qq && apt-get install -y -qq sqlite3
fi
cargo bench --bench solver -- "$@"
cargo bench --bench import -- "$@"
