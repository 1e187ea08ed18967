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
import { attributesOf, isErrorStatus, jaegerSpans, spanMetricsCalls } from './e2e-otlp.mjs';

const env = process.env;
const JAEGER = env.E2E_JAEGER_URL.replace(/\/$/, '');
const gateways = env.E2E_GATEWAY_METRICS.split(/\s+/).filter(Boolean);
const startMs = Number(env.E2E_START_MS || Date.now() - 15 * 60_000) - 60_000;
const deadline = Date.now() + Number(env.E2E_TIMEOUT_S || 120) * 1000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const secret = env.E2E_AGENT_SECRET;

// What JavaScript answers for each failure the agents' tools meet against the flaky server
// (examples/demo; test/classify): every language must get the same from the collector.
const JS = {
  500: { 'error.type': '500', 'tool.error_kind': 'transient' },
  503: { 'error.type': '503', 'tool.error_kind': 'transient' },
  429: { 'error.type': '429', 'tool.error_kind': 'rate_limit' },
  401: { 'error.type': '401', 'tool.error_kind': 'auth' },
  timeout: { 'error.type': 'timeout', 'tool.error_kind': 'timeout' },
  refused: { 'error.type': 'ECONNREFUSED', 'tool.error_kind': 'network' },
};
/** The same answer, with the class the framework wrote itself kept beside it. */
const withClass = (answer, framework) => ({ ...answer, 'tool.error_framework_type': framework });

// Each agent's tools and the failure each meets; lookup_order returns an error result that states
// a 503 instead of raising.
const AGENTS = [
  // Google ADK writes error.type itself (the class name) when a tool raises; the status its
  // exception's text states, or the timeout, replaces it. Its returned error result is recorded
  // with content capture on.
  {
    service: env.E2E_PY_ADK_SERVICE,
    span: (tool) => `execute_tool ${tool}`,
    expect: { get_weather: JS[500], search_news: JS[429], get_stock: JS.timeout, lookup_order: JS[503] },
  },
  {
    service: env.E2E_PY_LANGGRAPH_SERVICE,
    span: (tool) => tool,
    expect: { get_weather: JS[500], search_news: JS[429], get_stock: JS.timeout, lookup_order: JS[503] },
  },
  // Strands Agents writes no error.type; a raised error's text is its status description and an
  // exception event (exception.type qualified: httpx.ConnectError). Its returned error result is
  // recorded only in the tool span's gen_ai.choice event, the span OK: the collector reads it.
  {
    service: env.E2E_PY_STRANDS_SERVICE,
    span: (tool) => `execute_tool ${tool}`,
    expect: {
      get_weather: JS[503],
      search_news: JS[429],
      get_stock: JS.timeout,
      get_rates: JS.refused,
      lookup_order: JS[503],
    },
  },
  // Microsoft Agent Framework writes error.type itself, the class name (HTTPStatusError,
  // ReadTimeout, ConnectError); with sensitive data on, the exception's repr and event show the
  // status, timeout or refusal, which replace the class (kept in tool.error_framework_type). Its
  // returned result is recorded in gen_ai.tool.call.result.
  {
    service: env.E2E_PY_AGENT_FRAMEWORK_SERVICE,
    span: (tool) => `execute_tool ${tool}`,
    expect: {
      get_weather: withClass(JS[503], 'HTTPStatusError'),
      search_news: withClass(JS[429], 'HTTPStatusError'),
      get_stock: withClass(JS.timeout, 'ReadTimeout'),
      get_rates: withClass(JS.refused, 'ConnectError'),
      lookup_order: JS[503],
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
      get_weather: JS[503],
      search_news: JS[429],
      get_account: JS[401],
      get_stock: JS.timeout,
      get_rates: JS.refused,
      lookup_order: JS[503],
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
      get_weather: JS[503],
      search_news: JS[429],
      get_account: JS[401],
      get_stock: JS.timeout,
      get_rates: JS.refused,
      get_fx: JS.refused,
      get_quote: JS.timeout,
      lookup_order: JS[503],
    },
  },
].filter((agent) => agent.service);

async function toolSpans(service) {
  return (await jaegerSpans(JAEGER, service, startMs)).map((s) => ({
    name: s.name,
    error: isErrorStatus(s),
    attrs: attributesOf(s.attributes),
    // What the processor scrubs: the status and the exception events (a result a framework
    // records, as Strands' gen_ai.choice event, is the app's to redact: its README).
    text: JSON.stringify([s.status?.message, (s.events || []).filter((e) => e.name === 'exception')]),
  }));
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
    checked = check(agent, await toolSpans(agent.service));
    if (checked.every((c) => c.ok) || Date.now() > deadline) break;
    await sleep(2000);
  }
  for (const c of checked) report(c.ok, `${agent.service}: ${agent.span(c.tool)}`, c.detail);
}

// The span metrics (before sampling) count the agents' failures by kind.
const calls = await spanMetricsCalls(gateways);
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
