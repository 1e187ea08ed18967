import { read, readString } from './safe';

/**
 * Throttling the client or the service declares in words rather than by status: a code or an
 * error name (the AWS SDK's exception names). Cloud APIs throttle with statuses other than 429 (S3 `503 SlowDown`, DynamoDB
 * `400 ThrottlingException`), and some clients keep no status at all (Slack's rate-limited error).
 */

// Exact names, case and underscores aside: `ThrottlingException`, `TooManyRequests`, `SlowDown`,
// `rate_limit_exceeded` (Resend), `rate_limited` (Notion), `RATELIMITED` / `Ratelimited` (Linear),
// `rate_limit` (Stripe), `slack_webapi_rate_limited_error` (Slack). Linear-time: no nested quantifiers.
const THROTTLING_NAME =
  /^(?:rate_?limit(?:ed|_?exceeded)?|too_?many_?requests(?:_?exception)?|throttl(?:ed|ing)(?:_?exception)?|slow_?down|provisioned_?throughput_?exceeded(?:_?exception)?|slack_webapi_rate_limited_error)$/i;

/** Where clients put such a word: the error's `code`, `name` or `type`, or the body's `error.code` / `error.type`. */
function declaredNames(err: unknown): Array<string | undefined> {
  const body = read(err, 'error');
  return [
    readString(err, 'code'),
    readString(err, 'name'),
    readString(err, 'type'),
    readString(body, 'code'),
    readString(body, 'type'),
  ];
}

/** True when the error's code or name says the caller is throttled. */
export function isDeclaredThrottling(err: unknown): boolean {
  return declaredNames(err).some(
    (name) => name !== undefined && name.length <= 64 && THROTTLING_NAME.test(name),
  );
}
