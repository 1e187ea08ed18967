/**
 * Keeps secrets out of telemetry. `scrubMessage` makes a short status description from an error
 * message; `redactText` cleans multi-line text (an exception's message), `redactStack` a stack
 * (capture.ts prepares opted-in arguments and results, url.ts URLs, exception.ts exception events).
 * All patterns are linear-time (no nested quantifiers).
 */

import { SECRET_PATH_SHAPES } from './path-shapes';

export const REDACTED = '[REDACTED]';
export const MAX_STATUS_MESSAGE_LENGTH = 256;
export const MAX_EXCEPTION_TEXT_LENGTH = 4096;

/** Key names whose value is a secret wherever they appear (`GITHUB_TOKEN=`, `"client_secret":`). */
const SECRET_KEY_WORDS =
  'password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?|signature|cookie|session[_-]?id';

const SECRET_PATTERNS: readonly RegExp[] = [
  // URL userinfo (https://user:pass@host, mongodb+srv://user:p@ss@host) and query strings / fragments.
  /(\b[a-z][a-z0-9+.-]{1,20}:\/\/)[^\s/?#]{1,256}@/gi,
  /(\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s?#]{1,2048})[?#][^\s"<>]*/gi,
  // PEM private keys, also with their line breaks escaped (`\n` inside a JSON string), or cut short.
  /-----BEGIN[A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----[A-Za-z0-9+/=\s\\:,-]*(?:-----END[A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----)?/g,
  // Authorization headers and bearer/basic credentials.
  /\b(authorization|proxy-authorization)(\\{0,8}["']?\s{0,3}[:=]\s{0,3}\\{0,8}["']?)(?:[^\s"',}\\]|\\[^\s"'\\]|\\\\)+(?:\s(?:[^\s"',}\\]|\\[^\s"'\\]|\\\\)+)?/gi,
  /\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  // Provider keys, by their published prefixes: OpenAI and Anthropic `sk-`, GitHub, GitLab, Grafana,
  // Hugging Face, npm, Slack, SendGrid, Shopify, Groq, Linear, Notion, 1Password, HashiCorp Vault,
  // Databricks, Docker, Figma, Vercel, Cloudflare, Stripe, Tailscale, Google.
  /\b(?:sk-|gh[opusr]_|github_pat_|glpat-|gl(?:c|sa|dt|rt|ptt|soat|ft|imt|cbt|oas|agent)_|hf_|npm_|xox[abposre]-|xapp-|SG\.|shp(?:at|ca|pa|ss)_|gsk_|lin_api_|ntn_|ops_eyJ|hv[sbr]\.|dapi|dckr_pat_|figd_|vc[pikar]_|cf[au]t_|[rsp]k_(?:live|test)_|tskey-|AIza)[A-Za-z0-9_.=-]{10,}/g,
  /\bsecret_[A-Za-z0-9]{32,}/g,
  /\b(?:A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[A-Z0-9]{16}\b/g,
  // URL paths whose shape holds a secret (webhooks, bot tokens), on any host: path-shapes.ts.
  ...SECRET_PATH_SHAPES,
  // JWTs.
  /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g,
  // key=value and "key": "value" secrets, the key as a word or part of one (`GITHUB_TOKEN`).
  // Quotes may arrive escaped (\" or \\\") when the text sat inside a JSON string; a backslash in
  // the value is kept unless it escapes the closing quote.
  new RegExp(
    `(\\b[A-Za-z0-9_.-]{0,40}?(?:${SECRET_KEY_WORDS})[A-Za-z0-9_.-]{0,24}\\\\{0,8}["']?\\s{0,3}[:=]>?\\s{0,3}\\\\{0,8}["']?)(?:[^\\s"'&,;}\\\\]|\\\\[^\\s"'\\\\]|\\\\\\\\)+`,
    'gi',
  ),
  /\b((?:pwd|pass|key|sig|auth|jwt)\\{0,8}["']?\s{0,3}[:=]\s{0,3}\\{0,8}["']?)(?:[^\s"'&,;}\\]|\\[^\s"'\\]|\\\\)+/gi,
];

/**
 * Every pattern above needs one of these, with the same case sensitivity: text without any of them
 * cannot hold a secret, and skips the scans. Most error messages and stacks are such text, and
 * this runs on every failed span. Add to them when adding a pattern. Two regexes, because one
 * case-insensitive alternation of all of them scans about 30% slower. Opaque runs are looked for
 * in every text.
 */
const MAY_HOLD_SECRET_EXACT_CASE =
  /:\/\/|\/services\/|\/workflows\/|\/triggers\/|\/webhooks\/|\/bot[0-9]|\/catch\/|\/with\/key\/|\/IncomingWebhook\/|-----BEGIN|sk-|gh[opusr]_|github_pat_|glpat-|gl[a-z]{1,5}_|hf_|npm_|xox[abposre]-|xapp-|SG\.|shp[a-z]{2}_|gsk_|lin_api|ntn_|ops_|hv[sbr]\.|dapi|dckr_|figd_|vc[pikar]_|cf[au]t_|_live_|_test_|tskey-|AIza|A3T|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA|eyJ/;
const MAY_HOLD_SECRET_ANY_CASE =
  /authorization|bearer|basic|passw|pwd|pass|secret|token|key|credential|signature|sig|cookie|session|auth|jwt/i;

/**
 * Anything else long and opaque, found by `replaceOpaqueRuns`: 32+ characters of token alphabet
 * (`[A-Za-z0-9+/_-]`, then up to two `=`) mixing upper case, lower case and digits (an AWS secret
 * key, a random API key), or 32+ hex digits. A hand-written scan: as a regex, the runs shorter than
 * 32 characters made it quadratic per run (BENCHMARKS.md).
 */
const MIN_OPAQUE_RUN = 32;
const RUN_CHARACTER = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-')
  RUN_CHARACTER[c.charCodeAt(0)] = 1;
const EQUALS = 61;

function replaceOpaqueRuns(text: string): string {
  let out: string | undefined;
  let copiedTo = 0;
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 0;
    if (code < 128 && RUN_CHARACTER[code] === 1) continue;
    if (i - start >= MIN_OPAQUE_RUN) {
      let end = i;
      while (end < text.length && end - i < 2 && text.charCodeAt(end) === EQUALS) end++;
      const run = text.slice(start, end);
      const kept = opaqueOrKept(run);
      if (kept !== run) {
        out = (out ?? '') + text.slice(copiedTo, start) + kept;
        copiedTo = end;
      }
      i = end;
    }
    start = i + 1;
  }
  return out === undefined ? text : out + text.slice(copiedTo);
}

/**
 * A long run that looks random is a secret; one that reads as words is kept. A run with slashes
 * is a path, whose long parts are judged one by one, unless it is 40 characters that look random
 * (an AWS secret access key).
 */
function opaqueOrKept(run: string): string {
  if (!run.includes('/')) return looksRandom(run) ? REDACTED : run;
  if (run.length === 40 && looksRandom(run)) return REDACTED;
  return run
    .split('/')
    .map((part) => (part.length >= 32 && looksRandom(part) ? REDACTED : part))
    .join('/');
}

function looksRandom(run: string): boolean {
  if (/^[0-9a-fA-F]+$/.test(run)) return /[0-9]/.test(run) && /[a-fA-F]/.test(run);
  return /[0-9]/.test(run) && /[a-z]/.test(run) && /[A-Z]/.test(run);
}

/** `text` with every secret the patterns know replaced by `[REDACTED]`; no truncation. */
export function replaceSecrets(text: string): string {
  const maySecret = MAY_HOLD_SECRET_EXACT_CASE.test(text) || MAY_HOLD_SECRET_ANY_CASE.test(text);
  if (!maySecret) return replaceOpaqueRuns(text);
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
  return replaceOpaqueRuns(out);
}

/**
 * `text` with no secrets and none of the `hidden` values, also where they were percent-encoded:
 * the text is scrubbed as it is (a URL's query ends at its first space, so before `%20` is
 * decoded), then decoded and scrubbed again.
 */
export function scrub(text: string, hidden: readonly string[] = []): string {
  if (hidden.length === 0 && text === lastText) return lastScrubbed;
  const once = replaceSecrets(hideValues(text, hidden));
  const scrubbed = once.includes('%') ? replaceSecrets(hideValues(decodePercent(once), hidden)) : once;
  if (hidden.length === 0) {
    lastText = text;
    lastScrubbed = scrubbed;
  }
  return scrubbed;
}

/**
 * The last text scrubbed with nothing hidden. One failure's message is scrubbed several times
 * (the exception event, the status of each span it marks: an MCP call's client and server spans,
 * a thrown error then the error result it becomes), each time the same string.
 */
let lastText = '';
let lastScrubbed = '';

/**
 * `text` with its percent-escapes decoded (`tax%20fraud` -> `tax fraud`, `token%3Dabc` ->
 * `token=abc`), so that secrets and hidden values are found however a URL or form body encoded
 * them. A malformed escape stays as it is.
 */
export function decodePercent(text: string): string {
  if (!text.includes('%')) return text;
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (escaped) => {
    try {
      return decodeURIComponent(escaped);
    } catch {
      return escaped;
    }
  });
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A short, single-line status description with no credentials, query strings or userinfo. */
export function scrubMessage(message: string, maxLength: number = MAX_STATUS_MESSAGE_LENGTH): string {
  // Cut first: the patterns then only ever see a bounded string, whatever the error carried.
  const head = message.length > maxLength * 4 ? message.slice(0, maxLength * 4) : message;
  return truncate(toOneLine(scrub(head)), maxLength);
}

/**
 * Multi-line text, such as an exception's message or stack, with no credentials, query strings or
 * userinfo, and none of the `hidden` values (see `argumentTexts`), truncated to `maxLength`.
 */
export function redactText(
  text: string,
  maxLength: number = MAX_EXCEPTION_TEXT_LENGTH,
  hidden: readonly string[] = [],
): string {
  const head = text.length > maxLength * 4 ? text.slice(0, cutBefore(text, maxLength * 4, hidden)) : text;
  return truncate(scrub(head, hidden), maxLength);
}

/**
 * A stack's frame line: a code location, not data. V8's `    at fn (file:1:2)`; the JVM's
 * `\tat pkg.Class.method(File.java:42)` and `\t... 12 more`; Go's `goroutine 1 [running]:`, its
 * function lines `main.fetch({0xc0001a2000, 0x2a})` (arguments are words of memory) and location
 * lines `\t/app/main.go:42 +0x1d`. Anchored, linear-time; a line with `://` is never one.
 */
const FRAME_LINE =
  /^(?: {4}at (?:(?:async |new )?[^\s()]{1,512} \([^()]{1,1024}\)|[^\s()]{1,1024}:\d{1,7}:\d{1,7})|\t{1,2}at [^\s()]{1,512}\([^()]{0,256}\)(?: ~?\[[^\]]{0,256}\])?|\t{1,2}\.\.\. \d{1,6} (?:more|common frames omitted)|goroutine \d{1,9} \[[^\]]{1,64}\]:|created by [\w./[\]-]{1,512}(?:\(\*?[\w.[\]]{1,128}\)[\w./[\]-]{0,512})?(?: in goroutine \d{1,9})?|[\w./[\]-]{1,512}(?:\(\*?[\w.[\]]{1,128}\)[\w./[\]-]{0,512})?\([0-9a-fx{}, .?]{0,512}\)|\t(?:[A-Za-z]:)?\/[^\s]{1,512}:\d{1,7}(?: \+0x[0-9a-f]{1,16})?)$/;

/** Where a stack with frames `FRAME_LINE` knows has one: a text without it has no frame to keep. */
const FRAME_MARKER = /(?:^|\n)(?: {4}at |\t{1,2}at |goroutine \d)/;

/** V8's frame line, after its line break: a stack of only these after its head is the common case. */
const FRAME_LINE_START = '\n    at ';

function isFrameLine(line: string): boolean {
  return FRAME_LINE.test(line) && !line.includes('://');
}

/**
 * `redactText` for an exception's stack. Frame lines (`FRAME_LINE`: V8, Java, Go) are kept as they
 * are, with hidden values hidden; every other line (a message, a `Caused by:` line, a Python
 * traceback's source line) is scrubbed, runs of them together, so that a secret over several lines
 * (a PEM key) is found. Frames skip the secret patterns, whose pre-filter alone cost more than the
 * rest on every failure (BENCHMARKS.md), and a file named `token.go:42` keeps its line number. A
 * V8 stack of only frame lines after its head, none with a URL, has its head scrubbed alone
 * without reading its lines one by one; a stack with no frame marker (a Python traceback) is
 * scrubbed whole.
 */
export function redactStack(
  stack: string,
  maxLength: number = MAX_EXCEPTION_TEXT_LENGTH,
  hidden: readonly string[] = [],
): string {
  if (stack.length > maxLength * 4) return redactText(stack, maxLength, hidden);
  const framesAt = stack.indexOf(FRAME_LINE_START);
  if (framesAt !== -1 && onlyFrameLines(stack, framesAt)) {
    return truncate(
      scrub(stack.slice(0, framesAt), hidden) + hideValues(stack.slice(framesAt), hidden),
      maxLength,
    );
  }
  if (!FRAME_MARKER.test(stack)) return truncate(scrub(stack, hidden), maxLength);
  const out: string[] = [];
  let run: string[] = [];
  let runIsFrames = false;
  const flush = () => {
    if (run.length === 0) return;
    const text = run.join('\n');
    out.push(runIsFrames ? hideValues(text, hidden) : scrub(text, hidden));
    run = [];
  };
  for (const line of stack.split('\n')) {
    const frame = isFrameLine(line);
    if (frame !== runIsFrames) {
      flush();
      runIsFrames = frame;
    }
    run.push(line);
  }
  flush();
  return truncate(out.join('\n'), maxLength);
}

/** Whether every line from `from` (a line break) on is a V8 frame line, and none holds a URL. */
function onlyFrameLines(text: string, from: number): boolean {
  if (text.includes('://', from)) return false;
  for (let at = from; at !== -1; at = text.indexOf('\n', at + 1)) {
    if (!text.startsWith(FRAME_LINE_START, at)) return false;
  }
  return true;
}

const MAX_CUT_PASSES = 64;

/**
 * Where to cut `text` near `at` so that no hidden value straddles the cut: a value cut in two would
 * escape `hideValues` as a fragment. Moving the cut back can make another value straddle it, hence
 * the passes; text that keeps moving it (self-overlapping values) is dropped whole.
 */
function cutBefore(text: string, at: number, hidden: readonly string[]): number {
  let cut = at;
  for (let pass = 0; pass < MAX_CUT_PASSES; pass++) {
    let moved = false;
    for (const value of hidden) {
      const from = Math.max(0, cut - value.length + 1);
      const found = text.slice(from, cut + value.length - 1).indexOf(value);
      if (found !== -1 && from + found < cut) {
        cut = from + found;
        moved = true;
      }
    }
    if (!moved) return cut;
  }
  return 0;
}

/**
 * `text` with every occurrence of each hidden value replaced, in order (longest first, as
 * `argumentTexts` lists them), also percent-encoded as a URL or a form body writes it.
 */
export function hideValues(text: string, hidden: readonly string[]): string {
  let out = text;
  for (const value of hidden) {
    out = hideOne(out, value);
    const encoded = encodeURIComponent(value);
    if (encoded !== value) out = hideOne(hideOne(out, encoded), encoded.replace(/%20/g, '+'));
  }
  return out;
}

function hideOne(text: string, value: string): string {
  return text.includes(value) ? text.split(value).join(REDACTED) : text;
}

/** Whitespace other than a single space: text without it is already one line (the common case). */
const COLLAPSIBLE_WHITESPACE = /[^\S ]| {2}/;

function toOneLine(text: string): string {
  return (COLLAPSIBLE_WHITESPACE.test(text) ? text.replace(/\s+/g, ' ') : text).trim();
}

const SECRET_KEY_PART = new RegExp(`${SECRET_KEY_WORDS}|authorization`, 'i');
const SECRET_KEY_EXACT = /^(?:pwd|pass|key|sig|auth|jwt|otp)$/i;

/**
 * Whether a value stored under `key` is a secret: `password`, `client_secret`, `access_token`,
 * `GITHUB_TOKEN`, `x-api-key`, `Signature`, `sig`, `auth`, ...
 */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY_EXACT.test(key) || SECRET_KEY_PART.test(key);
}
