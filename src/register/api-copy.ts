import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadPackage } from './load';

type Api = typeof import('@opentelemetry/api');

/**
 * The version of the @opentelemetry/api installed where the register is (the copy the app and its
 * frameworks load), `undefined` when none is, `'unknown'` when its package.json cannot be read.
 */
function installedApiVersion(): string | undefined {
  let folder: string;
  try {
    folder = dirname(require.resolve('@opentelemetry/api'));
  } catch {
    return undefined;
  }
  // Up from the entry file (build/src/index.js) to the package's own package.json.
  for (let parent = dirname(folder); parent !== folder; folder = parent, parent = dirname(folder)) {
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
  return 'unknown';
}

/**
 * The @opentelemetry/api the register runs. The api's copies in a process share their state (the
 * providers, the context manager, the propagator, the diagnostic logger) through one global
 * registry, which takes registrations from one version only. So the register runs a copy bundled
 * into its SDK file, one file that Node's compile cache serves (on Node 22, about 8 ms of CPU less a
 * start than the installed api's 47 files), when it has one of the installed api's version, or
 * `whenNoneInstalled` when no api is installed; else it runs the installed api, as a register
 * without bundled copies would, so that the app's own registrations (a diagnostic logger, say) are
 * still accepted. A bundled copy is loaded only when chosen.
 */
export function apiCopy(bundled: Readonly<Record<string, () => Api>>, whenNoneInstalled: string): Api {
  const installed = installedApiVersion() ?? whenNoneInstalled;
  return Object.hasOwn(bundled, installed)
    ? bundled[installed]!()
    : loadPackage<Api>('@opentelemetry/api', 'the register');
}
