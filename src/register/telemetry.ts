import {
  DiagConsoleLogger,
  DiagLogLevel,
  diag,
  metrics,
  type TextMapPropagator,
  type TracerProvider,
} from '@opentelemetry/api';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import type { MetricReader } from '@opentelemetry/sdk-metrics';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { TOOL_FRAMEWORK_NAMES } from '../instrumentation/adapters';
import { ToolInstrumentation } from '../instrumentation/tool-instrumentation';
import { loaderHookInclude } from '../instrumentation/loader-hook-include';
import { ToolMetricsSpanProcessor } from '../metrics/tool-metrics-span-processor';
import { RedactingSpanProcessor } from '../processor/redacting-span-processor';
import { ToolErrorSpanProcessor } from '../processor/tool-error-span-processor';
import { DeferredMeterProvider, type StartedMeterProvider } from './deferred-metrics';
import { exportingSpanProcessors, metricReaders } from './exporters';
import { HTTP_INSTRUMENTATION_CONFIG, UNDICI_INSTRUMENTATION_CONFIG } from './http-instrumentation-config';
import { resourceDetectors } from './resources';
import { hookedInstrumentations } from './hooked-modules';
import type { RegisterSettings } from './settings';
import { noticeUser } from '../user-notice';
import { HandToMainThreadProcessor, inWorkerThread, takeWorkerSpans } from './worker-spans';

/* eslint-disable @typescript-eslint/no-require-imports -- each package is required when the
   settings need it, by literal name so that the register's SDK file bundles it. */

type Resources = typeof import('@opentelemetry/resources');
type SdkTraceNode = typeof import('@opentelemetry/sdk-trace-node');
type Core = typeof import('@opentelemetry/core');
type SdkMetrics = typeof import('@opentelemetry/sdk-metrics');
type InstrumentationPackage = typeof import('@opentelemetry/instrumentation');
type HttpPackage = typeof import('@opentelemetry/instrumentation-http');
type UndiciPackage = typeof import('@opentelemetry/instrumentation-undici');

/** The HTTP client instrumentations, by the names auto-instrumentations-node gives them. */
const HTTP_CLIENTS = ['http', 'undici'] as const;

export interface Telemetry {
  readonly tracerProvider: NodeTracerProvider;
  readonly meterProvider: StartedMeterProvider | undefined;
  /** What the register enables, handed to the app's own providers when it starts an SDK (app-provider.ts). */
  readonly instrumentations: Instrumentation[];
  /** The app's own tracer provider, once the register joined it: flushed at exit with the register's. */
  appTracerProvider?: { forceFlush(): Promise<void> };
}

/** `OTEL_LOG_LEVEL` turns on the SDK's diagnostics on the console, as NodeSDK does. */
function setDiagLogger(settings: RegisterSettings): void {
  const level = settings.logLevel?.toUpperCase() as keyof typeof DiagLogLevel | undefined;
  if (!level || level === 'NONE') return;
  if (DiagLogLevel[level] === undefined) {
    noticeUser(`OTEL_LOG_LEVEL="${settings.logLevel}" is not a log level; diagnostics stay off`);
    return;
  }
  diag.setLogger(new DiagConsoleLogger(), DiagLogLevel[level]);
}

/**
 * NodeSDK's resource: the SDK defaults, then what the detectors OTEL_NODE_RESOURCE_DETECTORS names
 * find (unset: env, host and process; env reads OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES).
 */
function resource(settings: RegisterSettings) {
  const resources = require('@opentelemetry/resources') as Resources;
  return resources
    .defaultResource()
    .merge(
      resources.detectResources({ detectors: resourceDetectors(resources, settings.resourceDetectors) }),
    );
}

/**
 * The provider's default (`undefined`: W3C trace context and baggage) unless OTEL_PROPAGATORS names
 * fewer; `null` (`none`) registers none, so outgoing calls carry no trace headers.
 */
function propagator(settings: RegisterSettings): TextMapPropagator | null | undefined {
  if (settings.propagators.length === 2) return undefined;
  if (settings.propagators.length === 0) return null;
  const core = require('@opentelemetry/core') as Core;
  return settings.propagators[0] === 'baggage'
    ? new core.W3CBaggagePropagator()
    : new core.W3CTraceContextPropagator();
}

/** Names in OTEL_TOOL_ERRORS_DISABLED_FRAMEWORKS that are no framework: said, and ignored. */
function reportUnknownFrameworkNames(settings: RegisterSettings): void {
  const unknown = (settings.instrumentation.disabledFrameworks ?? []).filter(
    (name) => !TOOL_FRAMEWORK_NAMES.includes(name),
  );
  if (unknown.length > 0) {
    noticeUser(
      `OTEL_TOOL_ERRORS_DISABLED_FRAMEWORKS names unknown framework(s) ${unknown
        .map((name) => JSON.stringify(name))
        .join(', ')}, ignored; known: ${TOOL_FRAMEWORK_NAMES.join(', ')}`,
    );
  }
}

/** Names in OTEL_NODE_ENABLED/DISABLED_INSTRUMENTATIONS that this register does not run. */
function reportUnknownInstrumentationNames(settings: RegisterSettings): void {
  const known: readonly string[] = [...HTTP_CLIENTS, ...TOOL_FRAMEWORK_NAMES];
  for (const [variable, names] of [
    ['OTEL_NODE_ENABLED_INSTRUMENTATIONS', settings.enabledInstrumentations ?? new Set<string>()],
    ['OTEL_NODE_DISABLED_INSTRUMENTATIONS', settings.disabledInstrumentations],
  ] as const) {
    const unknown = [...names].filter((name) => !known.includes(name));
    if (unknown.length > 0) {
      noticeUser(
        `${variable} names ${unknown.join(', ')}, which this register does not run; known: ${known.join(', ')}`,
      );
    }
  }
}

/**
 * The tool instrumentation and the HTTP client instrumentations whose child spans give the
 * processor its HTTP evidence. Constructing them enables their module hooks.
 */
function instrumentations(settings: RegisterSettings): Instrumentation[] {
  reportUnknownInstrumentationNames(settings);
  reportUnknownFrameworkNames(settings);
  // The same choice the ES module entry made its loader hook's `include` list from.
  const on = hookedInstrumentations(settings);
  const list: Instrumentation[] = [];
  const disabled = TOOL_FRAMEWORK_NAMES.filter((name) => !on.includes(name));
  if (disabled.length < TOOL_FRAMEWORK_NAMES.length) {
    list.push(new ToolInstrumentation({ ...settings.instrumentation, disabledFrameworks: disabled }));
  }
  if (on.includes('http')) {
    const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as HttpPackage;
    list.push(new HttpInstrumentation(HTTP_INSTRUMENTATION_CONFIG));
  }
  if (on.includes('undici')) {
    const { UndiciInstrumentation } = require('@opentelemetry/instrumentation-undici') as UndiciPackage;
    list.push(new UndiciInstrumentation(UNDICI_INSTRUMENTATION_CONFIG));
  }
  return list;
}

/**
 * A MeterProvider set as the global one, or none when every metrics exporter is off. With the
 * bundled exporters it is built on the first measurement (deferred-metrics.ts); a gRPC exporter,
 * an optional package the app may lack, is built now, so that a missing one is said at start.
 */
function startMetrics(
  settings: RegisterSettings,
  attributes: ReturnType<typeof resource>,
): StartedMeterProvider | undefined {
  if (settings.metrics.exporters.length === 0) return undefined;
  const build = (readers: MetricReader[]) => {
    const { MeterProvider } = require('@opentelemetry/sdk-metrics') as SdkMetrics;
    return new MeterProvider({ resource: attributes, readers });
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
 * Starts tracing and metrics the way NodeSDK would from the same `OTEL_*` variables, with the
 * tool-error processor and tool metrics in front of the exporting processors, and loading only
 * the packages the settings need. `beforeHooks` runs once the instrumentations registered their
 * module hooks and before they are handed the providers.
 */
export function startTelemetry(
  settings: RegisterSettings,
  beforeHooks?: (modules: (string | RegExp)[]) => void,
): Telemetry {
  setDiagLogger(settings);
  for (const warning of [...settings.warnings, ...settings.invalidValues]) noticeUser(warning);
  const attributes = resource(settings);
  const meterProvider = startMetrics(settings, attributes);
  const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node') as SdkTraceNode;
  // A worker thread's spans are exported, and counted in the tool metrics, by the main thread's
  // register (worker-spans.ts): a thread its owner terminates exports nothing itself.
  const inWorker = inWorkerThread();
  const recording = inWorker
    ? [new HandToMainThreadProcessor()]
    : [new ToolMetricsSpanProcessor(), ...exportingSpanProcessors(settings)];
  if (!inWorker) takeWorkerSpans(recording, attributes);
  const tracerProvider = new NodeTracerProvider({
    resource: attributes,
    spanProcessors: [
      // Secrets out of every span's URLs; the tool's arguments out of the calls it makes.
      new RedactingSpanProcessor({ captureArguments: settings.instrumentation.captureArguments }),
      new ToolErrorSpanProcessor(),
      ...recording,
    ],
  });
  const enabled = instrumentations(settings);
  beforeHooks?.(loaderHookInclude(enabled));
  tracerProvider.register({ propagator: propagator(settings) });
  const { registerInstrumentations } = require('@opentelemetry/instrumentation') as InstrumentationPackage;
  registerInstrumentations({
    instrumentations: enabled,
    tracerProvider: tracerProvider as TracerProvider,
    meterProvider,
  });
  return { tracerProvider, meterProvider, instrumentations: enabled };
}
