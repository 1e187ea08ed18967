import { diag } from '@opentelemetry/api';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Flushes and shuts the SDK down when the event loop empties (`beforeExit`) or on SIGTERM/SIGINT.
 *
 * A signal listener replaces Node's default "exit on signal", so after flushing we re-raise the
 * signal to exit as Node would have (143 for SIGTERM, 130 for SIGINT), unless the app listens for
 * the signal itself: then the app owns the exit. An app that calls `process.exit()` directly skips
 * `beforeExit`, and spans still queued are lost.
 */
export function shutdownOnExit(sdk: { shutdown(): Promise<void> }): void {
  let shuttingDown: Promise<void> | undefined;
  const shutdown = () =>
    (shuttingDown ??= sdk
      .shutdown()
      .catch((err) => diag.error('otel-tool-errors/register: shutdown failed', err)));

  process.once('beforeExit', () => void shutdown());
  for (const signal of SIGNALS) {
    process.once(signal, () => {
      void shutdown().finally(() => {
        if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
      });
    });
  }
}
