import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'tsup';

const ROOT = join(__dirname, '..', '..');

/**
 * An app folder laid out as a user's: the package built by the project's own tsup config and placed
 * in `node_modules/otel-tool-errors` with the real package.json (so `otel-tool-errors/register`
 * resolves through its `exports`), next to the files of `apps` (by default the pipeline's `apps/`). The folder is inside the repository
 * so that the frameworks and OpenTelemetry resolve from its node_modules.
 */
export async function installApp(apps = join(__dirname, 'apps')): Promise<{ dir: string; remove(): void }> {
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, '.cache', 'app-'));
  const installed = join(dir, 'node_modules', 'otel-tool-errors');
  // Types and source maps are not needed to run it.
  await build({ outDir: join(installed, 'dist'), dts: false, sourcemap: false, silent: true });
  cpSync(join(ROOT, 'package.json'), join(installed, 'package.json'));
  cpSync(apps, dir, { recursive: true });
  // Its own package scope: `otel-tool-errors` is not resolved as a self-reference to the repository.
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'pipeline-app', private: true }));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
