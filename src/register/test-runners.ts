import { noticeUser } from '../user-notice';

/** jest's own command, as npm, pnpm, yarn and Windows shims start it. */
const JEST_BIN = /(^|[\\/])(\.bin[\\/]jest|jest(-cli)?[\\/]bin[\\/]jest\.js)$/;
/** The file vitest's `forks` pool runs each forked process from. */
const VITEST_FORK = /[\\/]vitest[\\/]dist[\\/]workers[\\/]forks\.js$/;

/**
 * Under jest, says once that the register cannot see the test files' modules: jest runs them in a
 * `vm` context of its own, through its own module registry, which no module hook sees. Said in the
 * process started as jest (its workers' stderr reaches the user through it).
 */
export function sayIfUnderJest(argv: readonly string[] = process.argv): void {
  const script = argv[1];
  if (script === undefined || !JEST_BIN.test(script)) return;
  noticeUser(
    "jest loads the tests' modules through its own module registry, which the register cannot see: " +
      'the frameworks your tests load are not patched and their tool calls get no spans from it. ' +
      'Start tracing in a jest setup file and wrap your tools with instrumentTool ' +
      '(docs/deployment.md, "Tests under jest").',
  );
}

/**
 * In a process of vitest's `forks` pool, says once when the flush SIGTERM started still runs after
 * 200 ms: vitest kills the fork (SIGKILL) 500 ms after its SIGTERM, and what is not sent is lost.
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
    200,
  );
  timer.unref();
  void flushed.then(() => clearTimeout(timer));
}
