import type { Span, SpanStatus } from '@opentelemetry/api';
import type { EndingSpanLike, ReadableSpanLike } from './span-shape';

/**
 * An ended span that can still be written, for pipelines that never call `onEnding`: the SDK
 * `@vercel/otel` bundles, whose spans call only `onEnd`, VoltAgent's span filter, sdk-trace-base
 * before 2.3. Its `setAttribute` and `setStatus` write the span's attribute object and status
 * directly, `updateName` its name (the SDK's own setters ignore an ended span). What is written reaches every exporter
 * that has not serialised the span yet: batching processors, and any processor listed after.
 * `undefined` when the span's attributes cannot be written (a frozen copy).
 */
export function writableEndedSpan(span: ReadableSpanLike): EndingSpanLike | undefined {
  const attributes = span.attributes as Record<string, unknown>;
  if (Object.isFrozen(attributes) || Object.isFrozen(span)) return undefined;
  const writers: Pick<Span, 'setAttribute' | 'setStatus' | 'updateName'> = {
    setAttribute(key, value) {
      if (value !== undefined) attributes[key] = value;
      return this as Span;
    },
    setStatus(status: SpanStatus) {
      (span as { status: SpanStatus }).status = { ...status };
      return this as Span;
    },
    updateName(name) {
      (span as { name: string }).name = name;
      return this as Span;
    },
  };
  return new Proxy(span, {
    get(target, key) {
      if (key === 'setAttribute' || key === 'setStatus' || key === 'updateName') return writers[key];
      const value: unknown = Reflect.get(target, key);
      // Methods run on the span itself, whose private fields a proxy does not have.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  }) as EndingSpanLike;
}
