import { collectorsAnswering, exitStarted, reportAtExit } from './delivery';
import type { Telemetry } from './telemetry';
import { sayIfVitestKillsTheFlush } from './vitest-fork';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** Resolves `true` when `done` settles, `false` after `millis` if it has not. */
function within(done: Promise<unknown>, millis: number): Promise<boolean> {
  return new Promise((resolve) => {
    const gaveUp = setTimeout(() => resolve(false), Math.max(millis, 0));
    void done.then(() => {
      clearTimeout(gaveUp);
      resolve(true);
    });
  });
}

/**
 * Shuts telemetry down; resolves false if it did not finish in time (and stops waiting). A
 * collector that does not answer gets `exitTimeoutMillis`; one whose last answer was a success
 * (slow, or with a retry waiting its turn) gets what its exports need, up to the export timeout.
 */
async function shutDown(telemetry: Telemetry, exitTimeoutMillis: number, exportTimeoutMillis: number) {
  const started = Date.now();
  const done = Promise.allSettled([
    telemetry.tracerProvider.shutdown(),
    telemetry.meterProvider?.shutdown(),
    // The app shuts its own SDK down, if it does; its tool spans are flushed here either way.
    telemetry.appTracerProvider?.forceFlush(),
  ]);
  if (await within(done, exitTimeoutMillis)) return true;
  if (!collectorsAnswering()) return false;
  return within(done, exportTimeoutMillis - (Date.now() - started));
}

/**
 * Flushes and shuts telemetry down when the event loop empties (`beforeExit`; the exporters' sockets
 * and timers do not hold it, see exporter-handles.ts) or on SIGTERM/SIGINT. Exports during the run
 * keep the exporters' own timeout and retries; only the exit is bounded: a collector that does not
 * answer holds it `exitTimeoutMillis` (OTEL_TOOL_ERRORS_EXIT_TIMEOUT) at most, one that answers
 * until its exports are done, up to the export timeout. Past that the process exits with
 * the code it had (a pending retry would otherwise hold it open), and one line says how much
 * telemetry was not delivered, and why.
 *
 * A signal listener replaces Node's default "exit on signal", so after flushing we re-raise the
 * signal to exit as Node would have (143 for SIGTERM, 130 for SIGINT), unless the app listens for
 * the signal itself: then the app owns the exit. An app that calls `process.exit()` directly skips
 * `beforeExit`: spans still queued are lost, and counted in that line.
 */
export function shutdownOnExit(
  telemetry: Telemetry,
  exitTimeoutMillis: number,
  exportTimeoutMillis: number,
): void {
  let shuttingDown: Promise<boolean> | undefined;
  const shutdown = () => {
    exitStarted();
    shuttingDown ??= shutDown(telemetry, exitTimeoutMillis, exportTimeoutMillis).then((done) => {
      reportAtExit(exitTimeoutMillis);
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
      const flushed = shutdown();
      if (signal === 'SIGTERM') sayIfVitestKillsTheFlush(flushed);
      void flushed.then(() => {
        if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
      });
    });
  }
  // process.exit() from the app: no time to flush, but what was lost is still said.
  process.once('exit', () => reportAtExit(shuttingDown ? exitTimeoutMillis : null));
}
