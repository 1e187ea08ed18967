import * as nodeModule from 'node:module';

interface CompileCacheApi {
  enableCompileCache?: () => unknown;
  getCompileCacheDir?: () => string | undefined;
}

/**
 * Turns on Node's module compile cache (Node 22.1 and later; it then serves the app's modules too,
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off) and returns its folder (Node 22.8 and later). Never throws.
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
