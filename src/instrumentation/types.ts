import type { Attributes, Span, TracerProvider } from '@opentelemetry/api';
import type { InstrumentationConfig } from '@opentelemetry/instrumentation';
import type { ToolErrorClassification } from '../classify/classification';
import type { ToolCallHalt } from '../semconv';

/** Options of `new ToolInstrumentation()`. */
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

/** A tool call as the span describes it, and as `attributesHook` and `instrumentTool` take it. */
export interface ToolCallInfo {
  name: string;
  callId?: string;
  description?: string;
  type?: 'function' | 'extension' | 'datastore';
  /**
   * Recorded only when `captureArguments` is on (redacted, truncated). While it is off, its string
   * values are hidden from the error text the span carries (status message, exception event).
   */
  args?: unknown;
  /** More attributes for the span (a protocol's own, such as `mcp.method.name`), also when enriching. */
  attributes?: Attributes;
}

/** What the attributes hook learns about a finished call. */
export interface ToolCallOutcome {
  /** The returned (or resolved) value; absent when the call threw or streamed. */
  result?: unknown;
  /** The thrown (or rejected) value. */
  error?: unknown;
  /** Present when the call failed, thrown or returned: the strongest classification recorded. */
  classification?: ToolErrorClassification;
  /** Present when the framework stopped the call for someone else (`tool.call.outcome`); never with `classification`. */
  halt?: ToolCallHalt;
}

export interface InstrumentToolOptions extends Pick<
  ToolInstrumentationConfig,
  'captureArguments' | 'captureResults' | 'attributesHook'
> {
  /** Detects an error the tool *returns*; defaults to `classifyToolResult`. */
  classifyResult?: (result: unknown) => ToolErrorClassification | undefined;
  /** Defaults to the global tracer provider (including one registered after this call). */
  tracerProvider?: TracerProvider;
}
