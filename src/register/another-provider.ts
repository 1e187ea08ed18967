import { metrics, trace, type MeterProvider, type TracerProvider } from '@opentelemetry/api';
import { ToolMetricsSpanProcessor } from '../metrics/tool-metrics-span-processor';
import { RedactingSpanProcessor } from '../processor/redacting-span-processor';
import { ToolErrorSpanProcessor } from '../processor/tool-error-span-processor';
import { otlpDestination } from '../export/delivery';
import type { RegisterSettings } from './settings';
import { noticeUser } from '../user-notice';
import type { Telemetry } from './telemetry';

/** True when the code registering a provider is a library's (Genkit starts a NodeSDK for its own UI). */
function registeredByALibrary(stack: string): boolean {
  const caller = stack
    .split('\n')
    .slice(2)
    .find((frame) => !/[\\/]node_modules[\\/]@opentelemetry[\\/]|\(node:/.test(frame));
  return caller !== undefined && /[\\/]node_modules[\\/]/.test(caller);
}

/**
 * The span processors of an OpenTelemetry JS 2.x or 3.x tracer provider, the array its
 * MultiSpanProcessor runs through; private, so read only when it has exactly this shape.
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
 * Makes the app's own tracer provider the global one and the instrumentations', with the
 * register's processors in front of its own; false, changing nothing, where they cannot be reached.
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
 * When the app registers providers of its own after the register (the api keeps the first), the
 * register steps aside for the app's first ones, so that the spans go where the app sends them;
 * where a tracer provider's processors cannot be reached, one line says where they go instead.
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
