#!/usr/bin/env node
// Checks that retries are told apart from the failures that stay through the production tiers:
// a Strands Agents run (scripts/python-agents/strands_retry_agent.py) whose get_weather calls
// nothing in the app numbers, in one trace: Lyon (503), Lyon again (200), Paris (503), then Nice
// twice at once (one 503, one 200). The gateways' tool_errors processor must make the second Lyon
// call attempt 2, linked to the first, with the 503 it recovered; the Paris call (other arguments)
// and the Nice calls (parallel) are no attempts. The gateways' span metrics must then give the
// failures that stayed as docs/dashboards.md's span-metrics query computes them: the failed calls
// by kind less the calls that recovered a failure of that kind.
//
// Environment (set by scripts/e2e.sh):
//   E2E_JAEGER_URL, E2E_GATEWAY_METRICS, E2E_START_MS, E2E_TIMEOUT_S as for e2e-production.mjs
//   E2E_PY_STRANDS_RETRY_SERVICE   the retry agent's service name
import { attributesOf, isErrorStatus, jaegerSpans, spanMetricsCalls } from './e2e-otlp.mjs';

const env = process.env;
const JAEGER = env.E2E_JAEGER_URL.replace(/\/$/, '');
const gateways = env.E2E_GATEWAY_METRICS.split(/\s+/).filter(Boolean);
const service = env.E2E_PY_STRANDS_RETRY_SERVICE;
const startMs = Number(env.E2E_START_MS || Date.now() - 15 * 60_000) - 60_000;
const deadline = Date.now() + Number(env.E2E_TIMEOUT_S || 120) * 1000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The service's get_weather spans in start order, each with the city Strands recorded in its
// gen_ai.tool.message event.
async function toolSpans() {
  const spans = [];
  for (const s of await jaegerSpans(JAEGER, service, startMs, 20)) {
    if (s.name !== 'execute_tool get_weather') continue;
    const message = (s.events || []).find((e) => e.name === 'gen_ai.tool.message');
    spans.push({
      spanId: s.spanId,
      start: BigInt(s.startTimeUnixNano),
      city: JSON.parse(attributesOf(message?.attributes).content || '{}').city,
      error: isErrorStatus(s),
      attrs: attributesOf(s.attributes),
      links: (s.links || []).map((l) => ({ spanId: l.spanId, attrs: attributesOf(l.attributes) })),
    });
  }
  return spans.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
}

const ATTEMPT = 'tool.call.attempt';
const RECOVERED = ['tool.call.recovered_error_type', 'tool.call.recovered_error_kind'];
const classified = (s) =>
  s.error && s.attrs['error.type'] === '503' && s.attrs['tool.error_kind'] === 'transient';
const noAttempt = (s) => !s.attrs[ATTEMPT] && s.links.length === 0 && RECOVERED.every((k) => !s.attrs[k]);
const show = (s) =>
  s
    ? `${s.error ? 'ERROR' : 'OK'} ${JSON.stringify(
        Object.fromEntries(
          ['error.type', 'tool.error_kind', ATTEMPT, ...RECOVERED].map((k) => [k, s.attrs[k]]),
        ),
      )}, links ${JSON.stringify(s.links)}`
    : 'no span';

function check(spans) {
  const [lyon, retry, paris, ...nice] = spans;
  return [
    ['5 get_weather spans, cities in order', spans.length === 5, spans.map((s) => s.city).join(', ')],
    [
      'the first Lyon call: 503, transient, no attempt',
      lyon && classified(lyon) && noAttempt(lyon),
      show(lyon),
    ],
    [
      'the second Lyon call: attempt 2, linked to the first, recovered 503 transient',
      retry &&
        !retry.error &&
        retry.city === 'Lyon' &&
        retry.attrs[ATTEMPT] === '2' &&
        retry.links.length === 1 &&
        retry.links[0].spanId === lyon?.spanId &&
        retry.links[0].attrs[ATTEMPT] === '1' &&
        retry.attrs[RECOVERED[0]] === '503' &&
        retry.attrs[RECOVERED[1]] === 'transient',
      show(retry),
    ],
    [
      'Paris (other arguments): 503, no attempt',
      paris?.city === 'Paris' && classified(paris) && noAttempt(paris),
      show(paris),
    ],
    [
      'Nice twice at once (parallel): one 503, neither an attempt',
      nice.length === 2 &&
        nice.every((s) => s.city === 'Nice' && noAttempt(s)) &&
        nice.filter(classified).length === 1 &&
        nice.filter((s) => !s.error).length === 1,
      nice.map(show).join('; ') || 'no spans',
    ],
  ];
}

const results = [];
function report(ok, name, detail) {
  results.push(ok);
  console.log(`  ${ok ? 'PASS' : 'FAIL'} ${service}: ${name}: ${detail}`);
}

console.log(`e2e-attempts: Jaeger ${JAEGER}`);
let checked = [];
for (;;) {
  checked = check(await toolSpans());
  if (checked.every(([, ok]) => ok) || Date.now() > deadline) break;
  await sleep(2000);
}
for (const [name, ok, detail] of checked) report(Boolean(ok), name, detail);

// docs/dashboards.md's failures that stayed from span metrics, summed over both gateways: the
// failed get_weather calls of kind transient (Lyon, Paris, one Nice) less those a retry recovered
// (the second Lyon call, tool_call_recovered_error_kind="transient").
async function failedAndRecovered() {
  const calls = (await spanMetricsCalls(gateways)).filter(
    (c) => c.labels.service_name === service && c.labels.gen_ai_tool_name === 'get_weather',
  );
  const sum = (label) =>
    calls.filter((c) => c.labels[label] === 'transient').reduce((total, c) => total + c.value, 0);
  return { failed: sum('tool_error_kind'), recovered: sum('tool_call_recovered_error_kind') };
}
let counted;
for (;;) {
  counted = await failedAndRecovered();
  if ((counted.failed === 3 && counted.recovered === 1) || Date.now() > deadline) break;
  await sleep(1000);
}
report(
  counted.failed === 3 && counted.recovered === 1,
  'span metrics: failures that stayed (get_weather, transient)',
  `${counted.failed} failed - ${counted.recovered} recovered = ${counted.failed - counted.recovered} (want 3 - 1 = 2)`,
);

const passed = results.filter(Boolean).length;
console.log(`e2e-attempts: ${passed} passed, ${results.length - passed} failed`);
process.exit(passed === results.length ? 0 : 1);
