import { trace } from '@opentelemetry/api';
import { watchForAnotherProvider } from './another-provider';
import { rememberModuleResolutions } from './resolution-memo';
import { readRegisterSettings } from './settings';
import { shutdownOnExit } from './shutdown';
import { noticeUser } from '../user-notice';
import type { Telemetry } from './telemetry';

const STARTED_KEY = Symbol.for('otel-tool-errors.register.started');

/** True when an SDK already set the global tracer provider. */
function tracerProviderRegistered(): boolean {
  const provider = trace.getTracerProvider() as { getDelegateTracer?: (name: string) => unknown };
  // The api hands out a ProxyTracerProvider that has a delegate only once an SDK registered.
  if (typeof provider.getDelegateTracer !== 'function') return true;
  return provider.getDelegateTracer('otel-tool-errors') !== undefined;
}

export interface StartOptions {
  /** Runs once the instrumentations are constructed, before they are enabled: the ESM entry's loader hooks. */
  beforeHooks?: (hookedModules: (string | RegExp)[]) => void;
}

/** Starts tracing and metrics as the `OTEL_*` variables say. Never throws: the app runs on without them. */
export function startZeroCode(options: StartOptions = {}): Telemetry | undefined {
  try {
    const settings = readRegisterSettings();
    if (settings.disabled) return undefined;
    const holder = globalThis as { [STARTED_KEY]?: boolean };
    if (holder[STARTED_KEY]) {
      noticeUser(
        'already started in this process; loaded twice? ' +
          'Use --import alone for ESM apps (it covers CommonJS too), or --require alone for CommonJS apps.',
      );
      return undefined;
    }
    if (tracerProviderRegistered()) {
      noticeUser(
        'an OpenTelemetry SDK is already registered in this process; not starting a second one. ' +
          'Add ToolErrorSpanProcessor, ToolMetricsSpanProcessor and ToolInstrumentation to that SDK instead.',
      );
      return undefined;
    }
    holder[STARTED_KEY] = true;

    rememberModuleResolutions();
    // Loaded here, not imported, so that a disabled or refused start loads no SDK package.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
    const { startTelemetry } = require('./telemetry') as typeof import('./telemetry');
    const telemetry = startTelemetry(settings, options.beforeHooks);
    shutdownOnExit(
      telemetry,
      settings.exitTimeoutMillis,
      Math.max(settings.traces.timeoutMillis, settings.metrics.timeoutMillis),
    );
    watchForAnotherProvider(settings, telemetry);
    return telemetry;
  } catch (err) {
    noticeUser('could not start OpenTelemetry; the app runs without it.', { error: err });
    return undefined;
  }
}
