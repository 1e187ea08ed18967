#!/usr/bin/env bash
# `npm run bench:install`: installs the packed package into an empty app, as a user would, and
# measures it side by side with `node -e 0` and @opentelemetry/auto-instrumentations-node:
# packages and MB installed, copies of each @opentelemetry/* package, start time and files loaded
# (whole processes, bench/install/start.py), and the time from a script's last line to its exit per collector state.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
# Outside the repository: an app under it would resolve packages from the repository's own
# node_modules (every framework the tests drive), and the register would find, for one, the MCP SDK
# there and resolve its CommonJS build at start, which an empty app does not.
WORK="${TMPDIR:-/tmp}/otel-tool-errors-bench-install"
AUTO_VERSION=0.81.2
rm -rf "$WORK/app" "$WORK"/*.tgz && mkdir -p "$WORK/app" "$WORK/auto"

cd "$ROOT" && npm pack --silent --pack-destination "$WORK" >/dev/null
cd "$WORK/app" && echo '{"name":"app","version":"1.0.0","private":true}' >package.json
npm install --silent --no-audit --no-fund "$WORK"/otel-tool-errors-*.tgz
cd "$WORK/auto" && [ -f package.json ] || echo '{"name":"auto","version":"1.0.0","private":true}' >package.json
npm install --silent --no-audit --no-fund "@opentelemetry/auto-instrumentations-node@$AUTO_VERSION" @opentelemetry/api@1.9

footprint() { # dir
  local packages copies
  packages=$(find "$1/node_modules" -name package.json -not -path '*/test/*' -exec grep -l '"version"' {} + |
    xargs -n1 dirname | grep -c '/node_modules/[^/]*$\|/node_modules/@[^/]*/[^/]*$' || true)
  copies=$(find "$1/node_modules" -type d -path '*/node_modules/@opentelemetry/*' -prune | sed 's#.*/##' | sort | uniq -c | sort -rn | head -1)
  echo "| $2 | $packages | $(du -sm "$1/node_modules" | cut -f1) | $copies |"
}
echo '## Install'
echo '| app | packages | MB | most copies of one @opentelemetry/* package |'
echo '|---|---:|---:|---|'
footprint "$WORK/app" 'otel-tool-errors (packed tarball, empty app)'
footprint "$WORK/auto" "@opentelemetry/auto-instrumentations-node@$AUTO_VERSION"

COUNT="$WORK/count-files.cjs"
echo "process.on('exit', () => process.stderr.write('files=' + Object.keys(require.cache).length + '\n'));" >"$COUNT"
OURS='--require otel-tool-errors/register'
AUTO="--require $WORK/auto/node_modules/@opentelemetry/auto-instrumentations-node/build/src/register.js"
NONE='OTEL_TRACES_EXPORTER=none OTEL_METRICS_EXPORTER=none OTEL_LOGS_EXPORTER=none'
echo; echo '## Files loaded (CommonJS modules in require.cache at exit)'
cd "$WORK/app"
for run in "node -e 0" "node $OURS -e 0" "env OTEL_SDK_DISABLED=true node $OURS -e 0" "env $NONE node $OURS -e 0" "env $NONE node $AUTO -e 0"; do
  files=$(${run/node /node --require $COUNT } 2>&1 >/dev/null | grep -o 'files=[0-9]*' | cut -d= -f2)
  echo "| \`${run//$WORK/.}\` | $files |"
done

echo; echo "## Start and exit, whole process, no collector listening ($(node --version))"
# bench/install/start.py: every command in turn, RUNS rounds in rotated order (whole processes,
# their own wall time, CPU time and peak RSS from wait4), medians and ratios to `node -e 0`.
# The register starts on the app's first need (src/register/start-on-first-need.ts): `-e 0` has none,
# so two rows give the start itself, on a require of a module it patches (http), against that require alone.
# auto-instrumentations-node runs with its exporters off: with them on and no collector, its exit
# waits out the OTLP exporters' 10 s timeout, which is not start-up.
ESM_OURS='--import otel-tool-errors/register'
python3 "$ROOT/bench/install/start.py" "${RUNS:-10}" \
  "node -e 0=node -e 0" \
  "ours, --require=node $OURS -e 0" \
  "ours, --import=node $ESM_OURS -e 0" \
  "ours, --require, exporters off=env $NONE node $OURS -e 0" \
  "ours, OTEL_SDK_DISABLED set=env OTEL_SDK_DISABLED=true node $OURS -e 0" \
  "require('node:http') alone=node -e \"require('node:http')\"" \
  "ours, --require, the start on that require=node $OURS -e \"require('node:http')\"" \
  "@opentelemetry/api alone=node --require @opentelemetry/api -e 0" \
  "auto-instrumentations-node, --require, exporters off=env $NONE node $AUTO -e 0" | sed "s#$WORK#.#g"

echo; echo '## From the last line to the exit, one span and the default exporters'
node "$ROOT/bench/install/exit-after-last-line.mjs" "$WORK/app"

echo; echo "## Loading an agent framework under the register ($(node --version)), frameworks from this repository"
# The repository's own devDependencies, with the register the package build just made: what each
# framework's load costs an app on top of the register's start (bench/install/framework-loads.py).
cd "$ROOT" && python3 "$ROOT/bench/install/framework-loads.py" "${RUNS:-10}" "$ROOT/dist/register.cjs" \
  "$WORK/auto/node_modules/@opentelemetry/auto-instrumentations-node/build/src/register.js" \
  ai @langchain/langgraph @mastra/core @google/adk @modelcontextprotocol/sdk/client/index.js \
  @openai/agents-core @llamaindex/workflow @anthropic-ai/claude-agent-sdk
