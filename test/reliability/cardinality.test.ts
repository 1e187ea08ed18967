import { SpanStatusCode } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type DataPoint,
} from '@opentelemetry/sdk-metrics';
import { expect } from 'chai';
import { DEFAULT_MAX_ERROR_TYPES, setMaxErrorTypes } from '../../src';
import { resetErrorTypes } from '../../src/classify/error-type';
import { traceToolCall } from '../../src/instrumentation/tool-call/trace-tool-call';
import { _resetToolSpanNames, MAX_TOOL_SPAN_NAMES } from '../../src/tool-span/span-name';
import { ToolCallSummary, ToolMetricsSpanProcessor } from '../../src';
import { ToolErrorSpanProcessor } from '../../src';
import { createTestTracing, type TestTracing } from '../helpers/tracing';
import { heavy } from './heavy';

/**
 * `error.type` and the metric attributes must stay bounded whatever names errors and tools carry:
 * dynamically named error classes, and tool names a model invents (unknown tools).
 */

const CAP = 25;
const MAX_TOOL_NAMES = 40;
const CALLS = heavy ? 100_000 : 10_000;
const OTHER = '_OTHER';

/** A new Error subclass with its own name, as code generators and some SDKs make them. */
function dynamicErrorClass(name: string): new (message: string) => Error {
  return { [name]: class extends Error {} }[name];
}

/** Every attribute set the histogram and the counter exported. */
async function exportedAttributeSets(
  provider: MeterProvider,
  exporter: InMemoryMetricExporter,
): Promise<Map<string, Record<string, unknown>[]>> {
  await provider.forceFlush();
  const byMetric = new Map<string, Record<string, unknown>[]>();
  for (const resourceMetrics of exporter.getMetrics()) {
    for (const scopeMetrics of resourceMetrics.scopeMetrics) {
      for (const metric of scopeMetrics.metrics) {
        const points = metric.dataPoints as DataPoint<unknown>[];
        byMetric.set(
          metric.descriptor.name,
          points.map((p) => ({ ...p.attributes })),
        );
      }
    }
  }
  return byMetric;
}

function distinct(values: unknown[]): Set<unknown> {
  return new Set(values);
}

describe('cardinality: error.type and metric attributes stay bounded', function () {
  this.timeout(120_000);
  let tracing: TestTracing;
  let meterProvider: MeterProvider;
  let metricExporter: InMemoryMetricExporter;

  beforeEach(() => {
    // The cap is process-wide (shared by every copy of the package): start from a clean registry.
    resetErrorTypes();
    setMaxErrorTypes(CAP);
    metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    meterProvider = new MeterProvider({
      readers: [
        new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 }),
      ],
    });
    tracing = createTestTracing({
      spanProcessors: [
        new ToolErrorSpanProcessor(),
        new ToolMetricsSpanProcessor({
          meterProvider,
          summary: new ToolCallSummary(),
          maxToolNames: MAX_TOOL_NAMES,
        }),
      ],
    });
  });
  afterEach(async () => {
    await tracing.shutdown();
    await meterProvider.shutdown();
    setMaxErrorTypes(DEFAULT_MAX_ERROR_TYPES);
    resetErrorTypes();
    _resetToolSpanNames();
  });

  it(`${CALLS} distinct error classes thrown through the wrapper: at most ${CAP} error.type values, then _OTHER`, async () => {
    for (let i = 0; i < CALLS; i++) {
      const DynamicError = dynamicErrorClass(`GeneratedError${i}`);
      try {
        traceToolCall(tracing.tracer, {}, { name: `tool_${i % 10}` }, () => {
          throw new DynamicError(`failure ${i}`);
        });
      } catch {
        // expected: the tool's own error
      }
    }
    const spans = tracing.spans();
    expect(spans).to.have.length(CALLS);
    expect(spans.every((s) => s.status.code === SpanStatusCode.ERROR)).to.equal(true);
    const types = distinct(spans.map((s) => s.attributes['error.type']));
    const named = [...types].filter((t) => t !== OTHER);
    // At most the cap; a slot or two may hold values admitted along the way (the processor also
    // classifies the exception event, as `Error`), so not necessarily exactly the cap.
    expect(named.length).to.be.within(CAP - 2, CAP);
    expect(types.has(OTHER)).to.equal(true);
    // The first classes seen keep their names: the cap admits, it does not shuffle.
    expect(spans[0].attributes['error.type']).to.equal('GeneratedError0');
    expect(spans[CALLS - 1].attributes['error.type']).to.equal(OTHER);

    const metrics = await exportedAttributeSets(meterProvider, metricExporter);
    for (const name of ['gen_ai.execute_tool.duration', 'tool.errors']) {
      const sets = metrics.get(name) ?? [];
      const metricTypes = distinct(sets.map((a) => a['error.type']));
      console.log(
        `      cardinality (${name}): ${CALLS} calls, ${types.size} span error.type values, ` +
          `${metricTypes.size} metric error.type values, ${sets.length} attribute sets`,
      );
      expect(metricTypes.size).to.be.at.most(CAP + 1);
      expect(sets.length).to.be.at.most((CAP + 1) * 10);
    }
  });

  it(`${CALLS} tool names a model invented: metric attribute sets capped at ${MAX_TOOL_NAMES} names, then _OTHER`, async () => {
    for (let i = 0; i < CALLS; i++) {
      try {
        traceToolCall(tracing.tracer, {}, { name: `hallucinated_tool_${i}` }, () => {
          throw Object.assign(new Error(`Tool hallucinated_tool_${i} not found`), { status: 404 });
        });
      } catch {
        // expected
      }
    }
    const metrics = await exportedAttributeSets(meterProvider, metricExporter);
    const sets = metrics.get('tool.errors') ?? [];
    const names = distinct(sets.map((a) => a['gen_ai.tool.name']));
    console.log(
      `      cardinality (tool names): ${CALLS} calls, ${names.size} metric tool names, ${sets.length} attribute sets`,
    );
    expect(names.size).to.equal(MAX_TOOL_NAMES + 1);
    expect(names.has(OTHER)).to.equal(true);
    expect(distinct(sets.map((a) => a['error.type']))).to.deep.equal(new Set(['404']));

    // Span names: `execute_tool {name}` for the first names, then the fixed `execute_tool`; the
    // invented name stays on the span as an attribute.
    const spans = tracing.spans();
    const spanNames = distinct(spans.map((span) => span.name));
    console.log(`      cardinality (span names): ${CALLS} invented tool names, ${spanNames.size} span names`);
    expect(spanNames.size).to.be.at.most(MAX_TOOL_SPAN_NAMES + 1);
    expect(spanNames.has('execute_tool')).to.equal(true);
    const last = spans[CALLS - 1]!;
    expect(last.name).to.equal('execute_tool');
    expect(last.attributes['gen_ai.tool.name']).to.equal(`hallucinated_tool_${CALLS - 1}`);
  });

  it(`after a burst of ${CALLS} invented error classes, built-in and known classes are still named`, () => {
    const burst = (prefix: string) => {
      for (let i = 0; i < CALLS; i++) {
        const DynamicError = dynamicErrorClass(`${prefix}${i}`);
        try {
          traceToolCall(tracing.tracer, {}, { name: 'flaky' }, () => {
            throw new DynamicError('x');
          });
        } catch {
          // expected
        }
      }
    };
    burst('Burst');
    tracing.reset();
    for (const error of [
      new TypeError('x'),
      new RangeError('x'),
      Object.assign(new Error('x'), { name: 'ZodError' }),
    ]) {
      try {
        traceToolCall(tracing.tracer, {}, { name: 'flaky' }, () => {
          throw error;
        });
      } catch {
        // expected
      }
    }
    expect(tracing.spans().map((span) => span.attributes['error.type'])).to.deep.equal([
      'TypeError',
      'RangeError',
      'ZodError',
    ]);
  });

  it('the cap recovers: once the burst has gone idle, a new class of the app is named', async () => {
    const throwAs = (name: string) => {
      const DynamicError = dynamicErrorClass(name);
      try {
        traceToolCall(tracing.tracer, {}, { name: 'flaky' }, () => {
          throw new DynamicError('x');
        });
      } catch {
        // expected
      }
      return tracing.spans().at(-1)!.attributes['error.type'];
    };
    for (let i = 0; i < CALLS; i++) throwAs(`Burst${i}`);
    // During the burst the cap is full.
    expect(throwAs('PaymentDeclinedError')).to.equal(OTHER);
    const duringBurst = distinct(tracing.spans().map((span) => span.attributes['error.type']));
    expect(duringBurst.size).to.equal(CAP + 1);
    // Past the idle time (10 minutes by default, shortened here), the least recently seen burst
    // value gives way to the new class; the cap is never exceeded.
    setMaxErrorTypes(CAP, { idleMs: 50 });
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(throwAs('PaymentDeclinedError')).to.equal('PaymentDeclinedError');
    expect(throwAs('PaymentDeclinedError')).to.equal('PaymentDeclinedError');
    const named = distinct(tracing.spans().map((span) => span.attributes['error.type']));
    named.delete(OTHER);
    expect(named.size).to.equal(CAP + 1);
  });

  it('framework spans with dynamic exception types: bounded on the spans the processor marks and on the metrics', async () => {
    for (let i = 0; i < CALLS; i++) {
      const span = tracing.tracer.startSpan('execute_tool fw', {
        attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'fw' },
      });
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.addEvent('exception', { 'exception.type': `Dyn${i}Error`, 'exception.message': 'x' });
      span.end();
    }
    const types = distinct(tracing.spans().map((s) => s.attributes['error.type']));
    expect([...types].filter((t) => t !== OTHER).length).to.be.at.most(CAP);
    const metrics = await exportedAttributeSets(meterProvider, metricExporter);
    const metricTypes = distinct((metrics.get('tool.errors') ?? []).map((a) => a['error.type']));
    console.log(
      `      cardinality (framework spans): ${CALLS} spans, ${types.size} span values, ${metricTypes.size} metric values`,
    );
    expect(metricTypes.size).to.be.at.most(CAP + 1);
  });

  it('an error.type another instrumentation wrote is bounded on the metrics', async () => {
    for (let i = 0; i < CALLS; i++) {
      const span = tracing.tracer.startSpan('execute_tool fw', {
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'fw',
          'error.type': `vendor_${i}`,
        },
      });
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    const metrics = await exportedAttributeSets(meterProvider, metricExporter);
    const metricTypes = distinct((metrics.get('tool.errors') ?? []).map((a) => a['error.type']));
    const spanTypes = distinct(tracing.spans().map((s) => s.attributes['error.type']));
    console.log(
      `      cardinality (foreign error.type): ${spanTypes.size} span values kept as written, ${metricTypes.size} metric values`,
    );
    expect(metricTypes.size).to.be.at.most(CAP + 1);
  });
});
