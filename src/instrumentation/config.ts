import type { Span } from '@opentelemetry/api';
import type { InstrumentationConfig } from '@opentelemetry/instrumentation';
import { version } from '../../package.json';
import type { ToolCallInfo, ToolCallOutcome } from './tool-call-wrapper';

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
