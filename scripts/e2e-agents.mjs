#!/usr/bin/env node
// Checks that the failed tool spans of agents in other languages (scripts/python-agents/ and the
// like), which nothing in the apps classifies, reach Jaeger classified by the gateways'
// tool_errors processor, with the agent's secret scrubbed from their status and exception events,
// and that the gateways' span metrics count them by kind.
//
// Environment (set by scripts/e2e.sh):
//   E2E_JAEGER_URL, E2E_GATEWAY_METRICS, E2E_START_MS, E2E_TIMEOUT_S as for e2e-production.mjs
//   E2E_PY_ADK_SERVICE, E2E_PY_LANGGRAPH_SERVICE, E2E_PY_STRANDS_SERVICE,
//   E2E_PY_AGENT_FRAMEWORK_SERVICE, E2E_GO_GENKIT_SERVICE, E2E_JAVA_SPRING_AI_SERVICE
//                                   the agents' service names (an agent whose variable is unset
//                                   is not checked)
//   E2E_AGENT_SECRET               a credential the agents put in their tools' URLs (userinfo or
//                                  query): it must not reach Jaeger on a tool span
const env = process.env;
const JAEGER = env.E2E_JAEGER_URL.replace(/\/$/, '');
const gateways = env.E2E_GATEWAY_METRICS.split(/\s+/).filter(Boolean);
const startMs = Number(env.E2E_START_MS || Date.now() - 15 * 60_000) - 60_000;
const deadline = Date.now() + Number(env.E2E_TIMEOUT_S || 120) * 1000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const secret = env.E2E_AGENT_SECRET;

// What each agent's tools do against the flaky server, and what the collector must write: what
// the same failure gets in JavaScript (503, 429, timeout), and for a refused connection, whose
// Python text states no code, the exception's class (kind network).
// Google ADK writes error.type itself (the class name) when a tool raises; the status its
// exception's text states, or the timeout, replaces it. Its returned error result is recorded with
// content capture on.
const AGENTS = [
  {
    service: env.E2E_PY_ADK_SERVICE,
    span: (tool) => `execute_tool ${tool}`,
    expect: {
      get_weather: { 'error.type': '500', 'tool.error_kind': 'transient' },
      search_news: { 'error.type': '429', 'tool.error_kind': 'rate_limit' },
      get_stock: { 'error.type': 'timeout', 'tool.error_kind': 'timeout' },
      lookup_order: { 'error.type': '503', 'tool.error_kind': 'transient' },
    },
  },
  {
    service: env.E2E_PY_LANGGRAPH_SERVICE,
    span: (tool) => tool,
    expect: {
      get_weather: { 'error.type': '500', 'tool.error_kind': 'transient' },
      search_news: { 'error.type': '429', 'tool.error_kind': 'rate_limit' },
      get_stock: { 'error.type': 'timeout', 'tool.error_kind': 'timeout' },
      lookup_order: { 'error.type': '503', 'tool.error_kind': 'transient' },
    },
  },
  // Strands Agents writes no error.type; a raised error's text is its status description and an
  // exception event (exception.type qualified: httpx.ConnectError). Its returned error result is
  // recorded only in the tool span's gen_ai.choice event, the span OK: the collector reads it.
  {
    service: env.E2E_PY_STRANDS_SERVICE,
    span: (tool) => `execute_tool ${tool}`,
    expect: {
      get_weather: { 'error.type': '503', 'tool.error_kind': 'transient' },
      search_news: { 'error.type': '429', 'tool.error_kind': 'rate_limit' },
      get_stock: { 'error.type': 'timeout', 'tool.error_kind': 'timeout' },
      get_rates: { 'error.type': 'ECONNREFUSED', 'tool.error_kind': 'network' },
      lookup_order: { 'error.type': '503', 'tool.error_kind': 'transient' },
    },
  },
  // Microsoft Agent Framework writes error.type itself, the class name (HTTPStatusError,
  // ReadTimeout, ConnectError); with sensitive data on, the exception's repr and event show the
  // status, timeout or refusal, which replace the class (kept in tool.error_framework_type). Its returned
  // result is recorded in gen_ai.tool.call.result.
  {
    service: env.E2E_PY_AGENT_FRAMEWORK_SERVICE,
    span: (tool) => `execute_tool ${tool}`,
    expect: {
      get_weather: {
        'error.type': '503',
        'tool.error_kind': 'transient',
        'tool.error_framework_type': 'HTTPStatusError',
      },
      search_news: {
        'error.type': '429',
        'tool.error_kind': 'rate_limit',
        'tool.error_framework_type': 'HTTPStatusError',
      },
      get_stock: {
        'error.type': 'timeout',
        'tool.error_kind': 'timeout',
        'tool.error_framework_type': 'ReadTimeout',
      },
      get_rates: {
        'error.type': 'ECONNREFUSED',
        'tool.error_kind': 'network',
        'tool.error_framework_type': 'ConnectError',
      },
      lookup_order: { 'error.type': '503', 'tool.error_kind': 'transient' },
    },
  },
  // Genkit for Go writes no error.type: a failed tool's span (named by the tool, a `tool.v2`
  // action) has status ERROR with the error's text, an exception event whose type is the Go type
  // (`*url.Error`), and genkit:state=error. The status, timeout or refusal is only in that text. Its
  // returned error result is in genkit:output, the tool response's output, the span UNSET.
  {
    service: env.E2E_GO_GENKIT_SERVICE,
    span: (tool) => tool,
    expect: {
      get_weather: { 'error.type': '503', 'tool.error_kind': 'transient' },
      search_news: { 'error.type': '429', 'tool.error_kind': 'rate_limit' },
      get_account: { 'error.type': '401', 'tool.error_kind': 'auth' },
      get_stock: { 'error.type': 'timeout', 'tool.error_kind': 'timeout' },
      get_rates: { 'error.type': 'ECONNREFUSED', 'tool.error_kind': 'network' },
      lookup_order: { 'error.type': '503', 'tool.error_kind': 'transient' },
    },
  },
  // Spring AI (run with spring.ai.tools.throw-exception-on-error=true) writes no error.type: a
  // thrown error ends the execute_tool span with status ERROR and an exception event whose type is
  // its ToolExecutionException, the client's exception under `Caused by:` in its stack. Its
  // returned error result is in spring.ai.tool.call.result (content capture on), the span OK.
  {
    service: env.E2E_JAVA_SPRING_AI_SERVICE,
    span: (tool) => `execute_tool ${tool}`,
    expect: {
      get_weather: { 'error.type': '503', 'tool.error_kind': 'transient' },
      search_news: { 'error.type': '429', 'tool.error_kind': 'rate_limit' },
      get_account: { 'error.type': '401', 'tool.error_kind': 'auth' },
      get_stock: { 'error.type': 'timeout', 'tool.error_kind': 'timeout' },
      get_rates: { 'error.type': 'ECONNREFUSED', 'tool.error_kind': 'network' },
      get_fx: { 'error.type': 'ECONNREFUSED', 'tool.error_kind': 'network' },
      get_quote: { 'error.type': 'timeout', 'tool.error_kind': 'timeout' },
      lookup_order: { 'error.type': '503', 'tool.error_kind': 'transient' },
    },
  },
].filter((agent) => agent.service);

function anyValue(v) {
  for (const k of ['stringValue', 'boolValue', 'intValue', 'doubleValue'])
    if (k in (v || {})) return String(v[k]);
  return undefined;
}

async function jaegerSpans(service) {
  const q = new URLSearchParams({
    'query.service_name': service,
    'query.start_time_min': new Date(startMs).toISOString(),
    'query.start_time_max': new Date(Date.now() + 60_000).toISOString(),
    'query.num_traces': '100',
  });
  const res = await fetch(`${JAEGER}/api/v3/traces?${q}`, { signal: AbortSignal.timeout(30_000) });
  if (res.status === 404) return [];
  if (!res.ok) throw new Error(`Jaeger api_v3 HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`);
  const spans = [];
  for (const rs of (await res.json()).result?.resourceSpans || [])
    for (const ss of rs.scopeSpans || [])
      for (const s of ss.spans || [])
        spans.push({
          name: s.name,
          error: s.status?.code === 2 || s.status?.code === 'STATUS_CODE_ERROR',
          attrs: Object.fromEntries((s.attributes || []).map((a) => [a.key, anyValue(a.value)])),
          // What the processor scrubs: the status and the exception events (a result a framework
          // records, as Strands' gen_ai.choice event, is the app's to redact: its README).
          text: JSON.stringify([s.status?.message, (s.events || []).filter((e) => e.name === 'exception')]),
        });
  return spans;
}

function check(agent, spans) {
  return Object.entries(agent.expect).map(([tool, want]) => {
    const span = spans.find((s) => s.name === agent.span(tool));
    const got = span && Object.fromEntries(Object.keys(want).map((k) => [k, span.attrs[k]]));
    const leaked = Boolean(secret && span?.text.includes(secret));
    const ok = Boolean(span?.error) && !leaked && Object.entries(want).every(([k, v]) => got[k] === v);
    return {
      tool,
      ok,
      detail: span
        ? `${JSON.stringify(got)}, status ${span.error ? 'ERROR' : 'not ERROR'}${leaked ? ', SECRET LEAKED' : ''}`
        : 'no span',
    };
  });
}

const results = [];
function report(ok, name, detail) {
  results.push(ok);
  console.log(`  ${ok ? 'PASS' : 'FAIL'} ${name}: ${detail}`);
}

console.log(`e2e-agents: Jaeger ${JAEGER}`);
for (const agent of AGENTS) {
  let checked = [];
  for (;;) {
    checked = check(agent, await jaegerSpans(agent.service));
    if (checked.every((c) => c.ok) || Date.now() > deadline) break;
    await sleep(2000);
  }
  for (const c of checked) report(c.ok, `${agent.service}: ${agent.span(c.tool)}`, c.detail);
}

// The span metrics (before sampling) count the agents' failures by kind.
const calls = [];
for (const url of gateways) {
  const text = await (await fetch(url, { signal: AbortSignal.timeout(10_000) })).text();
  for (const m of text.matchAll(/^traces_span_metrics_calls_total\{(.*)\} (\S+)$/gm)) {
    const labels = Object.fromEntries(
      [...m[1].matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]),
    );
    calls.push({ labels, value: Number(m[2]) });
  }
}
for (const agent of AGENTS) {
  const kinds = new Set(Object.values(agent.expect).map((w) => w['tool.error_kind']));
  const counted = [...kinds].map((kind) => [
    kind,
    calls
      .filter((c) => c.labels.service_name === agent.service && c.labels.tool_error_kind === kind)
      .reduce((a, c) => a + c.value, 0),
  ]);
  report(
    counted.every(([, n]) => n > 0),
    `${agent.service}: span metrics by tool_error_kind`,
    counted.map(([k, n]) => `${k}=${n}`).join(', '),
  );
}

const passed = results.filter(Boolean).length;
console.log(`e2e-agents: ${passed} passed, ${results.length - passed} failed`);
process.exit(passed === results.length ? 0 : 1);
