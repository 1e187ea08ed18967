import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** import-in-the-middle's registry, which every module its loader hook wraps reports to. */
interface WrapperRegistry {
  register: (...args: unknown[]) => unknown;
}

/**
 * Calls `firstNeed` when the off-thread loader hook's first wrapped module runs, before it reports
 * to import-in-the-middle's registry (lib/register.js beside `hookFile`, which the hook has its
 * wrappers import), so that the instrumentations' hooks, which the start adds, are there to patch
 * it. Each wrapper imports `register` from that CommonJS file by name, and an ES module import of
 * a CommonJS file takes its exports as they are when it is first imported: this one is in place
 * from the entry on, and only passes calls on once the register has started. Throws where that
 * file or its `register` is not there.
 */
export function watchWrappedImports(hookFile: string, firstNeed: () => void): void {
  const registry = createRequire(hookFile)(join(dirname(hookFile), 'lib', 'register.js')) as WrapperRegistry;
  const original = registry.register;
  if (typeof original !== 'function') throw new Error(`${hookFile}'s registry has no register function`);
  registry.register = function register(this: unknown) {
    firstNeed();
    // eslint-disable-next-line prefer-rest-params -- the wrapper's arguments, as it gave them
    return Reflect.apply(original, this, arguments);
  };
}
