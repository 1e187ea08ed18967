/**
 * The loader hook `--import` registers where Node runs module hooks only off-thread (Node 20, 22
 * before 22.22.3, 24 before 24.11.1), in the loader thread: as import-hook-on-first-need.ts does
 * in-thread, it loads import-in-the-middle's hook (`hookUrl`) only at the first import it would wrap.
 * Built as dist/register-off-thread-hook.mjs.
 */
import { asPackageImportAsync, includeMatcher, includedNames, type Resolved } from './stand-in-hook';

export interface OffThreadHookData {
  include: (string | RegExp)[];
  hookUrl: string;
}

type NextResolve = (specifier: string, context?: object) => Promise<Resolved>;
type NextLoad = (url: string, context?: object) => Promise<object>;

/** import-in-the-middle's hook.mjs. */
interface ImportHook {
  initialize?(data: { include: (string | RegExp)[] }): unknown;
  resolve(specifier: string, context: object, nextResolve: NextResolve): Promise<Resolved>;
  load(url: string, context: object, nextLoad: NextLoad): Promise<object>;
}

let data: OffThreadHookData;
let included: (url: string, specifier: string) => boolean;
let names: Set<string>;
let importHook: Promise<ImportHook> | undefined;
let loaded: ImportHook | undefined;

export function initialize(given: OffThreadHookData): void {
  data = given;
  included = includeMatcher(given.include);
  names = includedNames(given.include);
}

/** import-in-the-middle's hook, loaded and initialized once, however many imports ask at a time. */
function loadImportHook(): Promise<ImportHook> {
  importHook ??= import(data.hookUrl).then(async (hook: ImportHook) => {
    await hook.initialize?.({ include: data.include });
    loaded = hook;
    return hook;
  });
  return importHook;
}

export async function resolve(
  given: string,
  givenContext: object,
  nextResolve: NextResolve,
): Promise<Resolved> {
  // A package's entry imported by its file URL is handed on as an import by name.
  const [specifier, context] = await asPackageImportAsync(given, givenContext, names, nextResolve);
  if (loaded) return loaded.resolve(specifier, context, nextResolve);
  const resolved = await nextResolve(specifier, context);
  if (!included(resolved.url, specifier)) return resolved;
  return (await loadImportHook()).resolve(specifier, context, nextResolve);
}

export function load(url: string, context: object, nextLoad: NextLoad): Promise<object> {
  return loaded ? loaded.load(url, context, nextLoad) : nextLoad(url, context);
}
