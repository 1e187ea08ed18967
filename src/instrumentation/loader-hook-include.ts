import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What the loader hook needs of a module definition: the module, whether its entry is patched, the files that are. */
export interface ModuleDefinitionShape {
  readonly name: string;
  readonly entryPatched?: boolean;
  readonly files?: readonly string[];
}

interface ModuleDefinition {
  name: string;
  patch?: unknown;
  files?: { name: string }[];
}

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
    for (const definition of definitions)
      patterns.push(...loaderHookPatterns(moduleDefinitionShape(definition)));
  }
  return patterns;
}

/** An instrumentation's module definition, as the loader hook sees it. */
export function moduleDefinitionShape({ name, patch, files = [] }: ModuleDefinition): ModuleDefinitionShape {
  return {
    name,
    ...(patch === undefined ? {} : { entryPatched: true }),
    ...(files.length === 0 ? {} : { files: files.map((file) => file.name) }),
  };
}

/**
 * The module's entry by its bare specifier (a built-in such as `http`, a package's main) when the
 * definition patches it, and each file an instrumentation patches inside it; never the rest of the
 * package, whose other files may not survive wrapping (import cycles). An entry wrapped for nothing
 * costs its whole `export *` tree: import-in-the-middle reads and parses each re-exported module to
 * list the entry's names (Google ADK's: about 125 ms and 20 MiB of a start).
 */
export function loaderHookPatterns({
  name,
  entryPatched,
  files = [],
}: ModuleDefinitionShape): (string | RegExp)[] {
  if (isAbsolute(name)) return [new RegExp(`^${escape(pathToFileURL(name).href)}$`)];
  const patterns = files.map((file) => new RegExp(`/node_modules/${escape(file)}$`));
  return !entryPatched && patterns.length > 0 ? patterns : [name, ...patterns];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
