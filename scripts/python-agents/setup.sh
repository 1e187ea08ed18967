#!/usr/bin/env bash
# Creates (once) the virtual environment the Python agents run in, under $E2E_CACHE_DIR, keyed by
# requirements.txt's hash, and prints its python's path. It is built beside its place and moved
# there whole, so an install that fails or is stopped leaves nothing half-made (only bin/python is
# used, which works from the moved folder).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
CACHE="${E2E_CACHE_DIR:-$HOME/.cache/otel-tool-errors}"
VENV="$CACHE/python-agents-$(sha256sum "$HERE/requirements.txt" | cut -c1-12)"
if [ ! -x "$VENV/bin/python" ]; then
  command -v python3 >/dev/null 2>&1 || { echo "python-agents: no python3 on PATH" >&2; exit 1; }
  echo "python-agents: installing $HERE/requirements.txt into $VENV (a cold install takes minutes)" >&2
  t0=$(date +%s)
  mkdir -p "$CACHE"
  rm -rf "$VENV.tmp"
  python3 -m venv "$VENV.tmp"
  if ! "$VENV.tmp/bin/python" -m pip install --quiet --disable-pip-version-check -r "$HERE/requirements.txt" >&2; then
    rm -rf "$VENV.tmp"
    echo "python-agents: pip install failed" >&2
    exit 1
  fi
  mv "$VENV.tmp" "$VENV"
  echo "python-agents: installed in $(($(date +%s) - t0))s" >&2
fi
echo "$VENV/bin/python"
