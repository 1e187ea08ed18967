/**
 * What both entry points load, bundled as dist/register-sdk.cjs: one copy of the register's state.
 * What the register does to Node's internals, and what each mechanism saves: docs/architecture.md.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- each part is loaded when first used */
import type { StartOptions } from './start';
import type { Telemetry } from './telemetry';

export { SHARED_PACKAGES } from './shared-packages';

export function startZeroCode(options?: StartOptions): Telemetry | undefined {
  return (require('./start') as typeof import('./start')).startZeroCode(options);
}

export function markLoaderHookRegistered(): void {
  (
    require('../instrumentation/esm-set-up') as typeof import('../instrumentation/esm-set-up')
  ).markLoaderHookRegistered();
}
