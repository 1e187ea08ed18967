import { metrics, trace, type MeterProvider, type TracerProvider } from '@opentelemetry/api';
import { ToolMetricsSpanProcessor } from '../metrics/tool-metrics-span-processor';
import { RedactingSpanProcessor } from '../processor/redacting-span-processor';
import { ToolErrorSpanProcessor } from '../processor/tool-error-span-processor';
import { otlpDestination } from './delivery';
import type { RegisterSettings } from './settings';
import { noticeUser } from '../user-notice';
import type { Telemetry } from './telemetry';

/**
 * True when the code registering a provider is a library's (in node_modules): Genkit, for one,
 * starts its own NodeSDK for its developer UI. The frames skipped are this wrapper's and
 * OpenTelemetry's own (NodeSDK.start, a provider's register).
 */
function registeredByALibrary(stack: string): boolean {
  const caller = stack
    .split('\n')
    .slice(2)
    .find((frame) => !/[\\/]node_modules[\\/]@opentelemetry[\\/]|\(node:/.test(frame));
  return caller !== undefined && /[\\/]node_modules[\\/]/.test(caller);
}

/**
 * The span processors of an OpenTelemetry JS tracer provider, 2.x and the `sdk-trace` line (NodeSDK's,
 * NodeTracerProvider, BasicTracerProvider): the array its MultiSpanProcessor runs through on every
 * span. Private to the SDK, so read only when it has exactly this shape; `undefined` otherwise.
 */
function processorList(provider: TracerProvider): unknown[] | undefined {
  const active = (provider as { _activeSpanProcessor?: { _spanProcessors?: unknown } })._activeSpanProcessor;
  const list = active?._spanProcessors;
  return Array.isArray(list) && list.every((p) => typeof (p as { onEnd?: unknown })?.onEnd === 'function')
    ? list
    : undefined;
}

/** The api's global ProxyTracerProvider, whose delegate is the provider every `trace.getTracer()` uses. */
function globalProxy(): { setDelegate(provider: TracerProvider): void } | undefined {
  const proxy = trace.getTracerProvider() as { setDelegate?: unknown; getDelegate?: unknown };
  return typeof proxy.setDelegate === 'function' && typeof proxy.getDelegate === 'function'
    ? (proxy as { setDelegate(provider: TracerProvider): void })
    : undefined;
}

/**
 * Makes the app's own tracer provider the one the app and the register's instrumentations use, as
 * it would be without the register, with the register's processors in front of the app's own
 * (secrets out of URLs, the tool-error enrichment, the tool metrics): the tool spans then go where
 * the app's spans go, enriched. False, changing nothing, when the provider is not one whose
 * processors can be reached.
 */
function joinAppProvider(
  provider: TracerProvider,
  settings: RegisterSettings,
  telemetry: Telemetry,
  appMeterProvider: MeterProvider | undefined,
): boolean {
  const list = processorList(provider);
  const proxy = globalProxy();
  if (list === undefined || proxy === undefined) return false;
  list.unshift(
    new RedactingSpanProcessor({ captureArguments: settings.instrumentation.captureArguments }),
    new ToolErrorSpanProcessor(),
    new ToolMetricsSpanProcessor(appMeterProvider ? { meterProvider: appMeterProvider } : {}),
  );
  proxy.setDelegate(provider);
  for (const instrumentation of telemetry.instrumentations) instrumentation.setTracerProvider(provider);
  const flushable = provider as { forceFlush?: () => Promise<void> };
  if (typeof flushable.forceFlush === 'function') {
    telemetry.appTracerProvider = { forceFlush: () => flushable.forceFlush!() };
  }
  return true;
}

/**
 * When the app registers a provider of its own after the register did (its NodeSDK's `start()`, a
 * provider's `register()`), the api keeps the first one. So that the app's spans and the tool spans
 * go where the app sends them, the register then steps aside for the app's first one:
 * - a meter provider becomes the global one, and the instrumentations' (the tool metrics follow it);
 * - a tracer provider becomes the global one, and the instrumentations', with the register's
 *   processors added in front of its own (joinAppProvider). Where its processors cannot be reached
 *   (an SDK of another shape), one line says where the spans go instead.
 * The register's own providers keep what they had already; its exit flushes the app's tracer
 * provider too. A library that registers its own (for its own tooling) is left to its own devices.
 */
export function watchForAnotherProvider(settings: RegisterSettings, telemetry: Telemetry): void {
  const setGlobal = trace.setGlobalTracerProvider.bind(trace);
  let appMeterProvider: MeterProvider | undefined;
  let done = false;
  trace.setGlobalTracerProvider = (provider) => {
    const registered = setGlobal(provider);
    if (registered || done || registeredByALibrary(new Error().stack ?? '')) return registered;
    done = true;
    if (joinAppProvider(provider, settings, telemetry, appMeterProvider)) return true;
    const exporting = settings.traces.exporters.includes('otlp')
      ? `to ${otlpDestination('traces', settings.traces.protocol)}`
      : `to ${settings.traces.exporters.join(' and ') || 'no exporter'} (OTEL_TRACES_EXPORTER)`;
    noticeUser(
      "the app registered its own OpenTelemetry tracer provider after the register's; it receives no spans: " +
        `they go where the register exports them, ${exporting}. Either configure the register with the OTEL_* ` +
        'variables and drop the SDK from the app, or run the app without the register and add ' +
        'ToolErrorSpanProcessor, ToolMetricsSpanProcessor and ToolInstrumentation to its SDK.',
    );
    return registered;
  };

  const setGlobalMeter = metrics.setGlobalMeterProvider.bind(metrics);
  metrics.setGlobalMeterProvider = (provider) => {
    const registered = setGlobalMeter(provider);
    if (registered || appMeterProvider || registeredByALibrary(new Error().stack ?? '')) return registered;
    appMeterProvider = provider;
    metrics.disable();
    setGlobalMeter(provider);
    for (const instrumentation of telemetry.instrumentations) instrumentation.setMeterProvider(provider);
    return true;
  };
}
