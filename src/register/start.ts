import { diag, trace } from '@opentelemetry/api';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { TOOL_FRAMEWORK_NAMES, ToolInstrumentation } from '../instrumentation/tool-instrumentation';
import { ToolMetricsSpanProcessor } from '../metrics/tool-metrics-span-processor';
import { ToolErrorSpanProcessor } from '../processor/tool-error-span-processor';
import { HTTP_INSTRUMENTATION_CONFIG, UNDICI_INSTRUMENTATION_CONFIG } from './http-instrumentation-config';
import { readRegisterSettings, type RegisterSettings } from './settings';
import { shutdownOnExit } from './shutdown';
import { exportingSpanProcessors } from './trace-exporters';

const STARTED_KEY = Symbol.for('otel-tool-errors.register.started');

/** True when an SDK already set the global tracer provider. */
function tracerProviderRegistered(): boolean {
  const provider = trace.getTracerProvider() as { getDelegateTracer?: (name: string) => unknown };
  // The api hands out a ProxyTracerProvider that has a delegate only once an SDK registered.
  if (typeof provider.getDelegateTracer !== 'function') return true;
  return provider.getDelegateTracer('otel-tool-errors') !== undefined;
}

/**
 * The tool instrumentation. A name in OTEL_TOOL_ERRORS_DISABLED_FRAMEWORKS that names no framework
 * (a typo) is reported and ignored, so the other frameworks stay instrumented.
 */
function toolInstrumentation(settings: RegisterSettings): ToolInstrumentation {
  const named = settings.instrumentation.disabledFrameworks ?? [];
  const unknown = named.filter((name) => !TOOL_FRAMEWORK_NAMES.includes(name));
  if (unknown.length > 0) {
    console.warn(
      `otel-tool-errors/register: OTEL_TOOL_ERRORS_DISABLED_FRAMEWORKS names unknown framework(s) ${unknown
        .map((name) => JSON.stringify(name))
        .join(', ')}, ignored; known: ${TOOL_FRAMEWORK_NAMES.join(', ')}`,
    );
  }
  return new ToolInstrumentation({
    ...settings.instrumentation,
    disabledFrameworks: named.filter((name) => TOOL_FRAMEWORK_NAMES.includes(name)),
  });
}

export interface StartOptions {
  /** Runs just before the SDK starts, only if it starts (the ESM entry registers its loader hook here). */
  beforeStart?: () => void;
}

/**
 * Starts a NodeSDK with the tool-error processor, the tool metrics, the tool instrumentation and
 * the HTTP client instrumentations (whose child spans give the processor HTTP evidence), exporting
 * as the standard `OTEL_*` variables say. Never throws: a failure to start is reported, and the
 * app runs on without telemetry.
 */
export function startZeroCode(options: StartOptions = {}): NodeSDK | undefined {
  try {
    const settings = readRegisterSettings();
    if (settings.disabled) return undefined;
    const holder = globalThis as { [STARTED_KEY]?: boolean };
    if (holder[STARTED_KEY]) {
      console.warn(
        'otel-tool-errors/register: already started in this process; loaded twice? ' +
          'Use --import alone for ESM apps (it covers CommonJS too), or --require alone for CommonJS apps.',
      );
      return undefined;
    }
    if (tracerProviderRegistered()) {
      console.warn(
        'otel-tool-errors/register: an OpenTelemetry SDK is already registered in this process; not starting a second one. ' +
          'Add ToolErrorSpanProcessor, ToolMetricsSpanProcessor and ToolInstrumentation to that SDK instead.',
      );
      return undefined;
    }
    holder[STARTED_KEY] = true;

    const sdk = new NodeSDK({
      spanProcessors: [
        new ToolErrorSpanProcessor(),
        new ToolMetricsSpanProcessor(),
        ...exportingSpanProcessors(settings),
      ],
      instrumentations: [
        toolInstrumentation(settings),
        new HttpInstrumentation(HTTP_INSTRUMENTATION_CONFIG),
        new UndiciInstrumentation(UNDICI_INSTRUMENTATION_CONFIG),
      ],
    });
    for (const warning of settings.warnings) diag.warn(`otel-tool-errors/register: ${warning}`);
    options.beforeStart?.();
    sdk.start();
    shutdownOnExit(sdk);
    return sdk;
  } catch (err) {
    console.warn('otel-tool-errors/register: could not start OpenTelemetry; the app runs without it.', err);
    return undefined;
  }
}
