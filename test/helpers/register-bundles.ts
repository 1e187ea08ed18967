import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'tsup';
import { ESM_REQUIRE } from '../../tsup.config';

const ROOT = join(__dirname, '..', '..');

export interface RegisterBundles {
  /** For `node --require`. */
  readonly cjs: string;
  /** For `node --import`. */
  readonly esm: string;
  /** The library's ESM build, what `import … from 'otel-tool-errors'` loads. */
  readonly libraryEsm: string;
  dispose(): void;
}

/**
 * The zero-code entry points and the library's ESM build, bundled by tsup as the package build
 * makes them, into a scratch
 * folder inside the repository so that their dependencies resolve from node_modules.
 */
export async function buildRegisterBundles(): Promise<RegisterBundles> {
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  const outDir = mkdtempSync(join(ROOT, '.cache', 'register-bundle-'));
  const shared = { config: false, outDir, target: 'node18', silent: true, sourcemap: false } as const;
  await build({
    ...shared,
    entry: { register: join(ROOT, 'src/register.ts') },
    format: ['cjs'],
    outExtension: () => ({ js: '.cjs' }),
  });
  await build({
    ...shared,
    entry: { 'register-esm': join(ROOT, 'src/register-esm.ts') },
    format: ['esm'],
    banner: { js: ESM_REQUIRE },
    outExtension: () => ({ js: '.mjs' }),
  });
  await build({
    ...shared,
    entry: { index: join(ROOT, 'src/index.ts') },
    format: ['esm'],
    outExtension: () => ({ js: '.mjs' }),
  });
  return {
    cjs: join(outDir, 'register.cjs'),
    esm: join(outDir, 'register-esm.mjs'),
    libraryEsm: join(outDir, 'index.mjs'),
    dispose: () => rmSync(outDir, { recursive: true, force: true }),
  };
}
