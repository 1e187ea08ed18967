// What the end-to-end checkers read back: a service's spans from Jaeger's api_v3 (OTLP JSON) and
// the span-metrics calls series the gateways expose.

/** An OTLP attribute list as a plain object of strings, as Jaeger's search compares them. */
export function attributesOf(list) {
  return Object.fromEntries((list || []).map((a) => [a.key, anyValue(a.value)]));
}

function anyValue(v) {
  for (const k of ['stringValue', 'boolValue', 'intValue', 'doubleValue'])
    if (k in (v || {})) return String(v[k]);
  return undefined;
}

/** Whether an OTLP span's status is ERROR. */
export const isErrorStatus = (span) => span.status?.code === 2 || span.status?.code === 'STATUS_CODE_ERROR';

/** Every span Jaeger holds of `service` since `startMs`, as OTLP JSON spans. */
export async function jaegerSpans(jaegerUrl, service, startMs, numTraces = 100) {
  const q = new URLSearchParams({
    'query.service_name': service,
    'query.start_time_min': new Date(startMs).toISOString(),
    'query.start_time_max': new Date(Date.now() + 60_000).toISOString(),
    'query.num_traces': String(numTraces),
  });
  const res = await fetch(`${jaegerUrl}/api/v3/traces?${q}`, { signal: AbortSignal.timeout(30_000) });
  if (res.status === 404) return [];
  if (!res.ok) throw new Error(`Jaeger api_v3 HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`);
  const spans = [];
  for (const rs of (await res.json()).result?.resourceSpans || [])
    for (const ss of rs.scopeSpans || []) spans.push(...(ss.spans || []));
  return spans;
}

/** The `traces_span_metrics_calls_total` series of each metrics endpoint: `{ labels, value }`. */
export async function spanMetricsCalls(urls) {
  const calls = [];
  for (const url of urls) {
    const text = await (await fetch(url, { signal: AbortSignal.timeout(10_000) })).text();
    for (const m of text.matchAll(/^traces_span_metrics_calls_total\{(.*)\} (\S+)$/gm)) {
      const labels = Object.fromEntries(
        [...m[1].matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]),
      );
      calls.push({ labels, value: Number(m[2]) });
    }
  }
  return calls;
}
