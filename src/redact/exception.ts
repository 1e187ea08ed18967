import type { Attributes, Exception } from '@opentelemetry/api';
import { isObjectLike, read } from '../classify/safe';
import { MAX_EXCEPTION_TEXT_LENGTH, redactStack, redactText } from './text';
import { ATTR_EXCEPTION_MESSAGE } from '../semconv';

const ATTR_EXCEPTION_STACKTRACE = 'exception.stacktrace';

/** A span event as the SDK lines keep it. */
export interface EventLike {
  readonly name: string;
  readonly attributes?: Attributes;
}

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

/**
 * The copy of `err` the exception event is made from: the SDK writes `message` and `stack`
 * verbatim, so both are redacted (`redactedMessage` is `err.message` or a thrown string, already
 * redacted). `code` and `name` are kept, so `exception.type` (`code ?? name`) is what the SDK
 * would write for `err` itself.
 */
export function redactedException(
  err: unknown,
  hidden: readonly string[],
  redactedMessage: string | undefined,
): Exception {
  if (!isObjectLike(err))
    return redactedMessage ?? redactText(String(err), MAX_EXCEPTION_TEXT_LENGTH, hidden);
  const exception: { code?: string | number; name?: string; message?: string; stack?: string } = {};
  const code = read(err, 'code');
  if (typeof code === 'string' || typeof code === 'number') exception.code = code;
  const name = read(err, 'name');
  if (typeof name === 'string') exception.name = name;
  if (redactedMessage !== undefined) exception.message = redactedMessage;
  const stack = read(err, 'stack');
  if (typeof stack === 'string') exception.stack = redactStack(stack, MAX_EXCEPTION_TEXT_LENGTH, hidden);
  // With none of the four, the SDK records nothing and says so through `diag`, as it would for `err`.
  return exception as Exception;
}
