import { SpanStatusCode, type Attributes, type SpanStatus } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_TOOL_ERROR_DETAIL_TYPE,
  ATTR_TOOL_ERROR_EXECUTED,
  ATTR_TOOL_ERROR_KIND,
  ATTR_TOOL_ERROR_RETRYABLE,
} from '../semconv';
import { spanHalt } from '../tool-span/halted-call';
import type { ReadableSpanLike } from '../tool-span/span-shape';

/** What says a call failed, none of which a stopped call keeps. */
const FAILURE_ATTRIBUTES = [
  ATTR_ERROR_TYPE,
  ATTR_TOOL_ERROR_KIND,
  ATTR_TOOL_ERROR_RETRYABLE,
  ATTR_TOOL_ERROR_EXECUTED,
  ATTR_TOOL_ERROR_DETAIL_TYPE,
];

/**
 * A tool span the framework stopped (`tool.call.outcome`) is no failure, whatever else the span
 * says: some frameworks record the interrupt they throw as an exception with status ERROR (its
 * text the question put to a human), and an error noted before the stop may have marked it. What
 * such a span keeps instead, or `undefined` when it needs nothing changed.
 */
export function haltedSpanRepair(
  span: ReadableSpanLike,
): { status: SpanStatus; events: ReadableSpanLike['events']; dropped: string[] } | undefined {
  if (spanHalt(span) === undefined) return undefined;
  const failed = span.status.code === SpanStatusCode.ERROR;
  const events = span.events.filter((event) => event.name !== 'exception');
  const dropped = FAILURE_ATTRIBUTES.filter((key) => span.attributes[key] !== undefined);
  if (!failed && events.length === span.events.length && dropped.length === 0) return undefined;
  return { status: failed ? { code: SpanStatusCode.UNSET } : (span.status as SpanStatus), events, dropped };
}

/** The attributes without those the repair drops. */
export function withoutDropped(attributes: Attributes, dropped: readonly string[]): Attributes {
  const kept = { ...attributes };
  for (const key of dropped) delete kept[key];
  return kept;
}
