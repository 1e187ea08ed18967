import { diag, DiagLogLevel } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { TOOL_ERROR_KINDS } from '../../src';
import { refusedPort } from '../helpers/flaky-server';
import { ensureContextManager } from '../helpers/tracing';
import { heavy } from './heavy';
import { startOtlpJsonReceiver, type OtlpJsonReceiver } from '../helpers/otlp-json-receiver';
import { FAILING_EVERY, providerWith, runCalls, workload } from './load-workload';

/**
 * Many concurrent tool calls through the real BatchSpanProcessor and the real OTLP/HTTP exporter
 * to a receiver on 127.0.0.1: every span arrives, parented and classified; a receiver that is
 * down or slow changes no call's outcome, and the lost spans are reported through diag. What the
 * exporter's trouble costs the app in time is measured by `npm run bench -- export-failure`.
 */

const CALLS = heavy ? 50_000 : 10_000;
/** Spans the SDK ended, counted before any exporter sees them: the "sent" side of the count. */
let endedSpans = 0;
const countEnded: SpanProcessor = {
  onStart: () => undefined,
  onEnd: () => void endedSpans++,
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};

describe(`load: ${CALLS} concurrent tool calls through BatchSpanProcessor and OTLP/HTTP to 127.0.0.1`, function () {
  this.timeout(heavy ? 600_000 : 120_000);
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  const diagErrors: string[] = [];
  const diagWarnings: string[] = [];
  let receiver: OtlpJsonReceiver;

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
    const provider = providerWith(
      new OTLPTraceExporter({ url: receiver.tracesUrl, timeoutMillis: 10_000 }),
      CALLS,
      [countEnded],
    );
    const run = await runCalls(provider, calls);
    await provider.forceFlush();
    await provider.shutdown();

    const spans = receiver.spans();
    const toolSpans = spans.filter((s) => s.name.startsWith('execute_tool '));
    console.log(
      `      load: ${CALLS} calls, ${endedSpans} spans sent and ${spans.length} received in ` +
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
    it(`with the receiver ${failure}: same results, loss reported through diag`, async () => {
      receiver.reset();
      const requestsBefore = receiver.requestCount();
      const url =
        failure === 'down' ? `http://127.0.0.1:${await refusedPort()}/v1/traces` : receiver.tracesUrl;
      // Slow: every answer comes after the exporter has given up waiting.
      if (failure === 'slow') receiver.setResponseDelay(3_000);
      const provider = providerWith(new OTLPTraceExporter({ url, timeoutMillis: 500 }), CALLS);
      try {
        const run = await runCalls(provider, workload(CALLS));
        // The SDK's own forceFlush rejects when an export failed: that is the SDK's contract with
        // whoever flushes (the register's shutdown), not an effect on tool calls. Record it only.
        let flushOutcome = 'resolved';
        await provider.forceFlush().catch((err: unknown) => (flushOutcome = `rejected (${String(err)})`));
        await provider.shutdown().catch(() => undefined);
        console.log(
          `      load, receiver ${failure}: ${CALLS} calls; ` +
            `${receiver.requestCount() - requestsBefore} requests reached the receiver; forceFlush ${flushOutcome}; ` +
            `diag: ${diagErrors.length} errors, ${diagWarnings.length} warnings; ${unhandled.length} unhandled rejections`,
        );
        expect(run.wrongOutcomes).to.equal(0);
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
