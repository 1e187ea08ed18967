import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** A tool's HTTP call: a failed status is thrown as a generic Error whose cause is the Response. */
export async function callApi(url: string, signal?: AbortSignal): Promise<string> {
  const res = await fetch(url, { signal });
  if (!res.ok) {
    // The body is read so the connection goes back to the pool rather than waiting for a GC.
    await res.arrayBuffer();
    throw new Error(`GET ${new URL(url).pathname} failed`, { cause: res });
  }
  return res.text();
}

/**
 * A tool's HTTP call with a deadline of its own, enforced as `@google/genai` (`httpOptions.timeout`)
 * and `@azure/storage-blob` enforce theirs: the client aborts its own controller with no reason, so
 * what is thrown at the deadline is the same bare `AbortError` as a caller's cancel. The signal the
 * framework handed the tool, when there is one, cancels the request too.
 */
export async function callApiWithOwnDeadline(
  url: string,
  deadlineMs: number,
  callerSignal?: AbortSignal,
): Promise<string> {
  const own = new AbortController();
  const timer = setTimeout(() => own.abort(), deadlineMs);
  try {
    return await callApi(url, callerSignal ? AbortSignal.any([callerSignal, own.signal]) : own.signal);
  } finally {
    clearTimeout(timer);
  }
}

/** The error attributes and status of a tool span, for one `deep.equal`. */
export function errorOf(span: ReadableSpan) {
  return {
    type: span.attributes['error.type'],
    kind: span.attributes['tool.error_kind'],
    executed: span.attributes['tool.error_executed'],
    status: span.status.code,
  };
}

/** What `errorOf` reads off the span of a tool that ran and failed. */
export function executedFailure(type: string, kind: string) {
  return { type, kind, executed: true, status: SpanStatusCode.ERROR };
}

/** What `errorOf` reads off the span of a call that failed before the tool ran (bad input, unknown tool). */
export function unexecutedFailure(type: string, kind: string) {
  return { type, kind, executed: false, status: SpanStatusCode.ERROR };
}

/** The classification a span carries, with `tool.error_retryable`, and its status code. */
export function markOf(span: ReadableSpan) {
  return { ...errorOf(span), retryable: span.attributes['tool.error_retryable'] };
}

/** What `markOf` reads off a failed span. */
export function mark(type: string, kind: string, retryable: boolean, executed = true) {
  return { type, kind, retryable, executed, status: SpanStatusCode.ERROR };
}
