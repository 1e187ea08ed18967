/**
 * Keeps secrets out of telemetry. `scrubMessage` makes a short status description from an error
 * message; `redactForCapture` prepares opted-in tool arguments and results.
 * All patterns are linear-time (no nested quantifiers).
 */

const REDACTED = '[REDACTED]';
export const MAX_STATUS_MESSAGE_LENGTH = 256;
export const DEFAULT_MAX_CAPTURE_LENGTH = 1024;

const SECRET_PATTERNS: readonly RegExp[] = [
  // URL userinfo (https://user:pass@host) and query strings / fragments.
  /(\b[a-z][a-z0-9+.-]{1,20}:\/\/)[^\s/@?#]{1,256}@/gi,
  /(\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s?#]{1,2048})[?#][^\s"'<>]*/gi,
  // Authorization headers and bearer/basic credentials.
  /\b(authorization|proxy-authorization)(\\{0,8}["']?\s{0,3}[:=]\s{0,3}\\{0,8}["']?)(?:[^\s"',}\\]|\\[^\s"'\\]|\\\\)+(?:\s(?:[^\s"',}\\]|\\[^\s"'\\]|\\\\)+)?/gi,
  /\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  // Provider keys: OpenAI/Anthropic `sk-…`, GitHub, Slack, Google, Stripe; AWS access key ids.
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  // JWTs.
  /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g,
  // key=value and "key": "value" secrets. Quotes may arrive escaped (\" or \\\") when the text sat
  // inside a JSON string; a backslash in the value is kept unless it escapes the closing quote.
  /\b((?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|client[_-]?secret|private[_-]?key|aws_secret_access_key|session[_-]?token|cookie)\\{0,8}["']?\s{0,3}[:=]\s{0,3}\\{0,8}["']?)(?:[^\s"'&,}\\]|\\[^\s"'\\]|\\\\)+/gi,
];

/**
 * Every pattern above needs one of these substrings (matched here without case, so it is a
 * superset): text without any of them cannot hold a secret, and skips the 11 scans. Most error
 * messages are such text, and this runs on every failed span. Add to it when adding a pattern.
 */
const MAY_HOLD_SECRET =
  /:\/\/|authorization|bearer|basic|sk-|gh[opusr]_|github_pat_|xox|aiza|_live_|_test_|akia|asia|eyj|passw|pwd|secret|token|key|cookie/i;

function replaceSecrets(text: string): string {
  if (!MAY_HOLD_SECRET.test(text)) return text;
  let out = text;
  for (const pattern of SECRET_PATTERNS) {
    out = out.replace(pattern, (_match, prefix?: string, separator?: string) => {
      if (typeof prefix !== 'string') return REDACTED;
      // Keep the part before the secret (scheme, header or key name) so the text stays readable.
      if (/^(bearer|basic)$/i.test(prefix)) return `${prefix} ${REDACTED}`;
      if (/^[a-z][a-z0-9+.-]*:\/\/$/i.test(prefix)) return `${prefix}${REDACTED}@`;
      if (prefix.includes('://')) return prefix;
      return `${prefix}${typeof separator === 'string' ? separator : ''}${REDACTED}`;
    });
  }
  return out;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A short, single-line status description with no credentials, query strings or userinfo. */
export function scrubMessage(message: string, maxLength: number = MAX_STATUS_MESSAGE_LENGTH): string {
  // Cut first: the patterns then only ever see a bounded string, whatever the error carried.
  const head = message.length > maxLength * 4 ? message.slice(0, maxLength * 4) : message;
  return truncate(toOneLine(replaceSecrets(head)), maxLength);
}

/** Whitespace other than a single space: text without it is already one line (the common case). */
const COLLAPSIBLE_WHITESPACE = /[^\S ]| {2}/;

function toOneLine(text: string): string {
  return (COLLAPSIBLE_WHITESPACE.test(text) ? text.replace(/\s+/g, ' ') : text).trim();
}

const SECRET_KEYS =
  /^(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?token|refresh[_-]?token|authorization|cookie|set-cookie|client[_-]?secret|private[_-]?key|session[_-]?token|x-api-key)$/i;

/**
 * Tool arguments or results, as a JSON string with secret-named keys and secret-shaped values
 * redacted, truncated to `maxLength`. Never throws: unserialisable values become a placeholder.
 */
export function redactForCapture(value: unknown, maxLength: number = DEFAULT_MAX_CAPTURE_LENGTH): string {
  let json: string | undefined;
  try {
    json =
      typeof value === 'string'
        ? value
        : JSON.stringify(value, (key, inner: unknown) =>
            key !== '' && SECRET_KEYS.test(key) ? REDACTED : inner,
          );
  } catch {
    json = undefined;
  }
  if (json === undefined) return '[unserializable]';
  const head = json.length > maxLength * 4 ? json.slice(0, maxLength * 4) : json;
  return truncate(replaceSecrets(head), maxLength);
}
