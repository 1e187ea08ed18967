import type { PushMetricExporter, MetricReader } from '@opentelemetry/sdk-metrics';
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { followingDelivery, queueDropCounter, spanQueued } from './delivery';
import { releasingHandles, unrefTimersOf } from './exporter-handles';
import { loadPackage } from './load';
import type { ExporterName, OtlpProtocol, RegisterSettings, Signal, SignalSettings } from './settings';
import { warnUser } from './stderr';

type SdkTrace = typeof import('@opentelemetry/sdk-trace-node');
type SdkMetrics = typeof import('@opentelemetry/sdk-metrics');
type Api = typeof import('@opentelemetry/api');
type BatchConfig = NonNullable<ConstructorParameters<SdkTrace['BatchSpanProcessor']>[1]>;

/** The package of the OTLP exporter for each signal and protocol (NodeSDK's choice too). */
const OTLP_PACKAGES: Record<Signal, Record<OtlpProtocol, string>> = {
  traces: {
    'http/protobuf': '@opentelemetry/exporter-trace-otlp-proto',
    'http/json': '@opentelemetry/exporter-trace-otlp-http',
    grpc: '@opentelemetry/exporter-trace-otlp-grpc',
  },
  metrics: {
    'http/protobuf': '@opentelemetry/exporter-metrics-otlp-proto',
    'http/json': '@opentelemetry/exporter-metrics-otlp-http',
    grpc: '@opentelemetry/exporter-metrics-otlp-grpc',
  },
};

/**
 * An OTLP exporter that reads endpoint, headers and compression from OTEL_EXPORTER_OTLP_*, with
 * its own retries, and the timeout OTEL_EXPORTER_OTLP_*TIMEOUT sets (10 s unless set).
 */
function otlpExporter<E extends SpanExporter | PushMetricExporter>(
  signal: Signal,
  settings: SignalSettings,
): E {
  const name = OTLP_PACKAGES[signal][settings.protocol];
  const exported = loadPackage<Record<string, new (config: object) => E>>(
    name,
    `OTLP ${signal} over ${settings.protocol}`,
  );
  const Exporter = signal === 'traces' ? exported.OTLPTraceExporter! : exported.OTLPMetricExporter!;
  const exporter = new Exporter({ timeoutMillis: settings.timeoutMillis });
  return followingDelivery(releasingHandles(exporter, settings.protocol), signal, settings.protocol);
}

/** Builds one exporter per name; one that cannot be built is reported and left out. */
function each<T>(signal: Signal, names: readonly ExporterName[], build: (name: ExporterName) => T): T[] {
  const built: T[] = [];
  for (const name of names) {
    try {
      built.push(build(name));
    } catch (err) {
      warnUser(`${signal} exporter "${name}" not started: ${(err as Error).message}`);
    }
  }
  return built;
}

/**
 * A batch span processor (it reads OTEL_BSP_*) whose own metrics report the spans it drops when
 * its queue is full, so that they are counted with what its exporter lost.
 */
function batchSpanProcessor(sdk: SdkTrace, exporter: SpanExporter): SpanProcessor {
  const api = loadPackage<Api>('@opentelemetry/api', 'the register');
  // The env-reading BatchSpanProcessor hands its config on to the one it extends, which takes this
  // (experimental) option although the env-reading one's type does not list it.
  const config: BatchConfig & { selfObsMeterProvider: unknown } = {
    selfObsMeterProvider: queueDropCounter(api, exporter),
  };
  const processor = new sdk.BatchSpanProcessor(exporter, config);
  // Each batch export also starts an OTEL_BSP_EXPORT_TIMEOUT (30 s) timer, a handle of its own.
  unrefTimersOf(processor, '_flushOneBatch');
  const onEnd = processor.onEnd.bind(processor);
  processor.onEnd = (span) => {
    // The processor keeps sampled spans only.
    if (span.spanContext().traceFlags & api.TraceFlags.SAMPLED) spanQueued(exporter);
    onEnd(span);
  };
  return processor;
}

/**
 * The exporting span processors NodeSDK would build from `OTEL_TRACES_EXPORTER`: console spans
 * go out one by one, OTLP in batches.
 */
export function exportingSpanProcessors(settings: RegisterSettings): SpanProcessor[] {
  const sdk = loadPackage<SdkTrace>('@opentelemetry/sdk-trace-node', 'the register');
  return each('traces', settings.traces.exporters, (name) =>
    name === 'console'
      ? new sdk.SimpleSpanProcessor(new sdk.ConsoleSpanExporter())
      : batchSpanProcessor(sdk, otlpExporter<SpanExporter>('traces', settings.traces)),
  );
}

/** The periodic metric readers for `OTEL_METRICS_EXPORTER`, every OTEL_METRIC_EXPORT_INTERVAL. */
export function metricReaders(settings: RegisterSettings): MetricReader[] {
  const sdk = loadPackage<SdkMetrics>('@opentelemetry/sdk-metrics', 'the register');
  const interval = settings.metricExportIntervalMillis;
  return each('metrics', settings.metrics.exporters, (name) => {
    const exporter =
      name === 'console'
        ? new sdk.ConsoleMetricExporter()
        : otlpExporter<PushMetricExporter>('metrics', settings.metrics);
    // The reader's timer is unref'd: it never keeps the process alive; shutdown exports the rest.
    return new sdk.PeriodicExportingMetricReader({
      exporter,
      exportIntervalMillis: interval,
      exportTimeoutMillis: Math.min(interval, Math.max(settings.metrics.timeoutMillis, 1)),
    });
  });
}
