import { builtinModules } from 'node:module';

/*
 * What the loader hooks that stand in for import-in-the-middle's until the register starts (in-thread,
 * import-hook-on-first-need.ts; off-thread, off-thread-hook.ts) share: which imports it would wrap,
 * and imports of a package's entry by file URL (vitest imports every package it leaves to Node so),
 * which import-in-the-middle patches only when imported by name: they are handed on as imports by
 * name, resolved from the package's own folder, when that resolves to the same URL.
 */

/**
 * import-in-the-middle's `include` matching: a pattern tests the URL; a name is the specifier or
 * the URL (a built-in's too with `node:`).
 */
export function includeMatcher(
  include: readonly (string | RegExp)[],
): (url: string, specifier: string) => boolean {
  const names = new Set<string>();
  const patterns: RegExp[] = [];
  for (const each of include) {
    if (each instanceof RegExp) patterns.push(each);
    else {
      names.add(each);
      if (builtinModules.includes(each)) names.add(`node:${each}`);
    }
  }
  return (url, specifier) =>
    names.has(specifier) || names.has(url) || patterns.some((pattern) => pattern.test(url));
}

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

/** The package names an include list names (its patterns match files by URL already). */
export function includedNames(include: readonly (string | RegExp)[]): Set<string> {
  return new Set(include.filter((each): each is string => typeof each === 'string'));
}

interface Resolved {
  url: string;
}

/** The package.json of package `name` that `url` is inside: a parent from which `name` resolves to the package. */
function packageJsonOf(url: string, name: string): string {
  const folder = url.lastIndexOf('/node_modules/') + '/node_modules/'.length + name.length;
  return `${url.slice(0, folder)}/package.json`;
}

/** True for the import import-in-the-middle's wrapper makes of the module it wraps: left as it is. */
function fromWrapper(context: { parentURL?: string }): boolean {
  return context.parentURL !== undefined && /[?&]iitm=/.test(context.parentURL);
}

/**
 * The specifier and context to hand import-in-the-middle: the package's name when `specifier` is a
 * file URL or path of the entry of a package in `names`; else the import as it was.
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
