import { TraceFlags } from '@opentelemetry/api';
import type { PushMetricExporter, MetricReader } from '@opentelemetry/sdk-metrics';
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { followingDelivery, queueDropCounter, spanQueued } from './delivery';
import { releasingHandles, unrefTimersOf } from './exporter-handles';
import { loadPackage } from './load';
import type { ExporterName, OtlpProtocol, RegisterSettings, Signal, SignalSettings } from './settings';
import { noticeUser } from '../user-notice';

type SdkTrace = typeof import('@opentelemetry/sdk-trace-node');
type SdkMetrics = typeof import('@opentelemetry/sdk-metrics');
type BatchConfig = NonNullable<ConstructorParameters<SdkTrace['BatchSpanProcessor']>[1]>;

type ExporterPackage = Record<string, new (config: object) => SpanExporter | PushMetricExporter>;

/** Loads an optional peer dependency's OTLP exporter, which the app installs if it uses it. */
const peer = (name: string, signal: Signal, protocol: OtlpProtocol) => () =>
  loadPackage<ExporterPackage>(name, `OTLP ${signal} over ${protocol}`);

/**
 * The package of the OTLP exporter for each signal and protocol (NodeSDK's choice too). The
 * dependencies are required by literal name, so that the register's SDK file bundles them.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- bundled, and loaded only when used */
const OTLP_PACKAGES: Record<Signal, Record<OtlpProtocol, () => ExporterPackage>> = {
  traces: {
    'http/protobuf': () => require('@opentelemetry/exporter-trace-otlp-proto'),
    'http/json': peer('@opentelemetry/exporter-trace-otlp-http', 'traces', 'http/json'),
    grpc: peer('@opentelemetry/exporter-trace-otlp-grpc', 'traces', 'grpc'),
  },
  metrics: {
    'http/protobuf': () => require('@opentelemetry/exporter-metrics-otlp-proto'),
    'http/json': () => require('@opentelemetry/exporter-metrics-otlp-http'),
    grpc: peer('@opentelemetry/exporter-metrics-otlp-grpc', 'metrics', 'grpc'),
  },
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** True for the exporters bundled in the register's SDK file; the others are optional peers. */
function bundled(signal: Signal, protocol: OtlpProtocol): boolean {
  return protocol === 'http/protobuf' || (protocol === 'http/json' && signal === 'metrics');
}

/**
 * A span exporter built on its first export: the OTLP exporter and its encoder are most of what
 * the register would otherwise run at start, and a process that ends no span before it exits
 * never needs them. `shutdown` and `forceFlush` with nothing exported have nothing to do.
 */
export class ExporterOnFirstExport implements SpanExporter {
  /** The exporter, once the first export built it. */
  exporter: SpanExporter | undefined;

  constructor(private readonly build: () => SpanExporter) {}

  export(spans: Parameters<SpanExporter['export']>[0], done: Parameters<SpanExporter['export']>[1]): void {
    (this.exporter ??= this.build()).export(spans, done);
  }

  shutdown(): Promise<void> {
    return this.exporter?.shutdown() ?? Promise.resolve();
  }

  forceFlush(): Promise<void> {
    return this.exporter?.forceFlush?.() ?? Promise.resolve();
  }
}

/**
 * An OTLP exporter that reads endpoint, headers and compression from OTEL_EXPORTER_OTLP_*, with
 * its own retries, and the timeout OTEL_EXPORTER_OTLP_*TIMEOUT sets (10 s unless set). A bundled
 * span exporter is built on its first export; an optional peer's now, so that a missing package
 * is said at start.
 */
function otlpExporter<E extends SpanExporter | PushMetricExporter>(
  signal: Signal,
  settings: SignalSettings,
): E {
  const build = () => {
    const exported = OTLP_PACKAGES[signal][settings.protocol]();
    const Exporter = signal === 'traces' ? exported.OTLPTraceExporter! : exported.OTLPMetricExporter!;
    return releasingHandles(new Exporter({ timeoutMillis: settings.timeoutMillis }) as E, settings.protocol);
  };
  const deferred = signal === 'traces' && bundled(signal, settings.protocol);
  const exporter = deferred
    ? (new ExporterOnFirstExport(build as () => SpanExporter) as unknown as E)
    : build();
  return followingDelivery(exporter, signal, settings.protocol);
}

/** Builds one exporter per name; one that cannot be built is reported and left out. */
function each<T>(signal: Signal, names: readonly ExporterName[], build: (name: ExporterName) => T): T[] {
  const built: T[] = [];
  for (const name of names) {
    try {
      built.push(build(name));
    } catch (err) {
      noticeUser(`${signal} exporter "${name}" not started: ${(err as Error).message}`);
    }
  }
  return built;
}

/**
 * A batch span processor (it reads OTEL_BSP_*) whose own metrics report the spans it drops when
 * its queue is full, so that they are counted with what its exporter lost.
 */
function batchSpanProcessor(sdk: SdkTrace, exporter: SpanExporter): SpanProcessor {
  // The env-reading BatchSpanProcessor hands its config on to the one it extends, which takes this
  // (experimental) option although the env-reading one's type does not list it.
  const config: BatchConfig & { selfObsMeterProvider: unknown } = {
    selfObsMeterProvider: queueDropCounter(exporter),
  };
  const processor = new sdk.BatchSpanProcessor(exporter, config);
  // Each batch export also starts an OTEL_BSP_EXPORT_TIMEOUT (30 s) timer, a handle of its own.
  unrefTimersOf(processor, '_flushOneBatch');
  const onEnd = processor.onEnd.bind(processor);
  processor.onEnd = (span) => {
    // The processor keeps sampled spans only.
    if (span.spanContext().traceFlags & TraceFlags.SAMPLED) spanQueued(exporter);
    onEnd(span);
  };
  return processor;
}

/**
 * The exporting span processors NodeSDK would build from `OTEL_TRACES_EXPORTER`: console spans
 * go out one by one, OTLP in batches.
 */
export function exportingSpanProcessors(settings: RegisterSettings): SpanProcessor[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- bundled; see OTLP_PACKAGES
  const sdk = require('@opentelemetry/sdk-trace-node') as SdkTrace;
  return each('traces', settings.traces.exporters, (name) =>
    name === 'console'
      ? new sdk.SimpleSpanProcessor(new sdk.ConsoleSpanExporter())
      : batchSpanProcessor(sdk, otlpExporter<SpanExporter>('traces', settings.traces)),
  );
}

/** The periodic metric readers for `OTEL_METRICS_EXPORTER`, every OTEL_METRIC_EXPORT_INTERVAL. */
export function metricReaders(settings: RegisterSettings): MetricReader[] {
  if (settings.metrics.exporters.length === 0) return [];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- bundled; see OTLP_PACKAGES
  const sdk = require('@opentelemetry/sdk-metrics') as SdkMetrics;
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
