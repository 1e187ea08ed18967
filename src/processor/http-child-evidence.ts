import { SpanKind, SpanStatusCode, type Attributes } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_METHOD_OLD,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_HEADER_RETRY_AFTER,
  ATTR_HTTP_RESPONSE_HEADER_RETRY_AFTER_MS,
  ATTR_HTTP_RESPONSE_HEADER_RETRY_AFTER_MS_OLD,
  ATTR_HTTP_RESPONSE_HEADER_RETRY_AFTER_OLD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_STATUS_CODE_OLD,
} from '../semconv';
import { lastException, parentSpanIdOf, type ReadableSpanLike } from '../tool-span/span-shape';

/** How many spans are followed at once; past it the oldest is dropped. */
export const MAX_TRACKED_PARENT_SPANS = 10_000;

/** What a failed HTTP client span recorded, as instrumentation-http and instrumentation-undici write it. */
export interface HttpFailure {
  /** The response status, when it was ≥ 400. */
  readonly status?: number;
  /** `error.type` or the exception type: the status as text, or `ECONNREFUSED`, `UND_ERR_*`, a class name. */
  readonly errorType?: string;
  readonly message?: string;
  /**
   * `retry-after` and `retry-after-ms`, present only when the instrumentation captures those
   * response headers (`headersToSpanAttributes`; the register configures it).
   */
  readonly retryAfterHeaders?: Readonly<Record<string, string>>;
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
  return {
    status: failedStatus,
    errorType: typeof errorType === 'string' ? errorType : exception?.type,
    message: exception?.message ?? span.status.message,
    retryAfterHeaders: failedStatus === undefined ? undefined : readRetryAfterHeaders(attributes),
  };
}

function readRetryAfterHeaders(attributes: Attributes): Record<string, string> | undefined {
  const retryAfter = headerValue(
    attributes[ATTR_HTTP_RESPONSE_HEADER_RETRY_AFTER] ??
      attributes[ATTR_HTTP_RESPONSE_HEADER_RETRY_AFTER_OLD],
  );
  const retryAfterMs = headerValue(
    attributes[ATTR_HTTP_RESPONSE_HEADER_RETRY_AFTER_MS] ??
      attributes[ATTR_HTTP_RESPONSE_HEADER_RETRY_AFTER_MS_OLD],
  );
  if (retryAfter === undefined && retryAfterMs === undefined) return undefined;
  const headers: Record<string, string> = {};
  if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
  if (retryAfterMs !== undefined) headers['retry-after-ms'] = retryAfterMs;
  return headers;
}

/** A captured header is a string array (one value per occurrence); older releases wrote a string. */
function headerValue(value: unknown): string | undefined {
  const first = Array.isArray(value) ? (value[0] as unknown) : value;
  return typeof first === 'string' || typeof first === 'number' ? String(first) : undefined;
}

interface Outcome {
  readonly failure: HttpFailure | undefined;
  /** End order: a later outcome replaces an earlier one. */
  readonly order: number;
}

/**
 * For `ToolErrorEnrichingExporter`, which sees spans only once they ended, children first: the
 * last HTTP outcome under each span, carried up through the spans between an HTTP call and its
 * nearest tool span (a tool calling a helper that calls `fetch`). Only the last call counts: a
 * tool that retried after a 503 and then succeeded, or fell back to another source, did not fail
 * because of that 503. A tool span takes its answer and carries nothing further up, so an outer
 * tool span never sees a nested tool's calls. The exporter cannot tell a tool span before its
 * children arrive, so it follows any parent, bounded by the cap.
 */
export class ChildHttpFailures {
  private readonly byParent = new Map<string, Outcome>();
  private ended = 0;

  constructor(private readonly cap: number = MAX_TRACKED_PARENT_SPANS) {}

  get size(): number {
    return this.byParent.size;
  }

  /** A non-tool span ended: its own HTTP outcome (or, if it is no HTTP call, the last one under it) goes to its parent. */
  record(span: ReadableSpanLike): void {
    const spanId = span.spanContext().spanId;
    const under = this.byParent.get(spanId);
    if (under !== undefined) this.byParent.delete(spanId);
    const parentSpanId = parentSpanIdOf(span);
    if (parentSpanId === undefined) return;
    const own = readHttpOutcome(span);
    if (own !== null) this.offer(parentSpanId, { failure: own, order: ++this.ended });
    else if (under !== undefined) this.offer(parentSpanId, under);
  }

  /** The last HTTP failure under a tool span, forgetting the span. */
  take(toolSpanId: string): HttpFailure | undefined {
    const outcome = this.byParent.get(toolSpanId);
    this.byParent.delete(toolSpanId);
    return outcome?.failure;
  }

  clear(): void {
    this.byParent.clear();
  }

  private offer(parentSpanId: string, outcome: Outcome): void {
    const known = this.byParent.get(parentSpanId);
    // A success counts too: it may be the last call, after a failure still to be carried up.
    if (known !== undefined && known.order > outcome.order) return;
    if (known === undefined && this.byParent.size >= this.cap) {
      // A Map iterates in insertion order: the first key is the oldest.
      this.byParent.delete(this.byParent.keys().next().value as string);
    }
    this.byParent.set(parentSpanId, outcome);
  }
}
