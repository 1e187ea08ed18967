#!/usr/bin/env node
// Checks the production tiers (stack/production/) started by scripts/e2e.sh: agent ->
// load_balancing by trace id -> two gateways (span metrics before tail sampling) -> Jaeger.
//
// Environment (all set by scripts/e2e.sh):
//   E2E_JAEGER_URL         Jaeger query HTTP
//   E2E_GATEWAY_METRICS    space-separated Prometheus exporter URLs of the gateways (/metrics)
//   E2E_PROD_DEMO_SERVICE  service name of the demo runs, E2E_PROD_DEMO_RUNS how many (1 trace each)
//   E2E_PROD_BATCH_SERVICE service name of scripts/e2e-batch.mjs, E2E_PROD_OK / E2E_PROD_ERROR its counts
//   E2E_START_MS, E2E_TIMEOUT_S, E2E_EXPECT as for e2e-check.mjs
//
// Passes when: the gateways' span metrics counted every span (all tool calls, before
// sampling) and both gateways got a share; every failed trace reached Jaeger whole (each demo
// run's trace with its failing tools, each error trace of the batch); and 6-14% of the
// successful traces were kept (policy: 10%), each of them whole.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const env = process.env;
const here = dirname(fileURLToPath(import.meta.url));
const JAEGER = env.E2E_JAEGER_URL.replace(/\/$/, '');
const gateways = env.E2E_GATEWAY_METRICS.split(/\s+/).filter(Boolean);
const demoService = env.E2E_PROD_DEMO_SERVICE;
const demoRuns = Number(env.E2E_PROD_DEMO_RUNS);
const batchService = env.E2E_PROD_BATCH_SERVICE;
const okSent = Number(env.E2E_PROD_OK);
const errorSent = Number(env.E2E_PROD_ERROR);
const startMs = Number(env.E2E_START_MS || Date.now() - 15 * 60_000) - 60_000;
const deadline = Date.now() + Number(env.E2E_TIMEOUT_S || 120) * 1000;
const expect = JSON.parse(readFileSync(env.E2E_EXPECT || join(here, 'e2e-expect.json'), 'utf8'));
const failingTools = expect.failing.map((f) => `execute_tool ${f.tool}`);
const KEEP_MIN = 0.06;
const KEEP_MAX = 0.14;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- the gateways' span metrics, read from their Prometheus exporters ----
function parseCalls(text) {
  const out = [];
  for (const line of text.split('\n')) {
    const m = /^traces_span_metrics_calls_total\{(.*)\} (\S+)/.exec(line);
    if (!m) continue;
    const labels = {};
    for (const [, k, v] of m[1].matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[k] = v;
    out.push({ labels, value: Number(m[2]) });
  }
  return out;
}
async function gatewayCalls() {
  return Promise.all(
    gateways.map(async (url) => {
      const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      return parseCalls(await res.text());
    }),
  );
}
const sum = (series, pred) => series.filter((s) => pred(s.labels)).reduce((a, s) => a + s.value, 0);

// ---- Jaeger: the traces it kept, per service ----
function anyValue(v) {
  for (const k of ['stringValue', 'boolValue', 'intValue', 'doubleValue'])
    if (k in (v || {})) return String(v[k]);
  return undefined;
}
async function jaegerTraces(service) {
  const q = new URLSearchParams({
    'query.service_name': service,
    'query.start_time_min': new Date(startMs).toISOString(),
    'query.start_time_max': new Date(Date.now() + 60_000).toISOString(),
    'query.num_traces': '100000',
  });
  const res = await fetch(`${JAEGER}/api/v3/traces?${q}`, { signal: AbortSignal.timeout(30_000) });
  if (res.status === 404) return new Map();
  if (!res.ok) throw new Error(`Jaeger api_v3 HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`);
  const traces = new Map();
  for (const rs of (await res.json()).result?.resourceSpans || []) {
    for (const ss of rs.scopeSpans || []) {
      for (const s of ss.spans || []) {
        const attrs = Object.fromEntries((s.attributes || []).map((a) => [a.key, anyValue(a.value)]));
        const error = s.status?.code === 2 || s.status?.code === 'STATUS_CODE_ERROR';
        if (!traces.has(s.traceId)) traces.set(s.traceId, []);
        traces.get(s.traceId).push({ name: s.name, parent: s.parentSpanId || '', error, attrs });
      }
    }
  }
  return traces;
}

function summarizeBatch(traces) {
  let ok = 0;
  let error = 0;
  const partial = [];
  for (const [id, spans] of traces) {
    const root = spans.find((s) => !s.parent);
    if (spans.length !== 2 || !root) partial.push(`${id} (${spans.length} spans)`);
    else if (root.error) error++;
    else ok++;
  }
  return { ok, error, partial };
}
function summarizeDemo(traces) {
  const whole = [...traces.values()].filter((spans) =>
    failingTools.every((name) => spans.some((s) => s.name === name && s.error && s.attrs['tool.error_kind'])),
  );
  return { traces: traces.size, whole: whole.length };
}

const results = [];
function report(ok, name, detail) {
  results.push(ok);
  console.log(`  ${ok ? 'PASS' : 'FAIL'} ${name}: ${detail}`);
}

console.log(`e2e-production: ${gateways.length} gateways, Jaeger ${JAEGER}`);

// 1. Span metrics count every span, before sampling: all tool calls of the batch, on both gateways.
const batchTool = (l) => l.service_name === batchService && l.span_name === 'execute_tool lookup_order';
let perGateway = [];
for (;;) {
  perGateway = (await gatewayCalls()).map((series) => sum(series, batchTool));
  if (perGateway.reduce((a, b) => a + b, 0) >= okSent + errorSent || Date.now() > deadline) break;
  await sleep(2000);
}
const counted = perGateway.reduce((a, b) => a + b, 0);
report(
  counted === okSent + errorSent && perGateway.every((n) => n > 0),
  'span metrics before sampling',
  `traces_span_metrics_calls_total{span_name="execute_tool lookup_order"} = ${counted} of ${okSent + errorSent} tool calls sent, per gateway [${perGateway.join(', ')}]`,
);
const demoSeries = (await gatewayCalls()).flat();
const demoErrors = sum(
  demoSeries,
  (l) =>
    l.service_name === demoService &&
    l.status_code === 'STATUS_CODE_ERROR' &&
    l.span_name === failingTools[0],
);
report(
  demoErrors === demoRuns,
  'span metrics count the demo failures',
  `${failingTools[0]} with STATUS_CODE_ERROR = ${demoErrors} (demo runs: ${demoRuns})`,
);

// 2. Jaeger gets the sampled traces once the gateways decide (decision_wait): poll until the
// failed traces are all there and the count of kept traces stops changing.
let batch = { ok: 0, error: 0, partial: [] };
let demo = { traces: 0, whole: 0 };
let stableSince = 0;
let lastKey = '';
for (;;) {
  batch = summarizeBatch(await jaegerTraces(batchService));
  demo = summarizeDemo(await jaegerTraces(demoService));
  const key = `${batch.ok}/${batch.error}/${demo.whole}`;
  if (key !== lastKey) {
    lastKey = key;
    stableSince = Date.now();
  }
  const complete = batch.error >= errorSent && demo.whole >= demoRuns;
  if ((complete && Date.now() - stableSince >= 6000) || Date.now() > deadline) break;
  await sleep(2000);
}
const ratio = batch.ok / okSent;
report(
  demo.whole === demoRuns && demo.traces === demoRuns,
  'every demo trace with tool failures kept',
  `${demo.whole}/${demoRuns} traces, each with ${failingTools.join(', ')} as status ERROR with tool.error_kind`,
);
report(
  batch.error === errorSent,
  'every error trace kept',
  `${batch.error}/${errorSent} traces with status ERROR`,
);
report(
  ratio >= KEEP_MIN && ratio <= KEEP_MAX,
  'successful traces sampled at ~10%',
  `${batch.ok}/${okSent} kept (${(ratio * 100).toFixed(1)}%; accepted ${Math.round(KEEP_MIN * 100)}-${Math.round(KEEP_MAX * 100)}%)`,
);
report(
  batch.partial.length === 0,
  'kept traces are whole',
  batch.partial.length
    ? `split traces: ${batch.partial.slice(0, 5).join(', ')}`
    : 'every kept batch trace has its 2 spans',
);
console.log(
  `e2e-production: kept ${demo.whole + batch.error} of ${demoRuns + errorSent} failed traces, sampled ${batch.ok} of ${okSent} successful traces (${(ratio * 100).toFixed(1)}%)`,
);

const passed = results.filter(Boolean).length;
console.log(`e2e-production: ${passed} passed, ${results.length - passed} failed`);
process.exit(passed === results.length ? 0 : 1);
