/**
 * `node --import otel-tool-errors/register app.mjs`: the ESM twin of `register.ts`. ESM imports
 * can only be patched through a loader hook, so it also registers import-in-the-middle's hook:
 * in-thread with `module.registerHooks` where Node's version runs it, else `module.register`
 * (deprecated from Node 26, whose `registerHooks` is always used). In-thread, no loader thread
 * starts: on Node 22 that is about 45 ms of CPU and 16 MiB less a start (BENCHMARKS.md); and the
 * register, and the hook with it, start when the app first needs them. Off-thread, at once.
 */
import * as nodeModule from 'node:module';
import { fileURLToPath } from 'node:url';
import { supportsSyncHooks } from 'import-in-the-middle/supports-sync-hooks.mjs';
import { hookedInstrumentations, loaderHookIncludeFor } from './register/hooked-modules';
import { registerImportHookOnFirstNeed } from './register/import-hook-on-first-need';
import { sdkDisabled } from './register/sdk-disabled';
import { loadSdkFile } from './register/sdk-file';
import { readRegisterSettings } from './register/settings';
import { mustStartNow, startOnFirstNeed } from './register/start-on-first-need';
import { warnUser } from './register/stderr';

type SdkFile = ReturnType<typeof loadSdkFile<typeof import('./register/sdk')>>;

/** The same SDK file as `--require` loads (tsup.config.ts), through the same code cache. */
function loadSdk(): SdkFile {
  return loadSdkFile(fileURLToPath(new URL('./register-sdk.cjs', import.meta.url)));
}

/** Starts now, registering the loader hook off-thread (or in-thread where the register starts at once). */
async function startNow(): Promise<void> {
  const sdkFile = loadSdk();
  const sdk = sdkFile.exports;
  const syncHooks = supportsSyncHooks() ? await import('import-in-the-middle/register-hooks.mjs') : undefined;
  const started = sdk.startZeroCode({
    beforeHooks: (include) => {
      if (syncHooks) syncHooks.register({ include });
      else
        nodeModule.register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, {
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
function startOnFirstNeedWithImportHook(): void {
  const include = loaderHookIncludeFor(hookedInstrumentations(readRegisterSettings()));
  const importHook = registerImportHookOnFirstNeed(include, import.meta.url, () => now());
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

// With OTEL_SDK_DISABLED=true nothing is loaded and no hook registered.
if (!sdkDisabled()) {
  if (!supportsSyncHooks() || mustStartNow()) await startNow();
  else startOnFirstNeedWithImportHook();
}
