#!/usr/bin/env bash
# Prints the cache key of the production collector build: a hash of the builder manifest and of
# the tool_errors processor's sources (its Go files, go.mod, go.sum and embedded rules), so that
# a change to either builds the collector again. Used by scripts/e2e.sh and scripts/check-stack.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
{
  sha256sum stack/production/otelcol-builder.yaml
  find collector/toolerrorprocessor -type f \( -name '*.go' ! -name '*_test.go' -o -name go.mod -o -name go.sum -o -name '*.json' \) -print0 |
    sort -z | xargs -0 sha256sum
} | sha256sum | cut -c1-12
