import { SpanStatusCode, type Span } from '@opentelemetry/api';
import type { ToolErrorClassification } from '../classify/classification';
import type { ClassificationEvidence } from '../classify/evidence';
import { isToolErrorKind } from '../classify/kinds';
import { lastException, type ReadableSpanLike } from './span-shape';
import { scrubMessage } from '../redact/text';
import type { ToolSpanFamily } from './recognition';
import {
  ATTR_ERROR_TYPE,
  ATTR_TOOL_ERROR_DETAIL_TYPE,
  ATTR_TOOL_ERROR_EXECUTED,
  ATTR_TOOL_ERROR_KIND,
  ATTR_TOOL_ERROR_RETRYABLE,
} from '../semconv';

/**
 * A failed tool span, written and read in one place: the wrapper marks the span while the tool
 * runs; the processor (or the exporter) reads the mark when the span ends, and replaces it only
 * with stronger evidence (`EVIDENCE_ORDER`), such as a failed HTTP call under the span.
 */

/** A span, or a stand-in that collects what would be written (the exporter's copies). */
type SpanWriter = Pick<Span, 'setAttribute' | 'setStatus'> & Partial<Pick<Span, 'spanContext'>>;

/**
 * The evidence behind a span's mark, and whether the mark made up its status text, kept on the
 * span's `SpanContext` object (one per span, for its whole life) under registered symbols, so that
 * every copy of this package in the process (its CJS and ESM builds) reads what another wrote. Not
 * in a WeakMap: an entry per failed call costs far more, mostly in garbage collection (BENCHMARKS.md).
 */
const EVIDENCE = Symbol.for('otel-tool-errors.markEvidence');
const MADE_UP_TEXT = Symbol.for('otel-tool-errors.markTextMadeUp');

interface MarkStore {
  [EVIDENCE]?: ClassificationEvidence;
  [MADE_UP_TEXT]?: boolean;
}

/** The status text of a failure that brought none of its own: its kind and `error.type`. */
export function fallbackFailureText(kind: unknown, errorType: unknown): string {
  return `${String(kind)}: ${String(errorType)}`;
}

/**
 * Writes one classification onto a span: the same four attributes and status, whichever path
 * (wrapper, processor or exporter) found the failure.
 *
 * `fixedErrorType` is for spans whose convention fixes `error.type` (an MCP `tools/call` that
 * returned `isError: true` is `tool_error`): the classification's own type then goes to
 * `tool.error_detail_type`, so a `503` stays searchable.
 */
export function markSpanFailed(
  span: SpanWriter,
  classification: ToolErrorClassification,
  message: string | undefined,
  fixedErrorType?: string,
): void {
  span.setAttribute(ATTR_ERROR_TYPE, fixedErrorType ?? classification.errorType);
  if (fixedErrorType !== undefined && classification.errorType !== fixedErrorType)
    span.setAttribute(ATTR_TOOL_ERROR_DETAIL_TYPE, classification.errorType);
  span.setAttribute(ATTR_TOOL_ERROR_KIND, classification.kind);
  span.setAttribute(ATTR_TOOL_ERROR_RETRYABLE, classification.retryable);
  span.setAttribute(ATTR_TOOL_ERROR_EXECUTED, classification.executed);
  span.setStatus({
    code: SpanStatusCode.ERROR,
    // Our own text (`auth: HTTPStatusError`) holds a kind and a bounded `error.type`, no data: not
    // scrubbed, where "auth: ..." would read as a credential.
    message: message
      ? scrubMessage(message)
      : fallbackFailureText(classification.kind, classification.errorType),
  });
  if (typeof span.spanContext === 'function')
    keepMark(span.spanContext() as MarkStore, classification.evidence, !message);
}

/**
 * Plain stores, not `Reflect.set` (a runtime call, measurably slower a mark, BENCHMARKS.md). A
 * frozen span context only loses them: the mark then stays as it is.
 */
function keepMark(store: MarkStore, evidence: ClassificationEvidence, madeUpText: boolean): void {
  try {
    store[EVIDENCE] = evidence;
    store[MADE_UP_TEXT] = madeUpText;
  } catch {
    // frozen or sealed
  }
}

/**
 * Whether the span carries a whole classification (status ERROR and all four attributes, valid),
 * as `markSpanFailed` writes it.
 */
export function isMarkedFailure(span: ReadableSpanLike, family: ToolSpanFamily): boolean {
  const attributes = span.attributes;
  const errorType = attributes[ATTR_ERROR_TYPE];
  return (
    span.status.code === SpanStatusCode.ERROR &&
    typeof errorType === 'string' &&
    errorType !== '' &&
    family.ownErrorType !== true &&
    isToolErrorKind(attributes[ATTR_TOOL_ERROR_KIND]) &&
    typeof attributes[ATTR_TOOL_ERROR_RETRYABLE] === 'boolean' &&
    typeof attributes[ATTR_TOOL_ERROR_EXECUTED] === 'boolean'
  );
}

/**
 * The evidence behind a marked span's classification; `undefined` when the mark was written by
 * something that did not say (an older copy of this package): such a mark is kept as it is, and so
 * is one whose evidence this copy does not know.
 */
export function markedEvidence(span: ReadableSpanLike): ClassificationEvidence | undefined {
  return (span.spanContext() as MarkStore)[EVIDENCE];
}

/** Whether the mark's status text is `fallbackFailureText`, made up for want of the failure's own. */
export function markTextMadeUp(span: ReadableSpanLike): boolean {
  return (span.spanContext() as MarkStore)[MADE_UP_TEXT] === true;
}

/**
 * The status text of a marked failure, before scrubbing: the same text `markSpanFailed` would
 * choose. A framework may have set its own status message after the wrapper.
 */
export function markedFailureMessage(span: ReadableSpanLike): string {
  const attributes = span.attributes;
  return (
    spanFailureText(span, true, lastException(span)) ||
    fallbackFailureText(attributes[ATTR_TOOL_ERROR_KIND], attributes[ATTR_ERROR_TYPE])
  );
}

/** The span's own failure text: its error status message, else its last exception's message. */
export function spanFailureText(
  span: ReadableSpanLike,
  statusError: boolean,
  exception: { message?: string } | undefined,
): string | undefined {
  return firstLine((statusError ? span.status.message : undefined) || exception?.message);
}

/** The first line: frameworks such as OpenInference append the whole stack to the status message. */
function firstLine(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const end = text.indexOf('\n');
  return (end === -1 ? text : text.slice(0, end)).trim() || undefined;
}
