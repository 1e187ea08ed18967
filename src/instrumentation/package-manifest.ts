import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What this package reads of an installed package's package.json. */
export type Manifest = Record<string, unknown>;

/** The package.json in `dir`, or `undefined` when there is none or it does not parse. */
export function manifestIn(dir: string): Manifest | undefined {
  try {
    const manifest: unknown = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    return typeof manifest === 'object' && manifest !== null ? (manifest as Manifest) : undefined;
  } catch {
    return undefined;
  }
}

/** The first package.json in `from` or a folder above it that `accept` takes. */
export function manifestAbove(from: string, accept: (manifest: Manifest) => boolean): Manifest | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = manifestIn(dir);
    if (manifest && accept(manifest)) return manifest;
    if (dirname(dir) === dir) return undefined;
  }
}

export function versionOf(manifest: Manifest | undefined): string | undefined {
  return typeof manifest?.version === 'string' ? manifest.version : undefined;
}
