import { otlpDestination } from './delivery';
import { loadPackage } from './load';
import { readRegisterSettings, type RegisterSettings } from './settings';
import { shutdownOnExit } from './shutdown';
import { logger } from '../logger';
import { warnUser } from './stderr';
import type { Telemetry } from './telemetry';

const STARTED_KEY = Symbol.for('otel-tool-errors.register.started');

/** True when an SDK already set the global tracer provider. */
function tracerProviderRegistered(): boolean {
  const { trace } = loadPackage<typeof import('@opentelemetry/api')>('@opentelemetry/api', 'the register');
  const provider = trace.getTracerProvider() as { getDelegateTracer?: (name: string) => unknown };
  // The api hands out a ProxyTracerProvider that has a delegate only once an SDK registered.
  if (typeof provider.getDelegateTracer !== 'function') return true;
  return provider.getDelegateTracer('otel-tool-errors') !== undefined;
}

/**
 * Tells the user once when the app registers a tracer provider of its own after the register did
 * (its NodeSDK's `start()`, a provider's `register()`): the api keeps the first one, so the app's
 * exporters get nothing. Handing the app's provider the spans too would mean reading its private
 * processors, which no version promises; saying so is what can be done reliably.
 */
function watchForAnotherProvider(settings: RegisterSettings): void {
  const { trace } = loadPackage<typeof import('@opentelemetry/api')>('@opentelemetry/api', 'the register');
  const setGlobal = trace.setGlobalTracerProvider.bind(trace);
  let told = false;
  const watched: typeof trace.setGlobalTracerProvider = (provider) => {
    const registered = setGlobal(provider);
    if (!registered && !told && startedByDependency(watched)) {
      logger.debug('a dependency started its own tracer provider; its spans go through the register instead');
    } else if (!registered && !told) {
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
    }
    return registered;
  };
  trace.setGlobalTracerProvider = watched;
}

/**
 * Whether the provider being registered was started by a dependency (Genkit starts a NodeSDK of
 * its own on first use) rather than by the app: the first caller on the stack outside
 * OpenTelemetry's packages and this one lies in node_modules. Its spans reach the register's
 * pipeline, which is what the app asked for, so there is nothing to tell.
 */
function startedByDependency(watched: (...args: never[]) => unknown): boolean {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 30;
  const holder: { stack?: string } = {};
  // The stack from the caller of the watched setter down.
  Error.captureStackTrace(holder, watched);
  Error.stackTraceLimit = limit;
  for (const frame of (holder.stack ?? '').split('\n').slice(1)) {
    if (/node:internal|\/node_modules\/@opentelemetry\//.test(frame)) continue;
    return frame.includes('/node_modules/');
  }
  return false;
}

export interface StartOptions {
  /**
   * Runs once the instrumentations are constructed and before they are enabled, only if the SDK
   * starts (the ESM entry registers its loader hooks here).
   */
  beforeHooks?: (hookedModules: (string | RegExp)[]) => void;
}

/** False for OTEL_SDK_DISABLED=true: the ESM entry then skips its loader hooks too. */
export function registerWillStart(): boolean {
  return !readRegisterSettings().disabled;
}

/**
 * Starts tracing and metrics with tool-error enrichment, exporting as the standard `OTEL_*`
 * variables say. Never throws: a failure to start is reported, and the app runs on without
 * telemetry. With OTEL_SDK_DISABLED=true it loads nothing beyond this check.
 */
export function startZeroCode(options: StartOptions = {}): Telemetry | undefined {
  try {
    const settings = readRegisterSettings();
    if (settings.disabled) return undefined;
    const holder = globalThis as { [STARTED_KEY]?: boolean };
    if (holder[STARTED_KEY]) {
      warnUser(
        'already started in this process; loaded twice? ' +
          'Use --import alone for ESM apps (it covers CommonJS too), or --require alone for CommonJS apps.',
      );
      return undefined;
    }
    if (tracerProviderRegistered()) {
      warnUser(
        'an OpenTelemetry SDK is already registered in this process; not starting a second one. ' +
          'Add ToolErrorSpanProcessor, ToolMetricsSpanProcessor and ToolInstrumentation to that SDK instead.',
      );
      return undefined;
    }
    holder[STARTED_KEY] = true;

    // Loaded here, not imported, so that a disabled or refused start loads no SDK package.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
    const { startTelemetry } = require('./telemetry') as typeof import('./telemetry');
    const telemetry = startTelemetry(settings, options.beforeHooks);
    shutdownOnExit(
      telemetry,
      settings.exitTimeoutMillis,
      Math.max(settings.traces.timeoutMillis, settings.metrics.timeoutMillis),
    );
    watchForAnotherProvider(settings);
    return telemetry;
  } catch (err) {
    warnUser('could not start OpenTelemetry; the app runs without it.', err);
    return undefined;
  }
}
