import {
  DiagConsoleLogger,
  DiagLogLevel,
  diag,
  metrics,
  type TextMapPropagator,
  type TracerProvider,
} from '@opentelemetry/api';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import type { ResourceDetector } from '@opentelemetry/resources';
import type { MetricReader } from '@opentelemetry/sdk-metrics';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { TOOL_FRAMEWORK_NAMES } from '../instrumentation/adapters';
import { ToolInstrumentation } from '../instrumentation/tool-instrumentation';
import { loaderHookInclude } from '../instrumentation/loader-hook-include';
import { ToolMetricsSpanProcessor } from '../metrics/tool-metrics-span-processor';
import { RedactingSpanProcessor } from '../processor/redacting-span-processor';
import { ToolErrorSpanProcessor } from '../processor/tool-error-span-processor';
import { RETRY_AFTER_HEADERS } from '../semconv';
import { DeferredMeterProvider, type StartedMeterProvider } from '../export/deferred-metrics';
import { exportingSpanProcessors, loadPackage, metricReaders } from '../export/exporters';
import { hookedInstrumentations } from './hooked-modules';
import { RESOURCE_DETECTORS, type RegisterSettings } from './settings';
import { noticeUser } from '../user-notice';
import { HandToMainThreadProcessor, inWorkerThread, takeWorkerSpans } from '../export/worker-spans';

/* eslint-disable @typescript-eslint/no-require-imports -- each package is required when the
   settings need it, by literal name so that the register's SDK file bundles it. */

type Resources = typeof import('@opentelemetry/resources');

export interface Telemetry {
  readonly tracerProvider: NodeTracerProvider;
  readonly meterProvider: StartedMeterProvider | undefined;
  /** What the register enables, handed to the app's own providers when it starts an SDK. */
  readonly instrumentations: Instrumentation[];
  /** The app's own tracer provider, once the register joined it: flushed at exit with the register's. */
  appTracerProvider?: { forceFlush(): Promise<void> };
}

/** NodeSDK's resource: the SDK defaults, then what the detectors OTEL_NODE_RESOURCE_DETECTORS names find. */
function resource(settings: RegisterSettings) {
  const resources = require('@opentelemetry/resources') as Resources;
  const detectors: ResourceDetector[] = [];
  const problems: string[] = [];
  for (const name of settings.resourceDetectors) {
    const from = RESOURCE_DETECTORS[name];
    if (typeof from === 'string') {
      detectors.push((resources as unknown as Record<string, ResourceDetector>)[from]!);
      continue;
    }
    try {
      const exported = loadPackage<Record<string, ResourceDetector>>(
        from.name,
        `the ${name} resource detector`,
      );
      detectors.push(
        ...from.exports.map((key) => exported[key]).filter((detector) => detector !== undefined),
      );
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  if (problems.length > 0) noticeUser(`OTEL_NODE_RESOURCE_DETECTORS: left out; ${problems.join('; ')}`);
  return resources.defaultResource().merge(resources.detectResources({ detectors }));
}

/** OTEL_PROPAGATORS: the provider's default (`undefined`) is both W3C propagators; `null` is none. */
function propagator(settings: RegisterSettings): TextMapPropagator | null | undefined {
  if (settings.propagators.length !== 1) return settings.propagators.length === 0 ? null : undefined;
  const core = require('@opentelemetry/core') as typeof import('@opentelemetry/core');
  return settings.propagators[0] === 'baggage'
    ? new core.W3CBaggagePropagator()
    : new core.W3CTraceContextPropagator();
}

/**
 * The tool instrumentation, and the HTTP client instrumentations whose child spans give the
 * processor its HTTP evidence, with the Retry-After headers (a 429 with one is `rate_limit`).
 */
function instrumentations(settings: RegisterSettings): Instrumentation[] {
  // The same choice the ES module entry made its loader hook's `include` list from.
  const on = hookedInstrumentations(settings);
  const list: Instrumentation[] = [];
  const disabled = TOOL_FRAMEWORK_NAMES.filter((name) => !on.includes(name));
  if (disabled.length < TOOL_FRAMEWORK_NAMES.length) {
    list.push(new ToolInstrumentation({ ...settings.instrumentation, disabledFrameworks: disabled }));
  }
  const responseHeaders = [...RETRY_AFTER_HEADERS];
  if (on.includes('http')) {
    const http =
      require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
    list.push(new http.HttpInstrumentation({ headersToSpanAttributes: { client: { responseHeaders } } }));
  }
  if (on.includes('undici')) {
    const undici =
      require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
    list.push(new undici.UndiciInstrumentation({ headersToSpanAttributes: { responseHeaders } }));
  }
  return list;
}

/**
 * The global MeterProvider, none when every metrics exporter is off. With the bundled exporters it
 * is built on the first measurement; a gRPC exporter's (an optional peer) now, to say a missing one.
 */
function startMetrics(settings: RegisterSettings, attributes: ReturnType<typeof resource>) {
  if (settings.metrics.exporters.length === 0) return undefined;
  const build = (readers: MetricReader[]) => {
    const sdk = require('@opentelemetry/sdk-metrics') as typeof import('@opentelemetry/sdk-metrics');
    return new sdk.MeterProvider({ resource: attributes, readers });
  };
  let meterProvider: StartedMeterProvider;
  if (settings.metrics.exporters.includes('otlp') && settings.metrics.protocol === 'grpc') {
    const readers = metricReaders(settings);
    if (readers.length === 0) return undefined;
    meterProvider = build(readers);
  } else {
    meterProvider = new DeferredMeterProvider(() => build(metricReaders(settings)));
  }
  metrics.setGlobalMeterProvider(meterProvider);
  return meterProvider;
}

/**
 * Starts tracing and metrics as NodeSDK would from the same `OTEL_*` variables, with the tool
 * processors in front of the exporting ones. `beforeHooks` runs once the instrumentations
 * registered their module hooks and before they are handed the providers.
 */
export function startTelemetry(
  settings: RegisterSettings,
  beforeHooks?: (modules: (string | RegExp)[]) => void,
): Telemetry {
  // OTEL_LOG_LEVEL turns on the SDK's diagnostics on the console, as NodeSDK does.
  const level = settings.logLevel?.toUpperCase() as keyof typeof DiagLogLevel | undefined;
  if (level && level !== 'NONE') {
    if (DiagLogLevel[level] === undefined) {
      noticeUser(`OTEL_LOG_LEVEL="${settings.logLevel}" is not a log level; diagnostics stay off`);
    } else diag.setLogger(new DiagConsoleLogger(), DiagLogLevel[level]);
  }
  for (const warning of settings.warnings) noticeUser(warning);
  const attributes = resource(settings);
  const meterProvider = startMetrics(settings, attributes);
  const { NodeTracerProvider } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  // A worker thread's spans are exported, and counted, by the main thread's register (export/worker-spans.ts).
  const inWorker = inWorkerThread();
  const recording = inWorker
    ? [new HandToMainThreadProcessor()]
    : [new ToolMetricsSpanProcessor(), ...exportingSpanProcessors(settings)];
  if (!inWorker) takeWorkerSpans(recording, attributes);
  const tracerProvider = new NodeTracerProvider({
    resource: attributes,
    spanProcessors: [
      new RedactingSpanProcessor({ captureArguments: settings.instrumentation.captureArguments }),
      new ToolErrorSpanProcessor(),
      ...recording,
    ],
  });
  const enabled = instrumentations(settings);
  beforeHooks?.(loaderHookInclude(enabled));
  tracerProvider.register({ propagator: propagator(settings) });
  const { registerInstrumentations } =
    require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  registerInstrumentations({
    instrumentations: enabled,
    tracerProvider: tracerProvider as TracerProvider,
    meterProvider,
  });
  return { tracerProvider, meterProvider, instrumentations: enabled };
}
