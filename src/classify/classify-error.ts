import { ERROR_TYPE_VALUE_OTHER } from '@opentelemetry/semantic-conventions';
import { makeClassification, type ToolErrorClassification } from './classification';
import { isStrongerEvidence, type ClassificationEvidence } from './evidence';
import { kindForCanonicalStatus, kindForCode, kindForJsonRpcCode, kindForName } from './codes';
import { httpStatusFromErrorType, kindForHttpStatus, readHttpEvidence } from './http';
import { isToolErrorKind, type ToolErrorKind } from './kinds';
import { classifyMessage } from './message';
import { className, isObjectLike, read, readString } from './safe';
import { kindFromAlias } from './kind-aliases';

/** Set by `ToolExecutionError`; a global symbol so copies of this package recognise each other's errors. */
export const TOOL_EXECUTION_ERROR_BRAND = Symbol.for('otel-tool-errors.ToolExecutionError');

const MAX_LINKS = 16;
const MAX_AGGREGATE_ERRORS = 4;

/** One link's best answer, ranked by its evidence (`EVIDENCE_ORDER`). */
interface Finding {
  evidence: ClassificationEvidence;
  kind?: ToolErrorKind;
  errorType?: string;
  httpStatus?: number;
  retryAfterMs?: number;
}

/**
 * Classifies anything a tool threw. Each link of the `cause` chain (and of an AggregateError's
 * `errors`) is weighed by `EVIDENCE_ORDER`, the strongest wins (the outermost of equals), and
 * message patterns are read only when no link has structured evidence. Never throws.
 */
export function classifyToolError(err: unknown): ToolErrorClassification {
  try {
    return classifyChain(err);
  } catch {
    return makeClassification('internal', ERROR_TYPE_VALUE_OTHER, 'fallback');
  }
}

function classifyChain(err: unknown): ToolErrorClassification {
  let best: Finding | undefined;
  let explicit: Finding | undefined;
  const links = [err];
  const seen = new Set<unknown>();
  for (let i = 0; i < links.length && i < MAX_LINKS; i++) {
    const link = links[i];
    if (seen.has(link)) continue;
    seen.add(link);
    const finding = findInLink(link);
    if (finding.evidence === 'explicit') explicit ??= finding;
    else if (!best || isStrongerEvidence(finding.evidence, best.evidence)) best = finding;
    queueCauses(link, links);
  }
  if (explicit) return completeExplicit(explicit, best);
  const found = best!;
  if (found.evidence !== 'fallback') return fromFinding(found);
  return classifyByMessage(links) ?? fromFinding(found);
}

function queueCauses(link: unknown, links: unknown[]): void {
  const cause = read(link, 'cause');
  if (cause !== undefined && cause !== null) links.push(cause);
  const errors = read(link, 'errors');
  if (Array.isArray(errors)) {
    for (let j = 0; j < errors.length && j < MAX_AGGREGATE_ERRORS; j++) links.push(errors[j]);
  }
}

function findInLink(link: unknown): Finding {
  if (!isObjectLike(link)) return { evidence: 'fallback', errorType: ERROR_TYPE_VALUE_OTHER };
  return findExplicit(link) ?? findHttp(link) ?? findCode(link) ?? findClass(link);
}

function findExplicit(link: object): Finding | undefined {
  if (read(link, TOOL_EXECUTION_ERROR_BRAND) === true) {
    const kind = read(link, 'kind');
    const errorType = read(link, 'errorType');
    return {
      evidence: 'explicit',
      kind: isToolErrorKind(kind) ? kind : undefined,
      errorType: typeof errorType === 'string' ? errorType : undefined,
    };
  }
  // Another library's `ToolExecutionError { kind }`, with its kind names read as ours (kind-aliases.ts).
  if (readString(link, 'name') === 'ToolExecutionError') {
    const kind = readString(link, 'kind');
    const mapped = kind && (isToolErrorKind(kind) ? kind : kindFromAlias(kind));
    if (mapped) return { evidence: 'explicit', kind: mapped };
  }
  return undefined;
}

function findHttp(link: object): Finding | undefined {
  const http = readHttpEvidence(link);
  if (!http) return undefined;
  const kind = kindForHttpStatus(http.status, http.retryAfterMs !== undefined, http.quotaCode);
  if (!kind) return undefined;
  return {
    evidence: 'http_status',
    kind,
    errorType: String(http.status),
    httpStatus: http.status,
    retryAfterMs: http.retryAfterMs,
  };
}

function findCode(link: object): Finding | undefined {
  const code = read(link, 'code');
  if (typeof code === 'string') {
    const kind = kindForCode(code, readString(link, 'message'));
    if (kind) return codeFinding(kind, code);
  } else if (typeof code === 'number' && code <= -32000 && code >= -32768) {
    const kind = kindForJsonRpcCode(code, readString(link, 'message'));
    if (kind) return codeFinding(kind, String(code));
  }
  const status = read(link, 'status');
  if (typeof status === 'string') {
    const kind = kindForCanonicalStatus(status);
    if (kind) return codeFinding(kind, status);
  }
  return undefined;
}

function codeFinding(kind: ToolErrorKind, code: string): Finding {
  return {
    evidence: kind === 'canceled' ? 'cancel' : 'code',
    kind,
    errorType: kind === 'timeout' ? 'timeout' : code,
  };
}

function findClass(link: object): Finding {
  const name = readString(link, 'name');
  const ctorName = className(link);
  for (const candidate of [ctorName, name]) {
    const kind = candidate === undefined ? undefined : kindForName(candidate);
    if (!kind) continue;
    return { evidence: classEvidence(kind), kind, errorType: kind === 'timeout' ? 'timeout' : candidate };
  }
  return { evidence: 'fallback', errorType: fallbackErrorType(ctorName, name) };
}

/** A class named for a timeout or a network failure says what a code would (a DOMException `TimeoutError`). */
function classEvidence(kind: ToolErrorKind): ClassificationEvidence {
  if (kind === 'canceled') return 'cancel';
  return kind === 'timeout' || kind === 'network' ? 'code' : 'class';
}

// Classes that say nothing about a failure when something non-Error is thrown.
const UNINFORMATIVE_CLASSES = new Set(['Error', 'Object', 'Array']);

/** The class name, unless it is a generic class and `name` says more. */
function fallbackErrorType(ctorName: string | undefined, name: string | undefined): string {
  if (ctorName && !UNINFORMATIVE_CLASSES.has(ctorName)) return ctorName;
  if (name) return name;
  return ctorName === 'Error' ? 'Error' : ERROR_TYPE_VALUE_OTHER;
}

function fromFinding(finding: Finding): ToolErrorClassification {
  return makeClassification(
    finding.kind ?? 'internal',
    finding.errorType ?? ERROR_TYPE_VALUE_OTHER,
    finding.evidence,
    finding.httpStatus,
    finding.retryAfterMs,
  );
}

/** An explicit kind or type fills the other from the rest of the chain, else from itself. */
function completeExplicit(explicit: Finding, rest: Finding | undefined): ToolErrorClassification {
  const restUseful = rest && rest.evidence !== 'fallback' ? rest : undefined;
  const kind =
    explicit.kind ?? kindForExplicitErrorType(explicit.errorType) ?? restUseful?.kind ?? 'internal';
  const errorType =
    explicit.errorType ??
    (kind === 'timeout' || kind === 'tool_error' ? kind : (restUseful?.errorType ?? kind));
  return makeClassification(kind, errorType, 'explicit', restUseful?.httpStatus, restUseful?.retryAfterMs);
}

function kindForExplicitErrorType(errorType: string | undefined): ToolErrorKind | undefined {
  if (errorType === undefined) return undefined;
  const status = httpStatusFromErrorType(errorType);
  if (status !== undefined) return kindForHttpStatus(status, false);
  if (errorType === 'timeout' || errorType === 'tool_error') return errorType;
  return kindForCode(errorType, undefined) ?? kindForName(errorType);
}

/** Message patterns, last: the first link whose text says something. */
function classifyByMessage(links: unknown[]): ToolErrorClassification | undefined {
  for (let i = 0; i < links.length && i < MAX_LINKS; i++) {
    const link = links[i];
    const text = typeof link === 'string' ? link : readString(link, 'message');
    if (!text) continue;
    const found = classifyMessage(text);
    if (!found) continue;
    const errorType = found.errorType ?? fallbackErrorTypeOf(links[0]);
    return makeClassification(found.kind, errorType, 'message', found.httpStatus);
  }
  return undefined;
}

function fallbackErrorTypeOf(err: unknown): string {
  return isObjectLike(err)
    ? fallbackErrorType(className(err), readString(err, 'name'))
    : ERROR_TYPE_VALUE_OTHER;
}
