import type { Attributes, Span, SpanContext } from '@opentelemetry/api';
import { ATTR_EXCEPTION_MESSAGE, ATTR_EXCEPTION_STACKTRACE, ATTR_EXCEPTION_TYPE } from '../semconv';

/**
 * The parts of an SDK span that the processor and the exporter read. Typed structurally, with
 * plain numbers for the kind and status code, so that spans of the 1.x, 2.x and 3.x SDK lines fit
 * whichever copy of `@opentelemetry/api` they were built against.
 */
export interface ReadableSpanLike {
  readonly name: string;
  readonly kind: number;
  readonly attributes: Attributes;
  readonly status: { readonly code: number; readonly message?: string };
  readonly events: ReadonlyArray<{ readonly name: string; readonly attributes?: Attributes }>;
  spanContext(): SpanContext;
  /** 2.x and 3.x. */
  readonly parentSpanContext?: SpanContext;
  /** 1.x. */
  readonly parentSpanId?: string;
}

/** A span in `onEnding`: still readable and writable. */
export type EndingSpanLike = ReadableSpanLike & Pick<Span, 'setAttribute' | 'setStatus' | 'updateName'>;

/** The attributes a live SDK span holds so far (the API's `Span` does not expose them); `{}` if none. */
export function liveAttributesOf(span: Span): Attributes {
  try {
    const attributes = (span as unknown as { attributes?: unknown }).attributes;
    return typeof attributes === 'object' && attributes !== null ? (attributes as Attributes) : {};
  } catch {
    return {};
  }
}

export function parentSpanIdOf(span: ReadableSpanLike): string | undefined {
  return span.parentSpanContext?.spanId ?? span.parentSpanId;
}

/** The last `exception` event: `recordException` writes `exception.type` as `err.code ?? err.name`. */
export function lastException(
  span: ReadableSpanLike,
): { type?: string; message?: string; stacktrace?: string } | undefined {
  const events = span.events;
  for (let i = events.length - 1; i >= 0; i--) {
    if (events[i].name !== 'exception') continue;
    const attributes = events[i].attributes ?? {};
    const type = attributes[ATTR_EXCEPTION_TYPE];
    const message = attributes[ATTR_EXCEPTION_MESSAGE];
    const stacktrace = attributes[ATTR_EXCEPTION_STACKTRACE];
    return {
      type: typeof type === 'string' && type !== '' ? type : undefined,
      message: typeof message === 'string' && message !== '' ? message : undefined,
      stacktrace: typeof stacktrace === 'string' && stacktrace !== '' ? stacktrace : undefined,
    };
  }
  return undefined;
}
