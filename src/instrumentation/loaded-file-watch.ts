import Module from 'node:module';
import { logger } from '../logger';

/**
 * Patches CommonJS files known by absolute path, when `require` first returns them loaded. One
 * `require` wrapper for the process, that looks up only the watched files in the module cache:
 * a require-in-the-middle hook per file and per instrumentation resolved every `require` of the
 * app once more (under tsx, each such hook added about 1.2 s to `@google/adk`'s load).
 */

/** What a watch does while it is on; `patch` and `unpatch` never throw (the caller makes them safe). */
export interface LoadedFilePatch {
  patch(exports: unknown): void;
  unpatch(exports: unknown): void;
}

interface Watch extends LoadedFilePatch {
  /** The exports this watch patched: a file deleted from the cache and loaded again is patched again. */
  patched?: unknown;
}

export interface LoadedFileWatch {
  /** Patches the file now if it is loaded, and whenever `require` returns it loaded from now on. */
  start(): void;
  /** Unpatches what this watch patched, and stops watching. */
  stop(): void;
}

const watchesByFile = new Map<string, Set<Watch>>();
let requireWrapped = false;

export function watchLoadedFile(filename: string, filePatch: LoadedFilePatch): LoadedFileWatch {
  const watch: Watch = { patch: filePatch.patch, unpatch: filePatch.unpatch };
  return {
    start() {
      let watches = watchesByFile.get(filename);
      if (!watches) watchesByFile.set(filename, (watches = new Set()));
      watches.add(watch);
      wrapRequireOnce();
      patchIfLoaded(filename, watches);
    },
    stop() {
      const watches = watchesByFile.get(filename);
      watches?.delete(watch);
      // Nothing left to patch: later requires need not look this file up.
      if (watches?.size === 0) watchesByFile.delete(filename);
      if (watch.patched !== undefined) watch.unpatch(watch.patched);
      watch.patched = undefined;
    },
  };
}

/** The CommonJS module cache (`require.cache`), also reachable from this package's ESM build. */
const moduleCache = (Module as unknown as { _cache: Record<string, NodeModule | undefined> })._cache;

function patchIfLoaded(filename: string, watches: Set<Watch>): void {
  const cached = moduleCache[filename];
  if (!cached?.loaded) return;
  for (const watch of watches) {
    if (watch.patched === cached.exports) continue;
    watch.patched = cached.exports;
    watch.patch(cached.exports);
  }
}

function wrapRequireOnce(): void {
  if (requireWrapped) return;
  requireWrapped = true;
  const originalRequire = Module.prototype.require;
  Module.prototype.require = function require(this: NodeModule, ...args: [string]) {
    const exports: unknown = Reflect.apply(originalRequire, this, args);
    try {
      for (const [filename, watches] of watchesByFile) patchIfLoaded(filename, watches);
    } catch (err) {
      logger.error('could not patch a watched file', err);
    }
    return exports;
  } as NodeJS.Require;
}
