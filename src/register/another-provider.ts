import { trace } from '@opentelemetry/api';
import { otlpDestination } from './delivery';
import type { RegisterSettings } from './settings';
import { warnUser } from './stderr';

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
 * Tells the user once when the app registers a tracer provider of its own after the register did
 * (its NodeSDK's `start()`, a provider's `register()`): the api keeps the first one, so the app's
 * exporters get nothing. Handing the app's provider the spans too would mean reading its private
 * processors, which no version promises; saying so is what can be done reliably. A library that
 * registers its own (for its own tooling) is left to its own devices.
 */
export function watchForAnotherProvider(settings: RegisterSettings): void {
  const setGlobal = trace.setGlobalTracerProvider.bind(trace);
  let told = false;
  trace.setGlobalTracerProvider = (provider) => {
    const registered = setGlobal(provider);
    if (registered || told || registeredByALibrary(new Error().stack ?? '')) return registered;
    told = true;
    const exporting = settings.traces.exporters.includes('otlp')
      ? `to ${otlpDestination('traces', settings.traces.protocol)}`
      : `to ${settings.traces.exporters.join(' and ') || 'no exporter'} (OTEL_TRACES_EXPORTER)`;
    warnUser(
      "the app registered its own OpenTelemetry tracer provider after the register's; it receives no spans: " +
        `they go where the register exports them, ${exporting}. Either configure the register with the OTEL_* ` +
        'variables and drop the SDK from the app, or run the app without the register and add ' +
        'ToolErrorSpanProcessor, ToolMetricsSpanProcessor and ToolInstrumentation to its SDK.',
    );
    return registered;
  };
}
