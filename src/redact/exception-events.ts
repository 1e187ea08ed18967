import type { Attributes } from '@opentelemetry/api';
import { MAX_EXCEPTION_TEXT_LENGTH, redactStack, redactText } from './text';
import { ATTR_EXCEPTION_MESSAGE } from '../semconv';
import type { ReadableSpanLike } from '../tool-span/span-shape';

const ATTR_EXCEPTION_STACKTRACE = 'exception.stacktrace';

export type EventLike = ReadableSpanLike['events'][number];

/**
 * Redacts `exception.message` and `exception.stacktrace` of every `exception` event in `events`,
 * replacing each such event by a redacted copy; true when any changed. Frameworks (AI SDK
 * `ai.toolCall`, LangChain, OpenInference, OpenLLMetry, Mastra) record the raw error there. In
 * `onEnding` a span's `events` is still the SDK's own array (2.x and 3.x), so the processor
 * redacts it in place, before any exporter sees it; the enriching exporter redacts a copy.
 */
export function redactExceptionEvents(events: EventLike[], hidden: readonly string[]): boolean {
  let changed = false;
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    if (event.name !== 'exception' || event.attributes === undefined) continue;
    const attributes = redactedAttributes(event.attributes, hidden);
    if (attributes === undefined) continue;
    events[i] = { ...event, attributes };
    changed = true;
  }
  return changed;
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
