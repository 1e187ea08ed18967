/**
 * `node --import otel-tool-errors/register app.mjs`: the ESM twin of `register.ts`. ESM imports
 * can only be patched through a loader hook, so it also registers import-in-the-middle's hook.
 */
import { register } from 'node:module';
import { startZeroCode } from './register/start';

startZeroCode({ beforeStart: () => register('@opentelemetry/instrumentation/hook.mjs', import.meta.url) });
