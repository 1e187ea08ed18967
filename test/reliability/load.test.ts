import { context, diag, DiagLogLevel, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import {
  classifyToolError,
  classifyToolResult,
  TOOL_ERROR_KINDS,
  type ToolErrorClassification,
} from '../../src';
import { ToolExecutionError } from '../../src/errors';
import { instrumentTool } from '../../src/instrumentation/instrument-tool';
import { traceToolCall } from '../../src/instrumentation/tool-call/trace-tool-call';
import { ToolErrorSpanProcessor } from '../../src';
import { refusedPort } from '../helpers/flaky-server';
import { ensureContextManager } from '../helpers/tracing';
import { heavy } from './heavy';
import { startOtlpJsonReceiver, type OtlpJsonReceiver } from '../helpers/otlp-json-receiver';

/**
 * Many concurrent tool calls through the real BatchSpanProcessor and the real OTLP/HTTP exporter
 * to a receiver on 127.0.0.1: every span arrives, parented and classified; a receiver that is
 * down or slow costs the app nothing but lost spans, reported through diag.
 */

const CALLS = heavy ? 50_000 : 10_000;
const FAILING_EVERY = 5; // 20% of the calls fail
/** Generous: the exporter shares the event loop (JSON encoding); a stall would be far above it. */
const MAX_SLOWDOWN = 4;

/** One way to fail for each kind of the taxonomy, as real clients and frameworks shape them. */
const FAILURES: readonly (() => { thrown?: unknown; returned?: unknown })[] = [
  () => ({ thrown: Object.assign(new Error('Request failed with status code 503'), { status: 503 }) }),
  () => ({
    thrown: Object.assign(new Error('Too Many Requests'), {
      response: { status: 429, headers: { 'retry-after': '2' } },
    }),
  }),
  () => ({ thrown: Object.assign(new Error('insufficient_quota'), { status: 429 }) }),
  () => ({ thrown: Object.assign(new Error('Unauthorized'), { statusCode: 401 }) }),
  () => ({ thrown: Object.assign(new Error('Not Found'), { status: 404 }) }),
  () => ({ thrown: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) }),
  () => ({ thrown: new DOMException('The operation timed out.', 'TimeoutError') }),
  () => ({ thrown: new DOMException('This operation was aborted', 'AbortError') }),
  () => ({ thrown: Object.assign(new Error('Invalid input'), { name: 'ZodError' }) }),
  () => ({ thrown: new ToolExecutionError('no such tool', { kind: 'unknown_tool' }) }),
  () => ({ thrown: new ToolExecutionError('denied by policy', { kind: 'not_permitted' }) }),
  () => ({ thrown: new TypeError("Cannot read properties of undefined (reading 'x')") }),
  () => ({ returned: { isError: true, content: [{ type: 'text', text: 'the ledger is locked' }] } }),
];

interface Call {
  index: number;
  tool: string;
  delayMs: number;
  thrown?: unknown;
  returned: unknown;
  expected?: ToolErrorClassification;
}

function workload(n: number): Call[] {
  const calls: Call[] = [];
  for (let i = 0; i < n; i++) {
    const call: Call = { index: i, tool: `load_tool_${i % 20}`, delayMs: i % 7, returned: { ok: i } };
    if (i % FAILING_EVERY === 0) {
      const failure = FAILURES[(i / FAILING_EVERY) % FAILURES.length]();
      if ('thrown' in failure) {
        call.thrown = failure.thrown;
        call.expected = classifyToolError(failure.thrown);
      } else {
        call.returned = failure.returned;
        call.expected = classifyToolResult(failure.returned);
      }
    }
    calls.push(call);
  }
  return calls;
}

interface RunResult {
  wallMs: number;
  p99Ms: number;
  /** Calls whose outcome (value or error identity) was not what the tool produced. */
  wrongOutcomes: number;
  agentSpanIds: string[];
}

/** Runs every call at once, each under its own agent span; half through instrumentTool. */
async function runCalls(provider: BasicTracerProvider, calls: Call[]): Promise<RunResult> {
  const tracer = provider.getTracer('load');
  const tools = new Map<string, (call: Call) => Promise<unknown>>();
  const body = async (call: Call) => {
    await new Promise((resolve) => setTimeout(resolve, call.delayMs));
    if (call.thrown !== undefined) throw call.thrown;
    return call.returned;
  };
  const agentSpanIds: string[] = new Array(calls.length);
  const latencies: number[] = new Array(calls.length);
  let wrongOutcomes = 0;
  const started = performance.now();
  await Promise.all(
    calls.map(async (call) => {
      const agent = tracer.startSpan(`agent step ${call.index}`);
      agentSpanIds[call.index] = agent.spanContext().spanId;
      const t0 = performance.now();
      const outcome = await context.with(trace.setSpan(context.active(), agent), async () => {
        try {
          if (call.index % 2 === 0) {
            return {
              value: await traceToolCall(tracer, {}, { name: call.tool, callId: `call-${call.index}` }, () =>
                body(call),
              ),
            };
          }
          let tool = tools.get(call.tool);
          if (!tool) {
            tool = instrumentTool(body, { name: call.tool }, { tracerProvider: provider });
            tools.set(call.tool, tool);
          }
          return { value: await tool(call) };
        } catch (error) {
          return { error };
        }
      });
      latencies[call.index] = performance.now() - t0;
      agent.end();
      const right =
        call.thrown !== undefined ? outcome.error === call.thrown : outcome.value === call.returned;
      if (!right) wrongOutcomes++;
    }),
  );
  const wallMs = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return { wallMs, p99Ms: latencies[Math.floor(latencies.length * 0.99)], wrongOutcomes, agentSpanIds };
}

/** Spans the SDK ended, counted before any exporter sees them: the "sent" side of the count. */
let endedSpans = 0;
const countEnded: SpanProcessor = {
  onStart: () => undefined,
  onEnd: () => void endedSpans++,
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};

function providerWith(exporter: SpanExporter | undefined): BasicTracerProvider {
  return new BasicTracerProvider({
    spanProcessors: [
      new ToolErrorSpanProcessor(),
      countEnded,
      ...(exporter
        ? [
            new BatchSpanProcessor(exporter, {
              // Room for every span of the burst: 10,000 tool spans plus their parents.
              maxQueueSize: CALLS * 2 + 1_000,
              maxExportBatchSize: 2_000,
              scheduledDelayMillis: 100,
              exportTimeoutMillis: 5_000,
            }),
          ]
        : []),
    ],
  });
}

describe(`load: ${CALLS} concurrent tool calls through BatchSpanProcessor and OTLP/HTTP to 127.0.0.1`, function () {
  this.timeout(heavy ? 600_000 : 120_000);
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  const diagErrors: string[] = [];
  const diagWarnings: string[] = [];
  let receiver: OtlpJsonReceiver;
  let baseline: RunResult;

  before(async () => {
    ensureContextManager();
    process.on('unhandledRejection', onUnhandled);
    diag.setLogger(
      {
        error: (message: string, ...args: unknown[]) =>
          void diagErrors.push(`${message} ${args.map(String).join(' ')}`),
        warn: (message: string) => void diagWarnings.push(message),
        info: () => undefined,
        debug: () => undefined,
        verbose: () => undefined,
      },
      { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
    );
    receiver = await startOtlpJsonReceiver();
    // The same calls with no exporter at all: the latency every other run is compared with. The
    // first run only warms the JIT up; the baseline is the faster of the next two.
    const provider = providerWith(undefined);
    await runCalls(provider, workload(CALLS));
    const runs = [await runCalls(provider, workload(CALLS)), await runCalls(provider, workload(CALLS))];
    baseline = runs[0].wallMs < runs[1].wallMs ? runs[0] : runs[1];
    await provider.shutdown();
  });
  beforeEach(() => {
    diagErrors.length = 0;
    diagWarnings.length = 0;
  });
  after(async () => {
    process.off('unhandledRejection', onUnhandled);
    diag.disable();
    await receiver.close();
  });

  it('every span arrives, under its parent, with its classification; no unhandled rejection', async () => {
    receiver.reset();
    endedSpans = 0;
    const calls = workload(CALLS);
    const provider = providerWith(new OTLPTraceExporter({ url: receiver.tracesUrl, timeoutMillis: 10_000 }));
    const run = await runCalls(provider, calls);
    await provider.forceFlush();
    await provider.shutdown();

    const spans = receiver.spans();
    const toolSpans = spans.filter((s) => s.name.startsWith('execute_tool '));
    console.log(
      `      load: ${CALLS} calls in ${run.wallMs.toFixed(0)} ms (p99 ${run.p99Ms.toFixed(1)} ms; no exporter: ` +
        `${baseline.wallMs.toFixed(0)} ms), ${endedSpans} spans sent and ${spans.length} received in ` +
        `${receiver.requestCount()} requests, ${unhandled.length} unhandled rejections`,
    );
    expect(run.wrongOutcomes).to.equal(0);
    expect(endedSpans).to.equal(CALLS * 2);
    expect(spans).to.have.length(endedSpans);
    expect(toolSpans).to.have.length(CALLS);
    expect(new Set(spans.map((s) => s.spanId)).size).to.equal(CALLS * 2);

    const agentIndex = new Map(run.agentSpanIds.map((id, index) => [id, index]));
    const kinds = new Set<unknown>();
    let checked = 0;
    for (const span of toolSpans) {
      const index = agentIndex.get(span.parentSpanId ?? '');
      expect(index, `${span.name} has an agent span as parent`).to.not.equal(undefined);
      const call = calls[index!];
      expect(span.name).to.equal(`execute_tool ${call.tool}`);
      expect(span.attributes['gen_ai.tool.name']).to.equal(call.tool);
      if (call.index % 2 === 0) expect(span.attributes['gen_ai.tool.call.id']).to.equal(`call-${call.index}`);
      if (call.expected) {
        expect(span.statusCode, span.name).to.equal(2);
        expect(span.attributes['error.type']).to.equal(call.expected.errorType);
        expect(span.attributes['tool.error_kind']).to.equal(call.expected.kind);
        expect(span.attributes['tool.error_retryable']).to.equal(call.expected.retryable);
        expect(span.attributes['tool.error_executed']).to.equal(call.expected.executed);
        kinds.add(span.attributes['tool.error_kind']);
      } else {
        expect(span.statusCode).to.not.equal(2);
        expect(span.attributes['error.type']).to.equal(undefined);
      }
      checked++;
    }
    expect(checked).to.equal(CALLS);
    expect([...kinds].sort(), 'every kind of the taxonomy was exercised').to.deep.equal(
      [...TOOL_ERROR_KINDS].sort(),
    );
    expect(toolSpans.filter((s) => s.statusCode === 2)).to.have.length(Math.ceil(CALLS / FAILING_EVERY));
    expect(unhandled).to.deep.equal([]);
    expect(diagErrors).to.deep.equal([]);
  });

  for (const failure of ['down', 'slow'] as const) {
    it(`with the receiver ${failure}: same results, latency within ${MAX_SLOWDOWN}x of no exporter, loss reported through diag`, async () => {
      receiver.reset();
      const requestsBefore = receiver.requestCount();
      const url =
        failure === 'down' ? `http://127.0.0.1:${await refusedPort()}/v1/traces` : receiver.tracesUrl;
      // Slow: every answer comes after the exporter has given up waiting.
      if (failure === 'slow') receiver.setResponseDelay(3_000);
      const provider = providerWith(new OTLPTraceExporter({ url, timeoutMillis: 500 }));
      try {
        const run = await runCalls(provider, workload(CALLS));
        // The SDK's own forceFlush rejects when an export failed: that is the SDK's contract with
        // whoever flushes (the register's shutdown), not an effect on tool calls. Record it only.
        let flushOutcome = 'resolved';
        await provider.forceFlush().catch((err: unknown) => (flushOutcome = `rejected (${String(err)})`));
        await provider.shutdown().catch(() => undefined);
        const ratio = run.wallMs / baseline.wallMs;
        console.log(
          `      load, receiver ${failure}: ${CALLS} calls in ${run.wallMs.toFixed(0)} ms vs ${baseline.wallMs.toFixed(0)} ms ` +
            `without exporter (ratio ${ratio.toFixed(2)}), p99 ${run.p99Ms.toFixed(1)} vs ${baseline.p99Ms.toFixed(1)} ms; ` +
            `${receiver.requestCount() - requestsBefore} requests reached the receiver; forceFlush ${flushOutcome}; ` +
            `diag: ${diagErrors.length} errors, ${diagWarnings.length} warnings; ${unhandled.length} unhandled rejections`,
        );
        expect(run.wrongOutcomes).to.equal(0);
        expect(ratio).to.be.below(MAX_SLOWDOWN);
        expect(unhandled).to.deep.equal([]);
        expect(diagErrors.length, 'the lost export is reported through diag').to.be.greaterThan(0);
        expect(diagErrors.join('\n')).to.match(
          failure === 'down' ? /ECONNREFUSED|connect/i : /timeout|timed out|abort/i,
        );
      } finally {
        receiver.setResponseDelay(0);
      }
    });
  }
});
