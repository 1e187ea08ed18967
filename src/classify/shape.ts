import { types } from 'node:util';
import { hasOwn, isError, isObjectLike, read } from './safe';

/**
 * Evidence found by its shape rather than by one client's field names: an HTTP status, the
 * response headers and a retry delay, wherever in an error (and in the objects it holds) a client
 * put them. A bounded breadth-first walk, so the outermost match wins; it reads own data
 * properties only (no getter, no Proxy trap runs), except the built-in accessors of a fetch
 * `Response` (`status`, `headers`) and of an `AbortSignal` (`reason`). It never reads what the
 * tool sent (the request, its options, a payload) nor a response body.
 */

const MAX_DEPTH = 4;
const MAX_KEYS_PER_OBJECT = 64;
const MAX_OBJECTS = 128;

/** Names clients give an HTTP status (snake and camel case alike). */
const STATUS_KEYS = new Set([
  'status',
  'statusCode',
  'status_code',
  'httpStatus',
  'httpStatusCode',
  'http_status',
  'http_status_code',
]);

/** What the tool sent or was given, and bodies: read for nothing. */
const UNREAD_KEYS = new Set([
  'input',
  'args',
  'arguments',
  'body',
  'data',
  'config',
  'params',
  'payload',
  'request',
  'options',
  'requestOptions',
  'stack',
]);

/** Keys whose error is a link of its own in the cause chain (classify-error.ts), not part of this one. */
export const CAUSE_KEYS = [
  'cause',
  'sourceError',
  'originalError',
  'original',
  'inner',
  'innerError',
  'innerException',
  'error',
  'err',
  'raw',
  'detail',
] as const;
const CAUSE_KEY_SET: ReadonlySet<string> = new Set(CAUSE_KEYS);

/** Retry delays kept as properties: the name says the unit, seconds unless it ends in `Ms`. */
const RETRY_DELAY_KEYS: Readonly<Record<string, number>> = Object.freeze({
  retryAfter: 1000,
  retry_after: 1000,
  retryAfterSeconds: 1000,
  retry_after_seconds: 1000,
  retryAfterMs: 1,
  retry_after_ms: 1,
});

/** Codes that belong to a family of their own, not HTTP: the holder's other fields say so. */
const CODE_FAMILY_MARKERS = ['codeName', 'errorLabels', 'errno', 'sqlState', 'severity', 'errorResponse'];

export interface ShapeEvidence {
  /** The outermost HTTP status (400-599) found. */
  status?: number;
  /** The first header-shaped object found (a `headers` entry, a `Headers`, a `Map`). */
  headers?: unknown;
  /** The first retry delay kept as a property, in milliseconds. */
  retryAfterMs?: number;
}

/** The built-in class of an object by its brand tag, where it is one whose accessors may be read. */
function builtInTag(value: object): 'Response' | 'Headers' | 'AbortSignal' | undefined {
  const tag = read(value, Symbol.toStringTag);
  return tag === 'Response' || tag === 'Headers' || tag === 'AbortSignal' ? tag : undefined;
}

function asStatus(value: unknown): number | undefined {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{3}$/.test(value)
        ? Number(value)
        : NaN;
  return Number.isInteger(n) && n >= 400 && n <= 599 ? n : undefined;
}

function asDelay(value: unknown, unitMs: number): number | undefined {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,9}(?:\.\d{1,3})?$/.test(value.trim())
        ? Number(value)
        : NaN;
  return Number.isFinite(n) && n >= 0 ? Math.round(n * unitMs) : undefined;
}

function isHeaderShaped(key: string, value: object): boolean {
  return /headers$/i.test(key) || builtInTag(value) === 'Headers' || value instanceof Map;
}

/**
 * The own data entries of a plain object or error worth reading (none under `UNREAD_KEYS`),
 * bounded; built-ins give their accessors' values.
 */
function entriesOf(value: object): Array<[string, unknown]> {
  const tag = builtInTag(value);
  if (tag === 'Response')
    return [
      ['status', read(value, 'status')],
      ['headers', read(value, 'headers')],
    ];
  const entries: Array<[string, unknown]> = [];
  if (tag === 'AbortSignal' || Array.isArray(value) || value instanceof Map) return entries;
  let names: string[];
  try {
    names = Object.getOwnPropertyNames(value);
  } catch {
    return entries;
  }
  for (let i = 0; i < names.length && i < MAX_KEYS_PER_OBJECT; i++) {
    const name = names[i]!;
    // A cause is a link of the chain of its own (classify-error.ts), whatever it holds.
    if (UNREAD_KEYS.has(name) || name === 'cause') continue;
    const descriptor = Object.getOwnPropertyDescriptor(value, name);
    if (descriptor !== undefined && 'value' in descriptor) entries.push([name, descriptor.value]);
  }
  return entries;
}

/** Whether a numeric `code` in `holder` is an HTTP status, not a code of another family. */
function codeIsHttpStatus(holder: object): boolean {
  if (CODE_FAMILY_MARKERS.some((key) => read(holder, key) !== undefined)) return false;
  const name = read(read(holder, 'constructor'), 'name');
  return !(typeof name === 'string' && name.startsWith('Mongo'));
}

/**
 * Reads one link of an error's cause chain by shape. Its `cause` and the errors it holds under the
 * other `CAUSE_KEYS` are left to the chain; everything else it holds is searched, to `MAX_DEPTH`.
 */
export function readShapeEvidence(link: object): ShapeEvidence {
  const found: ShapeEvidence = {};
  const seen = new Set<object>([link]);
  let level: object[] = [link];
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0 && seen.size <= MAX_OBJECTS; depth++) {
    const next: object[] = [];
    for (const holder of level) {
      let code: number | undefined;
      for (const [key, value] of entriesOf(holder)) {
        if (found.status === undefined && STATUS_KEYS.has(key)) found.status = asStatus(value);
        if (key === 'code' && typeof value === 'number') code = asStatus(value);
        if (found.retryAfterMs === undefined && key in RETRY_DELAY_KEYS) {
          found.retryAfterMs = asDelay(value, RETRY_DELAY_KEYS[key]!);
        }
        if (!isObjectLike(value) || types.isProxy(value) || seen.has(value)) continue;
        // The errors under the other cause keys are links of their own too.
        if (CAUSE_KEY_SET.has(key) && isError(value)) continue;
        seen.add(value);
        if (isHeaderShaped(key, value)) found.headers ??= value;
        else next.push(value);
      }
      if (found.status === undefined && code !== undefined && codeIsHttpStatus(holder)) found.status = code;
    }
    // A status and the headers found: what lies deeper (a request's socket, an agent's pools) only
    // costs the time to walk it.
    level = found.status !== undefined && found.headers !== undefined ? [] : next;
  }
  return found;
}

/** An `AggregateError`'s errors followed. */
const MAX_AGGREGATE_ERRORS = 4;

/** Where an error keeps the options of the request it made, with their abort signal. */
const SIGNAL_HOLDER_KEYS = ['options', 'request', 'config'] as const;

/**
 * The errors a link holds besides its `cause`: under the other `CAUSE_KEYS`, an `AggregateError`'s
 * `errors`, and the reason of an aborted signal it keeps, on itself or in the options of the request
 * it made (a client that enforces its timeout through a signal keeps the `TimeoutError` there while
 * it throws an `AbortError`). Clients set all of these in their constructors, so a name is read only
 * where the link has it as its own: looking each one up through the prototypes of a fetch
 * `Response` or a plain error found nothing, at a cost (BENCHMARKS.md).
 */
export function heldErrors(link: object, cause: unknown): unknown[] {
  const held: unknown[] = [];
  for (const key of CAUSE_KEYS) {
    if (key === 'cause' || !hasOwn(link, key)) continue;
    const wrapped = read(link, key);
    if (wrapped !== cause && isError(wrapped)) held.push(wrapped);
  }
  const errors = hasOwn(link, 'errors') ? read(link, 'errors') : undefined;
  if (Array.isArray(errors)) held.push(...errors.slice(0, MAX_AGGREGATE_ERRORS));
  if (types.isProxy(link)) return held;
  if (hasOwn(link, 'signal')) pushAbortReason(read(link, 'signal'), held);
  for (const key of SIGNAL_HOLDER_KEYS) {
    const holder = hasOwn(link, key) ? read(link, key) : undefined;
    if (isObjectLike(holder) && !types.isProxy(holder)) pushAbortReason(read(holder, 'signal'), held);
  }
  return held;
}

/** An aborted `AbortSignal`'s reason, which says why the request was aborted. */
function pushAbortReason(signal: unknown, reasons: unknown[]): void {
  if (isObjectLike(signal) && builtInTag(signal) === 'AbortSignal' && read(signal, 'aborted') === true) {
    const reason = read(signal, 'reason');
    if (isObjectLike(reason)) reasons.push(reason);
  }
}
