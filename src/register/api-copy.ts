import Module from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadPackage } from './load';

type Api = typeof import('@opentelemetry/api');

interface InstalledApi {
  /** The file `require('@opentelemetry/api')` loads. */
  readonly main: string;
  /** Its package.json's version, `'unknown'` when that cannot be read. */
  readonly version: string;
}

/**
 * The version in the package.json of the @opentelemetry/api that `file` (its entry: build/src/index.js,
 * dist/index.cjs, build/esm/index.js) belongs to, found up from it.
 */
export function apiVersionAbove(file: string): string | undefined {
  for (let folder = dirname(file); folder !== dirname(folder); folder = dirname(folder)) {
    try {
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (manifest.name === '@opentelemetry/api') return String(manifest.version);
    } catch {
      // No package.json in this folder: the entry's own folders have none.
    }
  }
  return undefined;
}

/** The @opentelemetry/api installed where the register is (the one the app and its frameworks load). */
function installedApi(): InstalledApi | undefined {
  let main: string;
  try {
    main = require.resolve('@opentelemetry/api');
  } catch {
    return undefined;
  }
  return { main, version: apiVersionAbove(main) ?? 'unknown' };
}

/**
 * Hands `api` to every later `require('@opentelemetry/api')` that resolves to `main`, as Node's
 * module cache hands on a module already loaded: the app and its frameworks then run the same copy
 * as the register, and load none of the api's files.
 */
function shareAs(main: string, api: Api): void {
  const module = new Module(main);
  module.filename = main;
  module.paths = (Module as unknown as { _nodeModulePaths(from: string): string[] })._nodeModulePaths(
    dirname(main),
  );
  module.exports = api;
  module.loaded = true;
  require.cache[main] = module;
}

/**
 * The @opentelemetry/api the register runs and shares with the app. The api's copies in a process
 * share their state (the providers, the context manager, the propagator, the diagnostic logger)
 * through one global registry, which takes registrations from one version only. So when the SDK file
 * carries a copy of the installed api's release, the register runs that copy and hands it to the
 * app's own `require` of the api: one copy, in the one SDK file the start loads, where the
 * installed api is 47 (on Node 22 about 8 ms of CPU a start, or of the first `require` of it).
 * With no api installed it runs `whenNoneInstalled`'s copy. Else, or when the installed api is
 * already loaded, it runs the installed api, as a register without copies would, so that the app's
 * own registrations (a diagnostic logger, say) are still accepted; if that cannot load, its
 * `whenNoneInstalled` copy. A copy is loaded only when chosen.
 */
export function apiCopy(bundled: Readonly<Record<string, () => Api>>, whenNoneInstalled: string): Api {
  const installed = installedApi();
  const version = installed?.version ?? whenNoneInstalled;
  const alreadyLoaded = installed !== undefined && require.cache[installed.main] !== undefined;
  if (alreadyLoaded || !Object.hasOwn(bundled, version)) {
    try {
      return loadPackage<Api>('@opentelemetry/api', 'the register');
    } catch {
      // An install that cannot load: this runs as modules load, before the start's own guard, and
      // must not throw into the app; the app's own require of the api says what is wrong.
      return bundled[whenNoneInstalled]!();
    }
  }
  const api = bundled[version]!();
  if (installed) shareAs(installed.main, api);
  return api;
}
