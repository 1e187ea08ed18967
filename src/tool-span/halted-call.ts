import type { Span } from '@opentelemetry/api';
import { ATTR_TOOL_CALL_OUTCOME, TOOL_CALL_HALTS, type ToolCallHalt } from '../semconv';
import type { ReadableSpanLike } from './span-shape';

/**
 * A tool call the framework stopped for someone else's decision (`tool.call.outcome`): written by
 * the wrapper, read by the processor, the exporter and the metrics, which then count no failure.
 */

export function markSpanHalted(span: Pick<Span, 'setAttribute'>, halt: ToolCallHalt): void {
  span.setAttribute(ATTR_TOOL_CALL_OUTCOME, halt);
}

/** The span's `tool.call.outcome`, when it is one of ours. */
export function spanHalt(span: Pick<ReadableSpanLike, 'attributes'>): ToolCallHalt | undefined {
  const value = span.attributes[ATTR_TOOL_CALL_OUTCOME];
  return TOOL_CALL_HALTS.includes(value as ToolCallHalt) ? (value as ToolCallHalt) : undefined;
}
