#!/usr/bin/env bash
# Static checks of the local observability stack (docker-compose.yml, stack/prometheus.yml), of
# the production tiers (stack/production/) and of the alert rules both load (stack/alerts/).
# No Docker engine needed: Debian's docker-compose 1.29 validates the compose file without a
# daemon, and promtool validates the Prometheus config. Installs both Debian packages when
# missing (CI runs as root). If scripts/e2e.sh has already built Jaeger and the collector, their
# `validate` subcommands also check the configs they run.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "check-stack: installing ${missing[*]} (Debian packages)"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

for f in docker-compose.yml stack/production/docker-compose.yml; do
  echo "check-stack: docker-compose -f $f config -q"
  docker-compose -f "$f" config -q
done

for f in stack/prometheus.yml stack/production/prometheus.yml; do
  echo "check-stack: promtool check config $f"
  promtool check config "$f"
done

# The alert rules (loaded by both Prometheus configs above, which promtool checked with them):
# generated from scripts/generate-alerts.ts, and tested as Prometheus tests rules, with the
# synthetic series of stack/alerts/tool-errors.test.yml.
echo "check-stack: stack/alerts/tool-errors.rules.yml is what npm run alerts:generate writes"
npx --no-install tsx scripts/generate-alerts.ts --check
echo "check-stack: promtool test rules stack/alerts/tool-errors.test.yml"
promtool test rules stack/alerts/tool-errors.test.yml

node -e 'JSON.parse(require("fs").readFileSync("stack/jaeger-ui.json","utf8"))'
echo "check-stack: stack/jaeger-ui.json is valid JSON"

# Optional: the binaries scripts/e2e.sh builds (slow, so not built here) validate the configs
# they run. Jaeger (same version as the compose image) checks its own config; the collector built
# from the builder manifest (cached under the hash of the manifest and the tool_errors
# processor's sources, scripts/collector-build-key.sh), with the contrib image's
# components, checks the local stack's collector config and the production tiers'.
JAEGER_VERSION=$(sed -nE 's#^[[:space:]]*image: jaegertracing/jaeger:([^[:space:]]+).*#\1#p' docker-compose.yml)
JAEGER_BIN="${E2E_CACHE_DIR:-.cache}/bin/jaeger-${JAEGER_VERSION}"
if [ -x "$JAEGER_BIN" ]; then
  echo "check-stack: $JAEGER_BIN validate --config stack/jaeger-config.yaml"
  "$JAEGER_BIN" validate --config stack/jaeger-config.yaml
else
  echo "check-stack: $JAEGER_BIN not built (run npm run test:e2e once); skipping config validation by Jaeger"
fi

COLLECTOR_BIN="${E2E_CACHE_DIR:-.cache}/bin/otelcol-production-$(bash scripts/collector-build-key.sh)"
if [ -x "$COLLECTOR_BIN" ]; then
  for cfg in collector-config.yaml stack/production/agent.yaml stack/production/gateway.yaml; do
    echo "check-stack: $COLLECTOR_BIN validate --config $cfg"
    "$COLLECTOR_BIN" validate --config "$cfg"
  done
  # The single-collector recipe (groupbytrace, then tool_errors) in stack/production/README.md.
  recipe="$(mktemp "${TMPDIR:-/tmp}/single-collector.XXXXXX.yaml")"
  awk '/^### One collector/ { section = 1 } section && /^```yaml/ { inside = 1; next } inside && /^```/ { exit } inside' \
    stack/production/README.md >"$recipe"
  grep -q 'groupbytrace' "$recipe" || { echo "check-stack: no single-collector recipe found in stack/production/README.md" >&2; exit 1; }
  echo "check-stack: $COLLECTOR_BIN validate --config <the single-collector recipe of stack/production/README.md>"
  "$COLLECTOR_BIN" validate --config "$recipe"
  rm -f "$recipe"
else
  echo "check-stack: $COLLECTOR_BIN not built (run npm run test:e2e once); skipping validation of the collector configs"
fi
echo "check-stack: OK"
