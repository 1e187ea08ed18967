#!/usr/bin/env bash
# Builds (once) the Genkit for Go agent, under $E2E_CACHE_DIR, keyed by the hash of its module
# files and sources, and prints the binary's path. Built beside its place and moved there, so a
# build that fails or is stopped leaves nothing half-made.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
CACHE="${E2E_CACHE_DIR:-$HOME/.cache/otel-tool-errors}"
KEY="$(cd "$HERE" && cat go.mod go.sum ./*.go | sha256sum | cut -c1-12)"
BIN="$CACHE/bin/go-agent-$KEY"
if [ ! -x "$BIN" ]; then
  command -v go >/dev/null 2>&1 || { echo "go-agent: no go on PATH" >&2; exit 1; }
  echo "go-agent: building $HERE into $BIN" >&2
  t0=$(date +%s)
  mkdir -p "$CACHE/bin"
  if ! (cd "$HERE" && go build -trimpath -buildvcs=false -o "$BIN.tmp.$$" .) >&2; then
    rm -f "$BIN.tmp.$$"
    echo "go-agent: go build failed" >&2
    exit 1
  fi
  mv "$BIN.tmp.$$" "$BIN"
  echo "go-agent: built in $(($(date +%s) - t0))s" >&2
fi
echo "$BIN"
