import Module from 'node:module';
import { isAbsolute } from 'node:path';
import { isSet } from 'node:util/types';

interface RequiringModule {
  path?: unknown;
  /** The folders a bare request is looked up in: the app may change them (`module.paths.push`). */
  paths?: unknown;
}

/** What one folder's requests resolved to, and the lookup folders of the module that first asked. */
interface FolderResolutions {
  readonly lookupPaths: readonly unknown[] | undefined;
  readonly byRequest: Map<string, string>;
}

type ResolveFilename = (
  request: string,
  parent?: RequiringModule,
  isMain?: boolean,
  options?: ResolveOptions,
) => string;

/**
 * `require.resolve`'s `paths`; with module hooks registered (`module.registerHooks`, which `--import`
 * uses on Node 22.15 and later), Node passes its own resolutions the export conditions too.
 */
interface ResolveOptions {
  paths?: unknown;
  conditions?: unknown;
}

const REMEMBERING = Symbol.for('otel-tool-errors.register.resolution-memo');

/**
 * OpenTelemetry's require hook (require-in-the-middle, one for all instrumentations) resolves every
 * `require` call itself before Node loads it, where Node resolves a folder's request once and then
 * answers from its cache; and for each file it has not seen it resolves that file's package again,
 * to tell its main file from the others. Through a package's exports map, each such resolution
 * parses the map anew (Node does not cache those), and each walks up the folders for the nearest
 * package.json: loading LangGraph made 3,159 resolutions for 1,449 in plain Node, about 45 ms of CPU
 * and 12 MiB on Node 22 (BENCHMARKS.md). Each is now made once, remembered by what it depends on:
 * the requiring module's folder and the request, for a bare request also the module's lookup
 * folders (`module.paths`, which Node's own cache keys on and an app may change: a module whose
 * folders differ from those of its folder's first is answered by Node), the folders of
 * `require.resolve(request, { paths })` (when all are absolute: a relative one depends on the
 * working folder), and the export conditions Node passes where module hooks are registered. A
 * resolution that fails is not remembered, nor one from a module with no folder of its own (`-e`,
 * the REPL) or of the entry point.
 */
export function rememberModuleResolutions(): void {
  const loader = Module as unknown as { _resolveFilename: ResolveFilename & { [REMEMBERING]?: true } };
  const resolve = loader._resolveFilename;
  if (typeof resolve !== 'function' || resolve[REMEMBERING]) return;
  // By options, then folder, then request: the strings Node passes are looked up as they are (their
  // hashes kept), where one key built of them would be a new string to hash at every call.
  const resolved = new Map<string, Map<string, FolderResolutions>>();
  const remembering = function (this: unknown, ...args: Parameters<ResolveFilename>): string {
    const [request, parent, isMain, options] = args;
    const folder = parent?.path;
    if (isMain || typeof request !== 'string' || typeof folder !== 'string' || !isAbsolute(folder)) {
      return Reflect.apply(resolve, this, args) as string;
    }
    const context = optionsKey(options);
    if (context === undefined) return Reflect.apply(resolve, this, args) as string;
    let byFolder = resolved.get(context);
    if (byFolder === undefined) resolved.set(context, (byFolder = new Map()));
    let folderResolutions = byFolder.get(folder);
    if (folderResolutions === undefined) {
      const lookupPaths = Array.isArray(parent!.paths) ? [...(parent!.paths as unknown[])] : undefined;
      byFolder.set(folder, (folderResolutions = { lookupPaths, byRequest: new Map() }));
    }
    if (
      options?.paths === undefined &&
      isBare(request) &&
      !sameEntries(folderResolutions.lookupPaths, parent!.paths)
    ) {
      return Reflect.apply(resolve, this, args) as string;
    }
    let filename = folderResolutions.byRequest.get(request);
    if (filename === undefined) {
      filename = Reflect.apply(resolve, this, args) as string;
      folderResolutions.byRequest.set(request, filename);
    }
    return filename;
  };
  loader._resolveFilename = Object.assign(remembering, { [REMEMBERING]: true as const });
}

/** A request Node looks up in the requiring module's `paths` (not relative, not absolute). */
function isBare(request: string): boolean {
  return (
    !(request.startsWith('./') || request.startsWith('../') || request === '.' || request === '..') &&
    !isAbsolute(request)
  );
}

/** True when `paths` holds the folders remembered, in their order (both missing counts as the same). */
function sameEntries(remembered: readonly unknown[] | undefined, paths: unknown): boolean {
  if (remembered === undefined || !Array.isArray(paths))
    return remembered === undefined && !Array.isArray(paths);
  if (remembered.length !== paths.length) return false;
  for (let i = 0; i < paths.length; i++) if (remembered[i] !== paths[i]) return false;
  return true;
}

/** The options a resolution depends on, as a string; undefined for options it does not know. */
function optionsKey(options: ResolveOptions | undefined): string | undefined {
  if (options === undefined) return '';
  for (const name in options) if (name !== 'paths' && name !== 'conditions') return undefined;
  const { paths, conditions } = options;
  if (
    paths !== undefined &&
    !(Array.isArray(paths) && paths.every((path) => typeof path === 'string' && isAbsolute(path)))
  )
    return undefined;
  const names = conditionsKey(conditions);
  if (names === undefined || paths === undefined) return names;
  return `${names}\0${paths.join('\0')}`;
}

/** Node passes the same set of conditions each time (a new one only where a hook changed them). */
const namesOfConditions = new WeakMap<object, string>();

function conditionsKey(conditions: unknown): string | undefined {
  if (conditions === undefined) return '';
  // Node's own set has no Set in its prototype chain (a SafeSet), so `instanceof` says no.
  if (!isSet(conditions)) return undefined;
  let names = namesOfConditions.get(conditions);
  if (names === undefined) {
    // Bracketed: an empty set is not Node's default conditions, which no options mean.
    names = `[${[...(conditions as Set<unknown>)].join(',')}]`;
    namesOfConditions.set(conditions, names);
  }
  return names;
}
