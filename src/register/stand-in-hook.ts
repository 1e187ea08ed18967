import { builtinModules } from 'node:module';

/*
 * What the loader hooks standing in for import-in-the-middle's until the start share (in-thread,
 * import-hook-on-first-need.ts; off-thread, off-thread-hook.ts): which imports it would wrap, and a
 * package entry imported by file URL (as vitest imports), which it patches only when imported by name.
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

/** A path or file URL, not a package name. */
function isPath(specifier: string): boolean {
  return /^(?:\.|\/|file:|[A-Za-z]:[\\/])/.test(specifier);
}

/**
 * The package a `require` or import names: `node:http` is `http`; a path or file URL names the
 * package its last `node_modules` folder holds (none outside one).
 */
export function packageOf(specifier: string): string | undefined {
  let name = specifier.startsWith('node:') ? specifier.slice(5) : specifier;
  if (isPath(name)) {
    const path = name.replace(/\\/g, '/');
    const at = path.lastIndexOf('/node_modules/');
    if (at === -1) return undefined;
    name = path.slice(at + '/node_modules/'.length);
  }
  const [first, second] = name.split('/');
  return first!.startsWith('@') ? `${first}/${second}` : first;
}

/** The package in `names` a path or file URL inside its `node_modules` folder belongs to. */
export function patchedPackageOf(specifier: string, names: ReadonlySet<string>): string | undefined {
  const name = isPath(specifier) ? packageOf(specifier) : undefined;
  return name !== undefined && names.has(name) ? name : undefined;
}

/** The package names an include list names (its patterns match files by URL already). */
export function includedNames(include: readonly (string | RegExp)[]): Set<string> {
  return new Set(include.filter((each): each is string => typeof each === 'string'));
}

/** What a `resolve` hook answers, as far as the hooks here read it. */
export interface Resolved {
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

/** What to hand import-in-the-middle: a package in `names` by name, where imported by its entry's path or URL. */
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
