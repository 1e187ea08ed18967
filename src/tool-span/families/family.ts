import { ATTR_GEN_AI_OPERATION_NAME, GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL } from '../../semconv';
import type { ReadableSpanLike } from '../span-shape';

/** The GenAI conventions' tool spans (`gen_ai.operation.name=execute_tool`), which several families refine. */
export const EXECUTE_TOOL_OPERATION: Readonly<Record<string, string>> = {
  [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
};

/**
 * One framework's own tool spans, declared: how to recognise them and where each thing the
 * processor reads lives. Everything but `readErrorResult` is data, so that a classifier outside
 * this package (a collector processor) can read the same declarations.
 */
export interface SpanFamily {
  /** The framework (or convention) whose spans these are, as reports and tests name it. */
  readonly framework: string;
  /** A span is one of this family's tool spans when any of these matches it. */
  readonly recognise: readonly SpanMatch[];
  /**
   * The span follows the GenAI `execute_tool` conventions, `gen_ai.operation.name` included: a
   * tool call of ours running inside it may fill that attribute. Other families keep their own
   * convention, which backends key on.
   */
  readonly genAiConvention?: true;
  /** Where the tool's name is when `gen_ai.tool.name` is missing; the first non-empty one wins. */
  readonly toolName: readonly ToolNameSource[];
  /** Where the tool call's id is when `gen_ai.tool.call.id` is missing; the first non-empty one wins. */
  readonly callId?: readonly string[];
  /** Attributes holding what the tool returned (JSON text), read after `gen_ai.tool.call.result`. */
  readonly result?: readonly string[];
  /**
   * An MCP `tools/call` span: a returned `isError` result gets `error.type=tool_error`, and a span
   * with status ERROR but no exception or `error.type` is such a result. `flag` and `text` name the
   * attributes that hold the result's `isError` and its text, where the framework records them.
   */
  readonly mcpToolCall?: { readonly flag?: string; readonly text?: string };
  /**
   * The `error.type` this framework writes is its own error id, not the tool's: the span is
   * classified afresh and its mark is never taken for ours.
   */
  readonly ownErrorType?: true;
  /**
   * For an error result the framework records outside a JSON attribute: `undefined` when the span
   * holds none, else the result's text (`undefined` text when the framework kept only the fact).
   */
  readonly readErrorResult?: (span: ReadableSpanLike) => { readonly text: string | undefined } | undefined;
}

/** One way to recognise a tool span: every part given must hold. */
export interface SpanMatch {
  readonly nameEquals?: string;
  readonly namePrefix?: string;
  readonly nameSuffix?: string;
  /** Attributes that must have exactly these values. */
  readonly attributes?: Readonly<Record<string, string>>;
  /** Attributes that must be present, whatever their value. */
  readonly present?: readonly string[];
}

/** An attribute key, the span name after a prefix, or the whole span name. */
export type ToolNameSource = string | { readonly nameAfter: string } | { readonly wholeName: true };
