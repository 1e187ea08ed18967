#!/usr/bin/env bash
# Static checks of the local observability stack (docker-compose.yml, stack/prometheus.yml) and
# of the production tiers (stack/production/).
# No Docker engine needed: Debian's docker-compose 1.29 validates the compose file without a
# daemon, and promtool validates the Prometheus config. Installs both Debian packages when
# missing (CI runs as root). If scripts/e2e.sh has already built the Jaeger binary, its
# `validate` subcommand also checks the collector and Jaeger configs.
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

node -e 'JSON.parse(require("fs").readFileSync("stack/jaeger-ui.json","utf8"))'
echo "check-stack: stack/jaeger-ui.json is valid JSON"

# Optional: the real Jaeger binary (same version as the compose image) validates both
# collector-style configs. Built by scripts/e2e.sh; not built here because it is slow.
JAEGER_VERSION=$(sed -nE 's#^[[:space:]]*image: jaegertracing/jaeger:([^[:space:]]+).*#\1#p' docker-compose.yml)
JAEGER_BIN="${E2E_CACHE_DIR:-.cache}/bin/jaeger-${JAEGER_VERSION}"
if [ -x "$JAEGER_BIN" ]; then
  for cfg in collector-config.yaml stack/jaeger-config.yaml; do
    echo "check-stack: $JAEGER_BIN validate --config $cfg"
    "$JAEGER_BIN" validate --config "$cfg"
  done
else
  echo "check-stack: $JAEGER_BIN not built (run npm run test:e2e once); skipping config validation by Jaeger"
fi

# Optional too: the production tiers' collector, built by scripts/e2e.sh from the builder
# manifest (cached under the manifest's hash), validates agent.yaml and gateway.yaml.
PROD_BIN="${E2E_CACHE_DIR:-.cache}/bin/otelcol-production-$(sha256sum stack/production/otelcol-builder.yaml | cut -c1-12)"
if [ -x "$PROD_BIN" ]; then
  for cfg in stack/production/agent.yaml stack/production/gateway.yaml; do
    echo "check-stack: $PROD_BIN validate --config $cfg"
    "$PROD_BIN" validate --config "$cfg"
  done
else
  echo "check-stack: $PROD_BIN not built (run npm run test:e2e once); skipping validation of stack/production/"
fi
echo "check-stack: OK"
