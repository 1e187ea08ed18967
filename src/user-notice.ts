import { logger } from './logger';

const TOLD_KEY = Symbol.for('otel-tool-errors.toldUser');

/**
 * Tells the user something that leaves them without spans: once per process for each `once` key
 * (every copy of this package shares the record), through `diag`, and on stderr while no `OTEL_LOG_LEVEL` is set. With
 * one set, the SDK's diag logger prints it, or `none` silences it.
 */
export function tellUser(message: string, once: string = message): void {
  const holder = globalThis as { [TOLD_KEY]?: Set<string> };
  const told = (holder[TOLD_KEY] ??= new Set());
  if (told.has(once)) return;
  told.add(once);
  logger.warn(message);
  if (process.env.OTEL_LOG_LEVEL === undefined || process.env.OTEL_LOG_LEVEL.trim() === '') {
    process.stderr.write(`otel-tool-errors: ${message}\n`);
  }
}
