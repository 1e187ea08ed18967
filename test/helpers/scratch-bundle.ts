import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';

const ROOT = join(__dirname, '..', '..');

/**
 * `source` written to a scratch file inside the repository (so that packages resolve from
 * node_modules) and bundled as CommonJS as the register's builds do, with `plugins`: the bundle's text.
 */
export async function bundleScratch(
  source: string,
  plugins: Plugin[],
  external: string[] = [],
): Promise<string> {
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, '.cache', 'scratch-bundle-'));
  try {
    writeFileSync(join(dir, 'entry.js'), source);
    const result = await build({
      entryPoints: [join(dir, 'entry.js')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      mainFields: ['module', 'main'],
      external,
      write: false,
      logLevel: 'silent',
      plugins,
    });
    return result.outputFiles[0]!.text;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
