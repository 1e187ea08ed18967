import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_METHOD_OLD,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_HEADER_RETRY_AFTER,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_STATUS_CODE_OLD,
} from '../semconv';
import { lastException, parentSpanIdOf, type ReadableSpanLike } from './span-shape';

/** How many parent spans are followed at once; past it the oldest is dropped. */
export const MAX_TRACKED_PARENT_SPANS = 10_000;

/** What a failed HTTP client span recorded, as instrumentation-http and instrumentation-undici write it. */
export interface HttpFailure {
  /** The response status, when it was ≥ 400. */
  readonly status?: number;
  /** `error.type` or the exception type: the status as text, or `ECONNREFUSED`, `UND_ERR_*`, a class name. */
  readonly errorType?: string;
  readonly message?: string;
  /** Present only when the instrumentation captures the `retry-after` response header. */
  readonly retryAfter?: string;
}

/**
 * The outcome of an HTTP client span: `null` when it is not one, `undefined` when it succeeded,
 * otherwise what failed.
 */
export function readHttpOutcome(span: ReadableSpanLike): HttpFailure | undefined | null {
  if (span.kind !== SpanKind.CLIENT) return null;
  const attributes = span.attributes;
  if (attributes[ATTR_HTTP_REQUEST_METHOD] === undefined && attributes[ATTR_HTTP_METHOD_OLD] === undefined)
    return null;
  const status = attributes[ATTR_HTTP_RESPONSE_STATUS_CODE] ?? attributes[ATTR_HTTP_STATUS_CODE_OLD];
  const errorType = attributes[ATTR_ERROR_TYPE];
  const failedStatus = typeof status === 'number' && status >= 400 ? status : undefined;
  if (failedStatus === undefined && errorType === undefined && span.status.code !== SpanStatusCode.ERROR) {
    return undefined;
  }
  const exception = lastException(span);
  const retryAfter = attributes[ATTR_HTTP_RESPONSE_HEADER_RETRY_AFTER];
  return {
    status: failedStatus,
    errorType: typeof errorType === 'string' ? errorType : exception?.type,
    message: exception?.message ?? span.status.message,
    retryAfter: Array.isArray(retryAfter)
      ? String(retryAfter[0])
      : typeof retryAfter === 'string'
        ? retryAfter
        : undefined,
  };
}

/**
 * The last HTTP client call made directly under each parent span, kept for a bounded number of
 * parents. Only the last call counts: a tool that retried after a 503 and then succeeded, or that
 * fell back to another source, did not fail because of that 503.
 *
 * The processor `watch`es tool spans when they start and `take`s the answer when they end, so
 * nothing stays once a tool span has ended. The exporter cannot know a parent before its children
 * (they end first), so it records failures under any parent and relies on the cap.
 */
export class ChildHttpFailures {
  private readonly byParent = new Map<string, HttpFailure | undefined>();

  constructor(private readonly cap: number = MAX_TRACKED_PARENT_SPANS) {}

  get size(): number {
    return this.byParent.size;
  }

  /** Starts following a parent span (a tool span that just started). */
  watch(parentSpanId: string): void {
    this.put(parentSpanId, undefined);
  }

  /** Records an ended span's HTTP outcome under its parent, if the parent is watched (or `anyParent`). */
  record(child: ReadableSpanLike, anyParent: boolean): void {
    const parentSpanId = parentSpanIdOf(child);
    if (parentSpanId === undefined) return;
    const known = this.byParent.has(parentSpanId);
    if (!known && !anyParent) return;
    const outcome = readHttpOutcome(child);
    if (outcome === null) return;
    if (outcome !== undefined || known) this.put(parentSpanId, outcome);
  }

  /** The last HTTP failure under a parent, forgetting the parent. */
  take(parentSpanId: string): HttpFailure | undefined {
    const failure = this.byParent.get(parentSpanId);
    this.byParent.delete(parentSpanId);
    return failure;
  }

  forget(parentSpanId: string): void {
    this.byParent.delete(parentSpanId);
  }

  clear(): void {
    this.byParent.clear();
  }

  private put(parentSpanId: string, outcome: HttpFailure | undefined): void {
    if (this.byParent.size >= this.cap && !this.byParent.has(parentSpanId)) {
      // A Map iterates in insertion order: the first key is the oldest.
      this.byParent.delete(this.byParent.keys().next().value as string);
    }
    this.byParent.set(parentSpanId, outcome);
  }
}
