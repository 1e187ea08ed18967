import * as nodeModule from 'node:module';

/**
 * Turns on Node's module compile cache (Node 22.1 and later) before the register's SDK file loads:
 * compiling it from V8's on-disk code cache instead of from source is most of what a start saves.
 * Like NODE_COMPILE_CACHE, it then also serves the app's modules; NODE_DISABLE_COMPILE_CACHE=1
 * turns it off, and NODE_COMPILE_CACHE chooses its folder (default: os.tmpdir()/node-compile-cache).
 * It never throws: a cache that cannot be used leaves the start as it was.
 */
export function enableCompileCache(): void {
  const enable = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache;
  if (typeof enable !== 'function') return;
  try {
    enable();
  } catch {
    // The cache is an optimisation only.
  }
}
