import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * Which build of a framework a patch reached. A dual package ships a CommonJS build and an ES
 * module build; `require` (and `createRequire`) loads the first, `import` the second, each its own
 * copy of the code, unless the ES module build re-exports the CommonJS one. Without a loader hook
 * only the CommonJS copy can be patched, so a framework counts as patched for ES modules only when
 * the code its `import` reaches was patched: its own ES module build, or the CommonJS build that
 * build re-exports.
 */

/** What the instrumentation patched of one package: its entry, and each declared file. */
export interface PackagePatches {
  readonly name: string;
  /** Whether the package's entry is a patch point (the definition has no files). */
  readonly entryIsPatchPoint: boolean;
  readonly entryPatched: boolean;
  /** Declared files, as `{package}/{path}`. */
  readonly files: readonly { readonly name: string; readonly patched: boolean }[];
}

/** Whether the code `import` of the package at `directory` reaches was patched. Never throws. */
export function patchedForEsm(directory: string, patches: PackagePatches): boolean {
  try {
    return patchedForEsmUnsafe(directory, patches);
  } catch {
    return patches.entryPatched || patches.files.some((file) => file.patched);
  }
}

function patchedForEsmUnsafe(directory: string, patches: PackagePatches): boolean {
  const files = patches.files
    .map((file) => ({
      path: join(directory, file.name.slice(patches.name.length + 1)),
      patched: file.patched,
    }))
    .filter((file) => existsSync(file.path));
  if (files.length > 0) {
    const esm = files.filter((file) => isEsmFile(file.path));
    // No declared file of its own: whatever ES module build there is goes through the CommonJS files.
    if (esm.length === 0) return files.some((file) => file.patched);
    const cjs = files.filter((file) => !isEsmFile(file.path));
    return esm.some((file) => {
      if (file.patched) return true;
      const through = reExported(
        file.path,
        cjs.map((c) => c.path),
      );
      return through !== undefined && cjs.some((c) => c.path === through && c.patched);
    });
  }
  if (!patches.entryIsPatchPoint) return patches.entryPatched || patches.files.some((file) => file.patched);
  const manifest = readManifest(directory);
  const importEntry = entryFile(directory, manifest, IMPORT_CONDITIONS);
  const requireEntry = entryFile(directory, manifest, REQUIRE_CONDITIONS);
  if (importEntry === undefined || !isEsmFile(importEntry)) return patches.entryPatched;
  // Without a loader hook, a patched entry is the CommonJS one: it counts if the ES module entry re-exports it.
  return (
    patches.entryPatched &&
    requireEntry !== undefined &&
    reExported(importEntry, [requireEntry]) !== undefined
  );
}

interface Manifest {
  type?: unknown;
  main?: unknown;
  exports?: unknown;
}

function readManifest(directory: string): Manifest {
  return JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as Manifest;
}

const IMPORT_CONDITIONS = new Set(['node', 'import', 'default']);
const REQUIRE_CONDITIONS = new Set(['node', 'require', 'default']);

/** The file the package's `.` export names under `conditions`, as Node picks it (then `main`, then index.js). */
function entryFile(directory: string, manifest: Manifest, conditions: Set<string>): string | undefined {
  const exports = manifest.exports;
  let target: unknown = exports;
  if (exports !== null && typeof exports === 'object' && !Array.isArray(exports)) {
    const keys = Object.keys(exports);
    if (keys.some((key) => key.startsWith('.'))) target = (exports as Record<string, unknown>)['.'];
  }
  const chosen =
    exports === undefined
      ? typeof manifest.main === 'string'
        ? manifest.main
        : 'index.js'
      : pick(target, conditions, 0);
  if (chosen === undefined) return undefined;
  const file = resolve(directory, chosen);
  if (existsSync(file)) return file;
  return existsSync(`${file}.js`) ? `${file}.js` : undefined;
}

function pick(target: unknown, conditions: Set<string>, depth: number): string | undefined {
  if (depth > 8) return undefined;
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) {
    for (const entry of target) {
      const found = pick(entry, conditions, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (target === null || typeof target !== 'object') return undefined;
  for (const [condition, value] of Object.entries(target)) {
    if (!conditions.has(condition)) continue;
    const found = pick(value, conditions, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Whether Node loads `file` as an ES module: `.mjs`, or `.js` under a package.json with `"type": "module"`. */
function isEsmFile(file: string): boolean {
  const real = realpathSync(file);
  if (real.endsWith('.mjs')) return true;
  if (!real.endsWith('.js')) return false;
  for (let dir = dirname(real); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        return (JSON.parse(readFileSync(manifest, 'utf8')) as Manifest).type === 'module';
      } catch {
        return false;
      }
    }
    if (dirname(dir) === dir) return false;
  }
}

const MAX_SCANNED = 64 * 1024;
/** `from '…'`, `import '…'`, `import('…')`, `require('…')`: the specifiers of a module, linear. */
const SPECIFIER = /\b(?:from|import|require)\s*\(?\s*["']([^"'\n]{1,300})["']/g;

/**
 * The file of `candidates` that the ES module `file` re-exports, or loads on the way: a relative
 * specifier of its source resolving to one, directly or through a CommonJS file of the package
 * (`index.mjs` importing `index.cjs`, which requires the candidate). One level of CommonJS.
 */
function reExported(file: string, candidates: readonly string[]): string | undefined {
  const wanted = new Set(candidates.map((candidate) => realpathSync(candidate)));
  for (const target of relativeTargets(file)) {
    if (wanted.has(target)) return target;
    if (isEsmFile(target)) continue;
    for (const inner of relativeTargets(target)) if (wanted.has(inner)) return inner;
  }
  return undefined;
}

function relativeTargets(file: string): string[] {
  const source = readFileSync(file, 'utf8').slice(0, MAX_SCANNED);
  const targets: string[] = [];
  for (const match of source.matchAll(SPECIFIER)) {
    const specifier = match[1]!;
    if (!specifier.startsWith('./') && !specifier.startsWith('../')) continue;
    const base = resolve(dirname(realpathSync(file)), specifier);
    const found = [base, `${base}.js`, `${base}.cjs`, join(base, 'index.js')].find(isFile);
    if (found !== undefined) targets.push(realpathSync(found));
  }
  return targets;
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}
