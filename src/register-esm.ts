/**
 * `node --import otel-tool-errors/register app.mjs`: the ESM twin of `register.ts`. ESM imports
 * can only be patched through a loader hook, so it also registers import-in-the-middle's hook:
 * in-thread with `module.registerHooks` where Node's version runs it, else `module.register`
 * (deprecated from Node 26, whose `registerHooks` is always used). In-thread, no loader thread
 * starts: on Node 22 that is about 45 ms of CPU and 16 MiB less a start (BENCHMARKS.md); and the
 * register starts when the app first needs it, as under `--require`, or when the hook is about to
 * wrap a module an instrumentation patches. Off-thread, it starts at once.
 */
import * as nodeModule from 'node:module';
import { fileURLToPath } from 'node:url';
import { supportsSyncHooks } from 'import-in-the-middle/supports-sync-hooks.mjs';
import { hookedInstrumentations, loaderHookIncludeFor } from './register/hooked-modules';
import { sdkDisabled } from './register/sdk-disabled';
import { loadSdkFile } from './register/sdk-file';
import { readRegisterSettings } from './register/settings';
import { mustStartNow, startOnFirstNeed } from './register/start-on-first-need';
import { warnUser } from './register/stderr';

interface ResolveContext {
  conditions?: string[];
  parentURL?: string;
}
type NextResolve = (specifier: string, context?: ResolveContext) => { url: string };
/** `module.registerHooks` (Node 22.15 and later), which this Node has where import-in-the-middle's sync hooks run. */
type RegisterHooks = (hooks: {
  resolve: (specifier: string, context: ResolveContext, nextResolve: NextResolve) => { url: string };
}) => unknown;

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
 * Registers the in-thread loader hook for the modules the enabled instrumentations patch, then
 * starts on first need: also when a module resolves to one the hook wraps, which is before it
 * runs, so that the instrumentations' hooks are there when the wrapper hands it on.
 */
async function startOnFirstNeedWithLoaderHook(): Promise<void> {
  const syncHooks = await import('import-in-the-middle/register-hooks.mjs');
  syncHooks.register({ include: loaderHookIncludeFor(hookedInstrumentations(readRegisterSettings())) });
  const now = startOnFirstNeed(
    () => {
      try {
        const sdkFile = loadSdk();
        const sdk = sdkFile.exports;
        if (sdk.startZeroCode({ beforeHooks: () => sdk.markLoaderHookRegistered() })) sdkFile.afterStart();
      } catch (err) {
        warnUser('could not start OpenTelemetry; the app runs without it.', err);
      }
    },
    { esmMain: false },
  );
  let watching = true;
  (nodeModule as unknown as { registerHooks: RegisterHooks }).registerHooks({
    resolve: (specifier, context, nextResolve) => {
      const resolved = nextResolve(specifier, context);
      // import-in-the-middle marks the modules it wraps with an `iitm` query.
      if (watching && resolved.url.includes('iitm=')) {
        watching = false;
        now();
      }
      return resolved;
    },
  });
}

// With OTEL_SDK_DISABLED=true nothing is loaded and no hook registered.
if (!sdkDisabled()) {
  if (!supportsSyncHooks() || mustStartNow()) await startNow();
  else await startOnFirstNeedWithLoaderHook();
}
