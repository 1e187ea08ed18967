import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The `include` list for import-in-the-middle's loader hook: the modules the given
 * instrumentations patch, and nothing else. Wrapping every module breaks some that import
 * themselves in a cycle (zod 4 under Node 22's hooks, which also see `require`), and costs every
 * import.
 */
export function loaderHookInclude(instrumentations: readonly object[]): (string | RegExp)[] {
  const patterns: (string | RegExp)[] = [];
  for (const instrumentation of instrumentations) {
    const definitions =
      (instrumentation as { getModuleDefinitions?: () => { name: string }[] }).getModuleDefinitions?.() ?? [];
    for (const { name } of definitions) patterns.push(...patternsFor(name));
  }
  return patterns;
}

function patternsFor(name: string): (string | RegExp)[] {
  if (isAbsolute(name)) return [new RegExp(`^${escape(pathToFileURL(name).href)}$`)];
  // The bare specifier (a built-in such as `http`, a package's entry) and any file of the package.
  return [name, new RegExp(`/node_modules/${escape(name)}/`)];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
