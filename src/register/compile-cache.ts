import * as nodeModule from 'node:module';

interface CompileCacheApi {
  enableCompileCache?: () => unknown;
  getCompileCacheDir?: () => string | undefined;
}

/**
 * Turns on Node's module compile cache (Node 22.1 and later) before the register's SDK file loads,
 * and returns its folder for this Node and its V8 flags (Node 22.8 and later), where the SDK file's
 * own code cache is kept (sdk-file.ts). Like NODE_COMPILE_CACHE, it then also serves the app's
 * modules; NODE_DISABLE_COMPILE_CACHE=1 turns it off, and NODE_COMPILE_CACHE chooses its folder
 * (default: os.tmpdir()/node-compile-cache). It never throws: a cache that cannot be used leaves
 * the start as it was.
 */
export function enableCompileCache(): string | undefined {
  const api = nodeModule as CompileCacheApi;
  if (typeof api.enableCompileCache !== 'function') return undefined;
  try {
    api.enableCompileCache();
    const folder = api.getCompileCacheDir?.();
    return typeof folder === 'string' && folder !== '' ? folder : undefined;
  } catch {
    // The cache is an optimisation only.
    return undefined;
  }
}
