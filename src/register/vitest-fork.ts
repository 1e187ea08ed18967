import { noticeUser } from '../user-notice';

/** The file vitest's `forks` pool runs each forked process from. */
const VITEST_FORK = /[\\/]vitest[\\/]dist[\\/]workers[\\/]forks\.js$/;

/**
 * How long a vitest fork's flush at SIGTERM may run before the user is told: vitest kills the fork
 * (SIGKILL, which leaves no time to say anything) 500 ms after its SIGTERM.
 */
const SAY_AFTER_MILLIS = 200;

/**
 * In a process of vitest's `forks` pool, says once when the flush that SIGTERM started is still
 * running after 200 ms: what it has not sent when vitest kills the fork is lost.
 */
export function sayIfVitestKillsTheFlush(
  flushed: Promise<unknown>,
  argv: readonly string[] = process.argv,
): void {
  if (!VITEST_FORK.test(argv[1] ?? '')) return;
  const timer = setTimeout(
    () =>
      noticeUser(
        'vitest kills this test fork 500 ms after stopping it, and its spans are still being exported: ' +
          'what is not sent by then is lost. Run vitest with --pool=threads, whose threads hand their spans ' +
          'to vitest\'s main process (docs/deployment.md, "Tests under vitest").',
      ),
    SAY_AFTER_MILLIS,
  );
  timer.unref();
  void flushed.then(() => clearTimeout(timer));
}
