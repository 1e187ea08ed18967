/**
 * What both entry points load (bundled as dist/register-sdk.cjs, see tsup.config.ts): one copy of
 * the register's state, whichever entry started it. With OTEL_SDK_DISABLED=true the entries do not
 * load it at all; a start loads the rest when it runs.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- each part is loaded when first used */
import type { StartOptions } from './start';
import type { Telemetry } from './telemetry';

export { SHARED_PACKAGES } from './shared-packages';

/** The entries call it only when OTEL_SDK_DISABLED is not set (sdk-disabled.ts). */
export function startZeroCode(options?: StartOptions): Telemetry | undefined {
  return (require('./start') as typeof import('./start')).startZeroCode(options);
}

export function markLoaderHookRegistered(): void {
  (
    require('../instrumentation/esm-set-up') as typeof import('../instrumentation/esm-set-up')
  ).markLoaderHookRegistered();
}
