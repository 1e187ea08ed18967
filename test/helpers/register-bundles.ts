import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'esbuild';
import { build } from 'tsup';
import { REGISTER_ENTRIES, REGISTER_EXPORTERS, REGISTER_SDK } from '../../tsup.config';

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

/** tsup's entries, relative to the repository in tsup.config.ts, as absolute paths. */
function absolute(entry: unknown): Record<string, string> {
  return Object.fromEntries(
    Object.entries(entry as Record<string, string>).map(([name, file]) => [name, join(ROOT, file)]),
  );
}

/**
 * The zero-code entry points and the library's ESM build, bundled by tsup as the package build
 * makes them (with `esbuildPlugins` too, before the build's own), into a scratch
 * folder inside the repository so that their dependencies resolve from node_modules.
 */
export async function buildRegisterBundles(esbuildPlugins: Plugin[] = []): Promise<RegisterBundles> {
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  const outDir = mkdtempSync(join(ROOT, '.cache', 'register-bundle-'));
  const shared = { config: false, outDir, target: 'node18', silent: true, sourcemap: false } as const;
  // The register's files exactly as the package build makes them (its SDK file, the exporters' file
  // and the two entries).
  for (const options of [REGISTER_SDK, REGISTER_EXPORTERS, ...REGISTER_ENTRIES]) {
    await build({
      ...options,
      config: false,
      outDir,
      silent: true,
      sourcemap: false,
      entry: absolute(options.entry),
      esbuildPlugins: [...esbuildPlugins, ...(options.esbuildPlugins ?? [])],
    });
  }
  await build({
    ...shared,
    entry: { index: join(ROOT, 'src/index.ts') },
    format: ['esm'],
    outExtension: () => ({ js: '.mjs' }),
    esbuildPlugins,
  });
  return {
    cjs: join(outDir, 'register.cjs'),
    esm: join(outDir, 'register-esm.mjs'),
    libraryEsm: join(outDir, 'index.mjs'),
    dispose: () => rmSync(outDir, { recursive: true, force: true }),
  };
}
