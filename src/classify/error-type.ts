import { ERROR_TYPE_VALUE_OTHER } from '@opentelemetry/semantic-conventions';
import { httpStatusFromErrorType } from './http';

/**
 * Keeps `error.type` low-cardinality. HTTP statuses and our fixed values always pass; any other
 * value (class names, error codes) is sanitised and admitted until the cap, then becomes `_OTHER`.
 */

export const DEFAULT_MAX_ERROR_TYPES = 100;
const MAX_ERROR_TYPE_LENGTH = 64;
const ALWAYS_ALLOWED = new Set(['timeout', 'tool_error', ERROR_TYPE_VALUE_OTHER]);

interface ErrorTypeRegistry {
  max: number;
  seen: Set<string>;
}

// Shared through a global symbol so two copies of the package (CJS and ESM) count against one cap.
const REGISTRY_KEY = Symbol.for('otel-tool-errors.error-types');
function registry(): ErrorTypeRegistry {
  const holder = globalThis as { [REGISTRY_KEY]?: ErrorTypeRegistry };
  return (holder[REGISTRY_KEY] ??= { max: DEFAULT_MAX_ERROR_TYPES, seen: new Set() });
}

/** Sets how many distinct free-form `error.type` values the process may emit before `_OTHER`. */
export function setMaxErrorTypes(max: number): void {
  if (!Number.isInteger(max) || max < 0) {
    throw new TypeError(`setMaxErrorTypes: expected a non-negative integer, got ${String(max)}`);
  }
  registry().max = max;
}

/** Forgets the admitted values (for tests and long-running processes that rotate). */
export function resetErrorTypes(): void {
  registry().seen.clear();
}

/** Only characters that are safe in metric labels and search queries, bounded in length. */
export function sanitizeErrorType(raw: string): string {
  const cleaned = raw.replace(/[^A-Za-z0-9_.:$-]+/g, '_').slice(0, MAX_ERROR_TYPE_LENGTH);
  return cleaned === '' || cleaned === '_' ? 'Error' : cleaned;
}

export function boundErrorType(raw: string): string {
  if (httpStatusFromErrorType(raw) !== undefined || ALWAYS_ALLOWED.has(raw)) return raw;
  const value = sanitizeErrorType(raw);
  const { seen, max } = registry();
  if (seen.has(value)) return value;
  if (seen.size >= max) return ERROR_TYPE_VALUE_OTHER;
  seen.add(value);
  return value;
}
