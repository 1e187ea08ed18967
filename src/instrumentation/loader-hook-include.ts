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
      (instrumentation as { getModuleDefinitions?: () => ModuleDefinition[] }).getModuleDefinitions?.() ?? [];
    for (const definition of definitions) patterns.push(...patternsFor(definition));
  }
  return patterns;
}

interface ModuleDefinition {
  name: string;
  files?: { name: string }[];
}

/**
 * The module's entry by its bare specifier (a built-in such as `http`, a package's main), and each
 * file an instrumentation patches inside it; never the rest of the package, whose other files may
 * not survive wrapping (import cycles).
 */
function patternsFor({ name, files = [] }: ModuleDefinition): (string | RegExp)[] {
  if (isAbsolute(name)) return [new RegExp(`^${escape(pathToFileURL(name).href)}$`)];
  return [name, ...files.map((file) => new RegExp(`/node_modules/${escape(file.name)}$`))];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
