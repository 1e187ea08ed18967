import * as nodeModule from 'node:module';
import { pathToFileURL } from 'node:url';
import { asPackageImport, includeMatcher, includedNames, type Resolved } from './stand-in-hook';
import { noticeUser } from '../user-notice';

interface ResolveContext {
  conditions?: readonly string[];
  parentURL?: string;
}
type NextResolve = (specifier: string, context?: ResolveContext) => Resolved;
type NextLoad = (url: string, context?: object) => object;
type ResolveHook = (specifier: string, context: ResolveContext, nextResolve: NextResolve) => Resolved;
type LoadHook = (url: string, context: object, nextLoad: NextLoad) => object;

/** import-in-the-middle's hook, as its register-hooks.mjs makes it. */
interface ImportHook {
  resolveSync: ResolveHook;
  loadSync: LoadHook;
  applyOptions(options: { include: (string | RegExp)[] }): void;
}

/**
 * Registers, in-thread, a hook that passes every import on until one resolves to a module `include`
 * names: it then calls `firstNeed` (the start, which calls `make`) and hands that import, and every
 * later one, to import-in-the-middle's hook, made only then: a process that never needs it saves
 * 27 ms of CPU and 2.5 MiB on Node 22 (BENCHMARKS.md, bench/install/first-need-build.py).
 */
export function registerImportHookOnFirstNeed(
  include: (string | RegExp)[],
  parentUrl: string,
  firstNeed: () => void,
): { make(): void } {
  const made: { hook?: ImportHook } = {};
  const included = includeMatcher(include);
  const names = includedNames(include);
  (
    nodeModule as unknown as { registerHooks: (hooks: { resolve: ResolveHook; load: LoadHook }) => unknown }
  ).registerHooks({
    resolve: (given, givenContext, nextResolve) => {
      // A package's entry imported by its file URL is handed on as an import by name.
      const [specifier, context] = asPackageImport(given, givenContext, names, nextResolve);
      if (made.hook) return made.hook.resolveSync(specifier, context, nextResolve);
      const resolved = nextResolve(specifier, context);
      // import-in-the-middle leaves `require` to the require hook.
      if (context.conditions?.includes('require') || !included(resolved.url, specifier)) return resolved;
      firstNeed();
      // Made by the start just now (the type's narrowing cannot see that), or not where that failed.
      const hook = made.hook as ImportHook | undefined;
      return hook ? hook.resolveSync(specifier, context, nextResolve) : resolved;
    },
    load: (url, context, nextLoad) =>
      made.hook ? made.hook.loadSync(url, context, nextLoad) : nextLoad(url, context),
  });
  return {
    make: () => {
      made.hook ??= importHook(include, parentUrl);
    },
  };
}

/**
 * import-in-the-middle's hook, made as its register-hooks.mjs makes it. Where this version makes it
 * otherwise, its own registration takes the imports from now on, and the user is told what that misses.
 */
function importHook(include: (string | RegExp)[], parentUrl: string): ImportHook | undefined {
  const load = nodeModule.createRequire(parentUrl);
  try {
    const registerHooksFile = load.resolve('import-in-the-middle/register-hooks.mjs');
    const { createHook } = load('import-in-the-middle/create-hook.mjs') as {
      createHook: (meta: { url: string }) => Partial<ImportHook>;
    };
    const hook = createHook({ url: pathToFileURL(registerHooksFile).href });
    if ([hook.resolveSync, hook.loadSync, hook.applyOptions].some((method) => typeof method !== 'function'))
      throw new Error('its create-hook.mjs makes no resolveSync, loadSync and applyOptions');
    hook.applyOptions!({ include });
    return hook as ImportHook;
  } catch (err) {
    (load('import-in-the-middle/register-hooks.mjs') as { register(options: object): void }).register({
      include,
    });
    noticeUser(
      'import-in-the-middle (the ES module hook) is not the version this register knows; the modules imported ' +
        'before this point are not patched. Reinstall otel-tool-errors to get the version it depends on.',
      { error: err },
    );
    return undefined;
  }
}
