import { context, SpanKind, trace, type SpanContext, type Tracer } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type SumMetricData,
} from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { instrumentTool, ToolCallSummary, ToolErrorSpanProcessor, ToolMetricsSpanProcessor } from '../../src';
import { ToolCallAttempts, toolCallAttempts } from '../../src/instrumentation/tool-call/attempts';
import { CallAttempt } from '../../src/instrumentation/tool-call/call-attempt';
import { createTestTracing, type TestTracing } from '../helpers/tracing';

function spanContext(n: number): SpanContext {
  return { traceId: 'a'.repeat(32), spanId: n.toString(16).padStart(16, '0'), traceFlags: 1 };
}

function failedCall(n: number, attempt = 1) {
  return { spanContext: spanContext(n), attempt, errorType: '503', errorKind: 'transient' };
}

describe('ToolCallAttempts: the bookkeeping of failed calls', () => {
  it('gives the same digest for the same tool and arguments, whatever the key order or JSON text', () => {
    const attempts = new ToolCallAttempts();
    const digest = attempts.digest('search', 'call', { q: 'x', page: 1, filters: { a: [1, 2], b: null } });
    expect(attempts.digest('search', 'call', { filters: { b: null, a: [1, 2] }, page: 1, q: 'x' })).to.equal(
      digest,
    );
    expect(attempts.digest('search', 'call', '{"page":1,"q":"x","filters":{"a":[1,2],"b":null}}')).to.equal(
      digest,
    );
  });

  it('tells other arguments, another tool and the other side of a call apart', () => {
    const attempts = new ToolCallAttempts();
    const digest = attempts.digest('search', 'call', { q: 'x' });
    expect(attempts.digest('search', 'call', { q: 'y' })).to.not.equal(digest);
    expect(attempts.digest('search', 'call', { q: 'x', page: 1 })).to.not.equal(digest);
    expect(attempts.digest('lookup', 'call', { q: 'x' })).to.not.equal(digest);
    expect(attempts.digest('search', 'server', { q: 'x' })).to.not.equal(digest);
    expect(attempts.digest('search', 'call', ['x'])).to.not.equal(
      attempts.digest('search', 'call', { 0: 'x' }),
    );
    expect(attempts.digest('search', 'call', '1')).to.not.equal(attempts.digest('search', 'call', 1));
  });

  it('keys its digests with a random key of its own: another process (instance) gets other digests', () => {
    const one = new ToolCallAttempts().digest('search', 'call', { q: 'x' });
    const other = new ToolCallAttempts().digest('search', 'call', { q: 'x' });
    expect(one).to.not.equal(other);
  });

  it('digests cyclic and deep arguments without throwing', () => {
    const attempts = new ToolCallAttempts();
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 1000; i++) deep = { deep };
    expect(attempts.digest('t', 'call', cyclic)).to.be.a('number');
    expect(attempts.digest('t', 'call', deep)).to.be.a('number');
  });

  it("an attempt takes the framework's own number; a first call is 1 whatever the framework says", () => {
    const attempts = new ToolCallAttempts();
    const traceId = 'b'.repeat(32);
    const parent = trace.setSpanContext(context.active(), { traceId, spanId: '1'.repeat(16), traceFlags: 1 });
    const info = { name: 'weather', args: { city: 'Lyon' } };
    expect(CallAttempt.lookUp(info, SpanKind.INTERNAL, parent, 4, attempts)!.number).to.equal(1);
    attempts.failed(traceId, attempts.digest('weather', 'call', info.args), failedCall(1));
    expect(CallAttempt.lookUp(info, SpanKind.INTERNAL, parent, 4, attempts)!.number).to.equal(4);
    expect(CallAttempt.lookUp(info, SpanKind.INTERNAL, parent, undefined, attempts)!.number).to.equal(2);
    // The MCP server's side is its own.
    expect(CallAttempt.lookUp(info, SpanKind.SERVER, parent, undefined, attempts)!.number).to.equal(1);
  });

  it('finds the failed call in its trace only, and forgets it once recovered', () => {
    const attempts = new ToolCallAttempts();
    attempts.failed('trace-1', 1, failedCall(1));
    expect(attempts.previous('trace-1', 1)?.spanContext.spanId).to.equal(spanContext(1).spanId);
    expect(attempts.previous('trace-2', 1)).to.equal(undefined);
    expect(attempts.previous('trace-1', 2)).to.equal(undefined);
    attempts.recovered('trace-1', 1);
    expect(attempts.previous('trace-1', 1)).to.equal(undefined);
    expect(attempts.sizes).to.deep.equal({ traces: 0, failedCalls: 0 });
  });

  it('keeps the chain of failed attempts, the newest one as the one to link to', () => {
    const attempts = new ToolCallAttempts();
    attempts.failed('t', 1, failedCall(1));
    attempts.failed('t', 1, failedCall(2, 2), attempts.previous('t', 1));
    const previous = attempts.previous('t', 1)!;
    expect(previous.attempt).to.equal(2);
    expect(previous.chain.map((c) => c.spanId)).to.deep.equal([spanContext(1).spanId, spanContext(2).spanId]);
    expect(attempts.sizes.failedCalls).to.equal(1);
  });

  it('forgets a failed call after its time', () => {
    let now = 1_000;
    const attempts = new ToolCallAttempts({ ttlMs: 100, now: () => now });
    attempts.failed('t', 1, failedCall(1));
    now += 100;
    expect(attempts.previous('t', 1)).to.not.equal(undefined);
    now += 1;
    expect(attempts.previous('t', 1)).to.equal(undefined);
    expect(attempts.sizes).to.deep.equal({ traces: 0, failedCalls: 0 });
  });

  it('drops expired traces at its next sweep (every 64 failures)', () => {
    let now = 0;
    const attempts = new ToolCallAttempts({ ttlMs: 100, now: () => now });
    for (let i = 0; i < 10; i++) attempts.failed(`old-${i}`, 1, failedCall(i));
    now = 500;
    for (let i = 0; i < 53; i++) attempts.failed(`new-${i}`, 1, failedCall(i));
    expect(attempts.sizes.traces).to.equal(63);
    attempts.failed('new-53', 1, failedCall(99));
    expect(attempts.sizes).to.deep.equal({ traces: 54, failedCalls: 54 });
  });

  it('holds at most maxPerTrace failed calls of one trace, the oldest going first', () => {
    const attempts = new ToolCallAttempts({ maxPerTrace: 3 });
    for (let i = 0; i < 10; i++) attempts.failed('t', 100 + i, failedCall(i));
    expect(attempts.sizes).to.deep.equal({ traces: 1, failedCalls: 3 });
    expect(attempts.previous('t', 106)).to.equal(undefined);
    expect(attempts.previous('t', 109)).to.not.equal(undefined);
  });

  it('holds at most maxTraces traces, the least recently failed going first', () => {
    const attempts = new ToolCallAttempts({ maxTraces: 3 });
    for (let i = 0; i < 10; i++) attempts.failed(`t${i}`, 1, failedCall(i));
    attempts.failed('t7', 2, failedCall(70));
    attempts.failed('t10', 1, failedCall(10));
    expect(attempts.sizes.traces).to.equal(3);
    expect(attempts.previous('t7', 2)).to.not.equal(undefined);
    expect(attempts.previous('t8', 1)).to.equal(undefined);
  });

  it('holds at most maxFailedCalls failed calls in all', () => {
    const attempts = new ToolCallAttempts({ maxFailedCalls: 5, maxPerTrace: 4 });
    for (let t = 0; t < 20; t++) for (let i = 0; i < 4; i++) attempts.failed(`t${t}`, 100 + i, failedCall(i));
    expect(attempts.sizes.failedCalls).to.be.at.most(5);
    expect(attempts.previous('t19', 103)).to.not.equal(undefined);
    const small = new ToolCallAttempts({ maxFailedCalls: 2, maxPerTrace: 10 });
    for (let i = 0; i < 5; i++) small.failed('t', 100 + i, failedCall(i));
    expect(small.sizes).to.deep.equal({ traces: 1, failedCalls: 2 });
  });
});

describe('the wrapper: a call after a failed call with the same arguments, in the same trace, is an attempt', () => {
  let tracing: TestTracing;
  let tracer: Tracer;
  let metricExporter: InMemoryMetricExporter;
  let meterProvider: MeterProvider;

  beforeEach(() => {
    toolCallAttempts.clear();
    metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    meterProvider = new MeterProvider({
      readers: [
        new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 }),
      ],
    });
    tracing = createTestTracing({
      spanProcessors: [
        new ToolErrorSpanProcessor(),
        new ToolMetricsSpanProcessor({ meterProvider, summary: new ToolCallSummary() }),
      ],
    });
    tracer = tracing.tracer;
  });

  afterEach(async () => {
    await tracing.shutdown();
    await meterProvider.shutdown();
  });

  /** A tool that fails with a 503 `failures` times, then answers. */
  function flakyTool(failures: number) {
    let calls = 0;
    return instrumentTool(
      async (_input: { city: string }) => {
        await new Promise((resolve) => setTimeout(resolve, 2));
        if (calls++ < failures) throw Object.assign(new Error('Service Unavailable'), { status: 503 });
        return { temperature: 21 };
      },
      'weather',
      { tracerProvider: tracing.provider },
    );
  }

  function inAgentRun<T>(run: () => Promise<T>): Promise<T> {
    return tracer.startActiveSpan('agent run', async (span) => {
      try {
        return await run();
      } finally {
        span.end();
      }
    });
  }

  function toolSpans(): ReadableSpan[] {
    return tracing.spans().filter((span) => span.name === 'execute_tool weather');
  }

  async function sums(name: string): Promise<Array<{ attributes: Record<string, unknown>; value: number }>> {
    metricExporter.reset();
    await meterProvider.forceFlush();
    const found = metricExporter
      .getMetrics()
      .flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics))
      .filter((m) => m.descriptor.name === name) as SumMetricData[];
    return found.flatMap((m) => m.dataPoints.map((p) => ({ attributes: p.attributes, value: p.value })));
  }

  it('a 503, then a success: two spans linked as attempts, the failure recovered', async () => {
    const tool = flakyTool(1);
    await inAgentRun(async () => {
      await tool({ city: 'Paris' }).catch(() => undefined);
      await tool({ city: 'Paris' });
    });
    const [failed, recovered] = toolSpans();
    expect(failed!.attributes['error.type']).to.equal('503');
    expect(failed!.attributes['tool.call.attempt']).to.equal(undefined);
    expect(failed!.links).to.deep.equal([]);
    expect(recovered!.attributes['tool.call.attempt']).to.equal(2);
    expect(recovered!.attributes['error.type']).to.equal(undefined);
    expect(recovered!.attributes['tool.call.recovered_error_type']).to.equal('503');
    expect(recovered!.attributes['tool.call.recovered_error_kind']).to.equal('transient');
    expect(recovered!.links).to.have.length(1);
    expect(recovered!.links[0]!.context.spanId).to.equal(failed!.spanContext().spanId);
    expect(recovered!.links[0]!.attributes).to.deep.equal({ 'tool.call.attempt': 1 });
    // Nothing of the arguments or of the digest is on either span.
    expect(JSON.stringify([failed!.attributes, recovered!.attributes])).to.not.include('Paris');

    const errors = await sums('tool.errors');
    const recoveredErrors = await sums('tool.recovered_errors');
    expect(errors).to.have.length(1);
    expect(recoveredErrors).to.deep.equal([
      {
        attributes: { 'gen_ai.tool.name': 'weather', 'error.type': '503', 'tool.error_kind': 'transient' },
        value: 1,
      },
    ]);
  });

  it('two failures, then a success: attempts 2 and 3, each linked to the one before; both failures recovered', async () => {
    const tool = flakyTool(2);
    await inAgentRun(async () => {
      for (let i = 0; i < 2; i++) await tool({ city: 'Paris' }).catch(() => undefined);
      await tool({ city: 'Paris' });
    });
    const spans = toolSpans();
    expect(spans.map((s) => s.attributes['tool.call.attempt'])).to.deep.equal([undefined, 2, 3]);
    expect(spans[1]!.links[0]!.context.spanId).to.equal(spans[0]!.spanContext().spanId);
    expect(spans[2]!.links[0]!.context.spanId).to.equal(spans[1]!.spanContext().spanId);
    expect(spans[2]!.links[0]!.attributes).to.deep.equal({ 'tool.call.attempt': 2 });
    expect((await sums('tool.recovered_errors'))[0]!.value).to.equal(2);
    const errors = await sums('tool.errors');
    expect(errors.map((p) => p.attributes['tool.call.attempt']).sort()).to.deep.equal([2, undefined]);
  });

  it('attempt numbers on the metrics stop at 5; on the spans they go on', async () => {
    const tool = flakyTool(7);
    await inAgentRun(async () => {
      for (let i = 0; i < 7; i++) await tool({ city: 'Paris' }).catch(() => undefined);
      await tool({ city: 'Paris' });
    });
    expect(toolSpans().map((s) => s.attributes['tool.call.attempt'])).to.deep.equal([
      undefined,
      2,
      3,
      4,
      5,
      6,
      7,
      8,
    ]);
    const errors = await sums('tool.errors');
    expect(errors.map((p) => [p.attributes['tool.call.attempt'], p.value])).to.have.deep.members([
      [undefined, 1],
      [2, 1],
      [3, 1],
      [4, 1],
      [5, 3],
    ]);
    expect((await sums('tool.recovered_errors'))[0]!.value).to.equal(7);
  });

  it('a call after a recovered attempt is a first call again', async () => {
    const tool = flakyTool(1);
    await inAgentRun(async () => {
      await tool({ city: 'Paris' }).catch(() => undefined);
      await tool({ city: 'Paris' });
      await tool({ city: 'Paris' });
    });
    expect(toolSpans().map((s) => s.attributes['tool.call.attempt'])).to.deep.equal([
      undefined,
      2,
      undefined,
    ]);
  });

  it('calls with other arguments are not attempts', async () => {
    const tool = flakyTool(1);
    await inAgentRun(async () => {
      await tool({ city: 'Paris' }).catch(() => undefined);
      await tool({ city: 'Lyon' });
    });
    const [, other] = toolSpans();
    expect(other!.attributes['tool.call.attempt']).to.equal(undefined);
    expect(other!.links).to.deep.equal([]);
    expect(await sums('tool.recovered_errors')).to.deep.equal([]);
  });

  it('parallel calls with the same arguments are not attempts of each other', async () => {
    const tool = flakyTool(1);
    await inAgentRun(() =>
      Promise.all([tool({ city: 'Paris' }).catch(() => undefined), tool({ city: 'Paris' })]),
    );
    const spans = toolSpans();
    expect(spans).to.have.length(2);
    for (const span of spans) {
      expect(span.attributes['tool.call.attempt']).to.equal(undefined);
      expect(span.links).to.deep.equal([]);
    }
  });

  it('a call in another trace is not an attempt', async () => {
    const tool = flakyTool(1);
    await inAgentRun(() => tool({ city: 'Paris' }).catch(() => undefined));
    await inAgentRun(() => tool({ city: 'Paris' }));
    expect(toolSpans().map((s) => s.attributes['tool.call.attempt'])).to.deep.equal([undefined, undefined]);
  });

  it("a framework's own tool span, started before the call: the attempt's attribute and its link are added to it", async () => {
    const tool = flakyTool(1);
    const frameworkCall = () =>
      tracer.startActiveSpan(
        'execute_tool weather',
        { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'weather' } },
        async (span) => {
          try {
            return await tool({ city: 'Paris' });
          } finally {
            span.end();
          }
        },
      );
    await inAgentRun(async () => {
      await frameworkCall().catch(() => undefined);
      await frameworkCall();
    });
    // The wrapper enriched the framework's spans: no span of its own.
    expect(toolSpans()).to.have.length(2);
    const [failed, recovered] = toolSpans();
    expect(failed!.instrumentationScope.name).to.equal('otel-tool-errors-test');
    expect(failed!.attributes['error.type']).to.equal('503');
    expect(recovered!.attributes['tool.call.attempt']).to.equal(2);
    expect(recovered!.attributes['tool.call.recovered_error_type']).to.equal('503');
    expect(recovered!.links.map((link) => link.context.spanId)).to.deep.equal([failed!.spanContext().spanId]);
  });

  it('a root call (no trace around it) starts its own trace: never an attempt', async () => {
    const tool = flakyTool(1);
    await context.with(trace.deleteSpan(context.active()), async () => {
      await tool({ city: 'Paris' }).catch(() => undefined);
      await tool({ city: 'Paris' });
    });
    expect(toolSpans().map((s) => s.attributes['tool.call.attempt'])).to.deep.equal([undefined, undefined]);
  });
});
