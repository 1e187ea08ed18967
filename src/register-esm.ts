/**
 * `node --import otel-tool-errors/register app.mjs`: the ESM twin of `register.ts`. ESM imports
 * can only be patched through a loader hook, so it also registers import-in-the-middle's hook:
 * in-thread with `module.registerHooks` where Node's version runs it, else `module.register`
 * (deprecated from Node 26, whose `registerHooks` is always used). In-thread, no loader thread
 * starts: on Node 22 that is about 45 ms of CPU and 16 MiB less a start (BENCHMARKS.md).
 */
import * as nodeModule from 'node:module';
import { fileURLToPath } from 'node:url';
import { supportsSyncHooks } from 'import-in-the-middle/supports-sync-hooks.mjs';
import { sdkDisabled } from './register/sdk-disabled';
import { loadSdkFile } from './register/sdk-file';

/** Loads the SDK file and starts it with import-in-the-middle's hooks. */
async function start(): Promise<void> {
  // The same SDK file as `--require` loads (tsup.config.ts), through the same code cache.
  const sdkFile = loadSdkFile<typeof import('./register/sdk')>(
    fileURLToPath(new URL('./register-sdk.cjs', import.meta.url)),
  );
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

// With OTEL_SDK_DISABLED=true nothing is loaded and no hook registered.
if (!sdkDisabled()) await start();
