import { SpanStatusCode } from '@opentelemetry/api';
import { classifyToolError } from '../classify/classify-error';
import { type ToolErrorClassification } from '../classify/classification';
import { FALLBACK_EVIDENCE, HTTP_CHILD_EVIDENCE, isStrongerEvidence } from '../classify/evidence';
import { isToolErrorKind, TOOL_ERROR_KIND_MEANINGS, type ToolErrorKind } from '../classify/kinds';
import { httpStatusFromErrorType } from '../classify/http';
import { isListedCode, kindForName } from '../classify/codes';
import { classifyToolResult } from '../classify/result';
import { causesInStack } from '../classify/stack-causes';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_TOOL_ERROR_EXECUTED,
  ATTR_TOOL_ERROR_KIND,
  ATTR_TOOL_ERROR_RETRYABLE,
  ERROR_TYPE_VALUE_OTHER,
  ERROR_TYPE_VALUE_TOOL_ERROR,
} from '../semconv';
import { markedEvidence, markTextMadeUp, spanFailureText } from '../tool-span/marked-failure';
import type { HttpFailure } from './http-child-evidence';
import { lastException, type ReadableSpanLike } from '../tool-span/span-shape';
import type { ToolSpanFamily } from '../tool-span/recognition';

/** A failed tool span's classification and the text for its status description (scrubbed later). */
export interface ToolSpanFailure {
  readonly classification: ToolErrorClassification;
  readonly message: string | undefined;
  /** The `error.type` the span's convention fixes (MCP `isError`: `tool_error`); see `markSpanFailed`. */
  readonly fixedErrorType?: string;
  /** The framework's own class-name `error.type` that stronger evidence replaced, where no event keeps it. */
  readonly frameworkErrorType?: string;
}

/** Longer results are not parsed: an error result is small, and parsing must stay cheap. */
const MAX_RESULT_LENGTH = 64 * 1024;
/** A result worth parsing names one of the keys `classifyToolResult` looks at. */
const ERROR_RESULT_HINT = /isError|is_error|tool-error|"(?:error|success|status)\\?"/;

/**
 * Reads, from an ending tool span, whether it failed and how.
 *
 * It failed when it has status ERROR, an exception event, `error.type` or `tool.error_kind`, an
 * own `http.response.status_code` >= 400, or an error result the tool returned as its framework
 * recorded it (MCP `isError`, `{ success: false }`, `{ status: 'error' }`, ...). A failed HTTP call
 * alone is no failure: the tool may have recovered from it.
 *
 * How: the span's own evidence, read as the classifier reads an error (the exception event,
 * whose `exception.type` is `err.code ?? err.name`, with the span's own `http.response.status_code`,
 * or the returned result), against the last failed HTTP call under the span (`httpChild`), by
 * `EVIDENCE_ORDER`. `error.type` / `tool.error_kind` already on the span (the Anthropic SDK writes
 * them) are kept; only what is missing is filled. A span the wrapper marked whole is read by
 * `httpChildOverMark` instead.
 */
export function readToolSpanFailure(
  span: ReadableSpanLike,
  family: ToolSpanFamily,
  httpChild: HttpFailure | undefined,
): ToolSpanFailure | undefined {
  if (family.mcpToolCall !== undefined) {
    const failure = readMcpErrorResult(span, family.mcpToolCall, httpChild);
    if (failure !== undefined) return failure;
  }
  const attributes = span.attributes;
  const existingType = family.ownErrorType ? undefined : attributes[ATTR_ERROR_TYPE];
  const existingKind = attributes[ATTR_TOOL_ERROR_KIND];
  const ownStatus = attributes[ATTR_HTTP_RESPONSE_STATUS_CODE];
  const statusError = span.status.code === SpanStatusCode.ERROR;
  const exception = lastException(span);
  const thrownSignal =
    statusError ||
    exception !== undefined ||
    existingType !== undefined ||
    existingKind !== undefined ||
    (typeof ownStatus === 'number' && ownStatus >= 400);
  const returned = thrownSignal ? undefined : readReturnedError(span, family);
  if (!thrownSignal && returned === undefined) return undefined;

  const message = spanFailureText(span, statusError, exception);
  const thrown =
    exception !== undefined || message !== undefined || typeof ownStatus === 'number'
      ? classifyToolError({
          name: exception?.type,
          code: exception?.type,
          message,
          // A numeric `err.code` in the HTTP range is a status (GenkitError keeps 503 there).
          status: typeof ownStatus === 'number' ? ownStatus : httpStatusFromErrorType(exception?.type),
          // The causes a Java stack names (`Caused by:`), read as the error's own cause chain.
          cause: causesInStack(exception?.stacktrace),
        })
      : undefined;
  const found = chooseEvidence(thrown ?? returned, httpChild);
  const givesWay = existingKind === undefined && frameworkClassGivesWay(existingType, found);
  return {
    classification: givesWay ? found : keepExisting(found, existingType, existingKind, attributes),
    // A returned result is tool output: its text stays out of the status unless capture is opted in.
    message: returned === undefined ? message : undefined,
    frameworkErrorType: givesWay && exception?.type !== existingType ? (existingType as string) : undefined,
  };
}

/**
 * Whether a framework's own `error.type` gives way to what the span shows: a class name the
 * framework wrote (`HTTPStatusError`, `ReadTimeout`) against a status, a timeout or a code that
 * its exception, its message or its HTTP child states, so the failure reads as it does in
 * JavaScript (`503`). A value that is itself a status, a code, `timeout`, `tool_error` (MCP's), or a
 * class that names the failure precisely (`ToolTimeoutError`) stays.
 */
function frameworkClassGivesWay(existingType: unknown, found: ToolErrorClassification): boolean {
  if (typeof existingType !== 'string' || existingType === '' || existingType === found.errorType)
    return false;
  if (
    existingType === ERROR_TYPE_VALUE_TOOL_ERROR ||
    existingType === ERROR_TYPE_VALUE_OTHER ||
    existingType === 'timeout' ||
    httpStatusFromErrorType(existingType) !== undefined ||
    isListedCode(existingType) ||
    kindForName(existingType) !== undefined
  ) {
    return false;
  }
  return (
    httpStatusFromErrorType(found.errorType) !== undefined ||
    found.errorType === 'timeout' ||
    isListedCode(found.errorType)
  );
}

/**
 * An MCP span whose call returned `isError: true`, as other instrumentations record it: Sentry's
 * `mcp.tool.result.is_error` (and `error.type=tool_error` in newer versions), OpenLLMetry's status
 * ERROR carrying the result's text with no exception event. The finer answer comes from the
 * result's text (when recorded) or a failed HTTP call under the span; `error.type` stays `tool_error`.
 */
function readMcpErrorResult(
  span: ReadableSpanLike,
  where: NonNullable<ToolSpanFamily['mcpToolCall']>,
  httpChild: HttpFailure | undefined,
): ToolSpanFailure | undefined {
  const attributes = span.attributes;
  if (lastException(span) !== undefined) return undefined;
  const statusError = span.status.code === SpanStatusCode.ERROR;
  const errorResult =
    (where.flag !== undefined && attributes[where.flag] === true) ||
    attributes[ATTR_ERROR_TYPE] === ERROR_TYPE_VALUE_TOOL_ERROR ||
    (statusError &&
      attributes[ATTR_ERROR_TYPE] === undefined &&
      attributes[ATTR_HTTP_RESPONSE_STATUS_CODE] === undefined);
  if (!errorResult) return undefined;
  const content = where.text === undefined ? undefined : attributes[where.text];
  const text = typeof content === 'string' ? content : statusError ? span.status.message : undefined;
  const returned = classifyToolResult({ isError: true, content: text });
  return {
    classification: chooseEvidence(returned, httpChild),
    message: undefined,
    fixedErrorType: ERROR_TYPE_VALUE_TOOL_ERROR,
  };
}

/**
 * The failed HTTP call's answer for a span the wrapper already marked, when it rests on stronger
 * evidence than the mark: the tool threw `new Error('upstream failed')` (a class name) after a
 * 500, or returned an error result saying nothing finer. `undefined` when the mark stays: no failed
 * call, a mark from structured evidence (a status, a code, a meaningful class, a stated type), or
 * a mark whose evidence is unknown.
 *
 * The status text stays the tool's own error text, as `readToolSpanFailure` keeps it for an
 * unmarked span; a text the mark made up from its own kind and type gives way to the new one's.
 */
export function httpChildOverMark(
  span: ReadableSpanLike,
  family: ToolSpanFamily,
  httpChild: HttpFailure | undefined,
): ToolSpanFailure | undefined {
  if (httpChild === undefined) return undefined;
  const marked = markedEvidence(span);
  if (marked === undefined || !isStrongerEvidence(HTTP_CHILD_EVIDENCE.evidence, marked)) return undefined;
  return {
    classification: classifyHttpFailure(httpChild),
    message: markTextMadeUp(span) ? undefined : spanFailureText(span, true, lastException(span)),
    // MCP spans keep the convention's `tool_error` for an isError result.
    fixedErrorType:
      family.mcpToolCall !== undefined && span.attributes[ATTR_ERROR_TYPE] === ERROR_TYPE_VALUE_TOOL_ERROR
        ? ERROR_TYPE_VALUE_TOOL_ERROR
        : undefined,
  };
}

/** The stronger of the span's own evidence and the failed HTTP child (`EVIDENCE_ORDER`). */
function chooseEvidence(
  own: ToolErrorClassification | undefined,
  httpChild: HttpFailure | undefined,
): ToolErrorClassification {
  if (httpChild && (!own || isStrongerEvidence(HTTP_CHILD_EVIDENCE.evidence, own.evidence)))
    return classifyHttpFailure(httpChild);
  return own ?? classifyToolError({ name: ERROR_TYPE_VALUE_OTHER });
}

/** The HTTP child's failure as the classifier sees the error it would have thrown. */
function classifyHttpFailure(failure: HttpFailure): ToolErrorClassification {
  const classification = classifyToolError({
    status: failure.status,
    code: failure.errorType,
    name: failure.errorType,
    message: failure.message,
    headers: failure.retryAfterHeaders,
  });
  return { ...classification, evidence: HTTP_CHILD_EVIDENCE.evidence };
}

/**
 * Keeps what an instrumentation already wrote. A kind comes from an existing `error.type` when
 * that type says one (`"503"`, `ECONNRESET`, `ZodError`); the generic `tool_error` and `_OTHER`
 * leave the kind to the evidence, as the classifier does for returned errors.
 */
function keepExisting(
  found: ToolErrorClassification,
  existingType: unknown,
  existingKind: unknown,
  attributes: ReadableSpanLike['attributes'],
): ToolErrorClassification {
  const errorType = typeof existingType === 'string' && existingType !== '' ? existingType : undefined;
  const statedKind = isToolErrorKind(existingKind) ? existingKind : undefined;
  if (errorType === undefined && statedKind === undefined) return found;
  const kind: ToolErrorKind =
    statedKind ??
    kindStatedBy(errorType) ??
    (found.evidence === FALLBACK_EVIDENCE.evidence && errorType === 'tool_error' ? 'tool_error' : found.kind);
  const meaning = TOOL_ERROR_KIND_MEANINGS[kind];
  const retryable = attributes[ATTR_TOOL_ERROR_RETRYABLE];
  const executed = attributes[ATTR_TOOL_ERROR_EXECUTED];
  return {
    ...found,
    errorType: errorType ?? found.errorType,
    kind,
    retryable: typeof retryable === 'boolean' ? retryable : meaning.retryable,
    executed: typeof executed === 'boolean' ? executed : meaning.executed,
  };
}

function kindStatedBy(errorType: string | undefined): ToolErrorKind | undefined {
  if (errorType === undefined || errorType === 'tool_error' || errorType === ERROR_TYPE_VALUE_OTHER)
    return undefined;
  const stated = classifyToolError({
    name: errorType,
    code: errorType,
    message: errorType,
    status: httpStatusFromErrorType(errorType),
  });
  return stated.evidence === FALLBACK_EVIDENCE.evidence ? undefined : stated.kind;
}

/** An error result the span's framework recorded: `gen_ai.tool.call.result`, then the family's own places. */
function readReturnedError(
  span: ReadableSpanLike,
  family: ToolSpanFamily,
): ToolErrorClassification | undefined {
  const found = classifyResultText(span.attributes[ATTR_GEN_AI_TOOL_CALL_RESULT]);
  if (found !== undefined) return found;
  if (family.result !== undefined) {
    for (const key of family.result) {
      const classification = classifyResultText(span.attributes[key]);
      if (classification !== undefined) return classification;
    }
  }
  const errorResult = family.readErrorResult?.(span);
  if (errorResult === undefined) return undefined;
  const text = errorResult.text;
  const content =
    text !== undefined && text.length <= MAX_RESULT_LENGTH ? (parseJson(text) ?? text) : undefined;
  return classifyToolResult({ isError: true, content });
}

function classifyResultText(value: unknown): ToolErrorClassification | undefined {
  if (typeof value !== 'string' || value.length > MAX_RESULT_LENGTH || !ERROR_RESULT_HINT.test(value))
    return undefined;
  let result = parseJson(value);
  // Some frameworks JSON-encode a tool's string result, which may itself be a JSON error result.
  if (typeof result === 'string') result = parseJson(result);
  return classifyToolResult(result);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
