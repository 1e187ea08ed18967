import { dirname } from 'node:path';
import { loadWithStandIn } from './module-stand-in';

/** What `require('debug')(namespace)` returns when the namespace is off: a logger that prints nothing. */
function silentDebug(): () => void {
  return Object.assign(() => undefined, { enabled: false });
}

/**
 * Loads require-in-the-middle, before the SDK's instrumentation package does, without the `debug`
 * package it requires at load: `debug` loads `tty` and `net` and looks at the terminal (about 2 ms of
 * CPU and 0.5 MiB of a Node 22 start) for lines that print only when DEBUG names
 * require-in-the-middle. So only when DEBUG is unset and nothing loaded `debug` yet: while
 * require-in-the-middle loads, `debug` resolves to a silent stand-in, which then leaves the module
 * cache, so that the app's own `require('debug')` gets the real package. What changes: an app that
 * turns namespaces on from code (`debug.enable(...)`) no longer gets require-in-the-middle's lines.
 * Never throws: anything unexpected leaves the SDK to load require-in-the-middle as it always did.
 */
export function loadRequireHookWithoutDebug(): void {
  if (process.env.DEBUG) return;
  let debugFile: string;
  try {
    const hookFile = require.resolve('require-in-the-middle');
    if (require.cache[hookFile]) return;
    debugFile = require.resolve('debug', { paths: [dirname(hookFile)] });
  } catch {
    return;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded now, with the stand-in
  loadWithStandIn(debugFile, silentDebug, () => require('require-in-the-middle'));
}
