import type { PackageDeclaration } from '../instrumentation/adapters/adapter';
import { FRAMEWORK_DECLARATIONS } from '../instrumentation/adapters/declarations';
import { loaderHookPatterns, type ModuleDefinitionShape } from '../instrumentation/loader-hook-include';
import { instrumentationEnabled, type RegisterSettings } from './settings';

/**
 * What each instrumentation the register can run patches (its module definitions: a module, whether
 * its entry is patched, the files inside it that are), known before any instrumentation is loaded:
 * the entry points need them to start the register when the app first loads one
 * (start-on-first-need.ts) and, under `--import`, for import-in-the-middle's `include` list. Each
 * framework's are its adapter's declaration; the HTTP instrumentations' are written here, and a
 * spec pins them to those instrumentations' own definitions.
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

/**
 * The packages whose first `require` starts the register: every module an instrumentation patches,
 * undici (whose requests the undici instrumentation traces), and the OpenTelemetry api, which an app
 * requires to trace on its own.
 */
export function packagesStartingTheRegister(): ReadonlySet<string> {
  const names = new Set(['@opentelemetry/api', 'undici']);
  for (const definitions of Object.values(HOOKED_MODULES))
    for (const { name } of definitions) names.add(name);
  return names;
}
