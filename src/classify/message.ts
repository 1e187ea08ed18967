import type { ToolErrorKind } from './kinds';
import { kindForCode, kindForJsonRpcCode, UNKNOWN_TOOL_TEXT } from './codes';
import { kindForHttpStatus } from './http';
import { saysQuota, saysRateLimited } from './throttle-text';

/**
 * Classification from text alone, for failures that carry nothing structured: MCP `isError` text,
 * a returned `{error: "..."}`, a generic `Error("...")`. Used last, once, at the entrance.
 *
 * Every pattern is a plain alternation or a bounded class run, with no nested quantifiers, so
 * V8 matches each in time linear in the message length (ReDoS-safe). Only the head of a long
 * text is read: the failure is stated at its start, and the cost stays bounded whatever a tool
 * puts in a 10 MB message.
 */

export const MAX_SCANNED_MESSAGE_LENGTH = 64 * 1024;

export interface MessageEvidence {
  kind: ToolErrorKind;
  /** A finer `error.type` found in the text: an HTTP status, a JSON-RPC code, a Node error code. */
  errorType?: string;
  httpStatus?: number;
}

const MCP_CODE = /MCP error (-3\d{4})/;

/** The reason phrases of the error statuses services send, as the HTTP specification words them. */
export const REASON_PHRASES: Readonly<Record<string, number>> = Object.freeze({
  'bad request': 400,
  unauthorized: 401,
  'payment required': 402,
  forbidden: 403,
  'not found': 404,
  'method not allowed': 405,
  'request timeout': 408,
  conflict: 409,
  gone: 410,
  'payload too large': 413,
  'unprocessable entity': 422,
  'unprocessable content': 422,
  'too many requests': 429,
  'internal server error': 500,
  'not implemented': 501,
  'bad gateway': 502,
  'service unavailable': 503,
  'gateway timeout': 504,
});
const REASONS = `(?:${Object.keys(REASON_PHRASES).join('|')}|(?:client|server) error)`;

/**
 * A status in a text, group 1, in the phrasings services and clients use; never a bare number
 * (a port, an id, a count, a timestamp), and never a reason phrase alone inside a sentence ("user
 * not found" is no 404):
 * - after a word that names it: `status 503`, `status code: 404`, `statusCode=500`, `HTTP 500`,
 *   `HTTP/1.1 503`, `Error code: 429`, `error 502`, `response code 500`, `returned 500`;
 * - at the head, or after the text's first `…: `: `503 Error: {...}`, `search failed: 503: Service
 *   Unavailable`, `429 - {...}`;
 * - followed by its reason phrase anywhere: `Server error '503 Service Unavailable' for url`.
 */
const HTTP_STATUS_PHRASINGS: readonly RegExp[] = [
  /\b(?:status(?:[ _-]?code)?|http(?:\/\d(?:\.\d)?)?|(?:error|response)(?: code)?|returned|responded with)[ :=#]{1,3}([1-5]\d\d)\b/i,
  /^(?:[^:\n]{1,80}: {1,2})?([45]\d\d)(?::| - | Error\b)/,
  new RegExp(`\\b([45]\\d\\d)[ :-]{1,3}${REASONS}\\b`, 'i'),
];

/** A text that is a reason phrase and nothing more ("Service Unavailable", "Not Found."), group 1. */
const REASON_ONLY = new RegExp(`^\\s{0,4}(${Object.keys(REASON_PHRASES).join('|')})\\.?\\s{0,4}$`, 'i');

/**
 * Settings, not events: a `Keep-Alive: timeout=5` header (which Node servers send by default) or
 * a `"timeout": 5000` option that a client copied into its message. Removed before the families
 * are read, so they do not make every failure a timeout.
 */
const SETTINGS = /\btimeout=\d|["']timeout["'] {0,2}: {0,2}\d/gi;

/**
 * URLs name where a call went, not what happened (`Get "http://host/v1?status=503": dial tcp ...`,
 * as Go's `*url.Error` and Spring's `I/O error on GET request for "..."` quote them): removed
 * before the text is read, so a path or a query reads as nothing.
 */
const URLS = /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s"'<>]*/gi;

const NODE_CODE = /\b(E[A-Z]{3,15}|UND_ERR_[A-Z_]{1,30})\b/;

/**
 * The C library's words for a socket error (`strerror`), which Python, Go, Java and curl print
 * where Node prints the code: `[Errno 111] Connection refused`, `dial tcp …: connect: connection
 * refused`, `java.net.UnknownHostException: api.example.com: Name or service not known`, and
 * OpenSSL's words for a certificate it could not verify. The same failure reads the same code in
 * every language.
 */
const SYSTEM_ERROR_TEXTS: Readonly<Record<string, string>> = {
  'connection refused': 'ECONNREFUSED',
  'connection timed out': 'ETIMEDOUT',
  'connection reset by peer': 'ECONNRESET',
  'broken pipe': 'EPIPE',
  'network is unreachable': 'ENETUNREACH',
  'no route to host': 'EHOSTUNREACH',
  'name or service not known': 'ENOTFOUND',
  'nodename nor servname provided': 'ENOTFOUND',
  'no such host': 'ENOTFOUND',
  'temporary failure in name resolution': 'EAI_AGAIN',
  // A certificate that failed verification, in OpenSSL's words (Python, curl), Go's and Java's.
  'unable to get local issuer certificate': 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'certificate signed by unknown authority': 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'unable to find valid certification path': 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'certificate has expired': 'CERT_HAS_EXPIRED',
};
const SYSTEM_ERROR_TEXT = new RegExp(`\\b(${Object.keys(SYSTEM_ERROR_TEXTS).join('|')})\\b`, 'i');

// Ordered: the first family that matches wins. Lists include the TypeScript agent seed's patterns.
const FAMILIES: ReadonlyArray<readonly [ToolErrorKind, RegExp]> = [
  ['unknown_tool', UNKNOWN_TOOL_TEXT],
  ['timeout', /timed out|\btimeout\b|deadline exceeded|etimedout|econnaborted/i],
  ['rate_limit', /rate[ _-]?limit|too many requests|overload/i],
  [
    'quota',
    /insufficient_quota|quota exceeded|exceeded (?:your |the )?quota|payment required|out of credits|credit balance/i,
  ],
  [
    'auth',
    /unauthori[sz]ed|unauthenticated|invalid api key|incorrect api key|access denied|forbidden|permission denied/i,
  ],
  [
    'network',
    /econnrefused|econnreset|enotfound|eai_again|socket hang up|\bepipe\b|\bdns\b|\btls\b|\bssl\b|certificate|network error|fetch failed|connection is closed|unable to fetch|unexpected end of stream/i,
  ],
  [
    'invalid_input',
    /invalid (?:arguments|argument|input|parameters|params)|validation (?:failed|error)|failed to parse|does not match (?:the )?schema|required property|expected [a-z]+, received/i,
  ],
  // Refusals by the tool's own service. An approval refused by the agent runtime is no failure
  // (`tool.call.outcome=denied`, from the framework's own record), so its text is not read here.
  ['not_permitted', /not permitted|not allowed|denied by policy|policy violation/i],
  ['canceled', /\baborted\b|\bcancel(?:l)?ed\b/i],
];

/** The code Node prints for the socket error a text states in the C library's words, if any. */
export function systemErrorCodeIn(text: string): string | undefined {
  const systemError = SYSTEM_ERROR_TEXT.exec(text);
  return systemError ? SYSTEM_ERROR_TEXTS[systemError[1]!.toLowerCase()] : undefined;
}

export function classifyMessage(text: string): MessageEvidence | undefined {
  const head = text.length > MAX_SCANNED_MESSAGE_LENGTH ? text.slice(0, MAX_SCANNED_MESSAGE_LENGTH) : text;
  const message = head.includes('://') ? head.replace(URLS, ' ') : head;
  const mcp = MCP_CODE.exec(message);
  if (mcp) {
    const code = Number(mcp[1]);
    const kind = kindForJsonRpcCode(code, message);
    if (kind) return { kind, errorType: kind === 'timeout' ? 'timeout' : mcp[1] };
  }
  const httpStatus = statusInText(message);
  if (httpStatus !== undefined) {
    // Text carries no headers: its words decide a 429.
    const kind = kindForHttpStatus(httpStatus, {
      rateLimited: saysRateLimited(message),
      quota: saysQuota(message),
    });
    if (kind) return { kind, errorType: String(httpStatus), httpStatus };
  }
  const code = NODE_CODE.exec(message);
  if (code) {
    const kind = kindForCode(code[1], message);
    if (kind) return { kind, errorType: kind === 'timeout' ? 'timeout' : code[1] };
  }
  const systemCode = systemErrorCodeIn(message);
  if (systemCode) {
    const kind = kindForCode(systemCode, message);
    if (kind) return { kind, errorType: kind === 'timeout' ? 'timeout' : systemCode };
  }
  const events = message.replace(SETTINGS, ' ');
  for (const [kind, pattern] of FAMILIES) {
    if (pattern.test(events)) return kind === 'timeout' ? { kind, errorType: 'timeout' } : { kind };
  }
  return undefined;
}

/** The HTTP status a text states, in one of the phrasings above, or as its whole text. */
export function statusInText(message: string): number | undefined {
  for (const pattern of HTTP_STATUS_PHRASINGS) {
    const match = pattern.exec(message);
    if (match) return Number(match[1]);
  }
  const reason = REASON_ONLY.exec(message);
  return reason ? REASON_PHRASES[reason[1]!.toLowerCase()] : undefined;
}
