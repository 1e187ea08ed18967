import { types } from 'node:util';
import { REDACTED, isSecretKey, scrub, truncate } from './text';

/** The largest capture written by default; a captured value is cut to this many characters. */
export const DEFAULT_MAX_CAPTURE_LENGTH = 1024;

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
  return truncate(scrub(head), maxLength);
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
        out[key] = isSecretKey(key)
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
