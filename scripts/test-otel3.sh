#!/usr/bin/env bash
# Runs the ToolErrorSpanProcessor compatibility tests on the OpenTelemetry JS 3.x line
# (@opentelemetry/sdk-trace 3 with @opentelemetry/api 1.10) from test-compat/otel3.
# That folder has its own node_modules because 3.x needs api 1.10, which the 2.x packages of the
# main tree refuse. 3.x declares Node >= 22.15; on Node 20 it installs with an EBADENGINE warning
# and runs.
set -euo pipefail
cd "$(dirname "$0")/../test-compat/otel3"
npm ci --no-audit --no-fund --loglevel=error
npx mocha
