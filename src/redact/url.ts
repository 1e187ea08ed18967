import { pathShapeMatches } from './path-shapes';
import { decodePercent, hideValues, isSecretKey, replaceSecrets } from './text';

/**
 * Redacts URLs as the HTTP semantic conventions ask for `url.full` and `url.query`: credentials in
 * the userinfo become `REDACTED:REDACTED`, and the value of a query parameter whose name looks
 * secret (`api_key`, `token`, `sig`, `code`, ...) becomes `REDACTED`. Beyond the conventions, the
 * secret of a known secret-bearing path shape (a webhook's `/services/T…/B…/{secret}`, a bot's
 * `/bot{id}:{token}`, on any host) and a path segment that looks like a token (a reset link's id)
 * become `REDACTED`, and so does any value in `hidden` (a tool's argument values) wherever it appears.
 * Linear in the URL's length; never throws.
 */

export const URL_REDACTED = 'REDACTED';

export interface UrlRedaction {
  /** Every query and fragment value becomes `REDACTED`, whatever its name. */
  readonly allQueryValues: boolean;
  /** Values that must not appear, percent-encoded or not (see `argumentTexts`). */
  readonly hidden: readonly string[];
}

const KEEP_NON_SECRET: UrlRedaction = { allQueryValues: false, hidden: [] };

/** Query names that carry a credential only in URLs: OAuth's authorization `code`, AWS/GCS presigning. */
const URL_SECRET_KEY = /^(?:code|x-amz-credential|x-amz-security-token|x-goog-credential|awsaccesskeyid)$/i;

/** A whole URL (`url.full`, `http.url`) or a path with its query (`http.target`). */
export function redactUrl(url: string, redaction: UrlRedaction = KEEP_NON_SECRET): string {
  let rest = url;
  let origin = '';
  const scheme = /^[a-z][a-z0-9+.-]{0,20}:\/\//i.exec(url);
  if (scheme) {
    const authorityEnd = firstOf(url, '/?#', scheme[0].length);
    let authority = url.slice(scheme[0].length, authorityEnd);
    const at = authority.lastIndexOf('@');
    if (at !== -1) {
      const userinfo = authority.slice(0, at);
      authority = `${userinfo.includes(':') ? `${URL_REDACTED}:${URL_REDACTED}` : URL_REDACTED}@${authority.slice(at + 1)}`;
    }
    origin = scheme[0] + authority;
    rest = url.slice(authorityEnd);
  }
  const queryAt = firstOf(rest, '?#', 0);
  const path = rest.slice(0, queryAt);
  const tail = rest.slice(queryAt);
  return origin + redactPath(path, redaction) + redactQueryAndFragment(tail, redaction);
}

/**
 * `url.path`: the secret of a known secret-bearing shape (path-shapes.ts: a webhook's
 * `/services/T…/B…/{secret}`, a bot's `/bot{id}:{token}`), token-like and hidden segments become
 * `REDACTED`. A shape's ids that are not secrets stay readable.
 */
export function redactPath(path: string, redaction: UrlRedaction = KEEP_NON_SECRET): string {
  if (path.length <= 1) return path;
  const shapes = pathShapeMatches(path);
  if (shapes.length === 0) return redactSegments(path, redaction);
  let out = '';
  let at = 0;
  for (const { start, secretStart, end } of shapes) {
    out += redactSegments(path.slice(at, start), redaction);
    const readable = path.slice(start, secretStart);
    const kept = hideSegments(readable, redaction.hidden);
    // A hidden value in the secret's own segment (`/bot{id}:`) took the whole segment already.
    out += readable.endsWith('/') || !kept.endsWith(URL_REDACTED) ? kept + URL_REDACTED : kept;
    at = end;
  }
  return out + redactSegments(path.slice(at), redaction);
}

/** A shape's readable part: only hidden values go. */
function hideSegments(part: string, hidden: readonly string[]): string {
  if (hidden.length === 0) return part;
  return part
    .split('/')
    .map((segment) => {
      const value = decodePercent(segment);
      return segment !== '' && hideValues(value, hidden) !== value ? URL_REDACTED : segment;
    })
    .join('/');
}

function redactSegments(path: string, redaction: UrlRedaction): string {
  if (path.length <= 1) return path;
  let afterHook = false;
  return path
    .split('/')
    .map((segment) => {
      const secret = segmentIsSecret(segment, redaction.hidden) || (afterHook && looksLikeHookId(segment));
      afterHook ||= HOOK_SEGMENT.test(segment);
      return secret ? URL_REDACTED : segment;
    })
    .join('/');
}

/** A webhook URL's path after one of these is its credential: `/services/T…/B…/…`, `/webhooks/{id}/{token}`. */
const HOOK_SEGMENT = /^(?:hooks|webhooks|services|triggers|workflows)$/i;

/** An id or token, not a readable word: 6+ characters with a digit or a capital letter. */
function looksLikeHookId(segment: string): boolean {
  return segment.length >= 6 && /^[A-Za-z0-9_.=-]+$/.test(segment) && /[0-9A-Z]/.test(segment);
}

/** `url.query` (without the `?`): `name=value` pairs joined by `&`. */
export function redactQuery(query: string, redaction: UrlRedaction = KEEP_NON_SECRET): string {
  if (query === '') return query;
  return query
    .split('&')
    .map((pair) => redactPair(pair, redaction))
    .join('&');
}

function redactQueryAndFragment(tail: string, redaction: UrlRedaction): string {
  if (tail === '') return tail;
  const hashAt = tail.indexOf('#');
  const query = tail.startsWith('?') ? tail.slice(1, hashAt === -1 ? undefined : hashAt) : undefined;
  const fragment = hashAt === -1 ? undefined : tail.slice(hashAt + 1);
  return (
    (query === undefined ? '' : `?${redactQuery(query, redaction)}`) +
    (fragment === undefined ? '' : `#${redactQuery(fragment, redaction)}`)
  );
}

function redactPair(pair: string, redaction: UrlRedaction): string {
  if (pair === '') return pair;
  const equals = pair.indexOf('=');
  const name = equals === -1 ? '' : pair.slice(0, equals);
  const value = equals === -1 ? pair : pair.slice(equals + 1);
  if (value === '') return pair;
  const decodedName = decodePercent(name.replace(/\+/g, ' '));
  const secret =
    redaction.allQueryValues ||
    isSecretKey(decodedName) ||
    URL_SECRET_KEY.test(decodedName) ||
    valueIsSecret(value, redaction.hidden);
  if (!secret) return pair;
  return equals === -1 ? URL_REDACTED : `${name}=${URL_REDACTED}`;
}

function segmentIsSecret(segment: string, hidden: readonly string[]): boolean {
  if (segment === '') return false;
  return looksLikeToken(segment) || valueIsSecret(segment, hidden);
}

/**
 * 20+ characters of token alphabet that mix letters with digits, or upper with lower case: an
 * API key, a webhook secret, a signed id. Readable slugs (`get-weather`) are kept; a slug with a
 * long number in it is not told apart, and goes too.
 */
function looksLikeToken(segment: string): boolean {
  if (segment.length < 20 || !/^[A-Za-z0-9_~.+=%-]+$/.test(segment)) return false;
  const letters = /[A-Za-z]/.test(segment);
  return (letters && /[0-9]/.test(segment)) || (/[a-z]/.test(segment) && /[A-Z]/.test(segment));
}

function valueIsSecret(raw: string, hidden: readonly string[]): boolean {
  const value = decodePercent(raw.replace(/\+/g, ' '));
  if (looksLikeToken(raw) || replaceSecrets(value) !== value) return true;
  return hidden.length > 0 && hideValues(value, hidden) !== value;
}

function firstOf(text: string, characters: string, from: number): number {
  for (let i = from; i < text.length; i++) if (characters.includes(text[i]!)) return i;
  return text.length;
}
