import type { MessageChannel as WorkerMessageChannel } from 'node:worker_threads';
import { loadWithStandIn } from './module-stand-in';

type WorkerThreads = typeof import('node:worker_threads');

/** `node:` always names the built-in module, never a module cache entry. */
function workerThreads(): WorkerThreads {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when first used
  return require('node:worker_threads') as WorkerThreads;
}

/** Constructs worker_threads' own MessageChannel (returned from `new`), loading the module then. */
function MessageChannel(): WorkerMessageChannel {
  return new (workerThreads().MessageChannel)();
}

/**
 * Loads import-in-the-middle (the ES module hook's main-thread side, which the SDK's instrumentation
 * package loads at start, under `--require` too) without loading `worker_threads` with it: its
 * index requires `worker_threads` at load, for a MessageChannel only its optional
 * `createAddHookMessageChannel()` makes, and `worker_threads` brings Node's worker and stream
 * modules, about 1.4 ms of CPU and 1.1 MiB of a Node 22 start. While it loads, `worker_threads`
 * resolves to a stand-in whose MessageChannel makes the real one when called, and whose every other
 * export is the real module's; every later `require` gets the real module. Never throws.
 */
export function loadImportHookWithoutWorkerThreads(): void {
  try {
    if (require.cache[require.resolve('import-in-the-middle')]) return;
  } catch {
    return;
  }
  const standIn = new Proxy({} as WorkerThreads, {
    get: (_, name) =>
      name === 'MessageChannel' ? MessageChannel : workerThreads()[name as keyof WorkerThreads],
  });
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded now, with the stand-in
  loadWithStandIn('worker_threads', standIn, () => require('import-in-the-middle'));
}
