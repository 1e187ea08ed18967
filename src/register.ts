/**
 * `node --require otel-tool-errors/register app.js`: starts OpenTelemetry with tool-error
 * enrichment when the app first needs it (start-on-first-need.ts), before the module that needs it
 * loads. Configured by the standard `OTEL_*` variables and ours (`OTEL_TOOL_ERRORS_*`); see
 * docs/configuration.md. With OTEL_SDK_DISABLED=true it loads nothing.
 */
import type Module from 'node:module';
import { join } from 'node:path';
import { sdkDisabled } from './register/sdk-disabled';
import { loadSdkFile } from './register/sdk-file';
import { mustStartNow, startOnFirstNeed } from './register/start-on-first-need';
import { sayIfUnderJest } from './register/test-runners';
import { noticeUser } from './user-notice';

/** Never throws: it may run inside the app's `require` or `fetch`. */
function start(): void {
  try {
    // The SDK file is built on its own (tsup.config.ts) and loaded through a code cache (sdk-file.ts).
    const sdkFile = loadSdkFile<typeof import('./register/sdk')>(
      join(__dirname, 'register-sdk.cjs'),
      module as unknown as Module,
    );
    if (sdkFile.exports.startZeroCode()) sdkFile.afterStart();
  } catch (err) {
    noticeUser('could not start OpenTelemetry; the app runs without it.', { error: err });
  }
}

if (!sdkDisabled()) {
  sayIfUnderJest();
  if (mustStartNow()) start();
  else startOnFirstNeed(start, { esmMain: true });
}
