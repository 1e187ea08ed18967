import { logger } from '../logger';

/**
 * Checks that can only be made once the app has loaded what it uses: each runs once, when the
 * event loop first empties (`beforeExit`) or after 10 s, whichever comes first. One `beforeExit`
 * listener serves them all, however many instrumentations ask.
 */

/** Long enough for an app's imports, static and lazy, to have loaded and run. */
const CHECK_AFTER_MS = 10_000;

const pending = new Set<() => void>();
let listening = false;

export function checkLater(check: () => void): void {
  const run = () => {
    if (!pending.delete(run)) return;
    clearTimeout(timer);
    try {
      check();
    } catch (err) {
      logger.error('a set-up check failed', err);
    }
  };
  const timer = setTimeout(run, CHECK_AFTER_MS);
  timer.unref();
  pending.add(run);
  if (listening) return;
  listening = true;
  process.on('beforeExit', () => [...pending].forEach((check) => check()));
}
