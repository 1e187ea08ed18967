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
  patch?: unknown;
  files?: { name: string }[];
}

/**
 * The module's entry by its bare specifier (a built-in such as `http`, a package's main) when the
 * definition patches it, and each file an instrumentation patches inside it; never the rest of the
 * package, whose other files may not survive wrapping (import cycles). An entry wrapped for nothing
 * costs its whole `export *` tree: import-in-the-middle reads and parses each re-exported module to
 * list the entry's names (Google ADK's: about 125 ms and 20 MiB of a start).
 */
function patternsFor({ name, patch, files = [] }: ModuleDefinition): (string | RegExp)[] {
  if (isAbsolute(name)) return [new RegExp(`^${escape(pathToFileURL(name).href)}$`)];
  const patterns = files.map((file) => new RegExp(`/node_modules/${escape(file.name)}$`));
  return patch === undefined && patterns.length > 0 ? patterns : [name, ...patterns];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
