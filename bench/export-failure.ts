import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { refusedPort } from '../test/helpers/flaky-server';
import { startOtlpJsonReceiver } from '../test/helpers/otlp-json-receiver';
import { providerWith, runCalls, workload, type RunResult } from '../test/reliability/load-workload';
import { ensureContextManager } from '../test/helpers/tracing';
import { median, valueRow, type Row } from './harness';

/**
 * Case 13: what a collector in trouble costs the app. 10,000 concurrent tool calls (one in five
 * failing, each under its own agent span) through the processor, a BatchSpanProcessor and the
 * OTLP/HTTP exporter, with no exporter at all, with nothing listening, and with a receiver that
 * answers after the exporter gave up (500 ms timeout, answers after 3 s): the wall time of the
 * whole burst and its p99 call latency, the median of 3 runs after a warm-up. The exporter shares
 * the event loop (JSON encoding), so some cost is expected; a stall would be far above the target.
 * The workload is test/reliability/load.test.ts's, with the package loaded from src/ as there: the
 * ratios compare runs of the same code.
 */

const CALLS = 10_000;
const RUNS = 3;
/** The burst with the exporter in trouble against the burst without exporter. */
const MAX_SLOWDOWN = 4;

async function burst(exporterFor: () => OTLPTraceExporter | undefined): Promise<RunResult[]> {
  const results: RunResult[] = [];
  // The first run warms the JIT up and is not kept.
  for (let i = 0; i <= RUNS; i++) {
    const provider = providerWith(exporterFor(), CALLS);
    const result = await runCalls(provider, workload(CALLS));
    await provider.forceFlush().catch(() => undefined);
    await provider.shutdown().catch(() => undefined);
    if (i > 0) results.push(result);
  }
  return results;
}

export async function run(): Promise<Row[]> {
  ensureContextManager();
  const receiver = await startOtlpJsonReceiver();
  const downUrl = `http://127.0.0.1:${await refusedPort()}/v1/traces`;
  const variants: [string, () => OTLPTraceExporter | undefined][] = [
    ['no exporter', () => undefined],
    ['nothing listening', () => new OTLPTraceExporter({ url: downUrl, timeoutMillis: 500 })],
    ['answers after 3 s', () => new OTLPTraceExporter({ url: receiver.tracesUrl, timeoutMillis: 500 })],
  ];
  const rows: Row[] = [];
  let baselineMs = 0;
  try {
    for (const [name, exporterFor] of variants) {
      receiver.setResponseDelay(name === 'answers after 3 s' ? 3_000 : 0);
      const results = await burst(exporterFor);
      const wallMs = median(results.map((r) => r.wallMs));
      const p99Ms = median(results.map((r) => r.p99Ms));
      const wrong = results.reduce((sum, r) => sum + r.wrongOutcomes, 0);
      if (wrong > 0) throw new Error(`${name}: ${wrong} calls had another outcome than the tool's`);
      if (name === 'no exporter') baselineMs = wallMs;
      const ratio = wallMs / baselineMs;
      rows.push(
        valueRow({
          case: `13 export failure: ${CALLS.toLocaleString('en-US')} concurrent calls (wall time of the burst)`,
          variant: name,
          value: `${wallMs.toFixed(0)} ms`,
          spread: `p99 call ${p99Ms.toFixed(1)} ms; median of ${RUNS}`,
          ratio: name === 'no exporter' ? '' : `${ratio.toFixed(2)}`,
          target: name === 'no exporter' ? '' : `< ${MAX_SLOWDOWN}×`,
          verdict: name === 'no exporter' ? '' : ratio < MAX_SLOWDOWN ? 'met' : 'MISSED',
        }),
      );
    }
  } finally {
    receiver.setResponseDelay(0);
    await receiver.close();
  }
  return rows;
}
