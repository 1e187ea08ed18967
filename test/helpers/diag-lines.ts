import { diag, DiagLogLevel } from '@opentelemetry/api';

export type DiagLine = { level: string; line: string };

/**
 * Every diag line at DEBUG and above while `run` runs, the namespace included. OTEL_LOG_LEVEL is
 * set meanwhile, so what the package tells the user goes through `diag` only, not to stderr.
 */
export async function diagLines(run: () => unknown): Promise<DiagLine[]> {
  const lines: DiagLine[] = [];
  const keep =
    (level: string) =>
    (...args: unknown[]) =>
      void lines.push({ level, line: args.map(String).join(' ') });
  diag.setLogger(
    { error: keep('error'), warn: keep('warn'), info: keep('info'), debug: keep('debug'), verbose: () => {} },
    { logLevel: DiagLogLevel.DEBUG, suppressOverrideMessage: true },
  );
  const logLevel = process.env.OTEL_LOG_LEVEL;
  process.env.OTEL_LOG_LEVEL = 'debug';
  try {
    await run();
  } finally {
    diag.disable();
    if (logLevel === undefined) delete process.env.OTEL_LOG_LEVEL;
    else process.env.OTEL_LOG_LEVEL = logLevel;
  }
  return lines;
}
