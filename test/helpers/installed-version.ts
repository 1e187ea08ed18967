import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The version of the package that `specifier` resolves into, as `load` resolves it (the checkout's
 * copy, or under the version matrix the release under test): from the nearest package.json above
 * the resolved file that has a version, for packages whose exports leave out `./package.json`.
 */
export function installedVersion(load: NodeJS.Require, specifier: string): string {
  let dir = dirname(load.resolve(specifier));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
      if (typeof version === 'string') return version;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json with a version above ${specifier}`);
    dir = parent;
  }
}
