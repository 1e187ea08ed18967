/**
 * What `--import otel-tool-errors/register` runs (register-esm.ts loads it): a CommonJS file, so
 * that the Node built-ins it uses come without the ES module facades an `import` of each would
 * make (for `fs` and `util` those read every export; about 7 ms of a Node 22 start in all).
 */
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { supportsSyncHooks } from 'import-in-the-middle/supports-sync-hooks.mjs';
import { hookedInstrumentations, loaderHookIncludeFor } from './hooked-modules';
import { registerImportHookOnFirstNeed } from './import-hook-on-first-need';
import { loadSdkFile } from './sdk-file';
import { readRegisterSettings } from './settings';
import { mustStartNow, startOnFirstNeed } from './start-on-first-need';
import { warnUser } from './stderr';

type SdkFile = ReturnType<typeof loadSdkFile<typeof import('./sdk')>>;

/** The same SDK file as `--require` loads (tsup.config.ts), through the same code cache. */
function loadSdk(): SdkFile {
  return loadSdkFile(join(__dirname, 'register-sdk.cjs'));
}

/** Starts now, registering the loader hook off-thread (or in-thread where the register starts at once). */
async function startNow(entryUrl: string): Promise<void> {
  const sdkFile = loadSdk();
  const sdk = sdkFile.exports;
  const syncHooks = supportsSyncHooks() ? await import('import-in-the-middle/register-hooks.mjs') : undefined;
  const started = sdk.startZeroCode({
    beforeHooks: (include) => {
      if (syncHooks) syncHooks.register({ include });
      else
        nodeModule.register('@opentelemetry/instrumentation/hook.mjs', entryUrl, {
          data: { include },
        });
      sdk.markLoaderHookRegistered();
    },
  });
  if (started) sdkFile.afterStart();
}

/**
 * Starts on first need, as under `--require`, or when an import resolves to a module the enabled
 * instrumentations patch (before it runs, so that their hooks are there when it is wrapped); the
 * loader hook itself is loaded then too (import-hook-on-first-need.ts).
 */
function startOnFirstNeedWithImportHook(entryUrl: string): void {
  const include = loaderHookIncludeFor(hookedInstrumentations(readRegisterSettings()));
  const importHook = registerImportHookOnFirstNeed(include, entryUrl, () => now());
  const now = startOnFirstNeed(
    () => {
      try {
        importHook.make();
        const sdkFile = loadSdk();
        const sdk = sdkFile.exports;
        if (sdk.startZeroCode({ beforeHooks: () => sdk.markLoaderHookRegistered() })) sdkFile.afterStart();
      } catch (err) {
        warnUser('could not start OpenTelemetry; the app runs without it.', err);
      }
    },
    { esmMain: false },
  );
}

/**
 * The entry calls it only when OTEL_SDK_DISABLED is not set. `entryUrl`: the ES module entry's own
 * URL, from which its hooks resolve.
 */
export async function startFromEsmEntry(entryUrl: string): Promise<void> {
  if (!supportsSyncHooks() || mustStartNow()) await startNow(entryUrl);
  else startOnFirstNeedWithImportHook(entryUrl);
}
