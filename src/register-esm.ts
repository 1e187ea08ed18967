/**
 * `node --import otel-tool-errors/register app.mjs`: the ESM twin of `register.ts`. ESM imports
 * can only be patched through a loader hook, so it also registers import-in-the-middle's hook:
 * in-thread with `module.registerHooks` where Node's version runs it, else `module.register`
 * (deprecated from Node 26, whose `registerHooks` is always used). In-thread, no loader thread
 * starts: on Node 22 that is about 45 ms of CPU and 16 MiB less a start (BENCHMARKS.md).
 */
import * as nodeModule from 'node:module';
import { supportsSyncHooks } from 'import-in-the-middle/supports-sync-hooks.mjs';
import { enableCompileCache } from './register/compile-cache';

enableCompileCache();
// The same SDK file as `--require` loads (tsup.config.ts), compiled through the cache just enabled.
const sdk = nodeModule.createRequire(import.meta.url)(
  './register-sdk.cjs',
) as typeof import('./register/sdk');

const syncHooks =
  sdk.registerWillStart() && supportsSyncHooks()
    ? await import('import-in-the-middle/register-hooks.mjs')
    : undefined;

sdk.startZeroCode({
  beforeHooks: (include) => {
    if (syncHooks) syncHooks.register({ include });
    else
      nodeModule.register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include } });
    sdk.markLoaderHookRegistered();
  },
});
