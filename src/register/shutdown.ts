import { collectorsAnswering, exitStarted, reportAtExit } from '../export/delivery';
import type { Telemetry } from './telemetry';
import { sayIfVitestKillsTheFlush } from './test-runners';

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
 * Shuts telemetry down; false if it did not finish in time. A collector that does not answer gets
 * `exitTimeoutMillis`; one whose last answer was a success gets up to the export timeout.
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
 * Flushes and shuts telemetry down when the event loop empties (`beforeExit`: the exporters' sockets
 * and timers do not hold it) or on SIGTERM/SIGINT, exits with the process's code, and one line says
 * what was not delivered. A signal is raised again (exit 143, 130) unless the app listens for it.
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
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
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
