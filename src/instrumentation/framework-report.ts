import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { logger } from '../logger';
import { appDirectory, packageDirectoryFrom } from './esm-set-up';
import { patches, type FrameworkSupport, type PatchPoint } from './framework-support';
import { checkLater } from './later-check';
import { manifestAbove, manifestIn, versionOf } from './package-manifest';

/**
 * What an instrumentation did with the frameworks of the app, once the app has loaded them (see
 * `checkLater`): one `info` line listing them, and one line to the user for a framework whose
 * patched file never loaded because its release no longer has it, or that was bundled into the
 * app (the hooks cannot fire then, so nothing else would tell).
 */
export function reportFrameworksLater(support: FrameworkSupport): void {
  checkLater(() => {
    for (const point of support.declared()) checkPatchedFiles(support, point);
    checkBundled(support);
    const found = support.releases().filter((release) => release.fit !== 'another adapter');
    if (found.length === 0) return;
    const described = found.map(({ point, version, fit, leftAlone }) => {
      const what = `${point.name}${version === undefined ? '' : ` ${version}`}`;
      if (leftAlone !== undefined) return `${what} left alone (${leftAlone})`;
      return fit === 'newer' ? `${what} patched (newer than tested)` : `${what} patched`;
    });
    logger.info(`frameworks found: ${described.join('; ')}`);
  });
}

/**
 * Tells the user when `point`'s package was loaded at a release that lacks a file it patches (all
 * of that file's builds): its hook can never fire.
 */
function checkPatchedFiles(support: FrameworkSupport, point: PatchPoint): void {
  if (!point.files) return;
  const dir = loadedPackageDirectory(point.name) ?? dependencyDirectory(point.name);
  if (dir === undefined) return;
  const version = versionOf(manifestIn(dir));
  if (!patches(support.fit(point, version))) return;
  for (const builds of point.files) {
    const files = builds.map((file) => file.slice(point.name.length + 1));
    if (!files.some((file) => existsSync(join(dir, file)))) support.filesMissing(point, version, files);
  }
}

/** Larger entry files are not read: a bundle that size would take long to search at exit. */
const MAX_BUNDLE_BYTES = 64 * 1024 * 1024;

/**
 * Tells the user about each supported framework that never loaded from node_modules but whose
 * files were bundled into the app's entry script: bundlers keep each module's path in a comment
 * (`// node_modules/@langchain/core/dist/tools/index.js`) unless they minify.
 */
function checkBundled(support: FrameworkSupport): void {
  const entry = process.argv[1];
  if (!entry) return;
  const found = new Set(support.releases().map((release) => release.point.name));
  const names = [...new Set(support.declared().map((point) => point.name))].filter(
    (name) => !found.has(name),
  );
  if (names.length === 0) return;
  const source = readBundle(entry);
  if (source === undefined) return;
  const bundled = names.filter((name) => source.includes(`node_modules/${name}/`));
  if (bundled.length === 0) return;
  support.bundled(bundled, entry);
}

function readBundle(file: string): string | undefined {
  try {
    return statSync(file).size <= MAX_BUNDLE_BYTES ? readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** The package's folder, when `require` loaded any file of it. */
function loadedPackageDirectory(name: string): string | undefined {
  const marker = `${sep}node_modules${sep}${name.split('/').join(sep)}${sep}`;
  const cache = createRequire(join(process.cwd(), 'index.js')).cache;
  for (const file of Object.keys(cache)) {
    const at = file.lastIndexOf(marker);
    if (at >= 0) return file.slice(0, at + marker.length - 1);
  }
  return undefined;
}

/**
 * The package's folder, when the app's own package.json depends on it: an ESM app's imports leave
 * no trace to read, but a package the app names it will load.
 */
function dependencyDirectory(name: string): string | undefined {
  const entry = process.argv[1];
  if (!entry) return undefined;
  const from = appDirectory(entry);
  const manifest = manifestAbove(from, () => true);
  const sections = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];
  const names = (section: string) => manifest?.[section] as Record<string, unknown> | undefined;
  if (!sections.some((section) => typeof names(section)?.[name] === 'string')) return undefined;
  return packageDirectoryFrom(from, name);
}
