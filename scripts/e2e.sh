#!/usr/bin/env bash
# End-to-end proof against real backends, no Docker needed:
#   traffic (npm run demo) --OTLP/HTTP--> collector --> Jaeger (memory storage, web UI)
#                                           \-> span_metrics --> :8889 <-- Prometheus <-- Jaeger SPM
# The collector is built with the OpenTelemetry Collector Builder from
# stack/production/otelcol-builder.yaml: the components of the contrib image docker-compose.yml
# pins, at its version. Jaeger is the v2 binary built from its Go module. Both are built from
# source with Go and cached (E2E_CACHE_DIR). They run the configs this repo ships
# (collector-config.yaml, stack/jaeger-config.yaml, stack/prometheus.yml); the only differences
# are the sed substitutions below, applied to copies in a temp dir. Jaeger serves the web UI from
# the built Jaeger UI assets (E2E_JAEGER_UI), which the Go module does not contain.
#
# Then scripts/e2e-check.mjs asserts, against the live servers (see scripts/e2e-expect.json):
#   1. Jaeger search finds the failing execute_tool spans by error.type / tool.error_kind,
#      with the expected tool name, kind INTERNAL and status ERROR;
#   2. Prometheus has traces_span_metrics_calls_total series with error_type and tool_error_kind;
#   3. Jaeger's Monitor API (/api/metrics/errors, spanKind=internal) reports an error rate > 0;
#   4. every PromQL query of the README, docs/jaeger.md and docs/dashboards.md returns series with the labels it
#      groups by (scripts/e2e-promql.mjs);
#   5. in headless Chromium, Prometheus's web UI charts three of those queries with the
#      expected series (scripts/e2e-browser.mjs, screenshots saved);
#   6. in headless Chromium, Jaeger's own pages: Search by error.type and tool.error_kind, a
#      failed tool span in its trace, the Monitor tab switched to span kind Internal
#      (scripts/e2e-jaeger-ui.mjs, screenshots saved).
#   7. the alert rules of stack/alerts/ (loaded by that Prometheus): the demo's auth failure fires
#      ToolErrorsAuth and its rate_limit failures ToolErrorsRateLimitFastBurn, once each, from the
#      package's own metrics, in /api/v1/alerts and on the Alerts page in headless Chromium
#      (scripts/e2e-alerts.mjs, screenshot saved).
#
# Then the production tiers (stack/production/) run in the same collector build:
#   traffic --> agent --load_balancing by trace id--> gateway 1, gateway 2 --> Jaeger
#                                                     (span metrics, then tail sampling)
# and scripts/e2e-production.mjs checks that every failed trace is kept, ~10% of the successful
# ones, and that span metrics counted every span before sampling (kept/sampled counts printed).
# Then Google ADK, LangGraph, Strands Agents and Microsoft Agent Framework agents in Python
# (scripts/python-agents/, a cached virtual environment), a Genkit for Go agent
# (scripts/go-agent/, a cached binary) and a Spring AI agent (scripts/java-agent/, a cached jar)
# send their failing tool calls through the same tiers, and scripts/e2e-agents.mjs checks that Jaeger has them with error.type and tool.error_kind written by the gateways'
# tool_errors processor, and that span metrics count them by kind; scripts/e2e-attempts.mjs that a
# Strands agent's call retried after a 503 is numbered as an attempt of it by the gateways, and
# left out of the failures that stayed in their span metrics.
#
# Environment:
#   E2E_TRAFFIC_CMD   traffic generator (default: npm run demo). It gets
#                     OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:<collector OTLP/HTTP port>
#                     and OTEL_SERVICE_NAME (default otel-tool-errors-demo). It runs twice.
#   E2E_EXPECT        expectations file (default scripts/e2e-expect.json)
#   E2E_TIMEOUT_S     how long each check phase polls (default 120)
#   E2E_CACHE_DIR     where bin/jaeger-<version> and bin/otelcol-production-<build key> are
#                     cached (the key: scripts/collector-build-key.sh) (default .cache; e.g. a directory
#                     outside the checkout lets fresh CI clones skip the build)
#   E2E_COLLECTOR_BIN binary for the single collector (default: the builder's build above)
#   E2E_JAEGER_UI     the built Jaeger UI (default ../shared/jaeger-ui beside the checkout, as in
#                     CI). Without it the Jaeger pages are skipped with a message; with CI=true
#                     a missing UI fails the run.
#   E2E_SCREENSHOT_DIR where the browser checks save their PNGs (default: the temp dir;
#                     E2E_SCREENSHOT_DIR=docs/images refreshes the ones the docs show)
#   E2E_CHROMIUM      the Chromium binary (default: Debian's chromium, installed if missing)
#   E2E_KEEP=1        keep the temp dir with configs and logs
#   E2E_PREPARE_ONLY=1 only build and install what the suite needs (cached), then exit
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

# Jaeger release under test. JAEGER_VERSION MUST equal the jaegertracing/jaeger image tag in
# docker-compose.yml (checked below): this run is what proves the configs that image loads.
# Jaeger's Go module path has no /v2, so each v2 release is fetched by its Go module version:
# release v2.13.0 was tagged v1.76.0 on the same commit, the last v1 tag. A later release
# (e.g. v2.20.0 = commit 798e4b0fcf22609e381df764a01461affd813e1e) can only be fetched as a
# pseudo-version, and the Go module proxy our machines use refuses that commit ("403 This module
# version is not available"), so 2.13.0 is the newest Jaeger v2 this script can build. To move
# on, change both lines here and the compose image tag together.
JAEGER_VERSION="2.13.0"
JAEGER_MODULE_VERSION="v1.76.0"
JAEGER_MODULE="github.com/jaegertracing/jaeger"

CACHE="${E2E_CACHE_DIR:-$ROOT/.cache}"
JAEGER_BIN="$CACHE/bin/jaeger-$JAEGER_VERSION"
SERVICE="${OTEL_SERVICE_NAME:-otel-tool-errors-demo}"
TRAFFIC_CMD="${E2E_TRAFFIC_CMD:-npm run demo}"

log() { echo "e2e: $*"; }
die() { echo "e2e: FAILED: $*" >&2; exit 1; }

if ! grep -Eq "image: jaegertracing/jaeger:${JAEGER_VERSION//./\\.}([[:space:]]|$)" docker-compose.yml; then
  die "docker-compose.yml does not pin jaegertracing/jaeger:${JAEGER_VERSION}; keep it and JAEGER_VERSION in scripts/e2e.sh equal"
fi

# The Jaeger UI assets: Jaeger's Go module has none (its binary serves a placeholder page).
JAEGER_UI="${E2E_JAEGER_UI:-$ROOT/../shared/jaeger-ui}"
if [ -f "$JAEGER_UI/index.html" ]; then
  JAEGER_UI="$(cd "$JAEGER_UI" && pwd)"
elif [ "${CI:-}" = true ]; then
  die "no built Jaeger UI at $JAEGER_UI (index.html missing); CI must provide it, or set E2E_JAEGER_UI"
else
  log "Jaeger's web pages will be skipped: no built Jaeger UI at $JAEGER_UI (set E2E_JAEGER_UI to a folder with its index.html)"
  JAEGER_UI=""
fi

if ! command -v go >/dev/null 2>&1; then
  log "skipped: no Go toolchain (needed to build Jaeger ${JAEGER_VERSION})"
  exit 0
fi

# ---- 1. Jaeger binary, built once and cached ----
if [ ! -x "$JAEGER_BIN" ]; then
  log "building Jaeger ${JAEGER_VERSION} (${JAEGER_MODULE}@${JAEGER_MODULE_VERSION}); a cold build takes minutes"
  t0=$(date +%s)
  # `go install module@version` refuses modules whose go.mod has replace directives (v1.76.0
  # has one), so download the module and build it as the main module instead.
  src_dir=$(GOFLAGS=-mod=mod go mod download -json "${JAEGER_MODULE}@${JAEGER_MODULE_VERSION}" |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);if(j.Error){console.error(j.Error);process.exit(1)}console.log(j.Dir)})') ||
    die "go mod download ${JAEGER_MODULE}@${JAEGER_MODULE_VERSION} failed"
  # Private build dir outside the repo; only the finished binary goes into .cache/bin.
  build_dir="$(mktemp -d "${TMPDIR:-/tmp}/jaeger-build.XXXXXX")"
  cp -r "$src_dir/." "$build_dir"
  chmod -R u+w "$build_dir"
  mkdir -p "$CACHE/bin"
  if ! (cd "$build_dir" && GOFLAGS="-mod=mod -buildvcs=false" go build \
    -ldflags "-X ${JAEGER_MODULE}/internal/version.latestVersion=v${JAEGER_VERSION}" \
    -o "$build_dir/jaeger" ./cmd/jaeger); then
    rm -rf "$build_dir"
    die "building Jaeger ${JAEGER_VERSION} failed"
  fi
  mv "$build_dir/jaeger" "$JAEGER_BIN.tmp.$$"
  mv "$JAEGER_BIN.tmp.$$" "$JAEGER_BIN"
  rm -rf "$build_dir"
  log "built $JAEGER_BIN in $(($(date +%s) - t0))s"
else
  log "using cached $JAEGER_BIN"
fi

# ---- 1b. The collector, built once per builder manifest and cached ----
# The compose file's otel/opentelemetry-collector-contrib image is not available without Docker,
# so the collector configs run in a build with its components at its version, made by the
# OpenTelemetry Collector Builder. Its version must be one the Go module proxy serves, like the
# manifest's component versions.
OCB_VERSION="0.159.0"
PROD_MANIFEST="stack/production/otelcol-builder.yaml"
if ! grep -Eq "image: otel/opentelemetry-collector-contrib:${OCB_VERSION//./\\.}([[:space:]]|$)" docker-compose.yml ||
  ! grep -Eq "^  version: ${OCB_VERSION//./\\.}$" "$PROD_MANIFEST"; then
  die "docker-compose.yml's contrib image, ${PROD_MANIFEST} and OCB_VERSION in scripts/e2e.sh must name the same collector release (${OCB_VERSION})"
fi
# Keyed by the manifest and the tool_errors processor's sources: a change to either rebuilds.
PROD_BIN="$CACHE/bin/otelcol-production-$(bash scripts/collector-build-key.sh)"
if [ ! -x "$PROD_BIN" ]; then
  log "building the collector (builder v${OCB_VERSION}, ${PROD_MANIFEST}); a cold build takes minutes"
  t0=$(date +%s)
  build_dir="$(mktemp -d "${TMPDIR:-/tmp}/otelcol-build.XXXXXX")"
  GOBIN="$build_dir/bin" go install "go.opentelemetry.io/collector/cmd/builder@v${OCB_VERSION}" ||
    die "installing the OpenTelemetry Collector Builder v${OCB_VERSION} failed"
  # output_path in the manifest is relative: the sources and the binary land in build_dir. The
  # processor's `replaces` path (../collector/toolerrorprocessor from the output directory) is
  # this repository's, through a link.
  ln -s "$ROOT/collector" "$build_dir/collector"
  if ! (cd "$build_dir" && "$build_dir/bin/builder" --config "$ROOT/$PROD_MANIFEST" >"$build_dir/builder.log" 2>&1); then
    tail -n 40 "$build_dir/builder.log" >&2
    rm -rf "$build_dir"
    die "building the collector failed"
  fi
  mkdir -p "$CACHE/bin"
  mv "$build_dir/otelcol-production/otelcol-production" "$PROD_BIN.tmp.$$"
  mv "$PROD_BIN.tmp.$$" "$PROD_BIN"
  rm -rf "$build_dir"
  log "built $PROD_BIN in $(($(date +%s) - t0))s"
else
  log "using cached $PROD_BIN"
fi

# ---- 1c. The Python agents' virtual environment, installed once and cached ----
# Google ADK, LangGraph (with OpenInference's LangChain instrumentation), Strands Agents and
# Microsoft Agent Framework agents, each traced by its own instrumentation, whose failed
# tool spans only the gateways' tool_errors processor classifies (scripts/python-agents/).
if command -v python3 >/dev/null 2>&1; then
  PYTHON_AGENTS="$(E2E_CACHE_DIR="$CACHE" bash scripts/python-agents/setup.sh)" ||
    die "installing the Python agents failed (scripts/python-agents/setup.sh)"
  log "Python agents: $PYTHON_AGENTS"
else
  PYTHON_AGENTS=""
  log "the Python agents will be skipped: no python3 on PATH"
fi

# ---- 1d. The Genkit for Go agent, built once and cached ----
# Genkit's own tool spans, traced by the OpenTelemetry Go SDK, which only the gateways'
# tool_errors processor classifies (scripts/go-agent/).
if command -v go >/dev/null 2>&1; then
  GO_AGENT="$(E2E_CACHE_DIR="$CACHE" bash scripts/go-agent/setup.sh)" ||
    die "building the Genkit for Go agent failed (scripts/go-agent/setup.sh)"
  log "Genkit for Go agent: $GO_AGENT"
else
  GO_AGENT=""
  log "the Genkit for Go agent will be skipped: no go on PATH"
fi

# ---- 1e. The Spring AI agent, built once and cached ----
# Spring AI's tool-call observations, exported as spans by Spring Boot's OpenTelemetry starter,
# which only the gateways' tool_errors processor classifies (scripts/java-agent/).
if command -v java >/dev/null 2>&1 && command -v mvn >/dev/null 2>&1; then
  JAVA_AGENT="$(E2E_CACHE_DIR="$CACHE" bash scripts/java-agent/setup.sh)" ||
    die "building the Spring AI agent failed (scripts/java-agent/setup.sh)"
  log "Spring AI agent: $JAVA_AGENT"
else
  JAVA_AGENT=""
  log "the Spring AI agent will be skipped: no java or mvn on PATH"
fi

# ---- 2. Prometheus (Debian package) ----
if ! command -v prometheus >/dev/null 2>&1; then
  log "installing prometheus (Debian package)"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends prometheus >/dev/null
fi

# ---- 2b. Chromium (Debian package), for the dashboard pages in a real browser ----
if [ -z "${E2E_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  log "installing chromium (Debian package)"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
export E2E_CHROMIUM="${E2E_CHROMIUM:-$(command -v chromium)}"

# Everything above is built or installed once and cached: .ci/run prepares it in the background
# while the mocha suites run (E2E_PREPARE_ONLY=1), and the run proper finds it ready.
if [ "${E2E_PREPARE_ONLY:-}" = 1 ]; then
  log "prepared: every binary and environment the suite runs is built and installed"
  exit 0
fi

# ---- 3. Configs: the shipped files plus small substitutions, in a temp dir ----
WORK="$(mktemp -d "${TMPDIR:-/tmp}/otel-tool-errors-e2e.XXXXXX")"
PIDS=()
NAMES=()
OK=0

cleanup() {
  local rc=$?
  for i in "${!PIDS[@]}"; do
    kill "${PIDS[$i]}" 2>/dev/null || true
  done
  for i in "${!PIDS[@]}"; do
    wait "${PIDS[$i]}" 2>/dev/null || true
  done
  if [ "$OK" != 1 ]; then
    for n in "${NAMES[@]}"; do
      echo "----- $n log (last 80 lines) -----" >&2
      tail -n 80 "$WORK/$n.log" >&2 || true
    done
    echo "e2e: configs and logs kept in $WORK" >&2
  elif [ "${E2E_KEEP:-}" = 1 ]; then
    log "configs and logs kept in $WORK"
  else
    rm -rf "$WORK"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The collectors, Jaeger and Prometheus share one host, so every listener gets a free 127.0.0.1
# port instead of the compose file's 0.0.0.0 + fixed port.
read -r COL_GRPC COL_HTTP COL_PROM J_OTLP J_HTTP J_GRPC J_HEALTH PROM_PORT \
  AG_GRPC AG_HTTP AG_HEALTH GW1_GRPC GW1_PROM GW1_HEALTH GW2_GRPC GW2_PROM GW2_HEALTH < <(node -e '
  const net = require("net"); const ports = []; const servers = [];
  (async () => { for (let i = 0; i < 17; i++) { const s = net.createServer(); servers.push(s);
    await new Promise((r) => s.listen(0, "127.0.0.1", r)); ports.push(s.address().port); }
    servers.forEach((s) => s.close()); console.log(ports.join(" ")); })();')

# collector-config.yaml: listen on loopback ports; the compose service name `jaeger` becomes
# Jaeger's loopback OTLP port; flush span metrics every 1s instead of 15s.
sed -e "s#0\.0\.0\.0:4317#127.0.0.1:${COL_GRPC}#" \
  -e "s#0\.0\.0\.0:4318#127.0.0.1:${COL_HTTP}#" \
  -e "s#0\.0\.0\.0:8889#127.0.0.1:${COL_PROM}#" \
  -e "s#endpoint: jaeger:4317#endpoint: 127.0.0.1:${J_OTLP}#" \
  -e "s#metrics_flush_interval: 15s#metrics_flush_interval: 1s#" \
  collector-config.yaml >"$WORK/collector-config.yaml"

# stack/jaeger-config.yaml: loopback ports; the compose service name `prometheus` becomes the
# local Prometheus; the UI config path inside the container becomes the repo file, and the UI
# assets the official image embeds come from the built Jaeger UI.
ui_assets=""
if [ -n "$JAEGER_UI" ]; then ui_assets="\\n\\1assets_path: ${JAEGER_UI}"; fi
sed -e "s#0\.0\.0\.0:4317#127.0.0.1:${J_OTLP}#" \
  -e "s#0\.0\.0\.0:16686#127.0.0.1:${J_HTTP}#" \
  -e "s#0\.0\.0\.0:16685#127.0.0.1:${J_GRPC}#" \
  -e "s#0\.0\.0\.0:13133#127.0.0.1:${J_HEALTH}#" \
  -e "s#http://prometheus:9090#http://127.0.0.1:${PROM_PORT}#" \
  -e "s#^\\( *\\)config_file: /etc/jaeger/jaeger-ui.json#\\1config_file: ${ROOT}/stack/jaeger-ui.json${ui_assets}#" \
  stack/jaeger-config.yaml >"$WORK/jaeger-config.yaml"
if [ -n "$JAEGER_UI" ] && ! grep -q "assets_path: ${JAEGER_UI}\$" "$WORK/jaeger-config.yaml"; then
  die "assets_path was not added to jaeger-config.yaml; update scripts/e2e.sh with the config"
fi

# stack/prometheus.yml: scrape the collector on loopback, every 1s instead of 5s, and evaluate
# the rules every 1s. Its rule_files path is relative, so the alert rules go beside the copy,
# unchanged.
sed -e "s#otel-collector:8889#127.0.0.1:${COL_PROM}#" \
  -e "s#scrape_interval: 5s#scrape_interval: 1s#" \
  -e "s#evaluation_interval: 5s#evaluation_interval: 1s#" \
  stack/prometheus.yml >"$WORK/prometheus.yml"
mkdir -p "$WORK/alerts"
cp stack/alerts/tool-errors.rules.yml "$WORK/alerts/"

# stack/production/gateway.yaml, twice: loopback ports, Jaeger as backend, span
# metrics flushed every 1s, tail-sampling decisions after 2s instead of 10s.
for n in 1 2; do
  eval "gw_grpc=\$GW${n}_GRPC gw_prom=\$GW${n}_PROM gw_health=\$GW${n}_HEALTH"
  sed -e "s#0\.0\.0\.0:4317#127.0.0.1:${gw_grpc}#" \
    -e "s#0\.0\.0\.0:8889#127.0.0.1:${gw_prom}#" \
    -e "s#0\.0\.0\.0:13133#127.0.0.1:${gw_health}#" \
    -e "s#endpoint: jaeger:4317#endpoint: 127.0.0.1:${J_OTLP}#" \
    -e "s#metrics_flush_interval: 15s#metrics_flush_interval: 1s#" \
    -e "s#decision_wait: 10s#decision_wait: 2s#" \
    stack/production/gateway.yaml >"$WORK/gateway-$n.yaml"
done

# stack/production/agent.yaml: loopback ports; the dns resolver (name `otel-gateway`, every
# replica's address) becomes a static list of the two gateways' loopback ports.
sed -e "s#0\.0\.0\.0:4317#127.0.0.1:${AG_GRPC}#" \
  -e "s#0\.0\.0\.0:4318#127.0.0.1:${AG_HTTP}#" \
  -e "s#0\.0\.0\.0:13133#127.0.0.1:${AG_HEALTH}#" \
  -e "/^      dns:\$/,/^        port: '4317'\$/c\\
      static:\\
        hostnames: [127.0.0.1:${GW1_GRPC}, 127.0.0.1:${GW2_GRPC}]" \
  stack/production/agent.yaml >"$WORK/agent.yaml"

# Guard against config drift: every substitution must have applied.
if grep -nE '0\.0\.0\.0|jaeger:4317|prometheus:9090|otel-collector|otel-gateway|/etc/jaeger|: (15|10|5)s' \
  "$WORK/collector-config.yaml" "$WORK/jaeger-config.yaml" "$WORK/prometheus.yml" \
  "$WORK/gateway-1.yaml" "$WORK/gateway-2.yaml" "$WORK/agent.yaml"; then
  die "a substitution did not apply to the lines above; update scripts/e2e.sh with the config"
fi

# ---- 4. Start the three servers ----
start() { # name, command...
  local name="$1"
  shift
  "$@" >"$WORK/$name.log" 2>&1 &
  PIDS+=("$!")
  NAMES+=("$name")
  log "started $name (pid $!)"
}
wait_http() { # name, url
  local name="$1" url="$2" i
  for i in $(seq 1 120); do
    if node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$url"; then
      return 0
    fi
    for j in "${!PIDS[@]}"; do
      kill -0 "${PIDS[$j]}" 2>/dev/null || die "${NAMES[$j]} exited early"
    done
    sleep 0.5
  done
  die "$name not ready at $url after 60s"
}

# Jaeger and every collector would serve their own metrics on localhost:8888; none is needed.
NO_SELF_METRICS=(--set=service.telemetry.metrics.level=none)

start prometheus prometheus --config.file="$WORK/prometheus.yml" \
  --storage.tsdb.path="$WORK/prometheus-data" --web.listen-address="127.0.0.1:${PROM_PORT}"
start jaeger "$JAEGER_BIN" --config "$WORK/jaeger-config.yaml" "${NO_SELF_METRICS[@]}"
wait_http prometheus "http://127.0.0.1:${PROM_PORT}/-/ready"
wait_http jaeger "http://127.0.0.1:${J_HEALTH}/status"
# Like compose's depends_on: the collector starts once Jaeger is up (else the first export
# waits for a retry).
start collector "${E2E_COLLECTOR_BIN:-$PROD_BIN}" --config "$WORK/collector-config.yaml" "${NO_SELF_METRICS[@]}"
wait_http collector "http://127.0.0.1:${COL_PROM}/metrics"
log "ready: collector OTLP/HTTP 127.0.0.1:${COL_HTTP}, Jaeger http://127.0.0.1:${J_HTTP}, Prometheus http://127.0.0.1:${PROM_PORT}"

# ---- 5. Traffic and checks ----
export E2E_JAEGER_URL="http://127.0.0.1:${J_HTTP}"
export E2E_PROM_URL="http://127.0.0.1:${PROM_PORT}"
export E2E_START_MS
E2E_START_MS="$(node -p 'Date.now()')"
export OTEL_SERVICE_NAME="$SERVICE"

traffic() { # name [OTLP/HTTP port] [command]
  local port="${2:-$COL_HTTP}" cmd="${3:-$TRAFFIC_CMD}"
  log "traffic ($1): $cmd"
  OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:${port}" OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf \
    bash -c "$cmd" >"$WORK/traffic-$1.log" 2>&1 ||
    { cat "$WORK/traffic-$1.log" >&2; die "traffic generator failed: $cmd"; }
}

t_start=$(date +%s)
traffic 1
# Prometheus' rate() ignores a counter's first value, so the error rate in Jaeger's Monitor
# tab only becomes non-zero once the counters grow: wait until the series exist, then run
# the traffic again.
node scripts/e2e-check.mjs series
traffic 2
# The app's own metrics need a process whose counters grow between exports (rate() over a
# one-shot process's counters is 0): the demo's agent again, as a service, two rounds.
OTEL_METRIC_EXPORT_INTERVAL=1000 traffic service "$COL_HTTP" \
  "node --import otel-tool-errors/register scripts/e2e-service.mjs 2"
node scripts/e2e-check.mjs all
node scripts/e2e-promql.mjs
export E2E_SCREENSHOT_DIR="${E2E_SCREENSHOT_DIR:-$WORK/screenshots}"
node scripts/e2e-browser.mjs
if [ -n "$JAEGER_UI" ]; then
  node scripts/e2e-jaeger-ui.mjs
else
  log "Jaeger's web pages skipped: no built Jaeger UI (see E2E_JAEGER_UI)"
fi
# The alert rules on the same traffic: the demo's 401 pages (auth), its 429s burn the
# rate_limit budget of search_web, in Prometheus's API and on its Alerts page.
node scripts/e2e-alerts.mjs
log "single collector passed in $(($(date +%s) - t_start))s after the servers were ready"

# ---- 6. Production tiers: agent -> load balancing by trace id -> 2 gateways -> Jaeger ----
t_start=$(date +%s)
start gateway-1 "$PROD_BIN" --config "$WORK/gateway-1.yaml" "${NO_SELF_METRICS[@]}"
start gateway-2 "$PROD_BIN" --config "$WORK/gateway-2.yaml" "${NO_SELF_METRICS[@]}"
wait_http gateway-1 "http://127.0.0.1:${GW1_HEALTH}/"
wait_http gateway-2 "http://127.0.0.1:${GW2_HEALTH}/"
start agent "$PROD_BIN" --config "$WORK/agent.yaml" "${NO_SELF_METRICS[@]}"
wait_http agent "http://127.0.0.1:${AG_HEALTH}/"

# Own service names, so the counts in Jaeger are this part's alone. The demo's traces are the
# failed ones; the batch adds successful traces (about 10% kept) and traces whose only error
# is a non-tool span's status (kept by the status policy).
export E2E_PROD_DEMO_SERVICE="${SERVICE}-production" E2E_PROD_DEMO_RUNS=2
export E2E_PROD_BATCH_SERVICE="${SERVICE}-production-batch" E2E_PROD_OK=1000 E2E_PROD_ERROR=20
export E2E_GATEWAY_METRICS="http://127.0.0.1:${GW1_PROM}/metrics http://127.0.0.1:${GW2_PROM}/metrics"
for i in $(seq 1 "$E2E_PROD_DEMO_RUNS"); do
  OTEL_SERVICE_NAME="$E2E_PROD_DEMO_SERVICE" traffic "production-$i" "$AG_HTTP"
done
# The batch queues 2,040 spans at once; the default span queue (2,048) is just too small.
OTEL_SERVICE_NAME="$E2E_PROD_BATCH_SERVICE" OTEL_BSP_MAX_QUEUE_SIZE=10000 traffic production-batch "$AG_HTTP" \
  "node --import otel-tool-errors/register scripts/e2e-batch.mjs $E2E_PROD_OK $E2E_PROD_ERROR"
node scripts/e2e-production.mjs
# Python agents through the same tiers: nothing in them classifies their failures; the gateways'
# tool_errors processor does, before span metrics and tail sampling.
# A credential the agents put in their tools' URLs: the processor must scrub it from every tool
# span's status and exception events (scripts/e2e-agents.mjs).
export E2E_AGENT_SECRET="e2e-secret-5b7d0c9a"
if [ -n "$PYTHON_AGENTS" ]; then
  export E2E_PY_ADK_SERVICE="${SERVICE}-python-adk" E2E_PY_LANGGRAPH_SERVICE="${SERVICE}-python-langgraph"
  export E2E_PY_STRANDS_SERVICE="${SERVICE}-python-strands" E2E_PY_AGENT_FRAMEWORK_SERVICE="${SERVICE}-python-agent-framework"
  OTEL_SERVICE_NAME="$E2E_PY_ADK_SERVICE" traffic python-adk "$AG_HTTP" "$PYTHON_AGENTS scripts/python-agents/adk_agent.py"
  OTEL_SERVICE_NAME="$E2E_PY_LANGGRAPH_SERVICE" traffic python-langgraph "$AG_HTTP" \
    "$PYTHON_AGENTS scripts/python-agents/langgraph_agent.py"
  OTEL_SERVICE_NAME="$E2E_PY_STRANDS_SERVICE" traffic python-strands "$AG_HTTP" \
    "$PYTHON_AGENTS scripts/python-agents/strands_agent.py"
  OTEL_SERVICE_NAME="$E2E_PY_AGENT_FRAMEWORK_SERVICE" traffic python-agent-framework "$AG_HTTP" \
    "$PYTHON_AGENTS scripts/python-agents/agent_framework_agent.py"
  # A retried call, which the gateways number as an attempt (scripts/e2e-attempts.mjs).
  export E2E_PY_STRANDS_RETRY_SERVICE="${SERVICE}-python-strands-retry"
  OTEL_SERVICE_NAME="$E2E_PY_STRANDS_RETRY_SERVICE" traffic python-strands-retry "$AG_HTTP" \
    "$PYTHON_AGENTS scripts/python-agents/strands_retry_agent.py"
fi
if [ -n "$GO_AGENT" ]; then
  export E2E_GO_GENKIT_SERVICE="${SERVICE}-go-genkit"
  OTEL_SERVICE_NAME="$E2E_GO_GENKIT_SERVICE" traffic go-genkit "$AG_HTTP" "$GO_AGENT"
fi
if [ -n "$JAVA_AGENT" ]; then
  export E2E_JAVA_SPRING_AI_SERVICE="${SERVICE}-java-spring-ai"
  OTEL_SERVICE_NAME="$E2E_JAVA_SPRING_AI_SERVICE" traffic java-spring-ai "$AG_HTTP" "$JAVA_AGENT"
fi
if [ -n "$PYTHON_AGENTS$GO_AGENT$JAVA_AGENT" ]; then
  node scripts/e2e-agents.mjs
fi
if [ -n "$PYTHON_AGENTS" ]; then
  node scripts/e2e-attempts.mjs
fi
OK=1
log "production tiers passed in $(($(date +%s) - t_start))s"
