import { ENV_GENAI_CAPTURE_MESSAGE_CONTENT, genAiCaptureFrom } from './capture-env';
import type { ToolInstrumentationConfig } from './types';

/** Checks of the options users give, each failing with a TypeError that names the option. */

/**
 * Rejects option values that would not mean what they seem to: `captureArguments: 'false'` is a
 * truthy string, and would turn capture on. Throws a TypeError naming the option.
 */
export function checkCaptureOptions(
  config: Pick<ToolInstrumentationConfig, 'captureArguments' | 'captureResults' | 'attributesHook'>,
  owner: string,
): void {
  for (const option of ['captureArguments', 'captureResults'] as const) {
    const value = config[option];
    if (value !== undefined && typeof value !== 'boolean') {
      throw new TypeError(`${owner}: ${option} must be true or false, got ${describeValue(value)}`);
    }
  }
  if (config.attributesHook !== undefined && typeof config.attributesHook !== 'function') {
    throw new TypeError(
      `${owner}: attributesHook must be a function, got ${describeValue(config.attributesHook)}`,
    );
  }
}

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string ${JSON.stringify(value)}` : typeof value;
}

export function checkConfig(
  config: ToolInstrumentationConfig,
  knownFrameworks: readonly string[],
): ToolInstrumentationConfig {
  if (typeof config !== 'object' || config === null) {
    throw new TypeError(`ToolInstrumentation: config must be an object, got ${describeValue(config)}`);
  }
  checkCaptureOptions(config, 'ToolInstrumentation');
  const disabled: unknown = config.disabledFrameworks;
  if (
    disabled !== undefined &&
    (!Array.isArray(disabled) || disabled.some((name) => typeof name !== 'string'))
  ) {
    throw new TypeError(
      `ToolInstrumentation: disabledFrameworks must be an array of framework names, such as ['mcp'], got ${describeValue(disabled)}`,
    );
  }
  for (const name of config.disabledFrameworks ?? []) {
    if (!knownFrameworks.includes(name)) {
      throw new TypeError(
        `ToolInstrumentation: unknown framework ${JSON.stringify(name)} in disabledFrameworks; known: ${knownFrameworks.join(', ')}`,
      );
    }
  }
  return config;
}

/**
 * `captureArguments` and `captureResults` left unset follow the GenAI conventions' switch,
 * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT` (`true`, `SPAN_ONLY` or `SPAN_AND_EVENT`
 * turn them on); set, they win.
 */
export function withCaptureDefaults(config: ToolInstrumentationConfig): ToolInstrumentationConfig {
  if (config.captureArguments !== undefined && config.captureResults !== undefined) return config;
  const captureContent = genAiCaptureFrom(process.env[ENV_GENAI_CAPTURE_MESSAGE_CONTENT]) === true;
  return {
    ...config,
    captureArguments: config.captureArguments ?? captureContent,
    captureResults: config.captureResults ?? captureContent,
  };
}
