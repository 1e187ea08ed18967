/**
 * `node --require otel-tool-errors/register app.js`: starts OpenTelemetry with tool-error
 * enrichment before the app loads. Configured by the standard `OTEL_*` variables and ours
 * (`OTEL_TOOL_ERRORS_*`); see docs/configuration.md. With OTEL_SDK_DISABLED=true it loads nothing.
 */
import type Module from 'node:module';
import { join } from 'node:path';
import { sdkDisabled } from './register/sdk-disabled';
import { loadSdkFile } from './register/sdk-file';

if (!sdkDisabled()) {
  // The SDK file is built on its own (tsup.config.ts) and loaded through a code cache (sdk-file.ts).
  const sdkFile = loadSdkFile<typeof import('./register/sdk')>(
    join(__dirname, 'register-sdk.cjs'),
    module as unknown as Module,
  );
  if (sdkFile.exports.startZeroCode()) sdkFile.afterStart();
}
