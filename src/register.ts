/**
 * `node --require otel-tool-errors/register app.js`: starts OpenTelemetry with tool-error
 * enrichment before the app loads. Configured by the standard `OTEL_*` variables and ours
 * (`OTEL_TOOL_ERRORS_*`); see docs/configuration.md.
 */
import { startZeroCode } from './register/start';

startZeroCode();
