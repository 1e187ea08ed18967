import { types } from 'node:util';
/**
 * Keeps secrets out of telemetry. `scrubMessage` makes a short status description from an error
 * message; `redactText` cleans multi-line text (an exception's message), `redactStack` a stack;
 * `redactForCapture` prepares opted-in tool arguments and results; `argumentTexts` lists the
 * argument values that error text must not repeat while argument capture is off.
 * All patterns are linear-time (no nested quantifiers).
 */

const REDACTED = '[REDACTED]';
export const MAX_STATUS_MESSAGE_LENGTH = 256;
export const DEFAULT_MAX_CAPTURE_LENGTH = 1024;
export const MAX_EXCEPTION_TEXT_LENGTH = 4096;

const SECRET_PATTERNS: readonly RegExp[] = [
  // URL userinfo (https://user:pass@host) and query strings / fragments.
  /(\b[a-z][a-z0-9+.-]{1,20}:\/\/)[^\s/@?#]{1,256}@/gi,
  /(\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s?#]{1,2048})[?#][^\s"<>]*/gi,
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
 * Every pattern above needs one of these substrings, with the same case sensitivity: text without
 * any of them cannot hold a secret, and skips the 11 scans. Most error messages and stacks are such
 * text, and this runs on every failed span. Add to them when adding a pattern. Two regexes, because
 * one case-insensitive alternation of all of them scans about 30% slower.
 */
const MAY_HOLD_SECRET_EXACT_CASE =
  /:\/\/|sk-|gh[opusr]_|github_pat_|xox[abposr]-|AIza|_live_|_test_|AKIA|ASIA|eyJ/;
const MAY_HOLD_SECRET_ANY_CASE = /authorization|bearer|basic|passw|pwd|secret|token|key|cookie/i;

function replaceSecrets(text: string): string {
  if (!MAY_HOLD_SECRET_EXACT_CASE.test(text) && !MAY_HOLD_SECRET_ANY_CASE.test(text)) return text;
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
  return truncate(replaceSecrets(hideValues(head, hidden)), maxLength);
}

const FRAME_LINE_START = '\n    at ';

/**
 * `redactText` for an exception's stack. Past its `name: message` head, a V8 stack is frame lines,
 * `    at fn (location)`: code locations, not data. A credential can sit there only in a URL
 * (userinfo, query string), so frames without `://` skip the secret patterns, whose pre-filter
 * alone took ~1.5 µs on a 600-character stack, on every failure (BENCHMARKS.md). Hidden values
 * are hidden everywhere; a stack with any other line, or a long one, gets `redactText` whole.
 */
export function redactStack(
  stack: string,
  maxLength: number = MAX_EXCEPTION_TEXT_LENGTH,
  hidden: readonly string[] = [],
): string {
  if (stack.length > maxLength * 4) return redactText(stack, maxLength, hidden);
  const text = hideValues(stack, hidden);
  const framesAt = text.indexOf(FRAME_LINE_START);
  if (framesAt === -1 || !onlyFrameLines(text, framesAt)) return truncate(replaceSecrets(text), maxLength);
  return truncate(replaceSecrets(text.slice(0, framesAt)) + text.slice(framesAt), maxLength);
}

/** Whether every line from `from` (a line break) on is a frame line, and none holds a URL. */
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

/** `text` with every occurrence of each hidden value replaced, in order (longest first, as `argumentTexts` lists them). */
function hideValues(text: string, hidden: readonly string[]): string {
  let out = text;
  for (const value of hidden) if (out.includes(value)) out = out.split(value).join(REDACTED);
  return out;
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
 * redacted, truncated to `maxLength`. Never throws. Runs none of the value's code: own enumerable
 * data properties only, never a getter (written as `"[getter]"`), `toJSON` or Proxy trap (a Proxy
 * is `"[Proxy]"`); a Date is its ISO text, a repeated object `"[Circular]"`.
 */
export function redactForCapture(value: unknown, maxLength: number = DEFAULT_MAX_CAPTURE_LENGTH): string {
  let json: string | undefined;
  try {
    json = typeof value === 'string' ? value : JSON.stringify(plainCopy(value, maxLength * 4));
  } catch {
    json = undefined;
  }
  if (json === undefined) return '[unserializable]';
  const head = json.length > maxLength * 4 ? json.slice(0, maxLength * 4) : json;
  return truncate(replaceSecrets(head), maxLength);
}

/** Bounds for `plainCopy`: a captured value is cut to a few KiB anyway. */
const MAX_CAPTURE_DEPTH = 16;

/**
 * What `JSON.stringify` would see of `value`, read from own data properties only, with secret-named
 * keys redacted; stops copying after about `budget` characters' worth of values.
 */
function plainCopy(value: unknown, budget: number): unknown {
  const inPath = new Set<object>();
  let left = budget;
  const copy = (inner: unknown, depth: number): unknown => {
    if (typeof inner === 'string') {
      left -= inner.length;
      return inner;
    }
    if (typeof inner === 'bigint') return inner.toString();
    if (typeof inner !== 'object' || inner === null) return typeof inner === 'function' ? undefined : inner;
    if (types.isProxy(inner)) return '[Proxy]';
    if (types.isDate(inner))
      return Number.isNaN(Date.prototype.getTime.call(inner)) ? null : Date.prototype.toISOString.call(inner);
    if (inPath.has(inner)) return '[Circular]';
    if (depth >= MAX_CAPTURE_DEPTH || left <= 0) return '[…]';
    inPath.add(inner);
    try {
      if (Array.isArray(inner)) {
        const out: unknown[] = [];
        for (let i = 0; i < inner.length && left > 0; i++) {
          const descriptor = Object.getOwnPropertyDescriptor(inner, i);
          out.push(
            descriptor === undefined
              ? null
              : 'value' in descriptor
                ? (copy(descriptor.value, depth + 1) ?? null)
                : '[getter]',
          );
          left -= 1;
        }
        return out;
      }
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(inner)) {
        if (left <= 0) break;
        left -= key.length + 1;
        const descriptor = Object.getOwnPropertyDescriptor(inner, key);
        if (descriptor === undefined) continue;
        out[key] = SECRET_KEYS.test(key)
          ? REDACTED
          : 'value' in descriptor
            ? copy(descriptor.value, depth + 1)
            : '[getter]';
      }
      return out;
    } finally {
      inPath.delete(inner);
    }
  };
  return copy(value, 0);
}

/** Bounds for `argumentTexts`: enough for real tool inputs, cheap for hostile ones. */
const MAX_ARGUMENT_TEXTS = 32;
const MIN_ARGUMENT_TEXT_LENGTH = 4;
const MAX_ARGUMENT_DEPTH = 8;
const MAX_ARGUMENT_NODES = 1000;
const MAX_JSON_ARGUMENTS_LENGTH = 64 * 1024;

/**
 * The string values in a tool's arguments (at most 32, each at least 4 characters, longest first),
 * so that error text built from them (`lookup failed for ${args.query}`) can hide them while
 * argument capture is off. Reads own data properties only, never getters; never throws.
 */
export function argumentTexts(args: unknown): string[] {
  const found = new Set<string>();
  const seen = new Set<object>();
  let nodes = 0;
  const visit = (value: unknown, depth: number): void => {
    if (found.size >= MAX_ARGUMENT_TEXTS || nodes++ >= MAX_ARGUMENT_NODES) return;
    if (typeof value === 'string') {
      if (value.length >= MIN_ARGUMENT_TEXT_LENGTH) found.add(value);
      return;
    }
    if (typeof value !== 'object' || value === null || depth >= MAX_ARGUMENT_DEPTH || seen.has(value)) return;
    seen.add(value);
    try {
      // Indices are walked, not listed: Object.keys of a huge array would allocate every key.
      const keys = Array.isArray(value) ? undefined : Object.keys(value);
      const count = keys ? keys.length : (value as unknown[]).length;
      for (let i = 0; i < count && nodes < MAX_ARGUMENT_NODES; i++) {
        const descriptor = Object.getOwnPropertyDescriptor(value, keys ? keys[i]! : i);
        if (descriptor && 'value' in descriptor) visit(descriptor.value, depth + 1);
      }
    } catch {
      // A Proxy whose traps throw, or a revoked one: what was found so far still counts.
    }
  };
  visit(args, 0);
  // Arguments given as JSON text (OpenAI Agents hands tools the model's JSON) count by their values.
  if (typeof args === 'string') visit(parsedJson(args), 0);
  return [...found].sort((a, b) => b.length - a.length);
}

function parsedJson(text: string): unknown {
  if (text.length > MAX_JSON_ARGUMENTS_LENGTH || !/^\s*[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
