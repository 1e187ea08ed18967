import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type * as Package from './bundle-entry';

/**
 * The code under test, as it ships: `src/index.ts` (with the internals some cases time alone, see
 * bundle-entry.ts) bundled into one CommonJS file by tsup, as `npm run build` does. Loading `src/` through tsx instead measures tsx's per-file module
 * wrappers too (every cross-file import becomes a getter call), which made the processor ~25%
 * and the wrapper ~10% slower than the shipped build.
 */
const ROOT = join(__dirname, '..');
/**
 * `BENCH_BUNDLE=<file>`: the cases load another build of bundle-entry.ts instead (an earlier
 * revision's, built into a folder inside the checkout), to set two builds side by side.
 */
export const BUNDLE = process.env.BENCH_BUNDLE
  ? resolve(process.env.BENCH_BUNDLE)
  : join(ROOT, '.cache', 'bench', 'index.cjs');

/**
 * Builds the bundle (bench/run.ts does this once, before any case), or another entry into
 * `outDir/index.cjs` (an earlier revision's `src/index.ts`, `loadRevision`). The output
 * stays inside the checkout, so its dependencies resolve to the checkout's `node_modules`.
 */
export async function buildBundle(
  entry = 'bench/bundle-entry.ts',
  outDir = join(__dirname, '..', '.cache', 'bench'),
): Promise<void> {
  const { build } = await import('tsup');
  await build({
    config: false,
    entry: { index: entry },
    format: ['cjs'],
    outDir,
    outExtension: () => ({ js: '.cjs' }),
    target: 'node18',
    dts: false,
    sourcemap: false,
    clean: true,
    silent: true,
  });
}

export function loadPackage(): typeof Package {
  if (!existsSync(BUNDLE)) {
    throw new Error(`${BUNDLE} is missing: run the benchmarks with npm run bench, which builds it`);
  }
  return createRequire(__filename)(BUNDLE) as typeof Package;
}

/**
 * `src/` of `revision`, bundled like this checkout's (built once per commit, kept in .cache), for
 * the cases that compare this checkout with its past in one process (`wrapper-revision`,
 * `processor-revision`).
 */
export async function loadRevision(
  revision: string,
): Promise<{ commit: string; pkg: typeof import('../src/index') }> {
  const commit = execFileSync('git', ['rev-parse', '--short', `${revision}^{commit}`], { cwd: ROOT })
    .toString()
    .trim();
  const dir = join(ROOT, '.cache', 'bench', `revision-${commit}`);
  const bundle = join(dir, 'bundle');
  if (!existsSync(join(bundle, 'index.cjs'))) {
    mkdirSync(dir, { recursive: true });
    const archive = execFileSync('git', ['archive', commit, 'src', 'package.json'], {
      cwd: ROOT,
      maxBuffer: 64 << 20,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
    await buildBundle(join(dir, 'src', 'index.ts'), bundle);
  }
  return {
    commit,
    pkg: createRequire(__filename)(join(bundle, 'index.cjs')) as typeof import('../src/index'),
  };
}
