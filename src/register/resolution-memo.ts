import Module from 'node:module';
import { isAbsolute } from 'node:path';
import { isSet } from 'node:util/types';

/** `require.resolve`'s `paths`; where module hooks are registered, Node passes the export conditions too. */
interface ResolveOptions {
  paths?: unknown;
  conditions?: unknown;
}
type ResolveFilename = (
  request: string,
  parent?: { path?: unknown; paths?: unknown },
  isMain?: boolean,
  options?: ResolveOptions,
) => string;

const REMEMBERING = Symbol.for('otel-tool-errors.register.resolution-memo');

/**
 * require-in-the-middle resolves every `require` again before Node loads it (Node answers a
 * folder's request from its cache): each resolution is now made once, remembered by what it depends
 * on: the requiring folder and the request; for a bare request, `module.paths` (paths unlike the
 * folder's first are answered by Node); `require.resolve`'s absolute `paths`; the export conditions.
 * Failures, the entry point and `-e` are not remembered.
 */
export function rememberModuleResolutions(): void {
  const loader = Module as unknown as { _resolveFilename: ResolveFilename & { [REMEMBERING]?: true } };
  const resolve = loader._resolveFilename;
  if (typeof resolve !== 'function' || resolve[REMEMBERING]) return;
  // By options, then folder, then request: Node's own strings, whose hashes are kept, as keys.
  const resolved = new Map<
    string,
    Map<string, { lookupPaths: unknown[] | undefined; byRequest: Map<string, string> }>
  >();
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
function sameEntries(remembered: unknown[] | undefined, paths: unknown): boolean {
  if (remembered === undefined || !Array.isArray(paths))
    return remembered === undefined && !Array.isArray(paths);
  return remembered.length === paths.length && remembered.every((path, i) => path === paths[i]);
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

/** The export conditions, in Node's own set (a SafeSet, which `instanceof Set` does not see). */
function conditionsKey(conditions: unknown): string | undefined {
  if (conditions === undefined) return '';
  // Bracketed: an empty set is not Node's default conditions, which no options mean.
  return isSet(conditions) ? `[${[...(conditions as Set<unknown>)].join(',')}]` : undefined;
}
