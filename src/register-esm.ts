/**
 * `node --import otel-tool-errors/register app.mjs`: the ESM twin of `register.ts`. ESM imports
 * can only be patched through a loader hook, so it also registers import-in-the-middle's hook:
 * in-thread with `module.registerHooks` where Node's version runs it, else `module.register`
 * (deprecated from Node 26, whose `registerHooks` is always used). In-thread, no loader thread
 * starts: on Node 22 that is about 45 ms of CPU and 16 MiB less a start (BENCHMARKS.md); and the
 * register, and the hook with it, start when the app first needs them. Off-thread, the hook is
 * registered at once and the register on first need. The work is in a CommonJS file
 * (register/esm-start.ts).
 */
import { createRequire } from 'node:module';
import { sdkDisabled } from './register/sdk-disabled';

type EsmStart = typeof import('./register/esm-start');

// With OTEL_SDK_DISABLED=true nothing more is loaded and no hook registered.
if (!sdkDisabled()) {
  const esmStart = createRequire(import.meta.url)('./register-esm-start.cjs') as EsmStart;
  await esmStart.startFromEsmEntry(import.meta.url);
}
