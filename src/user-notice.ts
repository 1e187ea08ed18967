import type { DiagLogger } from '@opentelemetry/api';
import { inspect } from 'node:util';

/**
 * The package's two channels to the user, and which is which:
 * - the notice (`noticeUser`, here): one line on stderr when the package cannot do its job (a
 *   framework it cannot patch, telemetry lost, a setting it cannot use, a start that failed), said
 *   once per process; `OTEL_LOG_LEVEL=none` silences it. Nothing else writes to stderr.
 * - `diag` (`logger`, logger.ts) for everything else: what was found and patched, the package's own
 *   errors; shown as `OTEL_LOG_LEVEL` (or the app's `diag.setLogger`) decides.
 * The register's notices, some said before its diag logger is set or about it, go to stderr at any
 * level, prefixed `otel-tool-errors/register:`. The instrumentation's, which may run under an SDK
 * the app set up itself, go through `diag` (warn) too, and to stderr, prefixed `otel-tool-errors:`,
 * only while no `OTEL_LOG_LEVEL` is set: a level routes them through `diag` alone, which prints or
 * filters them as it does the SDK's own warnings.
 */

const TOLD_KEY = Symbol.for('otel-tool-errors.toldUser');

export interface NoticeOptions {
  /** What makes two notices the same one, said once (every copy of this package shares the record): the message by default. */
  once?: string;
  /** The error behind the notice, printed after the message. */
  error?: unknown;
  /** The instrumentation's `diag` logger: the notice is the instrumentation's (see above). */
  diag?: DiagLogger;
}

export function noticeUser(message: string, { once = message, error, diag }: NoticeOptions = {}): void {
  const holder = globalThis as { [TOLD_KEY]?: Set<string> };
  const told = (holder[TOLD_KEY] ??= new Set());
  if (told.has(once)) return;
  told.add(once);
  diag?.warn(message);
  const level = process.env.OTEL_LOG_LEVEL?.trim() ?? '';
  if (level.toLowerCase() === 'none' || (diag !== undefined && level !== '')) return;
  const detail = error === undefined ? '' : ` ${inspect(error)}`;
  const prefix = diag === undefined ? 'otel-tool-errors/register' : 'otel-tool-errors';
  process.stderr.write(`${prefix}: ${message}${detail}\n`);
}
