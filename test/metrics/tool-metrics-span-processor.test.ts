import { metrics, SpanKind, SpanStatusCode, type Attributes } from '@opentelemetry/api';
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type HistogramMetricData,
  type MetricData,
  type SumMetricData,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import {
  EXECUTE_TOOL_DURATION_BUCKETS,
  ToolCallSummary,
  ToolErrorSpanProcessor,
  ToolMetricsSpanProcessor,
  type ToolMetricsSpanProcessorOptions,
} from '../../src';

/** A real MeterProvider whose metrics the test reads on demand. */
function createMeters() {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const provider = new MeterProvider({
    readers: [new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 })],
  });
  return {
    provider,
    async collect(): Promise<Map<string, MetricData>> {
      exporter.reset();
      await provider.forceFlush();
      const found = new Map<string, MetricData>();
      for (const resourceMetrics of exporter.getMetrics()) {
        for (const scope of resourceMetrics.scopeMetrics) {
          for (const metric of scope.metrics) found.set(metric.descriptor.name, metric);
        }
      }
      return found;
    },
  };
}

function setup(options: ToolMetricsSpanProcessorOptions = {}, before: SpanProcessor[] = []) {
  const meters = createMeters();
  const summary = new ToolCallSummary();
  const processor = new ToolMetricsSpanProcessor({ meterProvider: meters.provider, summary, ...options });
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [...before, processor] });
  const tracer = tracerProvider.getTracer('test');
  return {
    meters,
    summary,
    tracer,
    /** Ends a span with these attributes and status; `durationMs` is set through explicit times. */
    endSpan(name: string, attributes: Attributes, status?: SpanStatusCode, durationMs = 50) {
      const start = Date.now();
      const span = tracer.startSpan(name, { attributes, startTime: start });
      if (status !== undefined) span.setStatus({ code: status });
      span.end(start + durationMs);
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meters.provider.shutdown();
    },
  };
}

const tool = (name: string, extra: Attributes = {}): Attributes => ({
  'gen_ai.operation.name': 'execute_tool',
  'gen_ai.tool.name': name,
  ...extra,
});

const points = (metric: MetricData | undefined) =>
  (metric as HistogramMetricData | SumMetricData | undefined)?.dataPoints.map((point) => ({
    attributes: point.attributes,
    value: point.value,
  })) ?? [];

describe('ToolMetricsSpanProcessor', () => {
  let teardown: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await teardown?.();
    teardown = undefined;
  });

  it('adds gen_ai.tool.type (recommended by the metric) and counts an MCP call once, not on its server side', async () => {
    const t = setup();
    teardown = t.shutdown;
    const mcp = { 'mcp.method.name': 'tools/call', 'gen_ai.tool.type': 'extension' };
    t.endSpan('tools/call lookup', tool('lookup', mcp));
    t.tracer.startSpan('tools/call lookup', { kind: SpanKind.SERVER, attributes: tool('lookup', mcp) }).end();
    t.endSpan('execute_tool odd', tool('odd', { 'gen_ai.tool.type': 'made-up' }));
    const duration = (await t.meters.collect()).get('gen_ai.execute_tool.duration') as HistogramMetricData;
    expect(duration.dataPoints.map((point) => [point.attributes, point.value.count])).to.deep.equal([
      [{ 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.type': 'extension' }, 1],
      [{ 'gen_ai.tool.name': 'odd' }, 1],
    ]);
  });

  it('records gen_ai.execute_tool.duration in seconds with the semconv buckets, error.type only on failure', async () => {
    const t = setup();
    teardown = t.shutdown;
    t.endSpan('execute_tool get_time', tool('get_time'), undefined, 250);
    t.endSpan(
      'execute_tool get_weather',
      tool('get_weather', { 'error.type': '500', 'tool.error_kind': 'transient' }),
      SpanStatusCode.ERROR,
      1500,
    );

    const collected = await t.meters.collect();
    const duration = collected.get('gen_ai.execute_tool.duration') as HistogramMetricData;
    expect(duration.descriptor.unit).to.equal('s');
    expect(duration.dataPointType).to.equal(DataPointType.HISTOGRAM);
    const [ok, failed] = duration.dataPoints;
    expect(ok!.attributes).to.deep.equal({ 'gen_ai.tool.name': 'get_time' });
    expect(ok!.value.buckets.boundaries).to.deep.equal([...EXECUTE_TOOL_DURATION_BUCKETS]);
    expect(ok!.value.sum).to.be.closeTo(0.25, 1e-6);
    expect(failed!.attributes).to.deep.equal({
      'gen_ai.tool.name': 'get_weather',
      'error.type': '500',
      'tool.error_kind': 'transient',
    });
    expect(failed!.value.sum).to.be.closeTo(1.5, 1e-6);
    // 1.5 s falls in the (1.28, 2.56] bucket.
    expect(failed!.value.buckets.counts[EXECUTE_TOOL_DURATION_BUCKETS.indexOf(2.56)]).to.equal(1);
  });

  it('counts tool.errors for failed calls only, with the same attributes', async () => {
    const t = setup();
    teardown = t.shutdown;
    t.endSpan('execute_tool ok', tool('ok'));
    for (let i = 0; i < 3; i++) {
      t.endSpan(
        'execute_tool search',
        tool('search', { 'error.type': '429', 'tool.error_kind': 'rate_limit' }),
        SpanStatusCode.ERROR,
      );
    }
    const errors = (await t.meters.collect()).get('tool.errors');
    expect(points(errors)).to.deep.equal([
      {
        attributes: { 'gen_ai.tool.name': 'search', 'error.type': '429', 'tool.error_kind': 'rate_limit' },
        value: 3,
      },
    ]);
  });

  it('counts a status-ERROR tool span without error.type as error.type _OTHER', async () => {
    const t = setup();
    teardown = t.shutdown;
    t.endSpan('execute_tool legacy', tool('legacy'), SpanStatusCode.ERROR);
    expect(points((await t.meters.collect()).get('tool.errors'))).to.deep.equal([
      { attributes: { 'gen_ai.tool.name': 'legacy', 'error.type': '_OTHER' }, value: 1 },
    ]);
  });

  it('sees what ToolErrorSpanProcessor writes in onEnding, even when registered before it', async () => {
    const meters = createMeters();
    const summary = new ToolCallSummary();
    const tracerProvider = new BasicTracerProvider({
      spanProcessors: [
        new ToolMetricsSpanProcessor({ meterProvider: meters.provider, summary }),
        new ToolErrorSpanProcessor(),
      ],
    });
    teardown = async () => {
      await tracerProvider.shutdown();
      await meters.provider.shutdown();
    };
    // A framework's own span: exception recorded and ERROR set, but no error.type.
    const span = tracerProvider
      .getTracer('t')
      .startSpan('execute_tool fetch_feed', { attributes: tool('fetch_feed') });
    span.recordException(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    expect(points((await meters.collect()).get('tool.errors'))).to.deep.equal([
      {
        attributes: {
          'gen_ai.tool.name': 'fetch_feed',
          'error.type': 'ECONNRESET',
          'tool.error_kind': 'network',
        },
        value: 1,
      },
    ]);
    expect(summary.rows()[0]).to.deep.include({
      toolName: 'fetch_feed',
      errorType: 'ECONNRESET',
      retryable: true,
    });
  });

  it("covers frameworks' native tool spans, taking the name from their own attribute", async () => {
    const t = setup();
    teardown = t.shutdown;
    t.endSpan(
      'ai.toolCall',
      { 'ai.toolCall.name': 'get_weather', 'error.type': '503' },
      SpanStatusCode.ERROR,
    );
    t.endSpan('tool.execution:search', {});
    expect(
      points((await t.meters.collect()).get('gen_ai.execute_tool.duration')).map((p) => p.attributes),
    ).to.deep.equal([
      { 'gen_ai.tool.name': 'get_weather', 'error.type': '503' },
      { 'gen_ai.tool.name': 'search' },
    ]);
  });

  it('ignores spans that are not tool spans', async () => {
    const t = setup();
    teardown = t.shutdown;
    t.endSpan('GET', { 'http.response.status_code': 500, 'error.type': '500' }, SpanStatusCode.ERROR);
    t.endSpan('chat gpt-4o', { 'gen_ai.operation.name': 'chat' });
    const collected = await t.meters.collect();
    expect(points(collected.get('gen_ai.execute_tool.duration'))).to.deep.equal([]);
    expect(t.summary.rows()).to.deep.equal([]);
  });

  it('counts spans the isToolSpan matcher accepts', async () => {
    const t = setup({ isToolSpan: (span) => span.name.startsWith('tool:') });
    teardown = t.shutdown;
    t.endSpan('tool:lookup', { 'tool.name': 'lookup' });
    expect(t.summary.rows().map((row) => row.toolName)).to.deep.equal(['lookup']);
  });

  it('keeps metric attributes bounded: tool names capped, foreign error.type sanitised, unknown kinds _OTHER', async () => {
    const t = setup({ maxToolNames: 2 });
    teardown = t.shutdown;
    for (const name of ['a', 'b', 'c', 'd']) t.endSpan(`execute_tool ${name}`, tool(name));
    t.endSpan(
      'execute_tool a',
      tool('a', { 'error.type': 'Bad Error/With spaces', 'tool.error_kind': 'mystery' }),
      SpanStatusCode.ERROR,
    );
    const collected = await t.meters.collect();
    expect(points(collected.get('gen_ai.execute_tool.duration')).map((p) => p.attributes)).to.deep.equal([
      { 'gen_ai.tool.name': 'a' },
      { 'gen_ai.tool.name': 'b' },
      { 'gen_ai.tool.name': '_OTHER' },
      { 'gen_ai.tool.name': 'a', 'error.type': 'Bad_Error_With_spaces', 'tool.error_kind': '_OTHER' },
    ]);
  });

  it('fills the summary with outcome, error.type, kind, retryable and duration', async () => {
    const t = setup();
    teardown = t.shutdown;
    t.endSpan(
      'execute_tool search_web',
      tool('search_web', {
        'error.type': '429',
        'tool.error_kind': 'rate_limit',
        'tool.error_retryable': true,
      }),
      SpanStatusCode.ERROR,
      40,
    );
    expect(t.summary.rows()).to.deep.equal([
      {
        toolName: 'search_web',
        outcome: 'error',
        errorType: '429',
        errorKind: 'rate_limit',
        retryable: true,
        calls: 1,
        totalDurationSeconds: 0.04,
        maxDurationSeconds: 0.04,
      },
    ]);
  });

  it('a stopped call (tool.call.outcome) is timed with its outcome and never counted as an error', async () => {
    const t = setup();
    teardown = t.shutdown;
    t.endSpan('execute_tool refund', tool('refund', { 'tool.call.outcome': 'paused' }));
    t.endSpan('execute_tool refund', tool('refund', { 'tool.call.outcome': 'paused' }));
    // A framework that left its own ERROR on a refused call: the outcome still wins.
    t.endSpan('execute_tool refund', tool('refund', { 'tool.call.outcome': 'denied' }), SpanStatusCode.ERROR);
    t.endSpan(
      'execute_tool refund',
      tool('refund', { 'error.type': '500', 'tool.error_kind': 'transient' }),
      SpanStatusCode.ERROR,
    );
    const collected = await t.meters.collect();
    const duration = collected.get('gen_ai.execute_tool.duration') as HistogramMetricData;
    expect(duration.dataPoints.map((point) => [point.attributes, point.value.count])).to.deep.equal([
      [{ 'gen_ai.tool.name': 'refund', 'tool.call.outcome': 'paused' }, 2],
      [{ 'gen_ai.tool.name': 'refund', 'tool.call.outcome': 'denied' }, 1],
      [{ 'gen_ai.tool.name': 'refund', 'error.type': '500', 'tool.error_kind': 'transient' }, 1],
    ]);
    expect(points(collected.get('tool.errors'))).to.deep.equal([
      {
        attributes: { 'gen_ai.tool.name': 'refund', 'error.type': '500', 'tool.error_kind': 'transient' },
        value: 1,
      },
    ]);
    expect(t.summary.rows().map((row) => [row.outcome, row.calls, row.errorType])).to.deep.equal([
      ['paused', 2, undefined],
      ['denied', 1, undefined],
      ['error', 1, '500'],
    ]);
    expect(t.summary.errorCounts()).to.deep.equal({ 'refund:500': 1 });
  });

  it('uses a global MeterProvider registered after it was built', async () => {
    const summary = new ToolCallSummary();
    const processor = new ToolMetricsSpanProcessor({ summary });
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [processor] });
    const tracer = tracerProvider.getTracer('t');
    tracer.startSpan('execute_tool early', { attributes: tool('early') }).end();
    const meters = createMeters();
    metrics.setGlobalMeterProvider(meters.provider);
    teardown = async () => {
      metrics.disable();
      await tracerProvider.shutdown();
      await meters.provider.shutdown();
    };
    tracer.startSpan('execute_tool late', { attributes: tool('late') }).end();
    const recorded = points((await meters.collect()).get('gen_ai.execute_tool.duration')).map(
      (p) => p.attributes,
    );
    expect(recorded).to.deep.equal([{ 'gen_ai.tool.name': 'late' }]);
    // The summary needs no MeterProvider: it saw both.
    expect(summary.rows().map((row) => row.toolName)).to.deep.equal(['early', 'late']);
  });

  it('never throws from onEnd, even for a malformed span', () => {
    const processor = new ToolMetricsSpanProcessor({ summary: new ToolCallSummary() });
    const hostile = {
      name: 'execute_tool x',
      get attributes(): never {
        throw new Error('boom');
      },
    };
    expect(() => processor.onEnd(hostile as never)).to.not.throw();
  });

  it('rejects a tool-name cap that is not a positive integer', () => {
    expect(() => new ToolMetricsSpanProcessor({ maxToolNames: -1 })).to.throw(TypeError, /maxToolNames/);
  });
});
