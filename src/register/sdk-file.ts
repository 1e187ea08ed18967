import { isAscii } from 'node:buffer';
import { closeSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script, constants as vmConstants } from 'node:vm';
import { enableCompileCache } from './compile-cache';

export interface LoadedSdkFile<T> {
  readonly exports: T;
  /** Keeps the code compiled so far for the next start, where it was not kept already. Never throws. */
  afterStart(): void;
}

type ModuleInternals = typeof Module & {
  _cache: Record<string, Module>;
  _nodeModulePaths?: (folder: string) => string[];
  wrap: (source: string) => string;
};

type CompiledFile = ReturnType<typeof compile>;

/**
 * Loads the register's SDK file as `require` would, but through a V8 code cache of its own, kept
 * after the start: Node's compile cache keeps a bundle's top level only, so every module in it is
 * compiled again at each start. The entry, in Node's compile cache folder (none: plain `require`),
 * names the file's path, size, times and inode: a file changed since is compiled from source.
 */
export function loadSdkFile<T>(file: string, parent?: Module): LoadedSdkFile<T> {
  const folder = enableCompileCache();
  const loader = Module as ModuleInternals;
  let compiled: CompiledFile | undefined;
  try {
    if (folder !== undefined && loader._cache[file] === undefined) compiled = compile(file, folder, loader);
  } catch {
    compiled = undefined;
  }
  if (compiled === undefined) return { exports: createRequire(file)(file) as T, afterStart: () => undefined };
  const exports = run<T>(compiled.script, file, parent, loader);
  return {
    exports,
    afterStart: () => {
      if (!compiled.reused) keep(compiled);
    },
  };
}

/** The file compiled with the cache entry that names it, if there is one (`reused` when V8 took it). */
function compile(file: string, folder: string, loader: ModuleInternals) {
  const { size, mtimeMs, ctimeMs, ino } = statSync(file);
  const identity = Buffer.from(JSON.stringify([file, size, mtimeMs, ctimeMs, ino]));
  const entry = join(folder, `otel-tool-errors-${hash(file)}`);
  const cachedData = cachedCode(entry, identity);
  const script = new Script(loader.wrap(sourceText(readFileSync(file))), {
    filename: file,
    cachedData,
    // As `require` compiles it: an `import()` in the file would use Node's own loader.
    importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  return { script, entry, identity, reused: cachedData !== undefined && !script.cachedDataRejected };
}

/** esbuild writes ASCII, which read as Latin-1 is the same text without UTF-8 decoding. */
function sourceText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** An entry's V8 code, when the entry names this file as it is now. */
function cachedCode(entry: string, identity: Buffer): Buffer | undefined {
  let stored: Buffer;
  try {
    stored = readFileSync(entry);
  } catch {
    return undefined;
  }
  if (stored.length <= 4) return undefined;
  const length = stored.readUInt32LE(0);
  if (!stored.subarray(4, 4 + length).equals(identity)) return undefined;
  const code = stored.subarray(4 + length);
  return code.length > 0 ? code : undefined;
}

/** Runs the compiled file as Node runs a CommonJS module, in the module cache under its own name. */
function run<T>(script: Script, file: string, parent: Module | undefined, loader: ModuleInternals): T {
  const folder = dirname(file);
  const module = new Module(file, parent);
  module.filename = file;
  module.paths = loader._nodeModulePaths?.(folder) ?? [];
  loader._cache[file] = module;
  try {
    const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
    wrapper.call(module.exports, module.exports, createRequire(file), module, file, folder);
  } catch (err) {
    delete loader._cache[file];
    throw err;
  }
  module.loaded = true;
  return module.exports as T;
}

/**
 * Writes the entry under a name of its own, then renames it, so that a start never reads half of
 * one; opened before V8 serialises the code, so that a folder it cannot write costs nothing.
 */
function keep(compiled: CompiledFile): void {
  const partial = `${compiled.entry}.${process.pid}`;
  let descriptor: number | undefined;
  try {
    descriptor = openSync(partial, 'w', 0o600);
    const length = Buffer.alloc(4);
    length.writeUInt32LE(compiled.identity.length, 0);
    writeFileSync(descriptor, Buffer.concat([length, compiled.identity, compiled.script.createCachedData()]));
    closeSync(descriptor);
    descriptor = undefined;
    renameSync(partial, compiled.entry);
  } catch {
    try {
      if (descriptor !== undefined) closeSync(descriptor);
      rmSync(partial, { force: true });
    } catch {
      // A folder this process cannot write: nothing is kept.
    }
  }
}

/** FNV-1a of the path, for the entry's name: a few characters, no crypto module to load. */
function hash(text: string): string {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    value ^= text.charCodeAt(i);
    value = Math.imul(value, 0x01000193);
  }
  return (value >>> 0).toString(16).padStart(8, '0');
}
