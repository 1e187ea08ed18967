import Module from 'node:module';
import { isAbsolute } from 'node:path';
import { isSet } from 'node:util/types';

interface RequiringModule {
  path?: unknown;
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
 * the requiring module's folder and the request (the key of Node's own cache of resolutions), the
 * folders of `require.resolve(request, { paths })`, and the export conditions Node passes where
 * module hooks are registered. A resolution that fails is not remembered, nor one from a module
 * with no folder of its own (`-e`, the REPL) or of the entry point.
 */
export function rememberModuleResolutions(): void {
  const loader = Module as unknown as { _resolveFilename: ResolveFilename & { [REMEMBERING]?: true } };
  const resolve = loader._resolveFilename;
  if (typeof resolve !== 'function' || resolve[REMEMBERING]) return;
  // By options, then folder, then request: the strings Node passes are looked up as they are (their
  // hashes kept), where one key built of them would be a new string to hash at every call.
  const resolved = new Map<string, Map<string, Map<string, string>>>();
  const remembering = function (this: unknown, ...args: Parameters<ResolveFilename>): string {
    const [request, parent, isMain, options] = args;
    const folder = parent?.path;
    if (isMain || typeof request !== 'string' || typeof folder !== 'string' || !isAbsolute(folder)) {
      return Reflect.apply(resolve, this, args) as string;
    }
    const context = optionsKey(options);
    if (context === undefined) return Reflect.apply(resolve, this, args) as string;
    const byRequest = entry(entry(resolved, context), folder);
    let filename = byRequest.get(request);
    if (filename === undefined) {
      filename = Reflect.apply(resolve, this, args) as string;
      byRequest.set(request, filename);
    }
    return filename;
  };
  loader._resolveFilename = Object.assign(remembering, { [REMEMBERING]: true as const });
}

function entry<T>(map: Map<string, Map<string, T>>, key: string): Map<string, T> {
  let found = map.get(key);
  if (found === undefined) map.set(key, (found = new Map()));
  return found;
}

/** The options a resolution depends on, as a string; undefined for options it does not know. */
function optionsKey(options: ResolveOptions | undefined): string | undefined {
  if (options === undefined) return '';
  for (const name in options) if (name !== 'paths' && name !== 'conditions') return undefined;
  const { paths, conditions } = options;
  if (paths !== undefined && !Array.isArray(paths)) return undefined;
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
