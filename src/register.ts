/**
 * `node --require otel-tool-errors/register app.js`: starts OpenTelemetry with tool-error
 * enrichment before the app loads. Configured by the standard `OTEL_*` variables and ours
 * (`OTEL_TOOL_ERRORS_*`); see docs/configuration.md.
 */
import { enableCompileCache } from './register/compile-cache';

enableCompileCache();
// The SDK file is built on its own (tsup.config.ts), so that the cache just enabled compiles it.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
const sdk = require('./register-sdk.cjs') as typeof import('./register/sdk');
sdk.startZeroCode();
