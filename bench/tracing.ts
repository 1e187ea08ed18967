import { metrics, type Context } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
  type Span,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { ensureContextManager } from '../test/helpers/tracing';

/**
 * The exporting end of every benchmark chain: counts each ended span and drops it, synchronously.
 *
 * Not SimpleSpanProcessor with a no-op exporter: in 2.x it starts an async export per span and
 * keeps the promise until a microtask runs, so a synchronous loop of span ends retains every span
 * of the sample and the measurement becomes mostly GC. Being the cheapest possible end of the
 * chain, it also makes every ratio the strictest: nothing else dilutes what this package adds.
 */
export class DropSpanProcessor implements SpanProcessor {
  ended = 0;

  onStart(_span: Span, _parentContext: Context): void {}

  onEnd(_span: ReadableSpan): void {
    this.ended++;
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** A provider whose chain is `extra…` then a DropSpanProcessor. */
export function dropProvider(extra: SpanProcessor[] = []): {
  provider: BasicTracerProvider;
  dropped: DropSpanProcessor;
} {
  ensureContextManager();
  const dropped = new DropSpanProcessor();
  const provider = new BasicTracerProvider({ spanProcessors: [...extra, dropped] });
  return { provider, dropped };
}

/** Counts the spans of each batch and drops them: the exporter of an end-to-end case, without a network. */
export class DropSpanExporter implements SpanExporter {
  spans = 0;

  export(spans: ReadableSpan[], resultCallback: (result: { code: number }) => void): void {
    this.spans += spans.length;
    resultCallback({ code: 0 }); // ExportResultCode.SUCCESS
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** A provider whose chain is `extra…` then a BatchSpanProcessor (default settings) to a DropSpanExporter. */
export function batchProvider(extra: SpanProcessor[] = []): {
  provider: BasicTracerProvider;
  exported: DropSpanExporter;
} {
  ensureContextManager();
  const exported = new DropSpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [...extra, new BatchSpanProcessor(exported)],
  });
  return { provider, exported };
}

/** Keeps results alive so the optimiser cannot drop the work that produced them. */
export const sink: { value: unknown; count: number } = { value: undefined, count: 0 };
export function consume(value: unknown): void {
  sink.value = value;
  sink.count++;
}

let meterProvider: MeterProvider | undefined;

/**
 * A global MeterProvider with a periodic reader, as the register sets one up (it exports OTLP; this
 * one keeps the last collection in memory, and its interval is longer than any run, so no export
 * lands inside a sample). `ToolMetricsSpanProcessor` records into it.
 */
export function registerMeterProvider(): MeterProvider {
  if (meterProvider) return meterProvider;
  meterProvider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
        exportIntervalMillis: 3_600_000,
      }),
    ],
  });
  metrics.setGlobalMeterProvider(meterProvider);
  return meterProvider;
}
