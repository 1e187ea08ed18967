import { trace } from '@opentelemetry/api';
import type { InstrumentationNodeModuleDefinition } from '@opentelemetry/instrumentation';
import { INSTRUMENTATION_VERSION } from '../tool-span/scope';
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

type TraceApi = typeof trace & { [WATCHED]?: true };

const WATCHED = Symbol('otel-tool-errors.register.another-provider-watched');
let told = false;

/** Wraps one copy of the api's `setGlobalTracerProvider`, once, to tell what watchForAnotherProvider tells. */
function watch(traceApi: TraceApi, settings: RegisterSettings): void {
  if (traceApi[WATCHED]) return;
  traceApi[WATCHED] = true;
  const setGlobal = traceApi.setGlobalTracerProvider.bind(traceApi);
  traceApi.setGlobalTracerProvider = (provider) => {
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

/**
 * Watches each copy of @opentelemetry/api the app and its packages require: the register may run
 * its own bundled copy (api-copy.ts), and an app's SDK registers through the installed one.
 * Required here, not imported, so that the register loads require-in-the-middle (which this
 * package loads) its own way first (require-hook-without-debug.ts).
 */
function watchEveryApiCopy(settings: RegisterSettings): void {
  type InstrumentationPackage = typeof import('@opentelemetry/instrumentation');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
  const instrumentation = require('@opentelemetry/instrumentation') as InstrumentationPackage;
  class ApiCopiesWatch extends instrumentation.InstrumentationBase {
    constructor() {
      super('otel-tool-errors-register-provider-watch', INSTRUMENTATION_VERSION, {});
    }

    protected init(): InstrumentationNodeModuleDefinition[] {
      return [
        new instrumentation.InstrumentationNodeModuleDefinition(
          '@opentelemetry/api',
          ['>=1.0.0 <2'],
          (exports: { trace?: TraceApi }) => {
            if (typeof exports.trace?.setGlobalTracerProvider === 'function') watch(exports.trace, settings);
            return exports;
          },
        ),
      ];
    }
  }
  new ApiCopiesWatch();
}

/**
 * Tells the user once when the app registers a tracer provider of its own after the register did
 * (its NodeSDK's `start()`, a provider's `register()`): the api keeps the first one, so the app's
 * exporters get nothing. Handing the app's provider the spans too would mean reading its private
 * processors, which no version promises; saying so is what can be done reliably. A library that
 * registers its own (for its own tooling) is left to its own devices.
 */
export function watchForAnotherProvider(settings: RegisterSettings): void {
  watch(trace, settings);
  watchEveryApiCopy(settings);
}
