import type { ToolErrorKind } from './kinds';
import { isObjectLike, read, readHeader, readNumber, readString } from './safe';
import { readShapeEvidence, type ShapeEvidence } from './shape';
import { readRetryDelayText } from './throttle-text';

/** HTTP status and Retry-After as the common clients expose them on their errors. */
export interface HttpEvidence {
  status: number;
  retryAfterMs?: number;
  /** A provider quota code such as OpenAI's `insufficient_quota`. */
  quotaCode?: string;
  /** The response said the caller is throttled, whatever its status (see throttling.ts). */
  throttled?: boolean;
  /**
   * A 500 that came with no response: how a client reports a network failure or its own timeout
   * when it must give a status (@octokit/request 10.x `RequestError`). A code in its cause says more.
   */
  synthetic?: boolean;
  /** A 429's headers were kept on the error (they decide it with no other evidence). */
  headersSeen?: boolean;
  /** Rate-limit headers (`x-ratelimit-*`, `ratelimit-*`, `ratelimit`) came with a 429. */
  rateLimitHeaders?: boolean;
}

const QUOTA_CODES =
  /^(insufficient_quota|quota_exceeded|billing_hard_limit_reached|credit_balance_too_low)$/i;

function isHttpStatus(value: number | undefined): value is number {
  return value !== undefined && Number.isInteger(value) && value >= 100 && value <= 599;
}

/**
 * Reads the shapes the common clients use first:
 * - plain `{status}` / `{statusCode}`: OpenAI, Anthropic, AI SDK `APICallError`, got, http-errors;
 * - `error.response.status` / `.statusCode`: axios, got, ky (a fetch `Response`);
 * - `$metadata.httpStatusCode`: the AWS SDK v3;
 * - a fetch `Response` itself, thrown or returned;
 * then the shape any other client has (shape.ts): a status under any of the names clients give
 * it, at any depth. Headers come from the error, its `response`, `rawResponse` (clients generated
 * by Fern: Cohere), or any header-shaped object the error holds.
 */
export function readHttpEvidence(err: unknown): HttpEvidence | undefined {
  if (!isObjectLike(err)) return undefined;
  const response = read(err, 'response');
  const ownStatus = readNumber(err, 'status') ?? readNumber(err, 'statusCode');
  let status = ownStatus;
  if (!isHttpStatus(status)) status = readNumber(response, 'status') ?? readNumber(response, 'statusCode');
  if (!isHttpStatus(status)) status = readNumber(read(err, '$metadata'), 'httpStatusCode');
  let shape: ShapeEvidence | undefined;
  if (!isHttpStatus(status)) status = (shape = readShapeEvidence(err)).status;
  if (!isHttpStatus(status)) return undefined;
  const headers =
    read(err, 'headers') ??
    read(err, 'responseHeaders') ??
    read(response, 'headers') ??
    read(read(err, 'rawResponse'), 'headers') ??
    (shape ??= readShapeEvidence(err)).headers;
  const evidence: HttpEvidence = { status };
  const rateLimit = readRateLimitHeaders(headers);
  const retryAfterMs =
    parseRetryAfter(headers) ??
    rateLimit?.resetMs ??
    // A delay kept as a property: looked for where a search ran anyway, or where it decides the kind.
    (shape !== undefined || status === 429 ? (shape ??= readShapeEvidence(err)).retryAfterMs : undefined) ??
    readGoogleRetryDelay(err) ??
    readRetryDelayText(readString(err, 'message'));
  if (retryAfterMs !== undefined) evidence.retryAfterMs = retryAfterMs;
  if (rateLimit) evidence.throttled = true;
  const quotaCode = readQuotaCode(err);
  if (quotaCode !== undefined) evidence.quotaCode = quotaCode;
  // What else the headers say decides a 429's kind, where a retry delay and no quota code did not.
  if (status === 429 && (retryAfterMs === undefined || quotaCode !== undefined)) {
    const names = headerNames(headers);
    if (names.some((name) => RATE_LIMIT_HEADER.test(name))) evidence.rateLimitHeaders = true;
    if (names.length > 0) evidence.headersSeen = true;
  }
  if (ownStatus === 500 && headers === undefined && !isObjectLike(response)) {
    evidence.synthetic = true;
  }
  return evidence;
}

/**
 * `x-ratelimit-remaining: 0`: the caller has used its allowance until `x-ratelimit-reset` (epoch
 * seconds), as GitHub answers a primary rate limit with 403.
 */
function readRateLimitHeaders(headers: unknown, now: number = Date.now()): { resetMs?: number } | undefined {
  const remaining = readHeader(headers, 'x-ratelimit-remaining');
  if (remaining === undefined || remaining.trim() !== '0') return undefined;
  const reset = readHeader(headers, 'x-ratelimit-reset');
  if (reset === undefined || !/^\d{1,12}$/.test(reset.trim())) return {};
  return { resetMs: Math.max(0, Number(reset.trim()) * 1000 - now) };
}

// Google APIs put the delay in the body's RetryInfo (`"retryDelay": "30s"`), which some clients keep only in the message.
const GOOGLE_RETRY_DELAY = /"retryDelay"\s{0,4}:\s{0,4}"(\d{1,6}(?:\.\d{1,9})?)s"/;

/** Google's RetryInfo delay, from an error whose message is the response body (@google/genai 2.x `ApiError`). */
function readGoogleRetryDelay(err: unknown): number | undefined {
  const message = readString(err, 'message');
  const delay = message === undefined ? null : GOOGLE_RETRY_DELAY.exec(message.slice(0, 16 * 1024));
  return delay ? Math.round(Number(delay[1]) * 1000) : undefined;
}

function readQuotaCode(err: unknown): string | undefined {
  for (const source of [err, read(err, 'error'), read(read(err, 'error'), 'error')]) {
    const code = read(source, 'code') ?? read(source, 'type');
    if (typeof code === 'string' && QUOTA_CODES.test(code)) return code;
  }
  return undefined;
}

/** The status an `error.type` such as `"503"` names, if it names one. */
export function httpStatusFromErrorType(errorType: string | undefined): number | undefined {
  return errorType !== undefined && /^[1-5]\d\d$/.test(errorType) ? Number(errorType) : undefined;
}

/** `retry-after-ms` (OpenAI, Anthropic), then `retry-after` in seconds or as an HTTP date. */
export function parseRetryAfter(headers: unknown, now: number = Date.now()): number | undefined {
  const ms = readHeader(headers, 'retry-after-ms');
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms));
  const value = readHeader(headers, 'retry-after');
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** What decides a 429 between `rate_limit` and `quota`. */
export interface ThrottleEvidence {
  /** A retry delay, rate-limit headers, declared throttling, or a rate window or delay in the text. */
  rateLimited?: boolean;
  /** A quota code, or billing, credits, a daily or monthly limit in the text. */
  quota?: boolean;
  /** The response's headers were kept: none of them a rate-limit header says quota (the seed's rule). */
  headersSeen?: boolean;
}

/**
 * The taxonomy for an HTTP status; `undefined` for statuses that are not errors. A 429 is a rate
 * limit unless the evidence says quota: any rate-limit evidence wins, then quota words or codes,
 * then headers that were kept and hold no rate-limit header; a 429 with nothing kept is a rate limit.
 */
export function kindForHttpStatus(
  status: number,
  throttle: ThrottleEvidence = {},
): ToolErrorKind | undefined {
  if (status === 429) {
    if (throttle.rateLimited) return 'rate_limit';
    return throttle.quota || throttle.headersSeen ? 'quota' : 'rate_limit';
  }
  if (status === 402) return 'quota';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408 || status === 425 || (status >= 500 && status <= 599)) return 'transient';
  if (status >= 400 && status <= 499) return 'permanent';
  return undefined;
}

/** A rate-limit header: `x-ratelimit-*`, `ratelimit`, `ratelimit-*`, under any vendor's prefix. */
const RATE_LIMIT_HEADER = /(?:^|-)ratelimit(?:-|$)/i;

/** The names in a header-shaped value (a fetch `Headers`, a `Map`, an `AxiosHeaders` or a record), at most 64. */
function headerNames(headers: unknown): string[] {
  if (!isObjectLike(headers)) return [];
  try {
    const names =
      headers instanceof Map || read(headers, Symbol.toStringTag) === 'Headers'
        ? (headers as unknown as Map<unknown, unknown>).keys()
        : Object.keys(headers);
    const out: string[] = [];
    for (const name of names) {
      if (typeof name === 'string') out.push(name);
      if (out.length === 64) break;
    }
    return out;
  } catch {
    return [];
  }
}
