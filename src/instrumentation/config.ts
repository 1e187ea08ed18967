import type { Span } from '@opentelemetry/api';
import type { InstrumentationConfig } from '@opentelemetry/instrumentation';
import { version } from '../../package.json';
import type { ToolCallInfo, ToolCallOutcome } from './tool-call/trace-tool-call';

/** The instrumentation scope of every span this package starts. */
export const INSTRUMENTATION_NAME = 'otel-tool-errors';
export const INSTRUMENTATION_VERSION: string = version;

export interface ToolInstrumentationConfig extends InstrumentationConfig {
  /**
   * Record the tool's arguments as `gen_ai.tool.call.arguments` (redacted, truncated). Off by
   * default: arguments are sensitive.
   */
  captureArguments?: boolean;
  /** Record the tool's result as `gen_ai.tool.call.result` (redacted, truncated). Off by default. */
  captureResults?: boolean;
  /**
   * Called once per tool call while the span is still open, to add attributes of your own.
   * Errors it throws are reported through `diag` and otherwise ignored.
   */
  attributesHook?: (span: Span, info: ToolCallInfo, outcome: ToolCallOutcome) => void;
  /**
   * Frameworks to leave unpatched, by adapter name (`mcp`, `langchain`, `ai-sdk-v6`, `ai-sdk-v7`, …).
   * Read when the instrumentation is constructed.
   */
  disabledFrameworks?: readonly string[];
}

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
