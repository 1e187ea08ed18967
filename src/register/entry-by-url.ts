/**
 * Imports of a package's entry by its file URL or path, as test runners make them: vitest (Vite's
 * module runner) imports every package it leaves to Node as `import('file:///…/node_modules/ai/dist/index.mjs')`.
 * import-in-the-middle patches a package's entry only when it was imported by the package's name, so
 * the loader hooks hand it such an import as one by name: the same module, resolved from the
 * package's own folder (which always finds it), when that resolves to the same URL.
 */

/** The package a file URL or absolute path inside `node_modules` belongs to, if `names` holds it. */
export function patchedPackageOf(specifier: string, names: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('file:') && !specifier.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(specifier)) {
    return undefined;
  }
  const path = specifier.replace(/\\/g, '/');
  const at = path.lastIndexOf('/node_modules/');
  if (at === -1) return undefined;
  const parts = path.slice(at + '/node_modules/'.length).split('/');
  const name = parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  return names.has(name) ? name : undefined;
}

/** The package names an include list names (its patterns match files inside packages, by URL already). */
export function includedNames(include: readonly (string | RegExp)[]): Set<string> {
  return new Set(include.filter((each): each is string => typeof each === 'string'));
}

interface Resolved {
  url: string;
}

/**
 * The URL of the package.json of package `name` that `url` is inside: a parent from which `name`
 * resolves to the package itself (import-in-the-middle leaves a module that imports itself unwrapped,
 * so not the file).
 */
function packageJsonOf(url: string, name: string): string {
  const folder = url.lastIndexOf('/node_modules/') + '/node_modules/'.length + name.length;
  return `${url.slice(0, folder)}/package.json`;
}

/**
 * True for the import import-in-the-middle's wrapper makes of the module it wraps (by its URL): that
 * one stays as it is, or it would wrap itself.
 */
function fromWrapper(context: { parentURL?: string }): boolean {
  return context.parentURL !== undefined && /[?&]iitm=/.test(context.parentURL);
}

/**
 * The specifier and context to hand import-in-the-middle: the package's name, resolved from the
 * imported file, when `specifier` is a file URL or path of the entry of a package in `names`;
 * else the import as it was. `resolve` is the next hook's resolve (sync or async).
 */
export function asPackageImport<C extends { parentURL?: string }>(
  specifier: string,
  context: C,
  names: ReadonlySet<string>,
  resolve: (specifier: string, context: C) => Resolved,
): [string, C] {
  const name = patchedPackageOf(specifier, names);
  if (name === undefined || fromWrapper(context)) return [specifier, context];
  try {
    const { url } = resolve(specifier, context);
    const byName = { ...context, parentURL: packageJsonOf(url, name) };
    return resolve(name, byName).url === url ? [name, byName] : [specifier, context];
  } catch {
    return [specifier, context];
  }
}

/** `asPackageImport` for the off-thread hooks, whose `resolve` is asynchronous. */
export async function asPackageImportAsync<C extends { parentURL?: string }>(
  specifier: string,
  context: C,
  names: ReadonlySet<string>,
  resolve: (specifier: string, context: C) => Promise<Resolved>,
): Promise<[string, C]> {
  const name = patchedPackageOf(specifier, names);
  if (name === undefined || fromWrapper(context)) return [specifier, context];
  try {
    const { url } = await resolve(specifier, context);
    const byName = { ...context, parentURL: packageJsonOf(url, name) };
    return (await resolve(name, byName)).url === url ? [name, byName] : [specifier, context];
  } catch {
    return [specifier, context];
  }
}
