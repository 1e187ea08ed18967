import { TraceFlags } from '@opentelemetry/api';
import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import type { Socket } from 'node:net';
import type { PushMetricExporter, MetricReader } from '@opentelemetry/sdk-metrics';
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { followingDelivery, queueDropCounter, spanQueued, type OtlpProtocol, type Signal } from './delivery';
import { noticeUser } from '../user-notice';

/* eslint-disable @typescript-eslint/no-require-imports -- each package is loaded when first used, the
   bundled ones by literal name so that the register's SDK file bundles them */

type SdkTrace = typeof import('@opentelemetry/sdk-trace-node');
type SdkMetrics = typeof import('@opentelemetry/sdk-metrics');
type BatchConfig = ConstructorParameters<SdkTrace['BatchSpanProcessor']>[1];
export type ExporterName = 'otlp' | 'console';

/** `OTEL_<SIGNAL>_EXPORTER` (default `otlp`; `none`: not exported), its OTLP protocol and timeout (10 s). */
export interface SignalSettings {
  readonly exporters: readonly ExporterName[];
  readonly protocol: OtlpProtocol;
  readonly timeoutMillis: number;
}

/** What the exporters are built from: the register's settings (register/settings.ts). */
interface ExportSettings {
  readonly traces: SignalSettings;
  readonly metrics: SignalSettings;
  readonly metricExportIntervalMillis: number;
}

type ExporterPackage = Record<string, new (config: object) => SpanExporter | PushMetricExporter>;

/** Loads an optional peer dependency, with an error that says how to install it when it is missing. */
export function loadPackage<T>(name: string, neededFor: string): T {
  try {
    return require(name) as T;
  } catch (err) {
    if ((err as { code?: string }).code === 'MODULE_NOT_FOUND' && String(err).includes(name)) {
      throw new Error(`${neededFor} needs the package ${name}: npm install ${name}`);
    }
    throw err;
  }
}

const peer = (name: string, signal: Signal, protocol: OtlpProtocol) => () =>
  loadPackage<ExporterPackage>(name, `OTLP ${signal} over ${protocol}`);

/** The package of the OTLP exporter for each signal and protocol (NodeSDK's choice too). */
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

/**
 * A span exporter built on its first export: the OTLP exporter and its encoder are most of what a
 * start would otherwise run, and a process that ends no span never needs them.
 */
export class ExporterOnFirstExport implements SpanExporter {
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
 * The exit is bounded by the register itself once the event loop empties (`beforeExit`, see
 * shutdown.ts), so the exporters' sockets and retry timers must not keep the loop busy.
 */
let watchingSockets = false;

/** Sockets of OTLP/HTTP export requests (by the User-Agent all OpenTelemetry JS exporters send), unref'd. */
function unrefExportSockets(): void {
  if (watchingSockets) return;
  watchingSockets = true;
  subscribe('http.client.request.start', (message) => {
    const { request } = message as { request: ClientRequest };
    if (!String(request.getHeader('user-agent') ?? '').includes('OTel-OTLP-Exporter-JavaScript/')) return;
    // A kept-alive socket is ref'd again each time the agent hands it to a request, before this.
    request.socket?.unref();
    request.once('socket', (socket: Socket) => socket.unref());
  });
}

/**
 * Unrefs the timers `target[method]` sets during its synchronous run. The methods are private to
 * OpenTelemetry's classes: where one is missing, the exit waits for its timer, as without the register.
 */
function unrefTimersOf(target: object | undefined, method: string): void {
  const holder = target as Record<string, unknown> | undefined;
  const original = holder?.[method];
  if (typeof original !== 'function') return;
  holder![method] = function (this: unknown, ...args: unknown[]) {
    const setTimer = globalThis.setTimeout;
    globalThis.setTimeout = ((...timerArgs: Parameters<typeof setTimeout>) =>
      setTimer(...timerArgs).unref()) as typeof setTimeout;
    try {
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } finally {
      globalThis.setTimeout = setTimer;
    }
  };
}

/**
 * An OTLP exporter that reads endpoint, headers and compression from OTEL_EXPORTER_OTLP_*; its
 * retrying transport's backoff timers unref'd. A bundled span exporter is built on its first
 * export; an optional peer's now, so that a missing package is said at start.
 */
function otlpExporter<E extends SpanExporter | PushMetricExporter>(
  signal: Signal,
  settings: SignalSettings,
): E {
  const build = () => {
    const exported = OTLP_PACKAGES[signal][settings.protocol]();
    const Exporter = signal === 'traces' ? exported.OTLPTraceExporter! : exported.OTLPMetricExporter!;
    const exporter = new Exporter({ timeoutMillis: settings.timeoutMillis }) as E;
    if (settings.protocol !== 'grpc') unrefExportSockets();
    unrefTimersOf((exporter as { _delegate?: { _transport?: object } })._delegate?._transport, 'retry');
    return exporter;
  };
  const exporter =
    signal === 'traces' && settings.protocol === 'http/protobuf'
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

/** A batch span processor (it reads OTEL_BSP_*) whose dropped spans are counted with what its exporter lost. */
function batchSpanProcessor(sdk: SdkTrace, exporter: SpanExporter): SpanProcessor {
  // Handed on to the BatchSpanProcessorBase, which takes this experimental option its type does not list.
  const config = { selfObsMeterProvider: queueDropCounter(exporter) } as BatchConfig;
  const processor = new sdk.BatchSpanProcessor(exporter, config);
  // Each batch export also starts an OTEL_BSP_EXPORT_TIMEOUT (30 s) timer.
  unrefTimersOf(processor, '_flushOneBatch');
  const onEnd = processor.onEnd.bind(processor);
  processor.onEnd = (span) => {
    // The processor keeps sampled spans only.
    if (span.spanContext().traceFlags & TraceFlags.SAMPLED) spanQueued(exporter);
    onEnd(span);
  };
  return processor;
}

/** NodeSDK's exporting span processors for `OTEL_TRACES_EXPORTER`: console one by one, OTLP in batches. */
export function exportingSpanProcessors(settings: ExportSettings): SpanProcessor[] {
  const sdk = require('@opentelemetry/sdk-trace-node') as SdkTrace;
  return each('traces', settings.traces.exporters, (name) =>
    name === 'console'
      ? new sdk.SimpleSpanProcessor(new sdk.ConsoleSpanExporter())
      : batchSpanProcessor(sdk, otlpExporter<SpanExporter>('traces', settings.traces)),
  );
}

/** The periodic metric readers (unref'd timers) for `OTEL_METRICS_EXPORTER`. */
export function metricReaders(settings: ExportSettings): MetricReader[] {
  if (settings.metrics.exporters.length === 0) return [];
  const sdk = require('@opentelemetry/sdk-metrics') as SdkMetrics;
  const interval = settings.metricExportIntervalMillis;
  return each('metrics', settings.metrics.exporters, (name) => {
    const exporter =
      name === 'console'
        ? new sdk.ConsoleMetricExporter()
        : otlpExporter<PushMetricExporter>('metrics', settings.metrics);
    return new sdk.PeriodicExportingMetricReader({
      exporter,
      exportIntervalMillis: interval,
      exportTimeoutMillis: Math.min(interval, Math.max(settings.metrics.timeoutMillis, 1)),
    });
  });
}
