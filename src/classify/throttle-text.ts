/**
 * What a text says about a throttle: a retry delay ("retry after 2s", "try again in 20 seconds"),
 * a rate window ("per minute"), or a quota (billing, credits, a daily or monthly limit). They
 * decide a 429 between `rate_limit` and `quota` (http.ts). Linear-time patterns, on the text's head.
 */

const MAX_READ = 16 * 1024;

/** A delay to wait, group 1 the number, group 2 its unit (seconds when absent). */
const RETRY_DELAY_TEXT =
  /\b(?:retry[ -]?after|try again in|retry in)[ :=]{0,3}(\d{1,6}(?:\.\d{1,3})?) ?(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)?\b/i;

/** Rate-limit evidence in words: a delay to wait, or a window of seconds or minutes. */
const RATE_LIMIT_TEXT =
  /retry[ -]?after|try again in \d|retry in \d|\bper (?:second|minute)\b|\/(?:sec|min)\b|\b(?:RPM|TPM|RPS)\b/i;

/** Quota evidence in words: billing, credits, a daily or monthly allowance. */
const QUOTA_TEXT =
  /insufficient_quota|quota exceeded|exceeded (?:your |the )?(?:current )?quota|payment required|out of credits|credit balance|\bbilling\b|\b(?:daily|monthly) (?:limit|quota)|\bper (?:day|month)\b/i;

const UNIT_MS: Readonly<Record<string, number>> = Object.freeze({ ms: 1, m: 60_000, s: 1000 });

/** The delay a text asks to wait, in milliseconds. */
export function readRetryDelayText(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const match = RETRY_DELAY_TEXT.exec(text.slice(0, MAX_READ));
  if (!match) return undefined;
  const unit = (match[2] ?? 's').toLowerCase();
  const perUnit =
    unit.startsWith('ms') || unit.startsWith('milli')
      ? UNIT_MS.ms!
      : unit.startsWith('m')
        ? UNIT_MS.m!
        : UNIT_MS.s!;
  return Math.round(Number(match[1]) * perUnit);
}

/** Rate-limit evidence in a text. */
export function saysRateLimited(text: string | undefined): boolean {
  return text !== undefined && RATE_LIMIT_TEXT.test(text.slice(0, MAX_READ));
}

/** Quota evidence in a text. */
export function saysQuota(text: string | undefined): boolean {
  return text !== undefined && QUOTA_TEXT.test(text.slice(0, MAX_READ));
}
