/**
 * What `--import otel-tool-errors/register` runs (register-esm.ts loads it): a CommonJS file, so
 * that the Node built-ins it uses come without the ES module facades an `import` of each would make.
 */
import * as nodeModule from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { supportsSyncHooks } from 'import-in-the-middle/supports-sync-hooks.mjs';
import { hookedInstrumentations, loaderHookIncludeFor } from './hooked-modules';
import { registerImportHookOnFirstNeed } from './import-hook-on-first-need';
import type { OffThreadHookData } from './off-thread-hook';
import { loadSdkFile } from './sdk-file';
import { readRegisterSettings } from './settings';
import { mustStartNow, startOnFirstNeed } from './start-on-first-need';
import { sayIfUnderJest } from './test-runners';
import { noticeUser } from '../user-notice';

/** import-in-the-middle's off-thread loader hook: the copy whose `Hook` the register's instrumentations use. */
const IITM_HOOK = 'import-in-the-middle/hook.mjs';

/**
 * Loads the SDK file (the one `--require` loads, through the same code cache) and starts it;
 * `registerHook` registers the loader hook once the instrumentations say what it includes. Never throws.
 */
function start(registerHook: (include: (string | RegExp)[]) => void = () => undefined): void {
  try {
    const sdkFile = loadSdkFile<typeof import('./sdk')>(join(__dirname, 'register-sdk.cjs'));
    const sdk = sdkFile.exports;
    const started = sdk.startZeroCode({
      beforeHooks: (include) => {
        registerHook(include);
        sdk.markLoaderHookRegistered();
      },
    });
    if (started) sdkFile.afterStart();
  } catch (err) {
    noticeUser('could not start OpenTelemetry; the app runs without it.', { error: err });
  }
}

/** The modules the enabled instrumentations patch. */
function loaderHookInclude(): (string | RegExp)[] {
  return loaderHookIncludeFor(hookedInstrumentations(readRegisterSettings()));
}

/**
 * Where Node runs loader hooks only off-thread (Node 20, 22 before 22.22.3, 24 before 24.11.1), a
 * hook registered now sees the app's first import (off-thread-hook.ts). The register starts on first
 * need, or as the first module import-in-the-middle wraps reports to its registry (lib/register.js,
 * which every wrapper imports by name, taking this `register` as it is then).
 */
function startOnFirstNeedWithLoaderThread(entryUrl: string): void {
  const iitmHookFile = nodeModule.createRequire(entryUrl).resolve(IITM_HOOK);
  const data: OffThreadHookData = { include: loaderHookInclude(), hookUrl: pathToFileURL(iitmHookFile).href };
  nodeModule.register(pathToFileURL(join(__dirname, 'register-off-thread-hook.mjs')).href, entryUrl, {
    data,
  });
  const now = startOnFirstNeed(() => start(), { esmMain: false });
  try {
    const registry = nodeModule.createRequire(iitmHookFile)(
      join(dirname(iitmHookFile), 'lib', 'register.js'),
    ) as {
      register: (...args: unknown[]) => unknown;
    };
    const original = registry.register;
    if (typeof original !== 'function')
      throw new Error(`${iitmHookFile}'s registry has no register function`);
    registry.register = function register(this: unknown) {
      now();
      // eslint-disable-next-line prefer-rest-params -- the wrapper's arguments, as it gave them
      return Reflect.apply(original, this, arguments);
    };
  } catch {
    // An import-in-the-middle laid out otherwise: at once, so that nothing goes unpatched.
    now();
  }
}

/** The entry calls it only when OTEL_SDK_DISABLED is not set; `entryUrl` is its own URL. */
export async function startFromEsmEntry(entryUrl: string): Promise<void> {
  sayIfUnderJest();
  if (mustStartNow()) {
    // The loader hook is registered at the start: in-thread where Node can, else off-thread.
    const syncHooks = supportsSyncHooks()
      ? await import('import-in-the-middle/register-hooks.mjs')
      : undefined;
    start((include) => {
      if (syncHooks) syncHooks.register({ include });
      else nodeModule.register(IITM_HOOK, entryUrl, { data: { include } });
    });
  } else if (supportsSyncHooks()) {
    // On first need, or at an import of a module the instrumentations patch, whose hook loads then too.
    const importHook = registerImportHookOnFirstNeed(loaderHookInclude(), entryUrl, () => now());
    const now = startOnFirstNeed(() => start(() => importHook.make()), { esmMain: false });
  } else startOnFirstNeedWithLoaderThread(entryUrl);
}
