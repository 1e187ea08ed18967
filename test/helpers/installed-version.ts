import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The version of `name` as `load` resolves it (the checkout's copy, or the version matrix's release),
 * read from the package's own package.json: found from its main file, for packages whose exports
 * do not include `./package.json`.
 */
export function installedVersion(load: NodeJS.Require, name: string): string {
  const marker = `${join('node_modules', name)}`;
  const main = load.resolve(name);
  const root = main.slice(0, main.lastIndexOf(marker) + marker.length);
  if (!root.endsWith(marker)) throw new Error(`${name} resolved to ${main}, outside a node_modules/${name}`);
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}
