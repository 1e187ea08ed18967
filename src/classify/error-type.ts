import { ERROR_TYPE_VALUE_OTHER } from '@opentelemetry/semantic-conventions';
import { isListedCode, kindForName } from './codes';
import { httpStatusFromErrorType } from './http';

/**
 * Keeps `error.type` low-cardinality. HTTP statuses, our fixed values, JavaScript's built-in error
 * classes and the codes and classes the classifier knows always pass; any other value (an app's
 * own class names and codes) is sanitised and admitted until the cap, then becomes `_OTHER`.
 *
 * The cap recovers: once it is full, a new value takes the place of the admitted value seen least
 * recently, if that one has not been seen for the idle time (10 minutes by default). A burst of
 * invented classes fills the cap only until the burst is over, and a class seen after it is named.
 */

export const DEFAULT_MAX_ERROR_TYPES = 100;
export const DEFAULT_ERROR_TYPE_IDLE_MS = 10 * 60 * 1000;
const MAX_ERROR_TYPE_LENGTH = 64;
const ALWAYS_ALLOWED = new Set([
  'timeout',
  'tool_error',
  ERROR_TYPE_VALUE_OTHER,
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'ReferenceError',
  'EvalError',
  'URIError',
  'AggregateError',
]);

interface ErrorTypeRegistry {
  max: number;
  idleMs: number;
  /** Admitted values and when each was last seen (ms), least recently seen first. */
  seen: Map<string, number>;
}

// Shared through a global symbol so two copies of the package (CJS and ESM) count against one cap.
const REGISTRY_KEY = Symbol.for('otel-tool-errors.error-types.v2');
function registry(): ErrorTypeRegistry {
  const holder = globalThis as { [REGISTRY_KEY]?: ErrorTypeRegistry };
  return (holder[REGISTRY_KEY] ??= {
    max: DEFAULT_MAX_ERROR_TYPES,
    idleMs: DEFAULT_ERROR_TYPE_IDLE_MS,
    seen: new Map(),
  });
}

export interface MaxErrorTypesOptions {
  /** How long an admitted value must go unseen before a new value may take its place. Default 10 minutes. */
  idleMs?: number;
}

/** Sets how many distinct free-form `error.type` values the process may emit at once before `_OTHER`. */
export function setMaxErrorTypes(max: number, options: MaxErrorTypesOptions = {}): void {
  if (!Number.isInteger(max) || max < 0) {
    throw new TypeError(`setMaxErrorTypes: expected a non-negative integer, got ${String(max)}`);
  }
  const idleMs = options.idleMs ?? DEFAULT_ERROR_TYPE_IDLE_MS;
  if (typeof idleMs !== 'number' || !(idleMs >= 0)) {
    throw new TypeError(`setMaxErrorTypes: idleMs must be a non-negative number, got ${String(idleMs)}`);
  }
  const state = registry();
  state.max = max;
  state.idleMs = idleMs;
}

/** Forgets the admitted values (for tests and long-running processes that rotate). */
export function resetErrorTypes(): void {
  registry().seen.clear();
}

/** Only characters that are safe in metric labels and search queries, bounded in length. */
export function sanitizeErrorType(raw: string): string {
  // Go prints a pointer type with a leading `*` (`*url.Error`): the type is the rest.
  const cleaned = raw
    .replace(/^\*+/, '')
    .replace(/[^A-Za-z0-9_.:$-]+/g, '_')
    .slice(0, MAX_ERROR_TYPE_LENGTH);
  return cleaned === '' || cleaned === '_' ? 'Error' : cleaned;
}

/** Whether the classifier itself knows the value: a status, a fixed value, a built-in or listed class or code (bounded sets). */
function isKnown(raw: string): boolean {
  return (
    ALWAYS_ALLOWED.has(raw) ||
    httpStatusFromErrorType(raw) !== undefined ||
    isListedCode(raw) ||
    kindForName(raw) !== undefined
  );
}

export function boundErrorType(raw: string): string {
  if (raw.length <= MAX_ERROR_TYPE_LENGTH && isKnown(raw)) return raw;
  const value = sanitizeErrorType(raw);
  const state = registry();
  const now = Date.now();
  const { seen } = state;
  if (seen.has(value)) {
    // Moved to the end: the map stays ordered by last sighting.
    seen.delete(value);
    seen.set(value, now);
    return value;
  }
  if (seen.size >= state.max) {
    const oldest = seen.entries().next().value;
    if (oldest === undefined || now - oldest[1] < state.idleMs) return ERROR_TYPE_VALUE_OTHER;
    seen.delete(oldest[0]);
  }
  seen.set(value, now);
  return value;
}
