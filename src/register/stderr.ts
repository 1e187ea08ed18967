import { inspect } from 'node:util';

/**
 * The register's one channel to the user: a line on stderr, prefixed with the package's name.
 * `OTEL_LOG_LEVEL=none` silences it, as it silences the SDK's own diagnostics.
 */
export function warnUser(message: string, error?: unknown): void {
  if (process.env.OTEL_LOG_LEVEL?.trim().toLowerCase() === 'none') return;
  const detail = error === undefined ? '' : ` ${inspect(error)}`;
  process.stderr.write(`otel-tool-errors/register: ${message}${detail}\n`);
}
