import { SpanStatusCode, type SpanStatus } from '@opentelemetry/api';
import { haltOf } from '../tool-span/halted-call';
import type { ReadableSpanLike } from '../tool-span/span-shape';

/**
 * A tool span the framework stopped (`tool.call.outcome`) is no failure, whatever the framework's
 * own span says: some record the interrupt they throw as an exception with status ERROR, and its
 * text is the question put to a human. What such a span keeps instead, or `undefined` when it
 * needs nothing changed (it is not halted, or carries neither).
 */
export function haltedSpanRepair(
  span: ReadableSpanLike,
): { status: SpanStatus; events: ReadableSpanLike['events'] } | undefined {
  if (haltOf(span) === undefined) return undefined;
  const failed = span.status.code === SpanStatusCode.ERROR;
  const events = span.events.filter((event) => event.name !== 'exception');
  if (!failed && events.length === span.events.length) return undefined;
  return { status: failed ? { code: SpanStatusCode.UNSET } : (span.status as SpanStatus), events };
}
