import { reportUndelivered } from './delivery';
import type { Telemetry } from './telemetry';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;
/** Time beyond the export timeout for the last exports to settle before the exit stops waiting. */
const SHUTDOWN_GRACE_MILLIS = 250;

/** Shuts telemetry down; resolves false if that took longer than `limitMillis` (and stops waiting). */
function shutDownWithin(telemetry: Telemetry, limitMillis: number): Promise<boolean> {
  return new Promise((resolve) => {
    const gaveUp = setTimeout(() => resolve(false), limitMillis);
    void Promise.allSettled([telemetry.tracerProvider.shutdown(), telemetry.meterProvider?.shutdown()]).then(
      () => {
        clearTimeout(gaveUp);
        resolve(true);
      },
    );
  });
}

/**
 * Flushes and shuts telemetry down when the event loop empties (`beforeExit`) or on SIGTERM/SIGINT,
 * waiting at most the export timeout (plus a little). A collector that is down, refuses, or answers
 * 429/503 costs the exit that long, never more: past it the process exits with the code it had
 * (an exporter's pending retry would otherwise hold it open), and the user is told once that
 * telemetry was lost.
 *
 * A signal listener replaces Node's default "exit on signal", so after flushing we re-raise the
 * signal to exit as Node would have (143 for SIGTERM, 130 for SIGINT), unless the app listens for
 * the signal itself: then the app owns the exit. An app that calls `process.exit()` directly skips
 * `beforeExit`, and spans still queued are lost.
 */
export function shutdownOnExit(telemetry: Telemetry, exportTimeoutMillis: number): void {
  let shuttingDown: Promise<boolean> | undefined;
  const shutdown = () => {
    shuttingDown ??= shutDownWithin(telemetry, exportTimeoutMillis + SHUTDOWN_GRACE_MILLIS).then((done) => {
      if (!done) reportUndelivered(exportTimeoutMillis);
      return done;
    });
    return shuttingDown;
  };

  process.once('beforeExit', () => {
    void shutdown().then((done) => {
      if (!done) process.exit();
    });
  });
  for (const signal of SIGNALS) {
    process.once(signal, () => {
      void shutdown().then(() => {
        if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
      });
    });
  }
}
