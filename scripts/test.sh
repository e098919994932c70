#!/usr/bin/env bash
# Set up everything the test suite needs and run all of it: unit and property tests, the
# real-CLI end-to-end tests, the report's headless-browser check, load and corpus replay
# (the corpus part runs when ../shared/corpus is present).
# Usage: bash scripts/test.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."

PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'

# The real Claude Code CLI, pinned in tests/e2e/package.json (offline tests, no account).
npm ci --prefix tests/e2e --no-audit --no-fund --loglevel=error

# Debian's Chromium for the HTML report check (root on CI; skip the install when present).
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "chromium is missing: install it (Debian: apt-get install chromium)" >&2
  fi
fi

# Lint, format and types first: cheap, and a failure here says more than a test would.
.venv/bin/ruff check src tests benchmarks fuzz
.venv/bin/ruff format --check --quiet src tests benchmarks fuzz
.venv/bin/mypy src/orchestrator_boundary

exec .venv/bin/python -m pytest "$@"
