/**
 * What both entry points load (bundled as dist/register-sdk.cjs, see tsup.config.ts): one copy of
 * the register's state, whichever entry started it. Only the settings are read at once, so that
 * OTEL_SDK_DISABLED=true loads nothing more (not even @opentelemetry/api).
 */
/* eslint-disable @typescript-eslint/no-require-imports -- each part is loaded when first used */
import { readRegisterSettings } from './settings';
import type { StartOptions } from './start';
import type { Telemetry } from './telemetry';

export { SHARED_PACKAGES } from './shared-packages';

/** False for OTEL_SDK_DISABLED=true: the ESM entry then skips its loader hooks too. */
export function registerWillStart(): boolean {
  return !readRegisterSettings().disabled;
}

export function startZeroCode(options?: StartOptions): Telemetry | undefined {
  if (!registerWillStart()) return undefined;
  return (require('./start') as typeof import('./start')).startZeroCode(options);
}

export function markLoaderHookRegistered(): void {
  (
    require('../instrumentation/esm-set-up') as typeof import('../instrumentation/esm-set-up')
  ).markLoaderHookRegistered();
}
