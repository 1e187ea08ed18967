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
 * package.json: loading LangGraph made 3,000 resolutions for 1,450 files, about 40 ms of CPU and
 * 11 MiB on Node 22 (BENCHMARKS.md). Each is now made once, remembered by what it depends on: the
 * requiring module's folder and the request (the key of Node's own cache of resolutions), and the
 * folders of `require.resolve(request, { paths })`. A resolution that fails is not remembered, nor
 * one from a module with no folder of its own (`-e`, the REPL) or of the entry point.
 */
export function rememberModuleResolutions(): void {
  const loader = Module as unknown as { _resolveFilename: ResolveFilename & { [REMEMBERING]?: true } };
  const resolve = loader._resolveFilename;
  if (typeof resolve !== 'function' || resolve[REMEMBERING]) return;
  const resolved = new Map<string, string>();
  const remembering = function (this: unknown, ...args: Parameters<ResolveFilename>): string {
    const key = resolutionKey(...args);
    if (key === undefined) return Reflect.apply(resolve, this, args) as string;
    let filename = resolved.get(key);
    if (filename === undefined) {
      filename = Reflect.apply(resolve, this, args) as string;
      resolved.set(key, filename);
    }
    return filename;
  };
  loader._resolveFilename = Object.assign(remembering, { [REMEMBERING]: true as const });
}

/** What a resolution depends on, or undefined where it may depend on more. */
function resolutionKey(
  request: unknown,
  parent: RequiringModule | undefined,
  isMain: unknown,
  options: ResolveOptions | undefined,
): string | undefined {
  if (isMain || typeof request !== 'string') return undefined;
  const folder = parent?.path;
  if (typeof folder !== 'string' || !isAbsolute(folder)) return undefined;
  if (options === undefined) return `${folder}\0${request}`;
  const { paths, conditions, ...other } = options;
  if (Object.keys(other).length > 0) return undefined;
  if (paths !== undefined && !Array.isArray(paths)) return undefined;
  const conditionNames = conditionsKey(conditions);
  if (conditionNames === undefined) return undefined;
  return `${folder}\0${request}\0${paths?.join('\0') ?? ''}\0${conditionNames}`;
}

/** Node passes the same set of conditions each time (a new one only where a hook changed them). */
const namesOfConditions = new WeakMap<object, string>();

function conditionsKey(conditions: unknown): string | undefined {
  if (conditions === undefined) return '';
  // Node's own set has no Set in its prototype chain (a SafeSet), so `instanceof` says no.
  if (!isSet(conditions)) return undefined;
  let names = namesOfConditions.get(conditions);
  if (names === undefined) {
    names = [...(conditions as Set<unknown>)].join(',');
    namesOfConditions.set(conditions, names);
  }
  return names;
}
