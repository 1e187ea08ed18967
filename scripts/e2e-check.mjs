#!/usr/bin/env node
// End-to-end assertions against a running Jaeger v2 + Prometheus (started by scripts/e2e.sh).
//
//   node scripts/e2e-check.mjs series   wait until Prometheus has a calls series for every tool
//   node scripts/e2e-check.mjs all      traces in Jaeger + labels in Prometheus + Jaeger error rate
//
// Environment: E2E_JAEGER_URL, E2E_PROM_URL (required); E2E_START_MS (traffic start, ms since
// epoch); E2E_TIMEOUT_S (poll deadline, default 120); E2E_EXPECT (expectations file, default
// scripts/e2e-expect.json); OTEL_SERVICE_NAME (overrides the file's service).
// Every check is polled until it passes or the shared deadline runs out. Exit code 0 only if
// all checks pass; the last line is "e2e: N passed, N failed".
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const env = process.env;
const JAEGER = need('E2E_JAEGER_URL').replace(/\/$/, '');
const PROM = need('E2E_PROM_URL').replace(/\/$/, '');
const expect = JSON.parse(readFileSync(env.E2E_EXPECT || join(here, 'e2e-expect.json'), 'utf8'));
const service = env.OTEL_SERVICE_NAME || expect.service;
const startMs = Number(env.E2E_START_MS || Date.now() - 15 * 60_000) - 60_000;
const deadline = Date.now() + Number(env.E2E_TIMEOUT_S || 120) * 1000;
const POLL_MS = 2000;
const failing = expect.failing || [];
const succeeding = expect.succeeding || [];
const phase = process.argv[2] || 'all';

function need(name) {
  if (!env[name]) {
    console.error(`e2e-check: ${name} is required`);
    process.exit(2);
  }
  return env[name];
}

const op = (tool) => `execute_tool ${tool}`;
const str = (v) => (v === undefined || v === null ? undefined : String(v));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function getJson(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body };
}

// Polls fn until it returns {ok:true}; fn returns {ok, detail}. Gives up at the shared deadline.
async function eventually(name, fn) {
  let last = 'not run';
  for (;;) {
    try {
      const r = await fn();
      last = r.detail;
      if (r.ok) {
        console.log(`  PASS ${name}${r.detail ? `: ${r.detail}` : ''}`);
        return true;
      }
    } catch (e) {
      last = `error: ${e?.cause?.code || e?.message || e}`;
    }
    if (Date.now() > deadline) {
      console.log(`  FAIL ${name}: ${last}`);
      return false;
    }
    await sleep(POLL_MS);
  }
}

// ---- OTLP-JSON helpers (api_v3 returns {"result":{"resourceSpans":[...]}}) ----
function anyValue(v) {
  if (!v || typeof v !== 'object') return undefined;
  for (const k of ['stringValue', 'boolValue', 'intValue', 'doubleValue']) if (k in v) return String(v[k]);
  return JSON.stringify(v);
}
function otlpSpans(body) {
  const out = [];
  for (const rs of body?.result?.resourceSpans || []) {
    for (const ss of rs.scopeSpans || []) {
      for (const s of ss.spans || []) {
        const attrs = {};
        for (const a of s.attributes || []) attrs[a.key] = anyValue(a.value);
        out.push({ traceId: s.traceId, name: s.name, kind: s.kind, status: s.status || {}, attrs });
      }
    }
  }
  return out;
}
const isInternal = (k) => k === 1 || k === 'SPAN_KIND_INTERNAL';
const isError = (st) => st?.code === 2 || st?.code === 'STATUS_CODE_ERROR';

function attrMismatches(attrs, want) {
  const bad = [];
  for (const [k, v] of Object.entries(want))
    if (attrs[k] !== str(v)) bad.push(`${k}=${attrs[k]} (want ${v})`);
  return bad;
}

// ---- Check A: Jaeger trace search by attribute ----
async function checkTraceSearch(f) {
  const key = f.searchBy;
  const value = str(f.attributes[key]);
  const want = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': f.tool,
    ...f.attributes,
  };
  const now = Date.now() + 60_000;

  // api_v3. snake_case parameter names: accepted by Jaeger 2.13 and (as aliases) by 2.19+.
  // query.attributes is applied server-side from Jaeger 2.19 on; older versions ignore it, so
  // the spans are also matched here, a probe with an impossible value tells whether the server
  // filtered, and the v1 tag search below proves server-side search on older versions.
  const v3url = (attrValue) =>
    `${JAEGER}/api/v3/traces?${new URLSearchParams({
      'query.service_name': service,
      'query.start_time_min': new Date(startMs).toISOString(),
      'query.start_time_max': new Date(now).toISOString(),
      'query.num_traces': '1000',
      'query.attributes': JSON.stringify({ [key]: attrValue }),
    })}`;
  const r3 = await getJson(v3url(value));
  if (r3.status === 404) return { ok: false, detail: `api_v3: no traces yet (404)` };
  if (r3.status !== 200) {
    return { ok: false, detail: `api_v3 HTTP ${r3.status}: ${JSON.stringify(r3.body).slice(0, 300)}` };
  }
  const spans = otlpSpans(r3.body);
  const hits = spans.filter((s) => s.name === op(f.tool) && s.attrs[key] === value);
  if (!hits.length) {
    return {
      ok: false,
      detail: `api_v3: no span '${op(f.tool)}' with ${key}=${value} among ${spans.length} spans`,
    };
  }
  const good = hits.find(
    (s) => isInternal(s.kind) && isError(s.status) && !attrMismatches(s.attrs, want).length,
  );
  if (!good) {
    const s = hits[0];
    return {
      ok: false,
      detail: `api_v3: span found but kind=${s.kind} status=${JSON.stringify(s.status)} ${attrMismatches(s.attrs, want).join(', ')}`,
    };
  }
  const matchingTraces = new Set(spans.filter((s) => s.attrs[key] === value).map((s) => s.traceId));
  const probe = await getJson(v3url('e2e-no-such-value'));
  const v3Filtered = probe.status === 404 || (probe.status === 200 && otlpSpans(probe.body).length === 0);

  // v1 HTTP API (internal UI API; exists up to Jaeger 2.20, removed after): server-side tag search.
  const q1 = new URLSearchParams({
    service,
    tags: JSON.stringify({ [key]: value }),
    start: String(startMs * 1000),
    end: String(now * 1000),
    limit: '1000',
  });
  const r1 = await getJson(`${JAEGER}/api/traces?${q1}`);
  let v1 = 'unavailable';
  if (r1.status === 200 && Array.isArray(r1.body?.data)) {
    const traces = r1.body.data;
    const tagOf = (span, k) => str(span.tags?.find((t) => t.key === k)?.value);
    const everyMatches = traces.every((t) => t.spans.some((s) => tagOf(s, key) === value));
    const found = traces.some((t) =>
      t.spans.some(
        (s) => s.operationName === op(f.tool) && tagOf(s, key) === value && tagOf(s, 'error') === 'true',
      ),
    );
    v1 =
      found && everyMatches
        ? 'ok'
        : `mismatch (found=${found}, all traces match=${everyMatches}, traces=${traces.length})`;
  } else if (r1.status !== 404) {
    v1 = `HTTP ${r1.status}`;
  }
  if (!v3Filtered && v1 !== 'ok') {
    return { ok: false, detail: `no server-side filtering proven: api_v3 unfiltered, v1 ${v1}` };
  }
  return {
    ok: true,
    detail: `${good.name} [${Object.entries(f.attributes)
      .map(([k, v]) => `${k}=${v}`)
      .join(
        ' ',
      )}] status ERROR, kind INTERNAL; api_v3 server-side filter: ${v3Filtered ? 'yes' : 'no (older Jaeger)'}, v1 tag search: ${v1}; ${matchingTraces.size} matching trace(s)`,
  };
}

// ---- Check B: Prometheus span metrics with error labels ----
async function promSeries(tool) {
  const sel = `traces_span_metrics_calls_total{service_name="${service}",gen_ai_tool_name="${tool}"}`;
  const r = await getJson(`${PROM}/api/v1/query?${new URLSearchParams({ query: sel })}`);
  if (r.status !== 200 || r.body?.status !== 'success')
    throw new Error(`Prometheus HTTP ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body.data.result.map((x) => x.metric);
}
async function checkPromFailing(f) {
  const series = await promSeries(f.tool);
  const want = {
    span_name: op(f.tool),
    span_kind: 'SPAN_KIND_INTERNAL',
    status_code: 'STATUS_CODE_ERROR',
    error_type: str(f.attributes['error.type']),
    tool_error_kind: str(f.attributes['tool.error_kind']),
  };
  const m = series.find((s) => Object.entries(want).every(([k, v]) => v === undefined || s[k] === v));
  if (!m)
    return {
      ok: false,
      detail: `no series matching ${JSON.stringify(want)}; have ${JSON.stringify(series)}`,
    };
  return {
    ok: true,
    detail: `traces_span_metrics_calls_total{gen_ai_tool_name="${f.tool}",error_type="${m.error_type}",tool_error_kind="${m.tool_error_kind}",status_code="${m.status_code}"}`,
  };
}
async function checkPromSucceeding(tool) {
  const series = await promSeries(tool);
  if (!series.length) return { ok: false, detail: 'no series yet' };
  const bad = series.filter(
    (s) => s.status_code === 'STATUS_CODE_ERROR' || s.error_type || s.tool_error_kind,
  );
  if (bad.length) return { ok: false, detail: `unexpected error series ${JSON.stringify(bad)}` };
  return { ok: true, detail: `${series.length} series, none with status ERROR or error labels` };
}

// ---- Check C: Jaeger Monitor (SPM) error rate per operation ----
async function jaegerErrorRates() {
  const q = new URLSearchParams({
    service,
    spanKind: 'internal',
    groupByOperation: 'true',
    endTs: String(Date.now()),
    lookback: String(10 * 60_000),
    step: '5000',
    ratePer: '60000',
  });
  const r = await getJson(`${JAEGER}/api/metrics/errors?${q}`);
  if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
  const rates = new Map();
  for (const m of r.body?.metrics || []) {
    const label = (m.labels || []).find((l) => l.name === 'operation' || l.name === 'span_name');
    if (!label) continue;
    const values = (m.metricPoints || [])
      .map((p) => Number(p.gaugeValue?.doubleValue ?? p.gaugeValue?.intValue ?? p.gaugeValue))
      .filter((v) => Number.isFinite(v));
    rates.set(label.value, values);
  }
  return rates;
}
async function checkJaegerErrorRate(tool) {
  const rates = await jaegerErrorRates();
  const values = rates.get(op(tool));
  if (!values)
    return {
      ok: false,
      detail: `no '${op(tool)}' row yet; operations: ${JSON.stringify([...rates.keys()])}`,
    };
  const max = Math.max(0, ...values);
  if (!(max > 0)) return { ok: false, detail: `error rate still 0 (${values.length} points)` };
  return { ok: true, detail: `max error rate ${max.toFixed(3)} over ${values.length} points` };
}
async function checkJaegerNoErrorRate(tool) {
  const rates = await jaegerErrorRates();
  const values = rates.get(op(tool)) || [];
  const max = Math.max(0, ...values);
  return max > 0
    ? { ok: false, detail: `error rate ${max} for a succeeding tool` }
    : { ok: true, detail: 'no error rate' };
}

// ---- main ----
const results = [];
const run = async (name, fn) => results.push(await eventually(name, fn));

console.log(`e2e-check (${phase}): service=${service}, Jaeger ${JAEGER}, Prometheus ${PROM}`);
if (phase === 'series') {
  for (const f of failing) await run(`Prometheus series for ${f.tool}`, () => checkPromFailing(f));
  for (const t of succeeding) await run(`Prometheus series for ${t}`, () => checkPromSucceeding(t));
} else if (phase === 'all') {
  for (const f of failing) {
    await run(`Jaeger finds '${op(f.tool)}' by ${f.searchBy}=${f.attributes[f.searchBy]}`, () =>
      checkTraceSearch(f),
    );
  }
  for (const f of failing) await run(`Prometheus labels for ${f.tool}`, () => checkPromFailing(f));
  for (const t of succeeding) await run(`Prometheus labels for ${t}`, () => checkPromSucceeding(t));
  for (const f of failing)
    await run(`Jaeger Monitor error rate > 0 for '${op(f.tool)}'`, () => checkJaegerErrorRate(f.tool));
  for (const t of succeeding)
    await run(`Jaeger Monitor no error rate for '${op(t)}'`, () => checkJaegerNoErrorRate(t));
} else {
  console.error(`e2e-check: unknown phase '${phase}' (use 'series' or 'all')`);
  process.exit(2);
}
const passed = results.filter(Boolean).length;
const failed = results.length - passed;
console.log(`${phase === 'all' ? 'e2e' : 'e2e-series'}: ${passed} passed, ${failed} failed`);
process.exit(failed || !results.length ? 1 : 0);
