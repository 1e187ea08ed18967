#!/usr/bin/env bash
# The OpenTelemetry JS 3.x line (@opentelemetry/sdk-trace 3, instrumentation 0.301, api 1.10),
# from test-compat/otel3, which has its own node_modules because 3.x needs api 1.10, which the 2.x
# packages of the main tree refuse. On Node 24 (3.x declares Node >= 22.15), from the node matrix:
# - test-compat/otel3/test: the processor and the enriching exporter on 3.x providers, and the
#   zero-code register as a 3.x app gets it (the packed tarball installed with npm beside
#   @opentelemetry/sdk-node 0.301 and api 1.10; --require and --import child processes);
# - .mocharc.whole-suite.json: the repository's processor, metrics, instrumentation and classifier
#   suites, their @opentelemetry/* imports resolved to the 3.x packages (resolve-otel3.mjs).
#   Not the Claude Agent SDK spec nor the adding-a-framework spec: they build or start the register
#   bundle (the 2.x SDK), under the 3.x resolution hook; the register on 3.x is the tarball test above.
#   The Google ADK spec runs first, as in .mocharc.cjs: under mocha every instrumentation gets its
#   own require-in-the-middle hook, a layer every later require goes through, and ADK's load,
#   thousands of files under the 3.x resolution hook, went past its 180 s late in the suite.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
NODE_BIN="$(bash "$ROOT/scripts/node-matrix.sh" --bin 24)"
cd "$ROOT/test-compat/otel3"
npm install --no-audit --no-fund --loglevel=error
PATH="$NODE_BIN:$PATH" node node_modules/mocha/bin/mocha.js
PATH="$NODE_BIN:$PATH" node node_modules/mocha/bin/mocha.js --config .mocharc.whole-suite.json
