import type { Attributes } from '@opentelemetry/api';
import { MAX_EXCEPTION_TEXT_LENGTH, redactStack, redactText } from '../redact';
import { ATTR_EXCEPTION_MESSAGE } from '../semconv';
import type { ReadableSpanLike } from './span-shape';

const ATTR_EXCEPTION_STACKTRACE = 'exception.stacktrace';

type EventLike = ReadableSpanLike['events'][number];

/**
 * Redacts `exception.message` and `exception.stacktrace` of every `exception` event on a span
 * that is ending: frameworks (AI SDK `ai.toolCall`, LangChain, OpenInference, OpenLLMetry,
 * Mastra) record the raw error there. In `onEnding` the span's event list is still the SDK's own
 * array (2.x and 3.x), so each event is replaced by a redacted copy before any exporter sees it.
 * Events are left as they are when the array cannot be written.
 */
export function redactExceptionEvents(span: ReadableSpanLike, hidden: readonly string[]): void {
  const events = span.events as EventLike[];
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    if (event.name !== 'exception' || event.attributes === undefined) continue;
    const attributes = redactedAttributes(event.attributes, hidden);
    if (attributes !== undefined) events[i] = { ...event, attributes };
  }
}

function redactedAttributes(attributes: Attributes, hidden: readonly string[]): Attributes | undefined {
  const message = attributes[ATTR_EXCEPTION_MESSAGE];
  const stack = attributes[ATTR_EXCEPTION_STACKTRACE];
  const redactedMessage =
    typeof message === 'string' ? redactText(message, MAX_EXCEPTION_TEXT_LENGTH, hidden) : message;
  const redactedStack =
    typeof stack === 'string' ? redactStack(stack, MAX_EXCEPTION_TEXT_LENGTH, hidden) : stack;
  if (redactedMessage === message && redactedStack === stack) return undefined;
  const out: Attributes = { ...attributes };
  if (redactedMessage !== undefined) out[ATTR_EXCEPTION_MESSAGE] = redactedMessage;
  if (redactedStack !== undefined) out[ATTR_EXCEPTION_STACKTRACE] = redactedStack;
  return out;
}
