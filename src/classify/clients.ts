import type { ToolErrorKind } from './kinds';
import { read, readNumber, readString } from './safe';

/**
 * Rules for one client each, where that client's evidence is its own and no general rule reads
 * it. Each names the client and the version it was checked against (the classifier corpus).
 */
export interface ClientAnswer {
  kind: ToolErrorKind;
  errorType: string;
  retryAfterMs?: number;
}

// @slack/web-api 8.2.0: most API errors come as HTTP 200 `{ ok: false, error }`, thrown as a
// platform error whose `data.error` is Slack's code.
const SLACK_AUTH = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'no_permission',
  'missing_scope',
  'not_allowed_token_type',
  'ekm_access_denied',
]);
const SLACK_TRANSIENT = new Set(['fatal_error', 'internal_error', 'service_unavailable', 'request_timeout']);

function slackPlatformError(err: object): ClientAnswer | undefined {
  if (readString(err, 'code') !== 'slack_webapi_platform_error') return undefined;
  const error = readString(read(err, 'data'), 'error');
  if (error === undefined || !/^[a-z_]{1,64}$/.test(error)) return undefined;
  if (SLACK_AUTH.has(error)) return { kind: 'auth', errorType: error };
  if (SLACK_TRANSIENT.has(error)) return { kind: 'transient', errorType: error };
  if (error === 'ratelimited' || error === 'rate_limited') return { kind: 'rate_limit', errorType: error };
  return { kind: 'permanent', errorType: error };
}

// twilio 6.2.0: `RestException` drops the response headers; Twilio's own code 20429 says "Too Many Requests".
function twilioRateLimit(err: object): ClientAnswer | undefined {
  if (readNumber(err, 'code') !== 20429 || readNumber(err, 'status') !== 429) return undefined;
  return { kind: 'rate_limit', errorType: '429' };
}

// @qdrant/js-client-rest 1.18.0: a 429 becomes `QdrantClientResourceExhaustedError` with no
// status, only `retry_after` in seconds.
function qdrantRateLimit(err: object): ClientAnswer | undefined {
  if (readString(err, 'name') !== 'QdrantClientResourceExhaustedError') return undefined;
  const seconds = readNumber(err, 'retry_after');
  return {
    kind: 'rate_limit',
    errorType: '429',
    retryAfterMs: seconds === undefined ? undefined : seconds * 1000,
  };
}

// node-fetch 2.x (inside gaxios 6, so @google-cloud/storage 7.22.0): its own timeout is a
// `FetchError` of type `request-timeout`; other FetchErrors are network failures.
function nodeFetchTimeout(err: object): ClientAnswer | undefined {
  if (readString(err, 'name') !== 'FetchError' || readString(err, 'type') !== 'request-timeout')
    return undefined;
  return { kind: 'timeout', errorType: 'timeout' };
}

/** The answer of the one client rule that matches `err`, if any. */
export function readClientError(err: object): ClientAnswer | undefined {
  return slackPlatformError(err) ?? twilioRateLimit(err) ?? qdrantRateLimit(err) ?? nodeFetchTimeout(err);
}

// AWS SDK v3 (checked with @aws-sdk/client-s3 3.1175.0 and client-dynamodb 3.1169.0): credentials
// are refused with these exception names, on 400 as often as on 403.
const AWS_AUTH_NAMES = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'InvalidClientTokenId',
  'AccessDeniedException',
  'AccessDenied',
  'ExpiredToken',
  'ExpiredTokenException',
  'MissingAuthenticationToken',
]);

/** True for an AWS SDK service exception that says the credentials were refused. */
export function isAwsAuthError(err: object): boolean {
  return read(err, '$metadata') !== undefined && AWS_AUTH_NAMES.has(readString(err, 'name') ?? '');
}
