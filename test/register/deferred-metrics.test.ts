import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { expect } from 'chai';
import { DeferredMeterProvider } from '../../src/export/deferred-metrics';

/** A DeferredMeterProvider over a real SDK MeterProvider with a reader the test collects. */
function deferredSdk(build?: () => MeterProvider) {
  let builds = 0;
  const reader = new PeriodicExportingMetricReader({
    exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
    exportIntervalMillis: 3_600_000,
  });
  const provider = new DeferredMeterProvider(() => {
    builds++;
    return build ? build() : new MeterProvider({ readers: [reader] });
  });
  const collected = async () => {
    const { resourceMetrics } = await reader.collect();
    return resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
  };
  return { provider, builds: () => builds, collected };
}

/** Captures what `fn` writes to stderr. */
function stderrOf(fn: () => void): string {
  const write = process.stderr.write;
  let written = '';
  process.stderr.write = ((chunk: string) => {
    written += chunk;
    return true;
  }) as typeof process.stderr.write;
  try {
    fn();
  } finally {
    process.stderr.write = write;
  }
  return written;
}

describe("the register's meter provider, built on the first measurement", () => {
  it('builds no SDK for meters and instruments that record nothing; its exit has nothing to do', async () => {
    const { provider, builds } = deferredSdk();
    const meter = provider.getMeter('app', '1.0.0');
    meter.createHistogram('http.client.request.duration');
    meter.createCounter('tool.errors');
    meter.createUpDownCounter('queue.size');
    meter.createGauge('temperature');
    await provider.forceFlush();
    await provider.shutdown();
    expect(builds()).to.equal(0);
  });

  it('builds the SDK once on the first measurement, and every measurement is counted', async () => {
    const { provider, builds, collected } = deferredSdk();
    const meter = provider.getMeter('app', '1.0.0');
    const duration = meter.createHistogram('gen_ai.execute_tool.duration', { unit: 's' });
    const errors = meter.createCounter('tool.errors');
    duration.record(0.5, { 'gen_ai.tool.name': 'lookup' });
    errors.add(1, { 'error.type': '503' });
    duration.record(1.5, { 'gen_ai.tool.name': 'lookup' });
    // A meter taken after the build is the SDK's own.
    provider.getMeter('later').createCounter('later.count').add(2);
    expect(builds()).to.equal(1);
    const metrics = await collected();
    const byName = new Map(metrics.map((metric) => [metric.descriptor.name, metric]));
    expect(byName.get('gen_ai.execute_tool.duration')?.descriptor.unit).to.equal('s');
    const point = byName.get('gen_ai.execute_tool.duration')!.dataPoints[0]!;
    expect(point.attributes).to.deep.equal({ 'gen_ai.tool.name': 'lookup' });
    expect((point.value as { count: number; sum: number }).count).to.equal(2);
    expect((point.value as { count: number; sum: number }).sum).to.equal(2);
    expect(byName.get('tool.errors')!.dataPoints[0]!.value).to.equal(1);
    expect(byName.get('later.count')!.dataPoints[0]!.value).to.equal(2);
    await provider.shutdown();
  });

  it('an observable instrument builds the SDK at once, so that its first collection calls it', async () => {
    const { provider, builds, collected } = deferredSdk();
    const gauge = provider.getMeter('app').createObservableGauge('heap.used');
    expect(builds()).to.equal(1);
    gauge.addCallback((result) => result.observe(42));
    const metrics = await collected();
    expect(metrics.find((metric) => metric.descriptor.name === 'heap.used')?.dataPoints[0]?.value).to.equal(
      42,
    );
    await provider.shutdown();
  });

  it('a build that fails says so in one stderr line and drops the measurements, without throwing', () => {
    const { provider, builds } = deferredSdk(() => {
      throw new Error('no metrics for you');
    });
    const meter = provider.getMeter('app');
    const histogram = meter.createHistogram('h');
    const written = stderrOf(() => {
      histogram.record(1);
      histogram.record(2);
      meter.createCounter('c').add(1);
      meter.createObservableCounter('o').addCallback(() => undefined);
    });
    expect(builds()).to.equal(1);
    // One message (the error's inspected stack follows it on the next lines).
    expect(written.match(/otel-tool-errors\/register:/g)).to.have.length(1);
    expect(written).to.match(
      /^otel-tool-errors\/register: could not start metrics; the app runs without them\..*no metrics for you/,
    );
  });
});
