import type { ToolErrorKind } from './kinds';
import { isObjectLike, read, readHeader, readNumber } from './safe';

/** HTTP status and Retry-After as the common clients expose them on their errors. */
export interface HttpEvidence {
  status: number;
  retryAfterMs?: number;
  /** A provider quota code such as OpenAI's `insufficient_quota`. */
  quotaCode?: string;
}

const QUOTA_CODES =
  /^(insufficient_quota|quota_exceeded|billing_hard_limit_reached|credit_balance_too_low)$/i;

function isHttpStatus(value: number | undefined): value is number {
  return value !== undefined && Number.isInteger(value) && value >= 100 && value <= 599;
}

/**
 * Reads the shapes, in order:
 * - plain `{status}` / `{statusCode}`: OpenAI, Anthropic, AI SDK `APICallError`, got, http-errors;
 * - `error.response.status` / `.statusCode`: axios, got, ky (a fetch `Response`);
 * - a fetch `Response` itself, thrown or returned.
 */
export function readHttpEvidence(err: unknown): HttpEvidence | undefined {
  if (!isObjectLike(err)) return undefined;
  const response = read(err, 'response');
  let status = readNumber(err, 'status') ?? readNumber(err, 'statusCode');
  let headers: unknown;
  if (isHttpStatus(status)) {
    headers = read(err, 'headers') ?? read(err, 'responseHeaders') ?? read(response, 'headers');
  } else {
    status = readNumber(response, 'status') ?? readNumber(response, 'statusCode');
    if (!isHttpStatus(status)) return undefined;
    headers = read(response, 'headers');
  }
  const evidence: HttpEvidence = { status };
  const retryAfterMs = parseRetryAfter(headers);
  if (retryAfterMs !== undefined) evidence.retryAfterMs = retryAfterMs;
  const quotaCode = readQuotaCode(err);
  if (quotaCode !== undefined) evidence.quotaCode = quotaCode;
  return evidence;
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

/** The taxonomy for an HTTP status; `undefined` for statuses that are not errors. */
export function kindForHttpStatus(
  status: number,
  hasRetryAfter: boolean,
  quotaCode?: string,
): ToolErrorKind | undefined {
  if (status === 429) return quotaCode || !hasRetryAfter ? 'quota' : 'rate_limit';
  if (status === 402) return 'quota';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408 || status === 425 || (status >= 500 && status <= 599)) return 'transient';
  if (status >= 400 && status <= 499) return 'permanent';
  return undefined;
}
