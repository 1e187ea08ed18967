import { ERROR_TYPE_VALUE_OTHER } from '@opentelemetry/semantic-conventions';
import { makeClassification, type ToolErrorClassification } from './classification';
import {
  CANCEL_EVIDENCE,
  CODE_EVIDENCE,
  EXPLICIT_EVIDENCE,
  FALLBACK_EVIDENCE,
  HTTP_STATUS_EVIDENCE,
  MESSAGE_EVIDENCE,
  type ClassificationEvidence,
  SOURCE_LINK_READERS,
} from './evidence';
import type { Finding, LinkReader } from './evidence-source';
import {
  kindForCanonicalStatus,
  kindForCode,
  kindForJsonRpcCode,
  kindForName,
  kindForNameParts,
  isListedCode,
} from './codes';
import {
  httpStatusFromErrorType,
  kindForHttpStatus,
  readHttpEvidence,
  type HttpEvidence,
  type ThrottleEvidence,
} from './http';
import { isToolErrorKind, type ToolErrorKind } from './kinds';
import { classifyMessage } from './message';
import { className, isObjectLike, read, readString } from './safe';
import { isDeclaredThrottling } from './throttling';
import { readDatabaseError } from './database';
import { isAwsAuthError, readClientError } from './clients';
import { kindFromAlias } from './kind-aliases';
import { heldErrors } from './shape';
import { classEvidence, findClassByLastPart } from './class-name';
import { saysQuota, saysRateLimited } from './throttle-text';

/** Set by `ToolExecutionError`; a global symbol so copies of this package recognise each other's errors. */
export const TOOL_EXECUTION_ERROR_BRAND = Symbol.for('otel-tool-errors.ToolExecutionError');

const MAX_LINKS = 16;

/**
 * Classifies anything a tool threw. Each link of the `cause` chain (and of an AggregateError's
 * `errors`) is weighed by `EVIDENCE_ORDER`, the strongest wins (the outermost of equals), and
 * message patterns are read only when no link has structured evidence. Never throws.
 */
export function classifyToolError(err: unknown): ToolErrorClassification {
  try {
    return classifyChain(err);
  } catch {
    return makeClassification('internal', ERROR_TYPE_VALUE_OTHER, FALLBACK_EVIDENCE.evidence);
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
    if (finding.source === EXPLICIT_EVIDENCE) explicit ??= finding;
    else if (!best || outranks(finding, best)) best = finding;
    queueCauses(link, links);
  }
  if (explicit) return completeExplicit(explicit, best);
  const found = best!;
  if (found.source !== FALLBACK_EVIDENCE) return fromFinding(withCodeFromText(found, links));
  return classifyByMessage(links) ?? fromFinding(found);
}

/**
 * Whether `a` is better evidence than `b`. A status with no response ranks below codes and
 * cancellations, so the `ECONNREFUSED` or `TimeoutError` under Octokit's made-up 500 wins; of
 * equal evidence, a code the error carries says more than a class named for the failure (the
 * `ECONNREFUSED` under OpenAI's `APIConnectionError`, which the HTTP child span reports too).
 */
function outranks(a: Finding, b: Finding): boolean {
  const rankA = effectiveRank(a);
  const rankB = effectiveRank(b);
  if (rankA !== rankB) return rankA < rankB;
  return a.source === CODE_EVIDENCE && b.byName === true && a.byName !== true;
}

function effectiveRank(finding: Finding): number {
  return finding.synthetic ? CANCEL_EVIDENCE.rank + 0.5 : finding.source.rank;
}

/** The errors a link holds: its `cause` (whatever it is), then the others it keeps (`heldErrors`). */
function queueCauses(link: unknown, links: unknown[]): void {
  const cause = read(link, 'cause');
  if (cause !== undefined && cause !== null) links.push(cause);
  if (isObjectLike(link)) links.push(...heldErrors(link, cause));
}

/**
 * What a link is read for, in this order (not the evidence order): the first answer is the link's,
 * and `findClass` answers for a link none of them read. The readers the table's sources bring
 * come after this module's own.
 */
const LINK_READERS: readonly LinkReader[] = [
  findExplicit,
  findClient,
  findHttp,
  findCode,
  ...SOURCE_LINK_READERS,
];

function findInLink(link: unknown): Finding {
  if (!isObjectLike(link)) return { source: FALLBACK_EVIDENCE, errorType: ERROR_TYPE_VALUE_OTHER };
  for (const read of LINK_READERS) {
    const finding = read(link);
    if (finding !== undefined) return finding;
  }
  return findClass(link);
}

function findExplicit(link: object): Finding | undefined {
  if (read(link, TOOL_EXECUTION_ERROR_BRAND) === true) {
    const kind = read(link, 'kind');
    const errorType = read(link, 'errorType');
    return {
      source: EXPLICIT_EVIDENCE,
      kind: isToolErrorKind(kind) ? kind : undefined,
      errorType: typeof errorType === 'string' ? errorType : undefined,
    };
  }
  // Another library's `ToolExecutionError { kind }`, with its kind names read as ours (kind-aliases.ts).
  if (readString(link, 'name') === 'ToolExecutionError') {
    const kind = readString(link, 'kind');
    const mapped = kind && (isToolErrorKind(kind) ? kind : kindFromAlias(kind));
    if (mapped) return { source: EXPLICIT_EVIDENCE, kind: mapped };
  }
  return undefined;
}

/** A rule for one client (clients.ts). */
function findClient(link: object): Finding | undefined {
  const answer = readClientError(link);
  if (!answer) return undefined;
  const httpStatus = httpStatusFromErrorType(answer.errorType);
  return {
    source: httpStatus === undefined ? CODE_EVIDENCE : HTTP_STATUS_EVIDENCE,
    kind: answer.kind,
    errorType: answer.errorType,
    httpStatus,
    retryAfterMs: answer.retryAfterMs,
  };
}

function findHttp(link: object): Finding | undefined {
  const http = readHttpEvidence(link);
  if (!http) return undefined;
  const declared = isDeclaredThrottling(link);
  let kind = kindForHttpStatus(http.status, http.status === 429 ? throttleOf429(link, http, declared) : {});
  if (!kind) return undefined;
  // Throttling declared in words outranks the status it came with (S3 503 SlowDown, DynamoDB 400).
  if (!http.quotaCode && (http.throttled || declared)) kind = 'rate_limit';
  else if (kind === 'permanent' && isAwsAuthError(link)) kind = 'auth';
  return {
    source: HTTP_STATUS_EVIDENCE,
    kind,
    errorType: String(http.status),
    httpStatus: http.status,
    retryAfterMs: http.retryAfterMs,
    synthetic: http.synthetic,
  };
}

/** What tells a 429's rate limit from its spent quota (`kindForHttpStatus`). */
function throttleOf429(link: object, http: HttpEvidence, declared: boolean): ThrottleEvidence {
  const message = readString(link, 'message');
  return {
    // A quota code is the service's own word: no delay overrides it.
    rateLimited:
      (http.quotaCode === undefined && http.retryAfterMs !== undefined) ||
      http.throttled === true ||
      http.rateLimitHeaders === true ||
      declared ||
      (http.quotaCode === undefined && saysRateLimited(message)),
    quota: http.quotaCode !== undefined || saysQuota(message),
    headersSeen: http.headersSeen,
  };
}

function findCode(link: object): Finding | undefined {
  const code = read(link, 'code');
  if (typeof code === 'string') {
    const kind = kindForCode(code, readString(link, 'message'));
    if (kind) return codeFinding(kind, code);
  }
  // DOMException's numeric TIMEOUT_ERR, kept on errors that imitate one (ofetch's `TimeoutError`).
  if (code === 23) return codeFinding('timeout', 'timeout');
  const database = readDatabaseError(link);
  if (database) return codeFinding(database.kind, database.errorType);
  // A client that declares the rate limit but keeps no status (Slack's rate-limited error): the 429 it got.
  if (isDeclaredThrottling(link)) {
    return { source: CODE_EVIDENCE, kind: 'rate_limit', errorType: '429' };
  }
  if (typeof code === 'number' && code <= -32000 && code >= -32768) {
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
    source: kind === 'canceled' ? CANCEL_EVIDENCE : CODE_EVIDENCE,
    kind,
    errorType: kind === 'timeout' ? 'timeout' : code,
  };
}

function findClass(link: object): Finding {
  const name = readString(link, 'name');
  const ctorName = className(link);
  // A `name` that repeats the class's says nothing more; a generic class names no failure.
  for (const candidate of [ctorName, name === ctorName ? undefined : name]) {
    if (candidate === undefined || UNINFORMATIVE_CLASSES.has(candidate)) continue;
    const named = kindForName(candidate);
    if (!named) {
      const byParts = findClassByLastPart(candidate, readString(link, 'message'));
      if (byParts) return byParts;
    }
    const kind = named ?? kindForNameParts(candidate);
    if (!kind) continue;
    return {
      source: classEvidence(kind),
      kind,
      errorType: kind === 'timeout' ? 'timeout' : candidate,
      byName: true,
    };
  }
  return { source: FALLBACK_EVIDENCE, errorType: fallbackErrorType(ctorName, name) };
}

// Generic classes: they name no failure, and say nothing of what was thrown when it is no error.
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
    // Every reader's source is a row of the table.
    finding.source.evidence as ClassificationEvidence,
    finding.httpStatus,
    finding.retryAfterMs,
  );
}

/** An explicit kind or type fills the other from the rest of the chain, else from itself. */
function completeExplicit(explicit: Finding, rest: Finding | undefined): ToolErrorClassification {
  const restUseful = rest && rest.source !== FALLBACK_EVIDENCE ? rest : undefined;
  const kind =
    explicit.kind ?? kindForExplicitErrorType(explicit.errorType) ?? restUseful?.kind ?? 'internal';
  const errorType =
    explicit.errorType ??
    (kind === 'timeout' || kind === 'tool_error' ? kind : (restUseful?.errorType ?? kind));
  return makeClassification(
    kind,
    errorType,
    EXPLICIT_EVIDENCE.evidence,
    restUseful?.httpStatus,
    restUseful?.retryAfterMs,
  );
}

function kindForExplicitErrorType(errorType: string | undefined): ToolErrorKind | undefined {
  if (errorType === undefined) return undefined;
  const status = httpStatusFromErrorType(errorType);
  if (status !== undefined) return kindForHttpStatus(status);
  if (errorType === 'timeout' || errorType === 'tool_error') return errorType;
  return kindForCode(errorType, undefined) ?? kindForName(errorType);
}

/**
 * A class named for a network failure (`ConnectionError`) whose text states the code
 * (`connect ECONNREFUSED 127.0.0.1:9200`): the code is the `error.type`, as on the HTTP span.
 */
function withCodeFromText(finding: Finding, links: unknown[]): Finding {
  if (finding.byName !== true || finding.kind !== 'network') return finding;
  const text = classifyByMessage(links);
  return text?.kind === 'network' && isListedCode(text.errorType)
    ? { ...finding, errorType: text.errorType }
    : finding;
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
    return makeClassification(found.kind, errorType, MESSAGE_EVIDENCE.evidence, found.httpStatus);
  }
  return undefined;
}

function fallbackErrorTypeOf(err: unknown): string {
  return isObjectLike(err)
    ? fallbackErrorType(className(err), readString(err, 'name'))
    : ERROR_TYPE_VALUE_OTHER;
}
