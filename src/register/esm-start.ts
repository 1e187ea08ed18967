/**
 * What `--import otel-tool-errors/register` runs (register-esm.ts loads it): a CommonJS file, so
 * that the Node built-ins it uses come without the ES module facades an `import` of each would
 * make (for `fs` and `util` those read every export; about 7 ms of a Node 22 start in all).
 */
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { supportsSyncHooks } from 'import-in-the-middle/supports-sync-hooks.mjs';
import { hookedInstrumentations, loaderHookIncludeFor } from './hooked-modules';
import { registerImportHookOnFirstNeed } from './import-hook-on-first-need';
import type { OffThreadHookData } from './off-thread-hook';
import { loadSdkFile } from './sdk-file';
import { readRegisterSettings } from './settings';
import { mustStartNow, startOnFirstNeed } from './start-on-first-need';
import { sayIfUnderJest } from './under-jest';
import { noticeUser } from '../user-notice';
import { watchWrappedImports } from './wrapped-imports';

type SdkFile = ReturnType<typeof loadSdkFile<typeof import('./sdk')>>;

/** The same SDK file as `--require` loads (tsup.config.ts), through the same code cache. */
function loadSdk(): SdkFile {
  return loadSdkFile(join(__dirname, 'register-sdk.cjs'));
}

/** import-in-the-middle's loader hook, off-thread: the copy whose `Hook` the register's instrumentations use. */
const IITM_HOOK = 'import-in-the-middle/hook.mjs';

/** Starts now, registering the loader hook off-thread (or in-thread where the register starts at once). */
async function startNow(entryUrl: string): Promise<void> {
  const sdkFile = loadSdk();
  const sdk = sdkFile.exports;
  const syncHooks = supportsSyncHooks() ? await import('import-in-the-middle/register-hooks.mjs') : undefined;
  const started = sdk.startZeroCode({
    beforeHooks: (include) => {
      if (syncHooks) syncHooks.register({ include });
      else nodeModule.register(IITM_HOOK, entryUrl, { data: { include } });
      sdk.markLoaderHookRegistered();
    },
  });
  if (started) sdkFile.afterStart();
}

/** The start on first need: the SDK file's start, its loader hook made or registered already. */
function startSdk(beforeStart: () => void = () => undefined): void {
  try {
    beforeStart();
    const sdkFile = loadSdk();
    const sdk = sdkFile.exports;
    if (sdk.startZeroCode({ beforeHooks: () => sdk.markLoaderHookRegistered() })) sdkFile.afterStart();
  } catch (err) {
    noticeUser('could not start OpenTelemetry; the app runs without it.', { error: err });
  }
}

/** The include list of the loader hook: the modules the enabled instrumentations patch. */
function loaderHookInclude(): (string | RegExp)[] {
  return loaderHookIncludeFor(hookedInstrumentations(readRegisterSettings()));
}

/**
 * Starts on first need, as under `--require`, or when an import resolves to a module the enabled
 * instrumentations patch (before it runs, so that their hooks are there when it is wrapped); the
 * loader hook itself is loaded then too (import-hook-on-first-need.ts).
 */
function startOnFirstNeedWithImportHook(entryUrl: string): void {
  const include = loaderHookInclude();
  const importHook = registerImportHookOnFirstNeed(include, entryUrl, () => now());
  const now = startOnFirstNeed(() => startSdk(() => importHook.make()), { esmMain: false });
}

/**
 * Where Node runs loader hooks only off-thread (Node 20, 22 before 22.22.3, 24 before 24.11.1): a
 * hook is registered now, as it must be to see the app's first import, and its thread started with
 * it; it loads import-in-the-middle's hook at the first import that hook would wrap
 * (off-thread-hook.ts). The register starts on first need, as under `--require`, or when the first
 * module import-in-the-middle wraps runs (wrapped-imports.ts).
 */
function startOnFirstNeedWithLoaderThread(entryUrl: string): void {
  const iitmHookFile = nodeModule.createRequire(entryUrl).resolve(IITM_HOOK);
  const data: OffThreadHookData = { include: loaderHookInclude(), hookUrl: pathToFileURL(iitmHookFile).href };
  nodeModule.register(pathToFileURL(join(__dirname, 'register-off-thread-hook.mjs')).href, entryUrl, {
    data,
  });
  const now = startOnFirstNeed(() => startSdk(), { esmMain: false });
  try {
    watchWrappedImports(iitmHookFile, now);
  } catch {
    // An import-in-the-middle laid out otherwise: at once, as before, so that nothing goes unpatched.
    now();
  }
}

/**
 * The entry calls it only when OTEL_SDK_DISABLED is not set. `entryUrl`: the ES module entry's own
 * URL, from which its hooks resolve.
 */
export async function startFromEsmEntry(entryUrl: string): Promise<void> {
  sayIfUnderJest();
  if (mustStartNow()) await startNow(entryUrl);
  else if (supportsSyncHooks()) startOnFirstNeedWithImportHook(entryUrl);
  else startOnFirstNeedWithLoaderThread(entryUrl);
}
