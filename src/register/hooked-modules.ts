import type { PackageDeclaration } from '../instrumentation/adapters/adapter';
import { FRAMEWORK_DECLARATIONS } from '../instrumentation/adapters/declarations';
import { loaderHookPatterns, type ModuleDefinitionShape } from '../instrumentation/loader-hook-include';
import { instrumentationEnabled, type RegisterSettings } from './settings';

/**
 * What each instrumentation the register runs patches, known before any is loaded: the entry
 * points start on the app's first load of one, and give import-in-the-middle its `include` list.
 * The frameworks' are their declarations; the HTTP ones' are pinned by a spec to their own.
 */
export const HOOKED_MODULES: Readonly<Record<string, readonly ModuleDefinitionShape[]>> = {
  ...Object.fromEntries(
    FRAMEWORK_DECLARATIONS.map(({ name, packages }) => [name, packages.map(definitionShape)]),
  ),
  http: [
    { name: 'https', entryPatched: true },
    { name: 'http', entryPatched: true },
  ],
  // Subscribes to undici's diagnostics channels: it hooks no module.
  undici: [],
};

/** The module definition `patchPackage` or `patchFiles` makes of a declared package, as the loader hook sees it. */
function definitionShape({ name, files }: PackageDeclaration): ModuleDefinitionShape {
  return files === undefined ? { name, entryPatched: true } : { name, files: files.flat() };
}

/** The process-global registries whose first read starts the register (`FrameworkDeclaration.globals`). */
export function globalsStartingTheRegister(): string[] {
  return FRAMEWORK_DECLARATIONS.flatMap((declaration) => declaration.globals ?? []);
}

/** The instrumentations the settings leave on: as telemetry.ts runs them (unknown names ignored). */
export function hookedInstrumentations(settings: RegisterSettings): string[] {
  const frameworksOff = settings.instrumentation.disabledFrameworks ?? [];
  return Object.keys(HOOKED_MODULES).filter(
    (name) =>
      instrumentationEnabled(settings, name) &&
      (name === 'http' || name === 'undici' || !frameworksOff.includes(name)),
  );
}

/** import-in-the-middle's `include` list for the instrumentations named (as loaderHookInclude makes it). */
export function loaderHookIncludeFor(names: readonly string[]): (string | RegExp)[] {
  return names.flatMap((name) => (HOOKED_MODULES[name] ?? []).flatMap(loaderHookPatterns));
}

/** The packages whose first `require` starts the register: every hooked module, undici and the api. */
export function packagesStartingTheRegister(): ReadonlySet<string> {
  const names = new Set(['@opentelemetry/api', 'undici']);
  for (const definitions of Object.values(HOOKED_MODULES))
    for (const { name } of definitions) names.add(name);
  return names;
}
